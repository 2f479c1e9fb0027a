#include "jit/runtime.h"

#include <cstring>
#include <limits>
#include <optional>
#include <string>

#include "formats/binary/value_binary.h"
#include "formats/binary/wire.h"
#include "formats/time_ticks.h"
#include "typeinfo/utf8.h"
#include "typeinfo/value_slot.h"

namespace jitser::jit {

extern "C" {

WriteSpan jitser_rt_grow(WriteContext* ctx, std::uint8_t* cursor, std::size_t need) {
  Buffer& out = *ctx->out;
  out.commit_to(cursor);
  std::uint8_t* at = out.ensure(need);
  return {at, at + (out.capacity() - out.size())};
}

WriteSpan jitser_rt_write_value(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t*,
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

std::int64_t jitser_rt_shared_id(WriteContext* ctx, const void* object, const SharedOps* ops) {
  if (!ctx->refs) ctx->refs = std::make_unique<WriteContext::IdentityMap>();
  auto [it, first] =
      ctx->refs->try_emplace({object, ops}, static_cast<std::uint32_t>(ctx->refs->size()));
  return first ? std::int64_t{-1} : std::int64_t{it->second};
}

WriteSpan jitser_rt_write_bool_list(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                    const void* list, const ListOps* ops, std::size_t n) {
  WriteSpan span{cursor, limit};
  if (static_cast<std::size_t>(limit - cursor) < n) span = jitser_rt_grow(ctx, cursor, n);
  for (std::size_t i = 0; i < n; ++i) span.cursor[i] = ops->get_bool(list, i);
  span.cursor += n;
  return span;
}

WriteSpan jitser_rt_write_map(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                              const void* map, const MapOps* ops, std::uint8_t header, WriteFn key,
                              WriteFn value) {
  WriteSpan span{cursor, limit};
  const std::size_t n = ops->size(map);
  if (++ctx->depth > ctx->max_depth) return {nullptr, nullptr};  // a level, empty or not
  if (static_cast<std::size_t>(limit - cursor) < wire::kMaxVarintBytes + 1)
    span = jitser_rt_grow(ctx, cursor, wire::kMaxVarintBytes + 1);
  span.cursor = wire::put_varuint(span.cursor, n);
  if (n == 0) {
    --ctx->depth;
    return span;
  }
  *span.cursor++ = header;
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
  --ctx->depth;
  return span;
}

bool jitser_rt_assign_string(void* s, const std::uint8_t* p, std::size_t n) {
  if (!valid_utf8(p, n)) return false;
  static_cast<std::string*>(s)->assign(reinterpret_cast<const char*>(p), n);
  return true;
}

void jitser_rt_assign_bytes(void* list, const ListOps* ops, const std::uint8_t* p, std::size_t n) {
  ops->resize(list, n);
  if (n) std::memcpy(ops->data(list), p, n);
}

const std::uint8_t* jitser_rt_read_time(const std::uint8_t* p, const std::uint8_t* end,
                                        std::uint32_t unit, std::int64_t* ticks) {
  std::uint64_t raw_seconds, nanos;
  if (wire::get_varuint(p, end, 64, raw_seconds) != wire::VarintStatus::ok) return nullptr;
  if (wire::get_varuint(p, end, 32, nanos) != wire::VarintStatus::ok) return nullptr;
  if (nanos >= 1000000000) return nullptr;
  return join_ticks(wire::unzigzag(raw_seconds), nanos, static_cast<TimeUnit>(unit), *ticks)
             ? p
             : nullptr;
}

const std::uint8_t* jitser_rt_read_shared(ReadContext* ctx, const std::uint8_t* p,
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

const std::uint8_t* jitser_rt_read_bool_list(const std::uint8_t* p, const std::uint8_t* end,
                                             void* list, const ListOps* ops, std::size_t n) {
  if (static_cast<std::size_t>(end - p) < n) return nullptr;
  for (std::size_t i = 0; i < n; ++i) {
    if (p[i] > 1) return nullptr;
    ops->set_bool(list, i, p[i]);
  }
  return p + n;
}

const std::uint8_t* jitser_rt_read_value(ReadContext* ctx, const std::uint8_t* p,
                                         const std::uint8_t* end, void* value) {
  if (wire::read_value(&p, end, *static_cast<Value*>(value), ctx->max_depth - ctx->depth) !=
      Errc::ok) {
    return nullptr;
  }
  return p;
}

const std::uint8_t* jitser_rt_read_map(ReadContext* ctx, const std::uint8_t* p,
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

namespace {

template <class T>
const void* word_at(const T& object, std::size_t offset) {
  const void* word;
  std::memcpy(&word, reinterpret_cast<const char*>(&object) + offset, sizeof word);
  return word;
}
template <class T>
std::size_t size_at(const T& object, std::size_t offset) {
  std::size_t n;
  std::memcpy(&n, reinterpret_cast<const char*>(&object) + offset, sizeof n);
  return n;
}
template <class T>
bool engaged_at_end(std::optional<T>& o, T value) {
  const auto flag = [&] { return reinterpret_cast<const unsigned char*>(&o)[sizeof(T)]; };
  o.reset();
  if (flag() != 0) return false;
  o = std::move(value);
  return flag() == 1;
}

}  // namespace

bool std_layouts_match() {
  const std::string local = "abc";
  const std::string heap(40, 'x');
  const std::vector<int> v{1, 2, 3};
  const auto unique = std::make_unique<int>(1);
  const auto shared = std::make_shared<int>(1);
  std::optional<std::string> os;
  std::optional<std::int32_t> oi;
  std::optional<double> od;
  const WriteContext write_context;
  const ReadContext read_context{};
  // Compiled code counts nesting at the start of its context.
  return static_cast<const void*>(&write_context) == &write_context.depth &&
         static_cast<const void*>(&read_context) == &read_context.depth &&
         sizeof(std::string) == 32 && word_at(local, 0) == local.data() && size_at(local, 8) == 3 &&
         local.data() == reinterpret_cast<const char*>(&local) + 16 &&
         word_at(heap, 0) == heap.data() && size_at(heap, 16) == heap.capacity() &&
         word_at(v, 0) == v.data() && word_at(v, 8) == v.data() + 3 &&
         word_at(unique, 0) == unique.get() && word_at(shared, 0) == shared.get() &&
         engaged_at_end(os, std::string("x")) && engaged_at_end(oi, 7) && engaged_at_end(od, 1.5);
}

std::vector<HelperSymbol> helper_symbols() {
  return {
      {"jitser_rt_grow", reinterpret_cast<void*>(&jitser_rt_grow)},
      {"jitser_rt_shared_id", reinterpret_cast<void*>(&jitser_rt_shared_id)},
      {"jitser_rt_write_bool_list", reinterpret_cast<void*>(&jitser_rt_write_bool_list)},
      {"jitser_rt_write_map", reinterpret_cast<void*>(&jitser_rt_write_map)},
      {"jitser_rt_write_value", reinterpret_cast<void*>(&jitser_rt_write_value)},
      {"jitser_rt_assign_string", reinterpret_cast<void*>(&jitser_rt_assign_string)},
      {"jitser_rt_assign_bytes", reinterpret_cast<void*>(&jitser_rt_assign_bytes)},
      {"jitser_rt_read_time", reinterpret_cast<void*>(&jitser_rt_read_time)},
      {"jitser_rt_read_shared", reinterpret_cast<void*>(&jitser_rt_read_shared)},
      {"jitser_rt_read_bool_list", reinterpret_cast<void*>(&jitser_rt_read_bool_list)},
      {"jitser_rt_read_map", reinterpret_cast<void*>(&jitser_rt_read_map)},
      {"jitser_rt_read_value", reinterpret_cast<void*>(&jitser_rt_read_value)},
      {"jitser_rt_json_int", reinterpret_cast<void*>(&jitser_rt_json_int)},
      {"jitser_rt_json_uint", reinterpret_cast<void*>(&jitser_rt_json_uint)},
      {"jitser_rt_json_double", reinterpret_cast<void*>(&jitser_rt_json_double)},
      {"jitser_rt_json_float", reinterpret_cast<void*>(&jitser_rt_json_float)},
      {"jitser_rt_json_string", reinterpret_cast<void*>(&jitser_rt_json_string)},
      {"jitser_rt_json_escaped_string", reinterpret_cast<void*>(&jitser_rt_json_escaped_string)},
      {"jitser_rt_json_base64", reinterpret_cast<void*>(&jitser_rt_json_base64)},
      {"jitser_rt_json_decimal", reinterpret_cast<void*>(&jitser_rt_json_decimal)},
      {"jitser_rt_json_time", reinterpret_cast<void*>(&jitser_rt_json_time)},
      {"jitser_rt_json_write_value", reinterpret_cast<void*>(&jitser_rt_json_write_value)},
      {"jitser_rt_json_write_bool_list", reinterpret_cast<void*>(&jitser_rt_json_write_bool_list)},
      {"jitser_rt_json_write_map", reinterpret_cast<void*>(&jitser_rt_json_write_map)},
      {"jitser_rt_json_open_shared", reinterpret_cast<void*>(&jitser_rt_json_open_shared)},
      {"jitser_rt_json_close_shared", reinterpret_cast<void*>(&jitser_rt_json_close_shared)},
      {"jitser_rt_json_omit", reinterpret_cast<void*>(&jitser_rt_json_omit)},
      {"jitser_rt_json_open", reinterpret_cast<void*>(&jitser_rt_json_open)},
      {"jitser_rt_json_finish", reinterpret_cast<void*>(&jitser_rt_json_finish)},
      {"jitser_rt_json_begin_object", reinterpret_cast<void*>(&jitser_rt_json_begin_object)},
      {"jitser_rt_json_next_field", reinterpret_cast<void*>(&jitser_rt_json_next_field)},
      {"jitser_rt_json_find_field", reinterpret_cast<void*>(&jitser_rt_json_find_field)},
      {"jitser_rt_json_missing", reinterpret_cast<void*>(&jitser_rt_json_missing)},
      {"jitser_rt_json_begin_array", reinterpret_cast<void*>(&jitser_rt_json_begin_array)},
      {"jitser_rt_json_next_element", reinterpret_cast<void*>(&jitser_rt_json_next_element)},
      {"jitser_rt_json_take_null", reinterpret_cast<void*>(&jitser_rt_json_take_null)},
      {"jitser_rt_json_get_bool", reinterpret_cast<void*>(&jitser_rt_json_get_bool)},
      {"jitser_rt_json_get_int", reinterpret_cast<void*>(&jitser_rt_json_get_int)},
      {"jitser_rt_json_get_uint", reinterpret_cast<void*>(&jitser_rt_json_get_uint)},
      {"jitser_rt_json_get_double", reinterpret_cast<void*>(&jitser_rt_json_get_double)},
      {"jitser_rt_json_get_string", reinterpret_cast<void*>(&jitser_rt_json_get_string)},
      {"jitser_rt_json_assign_string", reinterpret_cast<void*>(&jitser_rt_json_assign_string)},
      {"jitser_rt_json_read_bytes", reinterpret_cast<void*>(&jitser_rt_json_read_bytes)},
      {"jitser_rt_json_read_decimal", reinterpret_cast<void*>(&jitser_rt_json_read_decimal)},
      {"jitser_rt_json_read_time", reinterpret_cast<void*>(&jitser_rt_json_read_time)},
      {"jitser_rt_json_read_value", reinterpret_cast<void*>(&jitser_rt_json_read_value)},
      {"jitser_rt_json_read_bool_list", reinterpret_cast<void*>(&jitser_rt_json_read_bool_list)},
      {"jitser_rt_json_read_map", reinterpret_cast<void*>(&jitser_rt_json_read_map)},
  };
}

}  // namespace jitser::jit
