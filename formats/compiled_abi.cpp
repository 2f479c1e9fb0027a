#include "formats/compiled_abi.h"

#include <algorithm>
#include <cstring>

#include "formats/field_default.h"
#include "typeinfo/map_refill.h"
#include "typeinfo/memory.h"
#include "typeinfo/strings.h"
#include "typeinfo/utf8.h"

namespace jitser {

extern "C" {

WriteSpan jitser_rt_grow(WriteContext* ctx, std::uint8_t* cursor, std::size_t need) {
  Buffer& out = *ctx->out;
  out.commit_to(cursor);
  std::uint8_t* at = out.ensure(need);
  return {at, at + (out.capacity() - out.size())};
}

std::int64_t jitser_rt_shared_id(WriteContext* ctx, const void* object, const SharedOps* ops) {
  if (!ctx->refs) ctx->refs = std::make_unique<WriteContext::IdentityMap>();
  auto [it, first] =
      ctx->refs->try_emplace({object, ops}, static_cast<std::uint32_t>(ctx->refs->size()));
  return first ? std::int64_t{-1} : std::int64_t{it->second};
}

bool jitser_rt_open_shared(WriteContext* ctx, const void* object) {
  if (std::find(ctx->open.begin(), ctx->open.end(), object) != ctx->open.end()) return false;
  ctx->open.push_back(object);
  return true;
}

void jitser_rt_close_shared(WriteContext* ctx) { ctx->open.pop_back(); }

bool jitser_rt_assign_text(void* s, std::uint32_t allocator, const std::uint8_t* p, std::size_t n) {
  if (!valid_utf8(p, n)) return false;
  assign_string(static_cast<Allocator>(allocator), s, reinterpret_cast<const char*>(p), n);
  return true;
}

void jitser_rt_assign_bytes(void* list, const TypeDesc* type, const std::uint8_t* p,
                            std::size_t n) {
  type->list_ops->resize(type, list, n);
  if (n) std::memcpy(type->list_ops->data(type, list), p, n);
}

bool jitser_rt_omit(const FieldDesc* field, const void* slot, std::uint32_t omit_null,
                    std::uint32_t omit_default, std::uint32_t omit_empty) {
  return left_out(*field, slot, omit_null != 0, omit_default != 0, omit_empty != 0);
}

bool jitser_rt_shared_earlier(ReadContext* ctx, void* holder, const TypeDesc* type,
                              std::uint32_t id) {
  if (id >= ctx->refs.size()) return false;
  const ReadContext::SharedObject& r = ctx->refs[id];
  if (r.holder->shared_ops != type->shared_ops) return false;  // an object of another layout
  type->shared_ops->assign(type, holder, r.object);
  return true;
}

void* jitser_rt_shared_new(ReadContext* ctx, void* holder, const TypeDesc* type,
                           std::uint32_t identity) {
  void* object = shared_object_to_read(*type, holder, ctx->resource);
  // Registered before its fields are read: they may refer back to it.
  if (identity) ctx->refs.push_back({type->shared_ops->share(type, holder), type});
  return object;
}

bool jitser_rt_missing(const FieldDesc* field, void* slot) { return apply_missing(*field, slot); }

void jitser_rt_absent(const FieldDesc* field, void* slot) { apply_absent(*field, slot); }

bool jitser_rt_decline(ReadContext* ctx) {
  ctx->declined = true;
  return false;
}

bool jitser_rt_absent_value(const FieldDesc* field, const void* slot) {
  return equals_absent(*field, slot);
}

bool jitser_rt_oneofs(const TypeDesc* type, const void* base) {
  return oneof_conflict(*type, base) == nullptr;
}

}  // extern "C"

WriteSpan write_entries(WriteContext* ctx, WriteSpan span, const void* map, const TypeDesc* type,
                        WriteFn key, WriteFn value) {
  const MapOps& ops = *type->map_ops;
  alignas(std::max_align_t) unsigned char iterator[kMapIteratorSize];
  ops.begin(type, map, iterator);
  const void* k;
  const void* v;
  while (ops.next(type, iterator, &k, &v)) {
    span = key(ctx, span.cursor, span.limit, static_cast<const std::uint8_t*>(k));
    if (!span.cursor) return span;
    span = value(ctx, span.cursor, span.limit, static_cast<const std::uint8_t*>(v));
    if (!span.cursor) return span;
  }
  return span;
}

bool read_entries(ReadContext* ctx, Slot* s, void* map, const TypeDesc* type, std::uint64_t n,
                  SlotReadFn key, SlotReadFn value) {
  MapRefill refill(*type, map, n);
  for (std::uint64_t i = 0; i < n; ++i) {
    if (!key(ctx, s, static_cast<std::uint8_t*>(refill.key()))) return false;
    const void* stored_key = nullptr;
    void* v = refill.insert(&stored_key);
    if (!v || !value(ctx, s, static_cast<std::uint8_t*>(v))) return false;
  }
  return true;
}

std::span<const HelperSymbol> runtime_helpers() {
  static const HelperSymbol helpers[] = {
      {"jitser_rt_grow", reinterpret_cast<void*>(&jitser_rt_grow)},
      {"jitser_rt_shared_id", reinterpret_cast<void*>(&jitser_rt_shared_id)},
      {"jitser_rt_open_shared", reinterpret_cast<void*>(&jitser_rt_open_shared)},
      {"jitser_rt_close_shared", reinterpret_cast<void*>(&jitser_rt_close_shared)},
      {"jitser_rt_assign_text", reinterpret_cast<void*>(&jitser_rt_assign_text)},
      {"jitser_rt_assign_bytes", reinterpret_cast<void*>(&jitser_rt_assign_bytes)},
      {"jitser_rt_omit", reinterpret_cast<void*>(&jitser_rt_omit)},
      {"jitser_rt_shared_earlier", reinterpret_cast<void*>(&jitser_rt_shared_earlier)},
      {"jitser_rt_shared_new", reinterpret_cast<void*>(&jitser_rt_shared_new)},
      {"jitser_rt_missing", reinterpret_cast<void*>(&jitser_rt_missing)},
      {"jitser_rt_absent", reinterpret_cast<void*>(&jitser_rt_absent)},
      {"jitser_rt_decline", reinterpret_cast<void*>(&jitser_rt_decline)},
      {"jitser_rt_absent_value", reinterpret_cast<void*>(&jitser_rt_absent_value)},
      {"jitser_rt_oneofs", reinterpret_cast<void*>(&jitser_rt_oneofs)},
  };
  return helpers;
}

}  // namespace jitser
