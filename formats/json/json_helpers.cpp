// JSON's helpers: what its compiled codecs call for work not worth emitting as IR
// (formats/compiled_abi.h), thin entries into the functions the interpreter's operations call,
// so that both tiers read and write through the very same ones. The hottest are in the kernel
// (json_kernel.cpp), which compiled code inlines.
#include "formats/json/json_helpers.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <string>

#include "formats/field_default.h"
#include "formats/json/json_key.h"
#include "formats/json/json_read.h"
#include "formats/json/json_text.h"
#include "formats/json/json_value.h"
#include "formats/json/json_write.h"
#include "formats/json/lower_json.h"
#include "typeinfo/map_refill.h"
#include "typeinfo/strings.h"

namespace jitser {
namespace {

WriteSpan span_of(Buffer& out) {
  std::uint8_t* at = out.ensure(0);
  return {at, at + (out.capacity() - out.size())};
}

char* as_chars(std::uint8_t* p) { return reinterpret_cast<char*>(p); }
std::uint8_t* as_bytes(char* p) { return reinterpret_cast<std::uint8_t*>(p); }

WriteSpan put(WriteSpan span, char c) {
  *span.cursor++ = static_cast<std::uint8_t>(c);
  return span;
}

static_assert(sizeof(json::Document) <= sizeof(ReadContext::input) &&
              alignof(json::Document) <= alignof(ReadContext));
json::Document& document(ReadContext* ctx) {
  return *std::launder(reinterpret_cast<json::Document*>(ctx->input));
}

}  // namespace

extern "C" {

bool jitser_json_open(ReadContext* ctx, const std::uint8_t* p, const std::uint8_t* end,
                      json::Slot* root) {
  ::new (ctx->input) json::Document();
  ctx->close_input = [](void* input) { static_cast<json::Document*>(input)->~Document(); };
  return document(ctx).open({p, static_cast<std::size_t>(end - p)}, ctx->padding, root) == Errc::ok;
}

bool jitser_json_finish(ReadContext* ctx, json::Slot*) {
  return document(ctx).finish() == Errc::ok;
}

// The puts of the kernel contract that stay calls: each is too long to inline.
std::uint8_t* jitser_json_put_double(std::uint8_t* out, double v, std::uint32_t enc) {
  return as_bytes(enc == json::kProto ? json::put_proto_double(as_chars(out), v)
                                      : json::put_double(as_chars(out), v));
}
std::uint8_t* jitser_json_put_float(std::uint8_t* out, float v, std::uint32_t enc) {
  return as_bytes(enc == json::kProto ? json::put_proto_float(as_chars(out), v)
                                      : json::put_float(as_chars(out), v));
}
char* jitser_json_escaped_string(char* out, const char* data, std::size_t n) {
  return json::put_string(out, data, n);
}
std::uint8_t* jitser_json_put_bytes(std::uint8_t* out, const std::uint8_t* data, std::size_t n) {
  return as_bytes(json::put_base64(as_chars(out), data, n));
}
std::uint8_t* jitser_json_put_decimal(std::uint8_t* out, const Decimal* d) {
  return as_bytes(json::put_decimal(as_chars(out), *d));
}
std::uint8_t* jitser_json_put_time(std::uint8_t* out, std::int64_t ticks, std::uint32_t unit,
                                   std::uint32_t duration, std::uint32_t enc) {
  const auto u = static_cast<TimeUnit>(unit);
  const bool protobuf = enc == json::kProto;
  return as_bytes(duration ? json::put_duration(as_chars(out), ticks, u, protobuf)
                           : json::put_timestamp(as_chars(out), ticks, u, protobuf));
}

WriteSpan jitser_json_write_value(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t*,
                                  const void* value) {
  Buffer& out = *ctx->out;
  out.commit_to(cursor);
  if (json::write_value(out, *static_cast<const Value*>(value), ctx->max_depth - ctx->depth) !=
      Errc::ok) {
    return {nullptr, nullptr};
  }
  return span_of(out);
}

// The elements, between the brackets the emitter writes.
WriteSpan jitser_json_write_bool_list(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                      const void* list, const TypeDesc* type, std::uint64_t n) {
  WriteSpan span = room_for(ctx, cursor, limit, 6 * n);  // "false," per element
  for (std::size_t i = 0; i < n; ++i) {
    if (i) span = put(span, ',');
    const std::string_view word = type->list_ops->get_bool(type, list, i) ? "true" : "false";
    std::memcpy(span.cursor, word.data(), word.size());
    span.cursor += word.size();
  }
  return span;
}

WriteSpan jitser_json_write_map(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                const void* map, const TypeDesc* type, std::uint32_t, WriteFn key,
                                WriteFn value, const std::uint8_t*, std::size_t) {
  WriteSpan span = put(room_for(ctx, cursor, limit, 1), '{');
  alignas(std::max_align_t) unsigned char iterator[kMapIteratorSize];
  const MapOps& ops = *type->map_ops;
  ops.begin(type, map, iterator);
  const void* k;
  const void* v;
  bool first = true;
  while (ops.next(type, iterator, &k, &v)) {
    if (!first) span = put(room_for(ctx, span.cursor, span.limit, 1), ',');
    first = false;
    span = key(ctx, span.cursor, span.limit, static_cast<const std::uint8_t*>(k));
    if (!span.cursor) return span;
    span = put(room_for(ctx, span.cursor, span.limit, 1), ':');
    span = value(ctx, span.cursor, span.limit, static_cast<const std::uint8_t*>(v));
    if (!span.cursor) return span;
  }
  return put(room_for(ctx, span.cursor, span.limit, 1), '}');
}

std::int32_t jitser_json_find_field(const char* raw_key, const FieldDesc* const* fields,
                                    std::uint32_t n) {
  std::string_view key;
  if (json::unescaped_key(raw_key, &key) != Errc::ok) return -2;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (names_field(*fields[i], key)) return static_cast<std::int32_t>(i);
  }
  return -1;
}

void jitser_json_assign_string(void* s, std::uint32_t allocator, const char* data, std::size_t n) {
  assign_string(static_cast<Allocator>(allocator), s, data, n);
}

bool jitser_json_get_bytes(json::Slot* value, void* list, const TypeDesc* type) {
  return json::read_base64(value, list, type) == Errc::ok;
}

bool jitser_json_get_decimal(json::Slot* value, Decimal* d) {
  return json::read_decimal(value, d) == Errc::ok;
}

bool jitser_json_get_time(json::Slot* value, std::int64_t* out, std::uint32_t unit,
                          std::uint32_t duration, std::uint32_t) {
  std::int64_t ticks = 0;
  std::string_view text;
  if (json::read_time(value, static_cast<TimeUnit>(unit), duration != 0, &ticks, &text) !=
      Errc::ok) {
    return false;
  }
  *out = ticks;
  return true;
}

bool jitser_json_get_proto_int(json::Slot* value, std::int64_t* out, std::uint32_t width) {
  return json::get_proto_int(value, out) == Errc::ok && json::fits_int(*out, width);
}

bool jitser_json_get_proto_uint(json::Slot* value, std::uint64_t* out, std::uint32_t width) {
  return json::get_proto_uint(value, out) == Errc::ok && json::fits_uint(*out, width);
}

bool jitser_json_get_proto_double(json::Slot* value, double* out) {
  return json::get_proto_double(value, out) == Errc::ok;
}

bool jitser_json_read_value(ReadContext* ctx, json::Slot* value, void* p) {
  std::size_t at = 0;
  return json::read_value(document(ctx), value, *static_cast<Value*>(p),
                          ctx->max_depth - ctx->depth, &at) == Errc::ok;
}

// A list is read whole: JSON has no repeated keys, so `append` is never set.
bool jitser_json_read_bool_list(json::Slot* value, void* list, const TypeDesc* type, std::uint32_t,
                                std::uint32_t) {
  const ListOps& ops = *type->list_ops;
  json::Slot it, element;
  if (json::begin_array(value, &it) != Errc::ok) return false;
  std::size_t have = ops.size(type, list);
  std::size_t count = 0;
  for (;;) {
    bool more = false;
    if (json::next_element(&it, &more, &element) != Errc::ok) return false;
    if (!more) break;
    bool b = false;
    if (json::get_bool(&element, &b) != Errc::ok) return false;
    if (count >= have) {
      ops.resize(type, list, std::max<std::size_t>(count + 1, have * 2));
      have = ops.size(type, list);
    }
    ops.set_bool(type, list, count++, b);
  }
  ops.resize(type, list, count);
  return true;
}

// Keys are read from their text, as the key instruction says; the key routine is not called.
bool jitser_json_read_map(ReadContext* ctx, json::Slot* value, void* map, const TypeDesc* type,
                          const Instr* key, std::uint32_t, std::uint32_t, SlotReadFn,
                          SlotReadFn read_value, void*) {
  json::Slot it, field;
  if (json::begin_object(value, &it) != Errc::ok) return false;
  MapRefill refill(*type, map, UINT64_MAX);
  for (;;) {
    bool more = false;
    const char* raw = nullptr;
    if (json::next_field(&it, &more, &raw, &field) != Errc::ok) return false;
    if (!more) return true;
    std::string_view text;
    if (json::unescaped_key(raw, &text) != Errc::ok) return false;
    if (json::read_key(*key, text, refill.key()) != Errc::ok) return false;
    const void* stored_key = nullptr;
    void* at = refill.insert(&stored_key);
    if (!at || !read_value(ctx, &field, static_cast<std::uint8_t*>(at))) return false;
  }
}

}  // extern "C"

