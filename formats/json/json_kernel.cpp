// JSON's kernel: the helpers compiled code calls most, one per field, value or element.
// Compiled into the library like any helper, and also (by jitser_format_kernel in CMakeLists.txt,
// with clang-19) to LLVM bitcode that the JIT links into every JSON codec, so that these calls,
// and the simdjson On-Demand code under the reading ones, are inlined into the compiled routines.
//
// Everything here is inline code from json_slot.h, json_write.h and simdjson.h, and the C++
// runtime, but for calls to other helpers by name, which the JIT resolves.
#include <cstring>
#include <iterator>
#include <string>

#include "formats/json/json_helpers.h"
#include "formats/json/json_slot.h"
#include "formats/json/json_text.h"
#include "formats/json/json_write.h"
#include "formats/json/lower_json.h"
#include "formats/kernel_calls.h"
#include "formats/short_string.h"

namespace jitser {

extern "C" {

// The layouts the helpers share with the rest of the library, which is compiled by another
// compiler, perhaps with other flags: the JIT links the bitcode only when its value of this
// equals the library's.
extern const std::uint64_t jitser_json_kernel_layout;
const std::uint64_t jitser_json_kernel_layout =
    sizeof(simdjson::ondemand::parser) | sizeof(simdjson::ondemand::document) << 12 |
    sizeof(simdjson::ondemand::value) << 24 | sizeof(simdjson::ondemand::object_iterator) << 36 |
    sizeof(std::string) << 48 | std::uint64_t{SIMDJSON_DEVELOPMENT_CHECKS} << 60;

std::uint8_t* jitser_json_put_frame(std::uint8_t* out, std::uint64_t, bool, std::uint32_t) {
  return out;
}

// "true" or "false" as one word store (the room reserved is a word).
std::uint8_t* jitser_json_put_bool(std::uint8_t* out, std::uint8_t v) {
  const std::uint64_t word = v ? 0x65757274 : 0x65736c6166;
  std::memcpy(out, &word, 8);
  return out + (v ? 4 : 5);
}

}  // extern "C"

namespace {

// An integer as digits, in quotes when it is a map key or a Protobuf 64-bit integer.
template <class Int>
std::uint8_t* put_integer(std::uint8_t* out, Int v, std::uint32_t width, std::uint32_t enc,
                          char* (*digits)(char*, Int)) {
  char* o = reinterpret_cast<char*>(out);
  const bool quoted = json::quoted_integer(enc, width);
  if (quoted) *o++ = '"';
  o = digits(o, v);
  if (quoted) *o++ = '"';
  return reinterpret_cast<std::uint8_t*>(o);
}

}  // namespace

extern "C" {

std::uint8_t* jitser_json_put_int(std::uint8_t* out, std::int64_t v, std::uint32_t width,
                                  std::uint32_t enc) {
  return put_integer(out, v, width, enc, json::put_int);
}

std::uint8_t* jitser_json_put_uint(std::uint8_t* out, std::uint64_t v, std::uint32_t width,
                                   std::uint32_t enc) {
  return put_integer(out, v, width, enc, json::put_uint);
}

// A string of up to 32 bytes that needs no escape (the common case) is copied between its
// quotes as two 16-byte words, the first and the last 16 (overlapping, or the first again for a
// short one): a std::string's storage always holds 16 bytes (its local buffer, or a heap block
// of more than 15 and a terminator), and the room reserved has a word to spare. Anything else,
// and every string the words show to need care (a quote, a backslash, a control character or a
// byte of a multi-byte character, which must be checked as UTF-8), takes the general path.
std::uint8_t* jitser_json_put_string(std::uint8_t* out, const char* data, std::size_t n) {
  using Word = unsigned char __attribute__((vector_size(16)));
  char* o = reinterpret_cast<char*>(out);
  if (n <= 32) {
    const std::size_t tail_at = n > 16 ? n - 16 : 0;
    Word head, tail;
    std::memcpy(&head, data, 16);
    std::memcpy(&tail, data + tail_at, 16);
    auto care = [](Word w) { return (w < 0x20) | (w >= 0x80) | (w == '"') | (w == '\\'); };
    const Word lanes = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    auto any = [](auto flags) {
      static_assert(sizeof flags == 16);
      std::uint64_t halves[2];
      std::memcpy(halves, &flags, 16);
      return (halves[0] | halves[1]) != 0;
    };
    // Bytes of the first word past the end are not the string's; the last word is all the
    // string's, and only its own when the string is longer than a word.
    const bool flagged =
        any(care(head) & (lanes < static_cast<unsigned char>(n))) || (n > 16 && any(care(tail)));
    if (!flagged) {
      o[0] = '"';
      std::memcpy(o + 1, &head, 16);
      std::memcpy(o + 1 + tail_at, &tail, 16);
      o[n + 1] = '"';
      return out + n + 2;
    }
  }
  if (char* end = json::put_plain_string(o, data, n)) return reinterpret_cast<std::uint8_t*>(end);
  return reinterpret_cast<std::uint8_t*>(jitser_json_escaped_string(o, data, n));
}

std::uint8_t* jitser_json_put_begin_list(std::uint8_t* out, std::uint64_t, std::uint32_t,
                                         std::uint32_t) {
  *out = '[';
  return out + 1;
}

std::uint8_t* jitser_json_put_end_list(std::uint8_t* out, std::uint64_t, std::uint32_t) {
  *out = ']';
  return out + 1;
}

bool jitser_json_begin_object(json::Slot* value, json::Slot* iterator) {
  return json::slot::begin_object(value, iterator) == Errc::ok;
}

std::int32_t jitser_json_next_field(json::Slot* iterator, json::Slot* value, const char** raw_key,
                                    std::uint32_t) {
  bool more = false;
  if (json::slot::next_field(iterator, &more, raw_key, value) != Errc::ok) return -1;
  return more ? 1 : 0;
}

bool jitser_json_begin_list(json::Slot* value, json::Slot* iterator, std::uint64_t*, std::uint32_t,
                            std::uint32_t, std::uint32_t) {
  return json::slot::begin_array(value, iterator) == Errc::ok;
}

std::int32_t jitser_json_next_element(json::Slot* iterator, json::Slot* value, std::uint32_t) {
  bool more = false;
  if (json::slot::next_element(iterator, &more, value) != Errc::ok) return -1;
  return more ? 1 : 0;
}

// The iterator steps over a value no field reads when it moves to the next field.
bool jitser_json_skip(json::Slot*) { return true; }

bool jitser_json_get_frame(json::Slot*, std::uint64_t, bool) { return true; }

bool jitser_json_get_null(json::Slot* value, std::uint8_t* is_null) {
  bool was_null = false;
  if (json::slot::take_null(value, &was_null) != Errc::ok) return false;
  *is_null = was_null;
  return true;
}

// JSON has no references: a shared object is read as a new one wherever it appears.
bool jitser_json_get_shared(json::Slot* value, std::uint32_t* ref, std::uint32_t*) {
  std::uint8_t is_null = 0;
  if (!jitser_json_get_null(value, &is_null)) return false;
  *ref = is_null ? kSharedNull : kSharedNew;
  return true;
}

bool jitser_json_get_bool(json::Slot* value, std::uint8_t* out) {
  bool b = false;
  if (json::slot::get_bool(value, &b) != Errc::ok) return false;
  *out = b;
  return true;
}

// A Protobuf message's numbers are mostly plain numbers: read in line like any other, and
// only what that refuses (a number in a string) out of line. A failed read consumes nothing.
bool jitser_json_get_int(json::Slot* value, std::int64_t* out, std::uint32_t width,
                         std::uint32_t enc) {
  if (json::slot::get_int(value, out) == Errc::ok) return json::fits_int(*out, width);
  return enc == json::kProto && jitser_json_get_proto_int(value, out, width);
}

bool jitser_json_get_uint(json::Slot* value, std::uint64_t* out, std::uint32_t width,
                          std::uint32_t enc) {
  if (json::slot::get_uint(value, out) == Errc::ok) return json::fits_uint(*out, width);
  return enc == json::kProto && jitser_json_get_proto_uint(value, out, width);
}

bool jitser_json_get_double(json::Slot* value, double* out, std::uint32_t enc) {
  if (json::slot::get_double(value, out) == Errc::ok) return true;
  return enc == json::kProto && jitser_json_get_proto_double(value, out);
}

bool jitser_json_get_float(json::Slot* value, float* out, std::uint32_t enc) {
  double d = 0;
  if (json::slot::get_double(value, &d) == Errc::ok) return json::to_float(d, out);
  return enc == json::kProto && jitser_json_get_proto_double(value, &d) &&
         json::to_proto_float(d, out);
}

bool jitser_json_get_text(json::Slot* value, const char** data, std::size_t* size) {
  std::string_view text;
  if (json::slot::get_string(value, &text) != Errc::ok) return false;
  *data = text.data();
  *size = text.size();
  return true;
}

// A string of up to 15 bytes is stored in line, read as two words from where it lies (the
// padded input or simdjson's padded string buffer); a longer one is assigned by the host.
bool jitser_json_get_string(json::Slot* value, void* out, std::uint32_t allocator) {
  const char* data;
  std::size_t n;
  if (!jitser_json_get_text(value, &data, &n)) return false;
  if (n <= 15) {
    assign_short_string(out, allocator, data, n);
  } else {
    jitser_json_assign_string(out, allocator, data, n);
  }
  return true;
}

// The functions compiled code calls that are not defined here (formats/kernel_calls.h).
extern const void* const jitser_json_calls[];
const void* const jitser_json_calls[] = {
    JITSER_RUNTIME_CALLS,
    reinterpret_cast<const void*>(&jitser_json_open),
    reinterpret_cast<const void*>(&jitser_json_finish),
    reinterpret_cast<const void*>(&jitser_json_put_double),
    reinterpret_cast<const void*>(&jitser_json_put_float),
    reinterpret_cast<const void*>(&jitser_json_put_bytes),
    reinterpret_cast<const void*>(&jitser_json_put_decimal),
    reinterpret_cast<const void*>(&jitser_json_put_time),
    reinterpret_cast<const void*>(&jitser_json_write_value),
    reinterpret_cast<const void*>(&jitser_json_write_bool_list),
    reinterpret_cast<const void*>(&jitser_json_write_map),
    reinterpret_cast<const void*>(&jitser_json_find_field),
    reinterpret_cast<const void*>(&jitser_json_get_bytes),
    reinterpret_cast<const void*>(&jitser_json_get_decimal),
    reinterpret_cast<const void*>(&jitser_json_get_time),
    reinterpret_cast<const void*>(&jitser_json_get_proto_int),
    reinterpret_cast<const void*>(&jitser_json_get_proto_uint),
    reinterpret_cast<const void*>(&jitser_json_get_proto_double),
    reinterpret_cast<const void*>(&jitser_json_read_value),
    reinterpret_cast<const void*>(&jitser_json_read_bool_list),
    reinterpret_cast<const void*>(&jitser_json_read_map),
};

// The kernel's functions by name, as compiled into the library: first-tier code calls them out
// of line rather than linking and inlining their bitcode (jit/compiler.cpp, docs/jit.md).
// clang-format off
JITSER_KERNEL_FUNCTIONS(json,
    JITSER_KERNEL_FUNCTION(jitser_json_begin_list),
    JITSER_KERNEL_FUNCTION(jitser_json_begin_object),
    JITSER_KERNEL_FUNCTION(jitser_json_get_bool),
    JITSER_KERNEL_FUNCTION(jitser_json_get_double),
    JITSER_KERNEL_FUNCTION(jitser_json_get_float),
    JITSER_KERNEL_FUNCTION(jitser_json_get_frame),
    JITSER_KERNEL_FUNCTION(jitser_json_get_int),
    JITSER_KERNEL_FUNCTION(jitser_json_get_null),
    JITSER_KERNEL_FUNCTION(jitser_json_get_shared),
    JITSER_KERNEL_FUNCTION(jitser_json_get_string),
    JITSER_KERNEL_FUNCTION(jitser_json_get_text),
    JITSER_KERNEL_FUNCTION(jitser_json_get_uint),
    JITSER_KERNEL_FUNCTION(jitser_json_next_element),
    JITSER_KERNEL_FUNCTION(jitser_json_next_field),
    JITSER_KERNEL_FUNCTION(jitser_json_put_begin_list),
    JITSER_KERNEL_FUNCTION(jitser_json_put_bool),
    JITSER_KERNEL_FUNCTION(jitser_json_put_end_list),
    JITSER_KERNEL_FUNCTION(jitser_json_put_frame),
    JITSER_KERNEL_FUNCTION(jitser_json_put_int),
    JITSER_KERNEL_FUNCTION(jitser_json_put_string),
    JITSER_KERNEL_FUNCTION(jitser_json_put_uint),
    JITSER_KERNEL_FUNCTION(jitser_json_skip));
// clang-format on

}  // extern "C"

}  // namespace jitser
