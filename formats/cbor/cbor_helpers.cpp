// CBOR's helpers: what its compiled codecs call for work not worth emitting as IR
// (formats/compiled_abi.h), on the same rules as the interpreter's operations.
#include "formats/cbor/cbor_helpers.h"

#include <cstring>

#include "formats/cbor/cbor_slot.h"
#include "formats/cbor/items.h"
#include "formats/cbor/value_cbor.h"
#include "formats/cbor/wire.h"
#include "formats/field_default.h"
#include "formats/time_text.h"
#include "typeinfo/utf8.h"

namespace jitser {

using cbor::Head;
using cbor::Input;
using cbor::Major;

extern "C" {

WriteSpan jitser_cbor_write_value(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t*,
                                  const void* value) {
  Buffer& out = *ctx->out;
  out.commit_to(cursor);
  if (cbor::write_value(out, *static_cast<const Value*>(value), ctx->max_depth - ctx->depth) !=
      Errc::ok) {
    return {nullptr, nullptr};
  }
  std::uint8_t* at = out.ensure(0);
  return {at, at + (out.capacity() - out.size())};
}

WriteSpan jitser_cbor_write_bool_list(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                      const void* list, const TypeDesc* type, std::size_t n) {
  WriteSpan span = room_for(ctx, cursor, limit, n);
  for (std::size_t i = 0; i < n; ++i) {
    span.cursor[i] = type->list_ops->get_bool(type, list, i) ? cbor::kTrue : cbor::kFalse;
  }
  span.cursor += n;
  return span;
}

// Keys and values are written by their routines, integer keys as integers.
WriteSpan jitser_cbor_write_map(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                const void* map, const TypeDesc* type, std::uint32_t, WriteFn key,
                                WriteFn value, const std::uint8_t*, std::size_t) {
  const std::size_t n = type->map_ops->size(type, map);
  WriteSpan span = room_for(ctx, cursor, limit, cbor::kMaxHead);
  span.cursor = cbor::put_head(span.cursor, Major::Map, n);
  return write_entries(ctx, span, map, type, key, value);
}

// The raw key is a definite text string read whole by next_field: its head, then its text.
std::int32_t jitser_cbor_find_field(const char* raw_key, const FieldDesc* const* fields,
                                    std::uint32_t n) {
  std::string digits;
  std::string_view key;
  if (!cbor::key_text(reinterpret_cast<const std::uint8_t*>(raw_key), digits, key)) return -2;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (names_field(*fields[i], key)) return static_cast<std::int32_t>(i);
  }
  return -1;
}

std::uint8_t* jitser_cbor_put_text(std::uint8_t* out, const char* data, std::size_t n) {
  if (!valid_utf8(reinterpret_cast<const std::uint8_t*>(data), n)) return nullptr;
  if (n) std::memcpy(out, data, n);
  return out + n;
}

bool jitser_cbor_head(CursorInput* in, cbor::Head* h) {
  if (cbor::get_head(in->p, in->end, *h) != cbor::HeadStatus::ok) return false;
  if (h->indefinite || h->major == Major::Tag) return cbor::decline(*in);
  return true;
}

bool jitser_cbor_skip_item(CursorInput* in) {
  cbor::HeadStatus why;
  return cbor::skip(in->p, in->end, why) == cbor::SkipStatus::ok;
}

// A list is read whole: CBOR has no repeated keys, so `append` is never set. An element that
// is not false or true may be a tag around one, which the interpreter reads.
bool jitser_cbor_read_bool_list(Slot* s, void* list, const TypeDesc* type, std::uint32_t,
                                std::uint32_t) {
  Input& in = cbor::input(s);
  std::uint64_t n = 0;
  if (!cbor::head_of(in, Major::Array, n) || !cbor::count_fits(in, n, 1)) return false;
  const ListOps& ops = *type->list_ops;
  ops.resize(type, list, n);
  for (std::size_t i = 0; i < n; ++i) {
    if ((in.p[i] | 1) != cbor::kTrue) {
      in.p += i;
      return cbor::not_read(in);
    }
    ops.set_bool(type, list, i, in.p[i] & 1);
  }
  in.p += n;
  return true;
}

std::uint8_t* jitser_cbor_put_time_text(std::uint8_t* out, std::int64_t ticks, std::uint32_t unit) {
  return cbor::put_time_text(out, ticks, static_cast<TimeUnit>(unit));
}

bool jitser_cbor_get_time_text(CursorInput* in, std::int64_t* ticks, std::uint32_t unit) {
  Head h;
  if (!cbor::head(*in, h) || h.major != Major::Text ||
      h.n > static_cast<std::uint64_t>(in->end - in->p)) {
    return false;
  }
  const std::string_view text(reinterpret_cast<const char*>(in->p), h.n);
  if (!time_text::parse_timestamp(text, static_cast<TimeUnit>(unit), ticks)) return false;
  in->p += h.n;
  return true;
}

bool jitser_cbor_read_value(ReadContext* ctx, Slot* s, void* value) {
  Input& in = cbor::input(s);
  cbor::ValueFault fault;
  return cbor::read_value(in.p, in.end, *static_cast<Value*>(value), ctx->max_depth - ctx->depth,
                          fault);
}

// The count, bounded by the bytes left at `min_entry` an entry, then each key and value.
bool jitser_cbor_read_map(ReadContext* ctx, Slot* s, void* map, const TypeDesc* type, const Instr*,
                          std::uint32_t, std::uint32_t min_entry, SlotReadFn key, SlotReadFn value,
                          void*) {
  Input& in = cbor::input(s);
  std::uint64_t n = 0;
  if (!cbor::head_of(in, Major::Map, n) ||
      !cbor::count_fits(in, n, min_entry > 2 ? min_entry : 2)) {
    return false;
  }
  return read_entries(ctx, s, map, type, n, key, value);
}

}  // extern "C"

std::span<const HelperSymbol> cbor_helpers() {
  static const HelperSymbol helpers[] = {
      {"jitser_cbor_write_value", reinterpret_cast<void*>(&jitser_cbor_write_value)},
      {"jitser_cbor_write_bool_list", reinterpret_cast<void*>(&jitser_cbor_write_bool_list)},
      {"jitser_cbor_write_map", reinterpret_cast<void*>(&jitser_cbor_write_map)},
      {"jitser_cbor_find_field", reinterpret_cast<void*>(&jitser_cbor_find_field)},
      {"jitser_cbor_read_bool_list", reinterpret_cast<void*>(&jitser_cbor_read_bool_list)},
      {"jitser_cbor_read_value", reinterpret_cast<void*>(&jitser_cbor_read_value)},
      {"jitser_cbor_read_map", reinterpret_cast<void*>(&jitser_cbor_read_map)},
      {"jitser_cbor_put_text", reinterpret_cast<void*>(&jitser_cbor_put_text)},
      {"jitser_cbor_skip_item", reinterpret_cast<void*>(&jitser_cbor_skip_item)},
      {"jitser_cbor_put_time_text", reinterpret_cast<void*>(&jitser_cbor_put_time_text)},
      {"jitser_cbor_get_time_text", reinterpret_cast<void*>(&jitser_cbor_get_time_text)},
      {"jitser_cbor_head", reinterpret_cast<void*>(&jitser_cbor_head)},
  };
  return helpers;
}

}  // namespace jitser
