// The binary format's helpers: what its compiled codecs call for work not worth emitting as IR
// (formats/compiled_abi.h), on the same wire rules as the interpreter's operations.
#include "formats/binary/binary_helpers.h"

#include <cstring>
#include <string>

#include "formats/binary/value_binary.h"
#include "formats/binary/wire.h"
#include "formats/time_ticks.h"
#include "typeinfo/utf8.h"
#include "typeinfo/value_slot.h"

namespace jitser {

extern "C" {

WriteSpan jitser_binary_write_value(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t*,
                                    const void* value) {
  Buffer& out = *ctx->out;
  out.commit_to(cursor);
  if (wire::write_value(out, *static_cast<const Value*>(value), ctx->max_depth - ctx->depth) !=
      Errc::ok) {
    return {nullptr, nullptr};
  }
  std::uint8_t* at = out.ensure(0);
  return {at, at + (out.capacity() - out.size())};
}

WriteSpan jitser_binary_write_bool_list(WriteContext* ctx, std::uint8_t* cursor,
                                        std::uint8_t* limit, const void* list, const ListOps* ops,
                                        std::size_t n) {
  WriteSpan span{cursor, limit};
  if (static_cast<std::size_t>(limit - cursor) < n) span = jitser_rt_grow(ctx, cursor, n);
  for (std::size_t i = 0; i < n; ++i) span.cursor[i] = ops->get_bool(list, i);
  span.cursor += n;
  return span;
}

WriteSpan jitser_binary_write_map(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                  const void* map, const MapOps* ops, std::uint32_t header,
                                  WriteFn key, WriteFn value) {
  WriteSpan span{cursor, limit};
  const std::size_t n = ops->size(map);
  if (static_cast<std::size_t>(limit - cursor) < wire::kMaxVarintBytes + 1)
    span = jitser_rt_grow(ctx, cursor, wire::kMaxVarintBytes + 1);
  span.cursor = wire::put_varuint(span.cursor, n);
  if (n == 0) return span;
  *span.cursor++ = static_cast<std::uint8_t>(header);
  alignas(std::max_align_t) unsigned char iterator[kMapIteratorSize];
  ops->begin(map, iterator);
  const void* k;
  const void* v;
  while (ops->next(iterator, &k, &v)) {
    span = key(ctx, span.cursor, span.limit, static_cast<const std::uint8_t*>(k));
    if (!span.cursor) return span;
    span = value(ctx, span.cursor, span.limit, static_cast<const std::uint8_t*>(v));
    if (!span.cursor) return span;
  }
  return span;
}

bool jitser_binary_assign_string(void* s, const std::uint8_t* p, std::size_t n) {
  if (!valid_utf8(p, n)) return false;
  static_cast<std::string*>(s)->assign(reinterpret_cast<const char*>(p), n);
  return true;
}

void jitser_binary_assign_bytes(void* list, const ListOps* ops, const std::uint8_t* p,
                                std::size_t n) {
  ops->resize(list, n);
  if (n) std::memcpy(ops->data(list), p, n);
}

const std::uint8_t* jitser_binary_read_time(const std::uint8_t* p, const std::uint8_t* end,
                                            std::uint32_t unit, std::int64_t* ticks) {
  std::uint64_t raw_seconds, nanos;
  if (wire::get_varuint(p, end, 64, raw_seconds) != wire::VarintStatus::ok) return nullptr;
  if (wire::get_varuint(p, end, 32, nanos) != wire::VarintStatus::ok) return nullptr;
  if (nanos >= 1000000000) return nullptr;
  return join_ticks(wire::unzigzag(raw_seconds), nanos, static_cast<TimeUnit>(unit), *ticks)
             ? p
             : nullptr;
}

const std::uint8_t* jitser_binary_read_shared(ReadContext* ctx, const std::uint8_t* p,
                                              const std::uint8_t* end, void* holder,
                                              const TypeDesc* type, void** fill) {
  *fill = nullptr;
  if (p == end) return nullptr;
  const SharedOps& ops = *type->shared_ops;
  switch (*p++) {
    case wire::kNull: ops.reset(holder); return p;
    case wire::kRef: {
      std::uint64_t id;
      if (wire::get_varuint(p, end, 32, id) != wire::VarintStatus::ok) return nullptr;
      if (id >= ctx->refs.size()) return nullptr;
      const ReadContext::SharedObject& r = ctx->refs[id];
      if (r.holder->shared_ops != &ops) return nullptr;  // an object of another layout
      ops.assign(holder, r.object);
      return p;
    }
    case wire::kRefValue:
      *fill = ops.emplace(holder);
      ctx->refs.push_back({ops.share(holder), type});  // before its fields: they may refer back
      return p;
    default: return nullptr;
  }
}

const std::uint8_t* jitser_binary_read_bool_list(const std::uint8_t* p, const std::uint8_t* end,
                                                 void* list, const ListOps* ops, std::size_t n) {
  if (static_cast<std::size_t>(end - p) < n) return nullptr;
  for (std::size_t i = 0; i < n; ++i) {
    if (p[i] > 1) return nullptr;
    ops->set_bool(list, i, p[i]);
  }
  return p + n;
}

const std::uint8_t* jitser_binary_read_value(ReadContext* ctx, const std::uint8_t* p,
                                             const std::uint8_t* end, void* value) {
  if (wire::read_value(&p, end, *static_cast<Value*>(value), ctx->max_depth - ctx->depth) !=
      Errc::ok) {
    return nullptr;
  }
  return p;
}

const std::uint8_t* jitser_binary_read_map(ReadContext* ctx, const std::uint8_t* p,
                                           const std::uint8_t* end, void* map, const TypeDesc* type,
                                           std::uint8_t header, std::uint32_t min_entry, ReadFn key,
                                           ReadFn value) {
  const MapOps& ops = *type->map_ops;
  if (++ctx->depth > ctx->max_depth) return nullptr;  // a level, empty or not
  std::uint64_t n;
  if (wire::get_varuint(p, end, 64, n) != wire::VarintStatus::ok) return nullptr;
  const std::size_t remaining = static_cast<std::size_t>(end - p);
  if (n > (min_entry ? remaining / min_entry : wire::kMaxEmptyElements)) return nullptr;
  if (n && (p == end || *p++ != header)) return nullptr;
  ops.clear(map);
  if (n == 0) {
    --ctx->depth;
    return p;
  }
  const TypeDesc& key_type = type->key->resolved();
  for (std::uint64_t i = 0; i < n; ++i) {
    ValueSlot slot(key_type);
    p = key(ctx, p, end, static_cast<std::uint8_t*>(slot.get()));
    if (!p) return nullptr;
    const void* stored_key = nullptr;
    void* v = ops.insert(map, slot.get(), &stored_key);
    if (!v) return nullptr;
    p = value(ctx, p, end, static_cast<std::uint8_t*>(v));
    if (!p) return nullptr;
  }
  --ctx->depth;
  return p;
}

}  // extern "C"

std::span<const HelperSymbol> binary_helpers() {
  static const HelperSymbol helpers[] = {
      {"jitser_binary_write_bool_list", reinterpret_cast<void*>(&jitser_binary_write_bool_list)},
      {"jitser_binary_write_map", reinterpret_cast<void*>(&jitser_binary_write_map)},
      {"jitser_binary_write_value", reinterpret_cast<void*>(&jitser_binary_write_value)},
      {"jitser_binary_assign_string", reinterpret_cast<void*>(&jitser_binary_assign_string)},
      {"jitser_binary_assign_bytes", reinterpret_cast<void*>(&jitser_binary_assign_bytes)},
      {"jitser_binary_read_time", reinterpret_cast<void*>(&jitser_binary_read_time)},
      {"jitser_binary_read_shared", reinterpret_cast<void*>(&jitser_binary_read_shared)},
      {"jitser_binary_read_bool_list", reinterpret_cast<void*>(&jitser_binary_read_bool_list)},
      {"jitser_binary_read_map", reinterpret_cast<void*>(&jitser_binary_read_map)},
      {"jitser_binary_read_value", reinterpret_cast<void*>(&jitser_binary_read_value)},
      {"jitser_binary_put_frame", reinterpret_cast<void*>(&jitser_binary_put_frame)},
      {"jitser_binary_put_bool", reinterpret_cast<void*>(&jitser_binary_put_bool)},
      {"jitser_binary_put_int", reinterpret_cast<void*>(&jitser_binary_put_int)},
      {"jitser_binary_put_uint", reinterpret_cast<void*>(&jitser_binary_put_uint)},
      {"jitser_binary_put_float", reinterpret_cast<void*>(&jitser_binary_put_float)},
      {"jitser_binary_put_double", reinterpret_cast<void*>(&jitser_binary_put_double)},
      {"jitser_binary_put_string", reinterpret_cast<void*>(&jitser_binary_put_string)},
      {"jitser_binary_put_bytes", reinterpret_cast<void*>(&jitser_binary_put_bytes)},
      {"jitser_binary_put_enum", reinterpret_cast<void*>(&jitser_binary_put_enum)},
      {"jitser_binary_put_decimal", reinterpret_cast<void*>(&jitser_binary_put_decimal)},
      {"jitser_binary_put_time", reinterpret_cast<void*>(&jitser_binary_put_time)},
      {"jitser_binary_put_begin_list", reinterpret_cast<void*>(&jitser_binary_put_begin_list)},
      {"jitser_binary_put_end_list", reinterpret_cast<void*>(&jitser_binary_put_end_list)},
      {"jitser_binary_put_shared_ref", reinterpret_cast<void*>(&jitser_binary_put_shared_ref)},
  };
  return helpers;
}

}  // namespace jitser
