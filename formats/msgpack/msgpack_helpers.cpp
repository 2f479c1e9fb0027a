// MessagePack's helpers: what its compiled codecs call for work not worth emitting as IR
// (formats/compiled_abi.h), on the same rules as the interpreter's operations.
#include "formats/msgpack/msgpack_helpers.h"

#include <cstring>

#include "formats/field_default.h"
#include "formats/msgpack/msgpack_slot.h"
#include "formats/msgpack/value_msgpack.h"
#include "formats/msgpack/wire.h"
#include "typeinfo/strings.h"
#include "typeinfo/utf8.h"

namespace jitser {

using msgpack::Head;
using msgpack::Input;
using msgpack::Type;

extern "C" {

WriteSpan jitser_msgpack_write_value(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t*,
                                     const void* value) {
  Buffer& out = *ctx->out;
  out.commit_to(cursor);
  if (msgpack::write_value(out, *static_cast<const Value*>(value), ctx->max_depth - ctx->depth) !=
      Errc::ok) {
    return {nullptr, nullptr};
  }
  std::uint8_t* at = out.ensure(0);
  return {at, at + (out.capacity() - out.size())};
}

WriteSpan jitser_msgpack_write_bool_list(WriteContext* ctx, std::uint8_t* cursor,
                                         std::uint8_t* limit, const void* list,
                                         const TypeDesc* type, std::size_t n) {
  WriteSpan span = room_for(ctx, cursor, limit, n);
  for (std::size_t i = 0; i < n; ++i) {
    span.cursor[i] = type->list_ops->get_bool(type, list, i) ? msgpack::kTrue : msgpack::kFalse;
  }
  span.cursor += n;
  return span;
}

// Keys and values are written by their routines, integer keys as integers.
WriteSpan jitser_msgpack_write_map(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                   const void* map, const TypeDesc* type, std::uint32_t,
                                   WriteFn key, WriteFn value, const std::uint8_t*, std::size_t) {
  const std::size_t n = type->map_ops->size(type, map);
  WriteSpan span = room_for(ctx, cursor, limit, msgpack::kMaxHead);
  span.cursor = msgpack::put_map_head(span.cursor, n);
  return write_entries(ctx, span, map, type, key, value);
}

// The raw key is a str read whole by next_field: its head, then its text.
std::int32_t jitser_msgpack_find_field(const char* raw_key, const FieldDesc* const* fields,
                                       std::uint32_t n) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(raw_key);
  Head h;
  if (msgpack::get_head(p, p + msgpack::kMaxHead, h) != msgpack::HeadStatus::ok ||
      !valid_utf8(p, h.bits)) {
    return -2;
  }
  const std::string_view key(reinterpret_cast<const char*>(p), h.bits);
  for (std::uint32_t i = 0; i < n; ++i) {
    if (names_field(*fields[i], key)) return static_cast<std::int32_t>(i);
  }
  return -1;
}

std::uint8_t* jitser_msgpack_put_text(std::uint8_t* out, const char* data, std::size_t n) {
  if (!valid_utf8(reinterpret_cast<const std::uint8_t*>(data), n)) return nullptr;
  if (n) std::memcpy(out, data, n);
  return out + n;
}

bool jitser_msgpack_head(CursorInput* in, Head* h) {
  return msgpack::get_head(in->p, in->end, *h) == msgpack::HeadStatus::ok;
}

// A list is read whole: MessagePack has no repeated keys, so `append` is never set.
bool jitser_msgpack_read_bool_list(Slot* s, void* list, const TypeDesc* type, std::uint32_t,
                                   std::uint32_t) {
  Input& in = msgpack::input(s);
  std::uint64_t n = 0;
  if (!msgpack::head_of(in, Type::Array, 0x90, 0x0f, n) || !msgpack::count_fits(in, n, 1)) {
    return false;
  }
  const ListOps& ops = *type->list_ops;
  ops.resize(type, list, n);
  for (std::size_t i = 0; i < n; ++i) {
    if ((in.p[i] | 1) != msgpack::kTrue) return false;
    ops.set_bool(type, list, i, in.p[i] & 1);
  }
  in.p += n;
  return true;
}

bool jitser_msgpack_read_value(ReadContext* ctx, Slot* s, void* value) {
  Input& in = msgpack::input(s);
  msgpack::ValueFault fault;
  return msgpack::read_value(in.p, in.end, *static_cast<Value*>(value), ctx->max_depth - ctx->depth,
                             fault);
}

// The count, bounded by the bytes left at `min_entry` an entry, then each key and value.
bool jitser_msgpack_read_map(ReadContext* ctx, Slot* s, void* map, const TypeDesc* type,
                             const Instr*, std::uint32_t, std::uint32_t min_entry, SlotReadFn key,
                             SlotReadFn value, void*) {
  Input& in = msgpack::input(s);
  std::uint64_t n = 0;
  if (!msgpack::head_of(in, Type::Map, 0x80, 0x0f, n) ||
      !msgpack::count_fits(in, n, min_entry > 2 ? min_entry : 2)) {
    return false;
  }
  return read_entries(ctx, s, map, type, n, key, value);
}

}  // extern "C"

std::span<const HelperSymbol> msgpack_helpers() {
  static const HelperSymbol helpers[] = {
      {"jitser_msgpack_write_value", reinterpret_cast<void*>(&jitser_msgpack_write_value)},
      {"jitser_msgpack_write_bool_list", reinterpret_cast<void*>(&jitser_msgpack_write_bool_list)},
      {"jitser_msgpack_write_map", reinterpret_cast<void*>(&jitser_msgpack_write_map)},
      {"jitser_msgpack_find_field", reinterpret_cast<void*>(&jitser_msgpack_find_field)},
      {"jitser_msgpack_read_bool_list", reinterpret_cast<void*>(&jitser_msgpack_read_bool_list)},
      {"jitser_msgpack_read_value", reinterpret_cast<void*>(&jitser_msgpack_read_value)},
      {"jitser_msgpack_read_map", reinterpret_cast<void*>(&jitser_msgpack_read_map)},
      {"jitser_msgpack_put_text", reinterpret_cast<void*>(&jitser_msgpack_put_text)},
      {"jitser_msgpack_head", reinterpret_cast<void*>(&jitser_msgpack_head)},
  };
  return helpers;
}

}  // namespace jitser
