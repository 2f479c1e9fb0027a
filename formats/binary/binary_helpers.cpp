// The binary format's helpers: what its compiled codecs call for work not worth emitting as IR
// (formats/compiled_abi.h), on the same wire rules as the interpreter's operations.
#include "formats/binary/binary_helpers.h"

#include <cstring>
#include <string>

#include "formats/binary/binary_slot.h"
#include "formats/binary/value_binary.h"
#include "formats/binary/wire.h"
#include "formats/time_ticks.h"
#include "typeinfo/strings.h"
#include "typeinfo/utf8.h"

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
                                        std::uint8_t* limit, const void* list, const TypeDesc* type,
                                        std::size_t n) {
  WriteSpan span{cursor, limit};
  if (static_cast<std::size_t>(limit - cursor) < n) span = jitser_rt_grow(ctx, cursor, n);
  for (std::size_t i = 0; i < n; ++i) span.cursor[i] = type->list_ops->get_bool(type, list, i);
  span.cursor += n;
  return span;
}

WriteSpan jitser_binary_write_map(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                  const void* map, const TypeDesc* type, std::uint32_t header,
                                  WriteFn key, WriteFn value, const std::uint8_t*, std::size_t) {
  WriteSpan span{cursor, limit};
  const std::size_t n = type->map_ops->size(type, map);
  if (static_cast<std::size_t>(limit - cursor) < wire::kMaxVarintBytes + 1)
    span = jitser_rt_grow(ctx, cursor, wire::kMaxVarintBytes + 1);
  span.cursor = wire::put_varuint(span.cursor, n);
  if (n == 0) return span;
  *span.cursor++ = static_cast<std::uint8_t>(header);
  return write_entries(ctx, span, map, type, key, value);
}

// A list is read whole: binary has no repeated keys, so `append` is never set.
bool jitser_binary_read_bool_list(Slot* s, void* list, const TypeDesc* type, std::uint32_t header,
                                  std::uint32_t) {
  const ListOps& ops = *type->list_ops;
  binary::Input& in = binary::input(s);
  std::uint64_t n = 0;
  std::uint8_t h = 0;
  if (!binary::count(in, 1, n)) return false;
  if (n && (!binary::byte(in, h) || h != header)) return false;
  if (static_cast<std::size_t>(in.end - in.p) < n) return false;  // the header was counted
  ops.resize(type, list, n);
  for (std::size_t i = 0; i < n; ++i) {
    if (in.p[i] > 1) return false;
    ops.set_bool(type, list, i, in.p[i]);
  }
  in.p += n;
  return true;
}

bool jitser_binary_read_value(ReadContext* ctx, Slot* s, void* value) {
  binary::Input& in = binary::input(s);
  return wire::read_value(&in.p, in.end, *static_cast<Value*>(value),
                          ctx->max_depth - ctx->depth) == Errc::ok;
}

// The count, bounded by the bytes left at `min_entry` an entry, then (when there are entries)
// the header, then each key and value, read from the one slot.
bool jitser_binary_read_map(ReadContext* ctx, Slot* s, void* map, const TypeDesc* type,
                            const Instr*, std::uint32_t header, std::uint32_t min_entry,
                            SlotReadFn key, SlotReadFn value, void*) {
  binary::Input& in = binary::input(s);
  std::uint64_t n = 0;
  std::uint8_t h = 0;
  if (!binary::count(in, min_entry, n)) return false;
  if (n && (!binary::byte(in, h) || h != header)) return false;
  return read_entries(ctx, s, map, type, n, key, value);
}

}  // extern "C"

std::span<const HelperSymbol> binary_helpers() {
  static const HelperSymbol helpers[] = {
      {"jitser_binary_write_bool_list", reinterpret_cast<void*>(&jitser_binary_write_bool_list)},
      {"jitser_binary_write_map", reinterpret_cast<void*>(&jitser_binary_write_map)},
      {"jitser_binary_write_value", reinterpret_cast<void*>(&jitser_binary_write_value)},
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
      {"jitser_binary_open", reinterpret_cast<void*>(&jitser_binary_open)},
      {"jitser_binary_finish", reinterpret_cast<void*>(&jitser_binary_finish)},
      {"jitser_binary_get_frame", reinterpret_cast<void*>(&jitser_binary_get_frame)},
      {"jitser_binary_get_bool", reinterpret_cast<void*>(&jitser_binary_get_bool)},
      {"jitser_binary_get_int", reinterpret_cast<void*>(&jitser_binary_get_int)},
      {"jitser_binary_get_uint", reinterpret_cast<void*>(&jitser_binary_get_uint)},
      {"jitser_binary_get_float", reinterpret_cast<void*>(&jitser_binary_get_float)},
      {"jitser_binary_get_double", reinterpret_cast<void*>(&jitser_binary_get_double)},
      {"jitser_binary_get_string", reinterpret_cast<void*>(&jitser_binary_get_string)},
      {"jitser_binary_get_bytes", reinterpret_cast<void*>(&jitser_binary_get_bytes)},
      {"jitser_binary_get_enum", reinterpret_cast<void*>(&jitser_binary_get_enum)},
      {"jitser_binary_get_decimal", reinterpret_cast<void*>(&jitser_binary_get_decimal)},
      {"jitser_binary_get_time", reinterpret_cast<void*>(&jitser_binary_get_time)},
      {"jitser_binary_get_null", reinterpret_cast<void*>(&jitser_binary_get_null)},
      {"jitser_binary_get_shared", reinterpret_cast<void*>(&jitser_binary_get_shared)},
      {"jitser_binary_begin_list", reinterpret_cast<void*>(&jitser_binary_begin_list)},
  };
  return helpers;
}

}  // namespace jitser