std::span<const HelperSymbol> json_helpers() {
  static const HelperSymbol helpers[] = {
      {"jitser_json_open", reinterpret_cast<void*>(&jitser_json_open)},
      {"jitser_json_finish", reinterpret_cast<void*>(&jitser_json_finish)},
      {"jitser_json_put_double", reinterpret_cast<void*>(&jitser_json_put_double)},
      {"jitser_json_put_float", reinterpret_cast<void*>(&jitser_json_put_float)},
      {"jitser_json_escaped_string", reinterpret_cast<void*>(&jitser_json_escaped_string)},
      {"jitser_json_put_bytes", reinterpret_cast<void*>(&jitser_json_put_bytes)},
      {"jitser_json_put_decimal", reinterpret_cast<void*>(&jitser_json_put_decimal)},
      {"jitser_json_put_time", reinterpret_cast<void*>(&jitser_json_put_time)},
      {"jitser_json_write_value", reinterpret_cast<void*>(&jitser_json_write_value)},
      {"jitser_json_write_bool_list", reinterpret_cast<void*>(&jitser_json_write_bool_list)},
      {"jitser_json_write_map", reinterpret_cast<void*>(&jitser_json_write_map)},
      {"jitser_json_find_field", reinterpret_cast<void*>(&jitser_json_find_field)},
      {"jitser_json_assign_string", reinterpret_cast<void*>(&jitser_json_assign_string)},
      {"jitser_json_get_bytes", reinterpret_cast<void*>(&jitser_json_get_bytes)},
      {"jitser_json_get_decimal", reinterpret_cast<void*>(&jitser_json_get_decimal)},
      {"jitser_json_get_time", reinterpret_cast<void*>(&jitser_json_get_time)},
      {"jitser_json_get_proto_int", reinterpret_cast<void*>(&jitser_json_get_proto_int)},
      {"jitser_json_get_proto_uint", reinterpret_cast<void*>(&jitser_json_get_proto_uint)},
      {"jitser_json_get_proto_double", reinterpret_cast<void*>(&jitser_json_get_proto_double)},
      {"jitser_json_number_error", reinterpret_cast<void*>(&jitser_json_number_error)},
      {"jitser_json_read_value", reinterpret_cast<void*>(&jitser_json_read_value)},
      {"jitser_json_read_bool_list", reinterpret_cast<void*>(&jitser_json_read_bool_list)},
      {"jitser_json_read_map", reinterpret_cast<void*>(&jitser_json_read_map)},
      {"jitser_json_put_frame", reinterpret_cast<void*>(&jitser_json_put_frame)},
      {"jitser_json_put_bool", reinterpret_cast<void*>(&jitser_json_put_bool)},
      {"jitser_json_put_int", reinterpret_cast<void*>(&jitser_json_put_int)},
      {"jitser_json_put_uint", reinterpret_cast<void*>(&jitser_json_put_uint)},
      {"jitser_json_put_string", reinterpret_cast<void*>(&jitser_json_put_string)},
      {"jitser_json_put_begin_list", reinterpret_cast<void*>(&jitser_json_put_begin_list)},
      {"jitser_json_put_end_list", reinterpret_cast<void*>(&jitser_json_put_end_list)},
      {"jitser_json_begin_object", reinterpret_cast<void*>(&jitser_json_begin_object)},
      {"jitser_json_next_field", reinterpret_cast<void*>(&jitser_json_next_field)},
      {"jitser_json_begin_list", reinterpret_cast<void*>(&jitser_json_begin_list)},
      {"jitser_json_next_element", reinterpret_cast<void*>(&jitser_json_next_element)},
      {"jitser_json_get_null", reinterpret_cast<void*>(&jitser_json_get_null)},
      {"jitser_json_get_shared", reinterpret_cast<void*>(&jitser_json_get_shared)},
      {"jitser_json_get_frame", reinterpret_cast<void*>(&jitser_json_get_frame)},
      {"jitser_json_skip", reinterpret_cast<void*>(&jitser_json_skip)},
      {"jitser_json_get_float", reinterpret_cast<void*>(&jitser_json_get_float)},
      {"jitser_json_get_text", reinterpret_cast<void*>(&jitser_json_get_text)},
      {"jitser_json_get_bool", reinterpret_cast<void*>(&jitser_json_get_bool)},
      {"jitser_json_get_int", reinterpret_cast<void*>(&jitser_json_get_int)},
      {"jitser_json_get_uint", reinterpret_cast<void*>(&jitser_json_get_uint)},
      {"jitser_json_get_double", reinterpret_cast<void*>(&jitser_json_get_double)},
      {"jitser_json_get_string", reinterpret_cast<void*>(&jitser_json_get_string)},
  };
  return helpers;
}

}  // namespace jitser
