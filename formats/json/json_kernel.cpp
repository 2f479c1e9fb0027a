// JSON's kernel: the helpers compiled code calls most, one per field, value or element.
// Compiled into the library like any helper, and also (by jitser_format_kernel in CMakeLists.txt,
// with clang-19) to LLVM bitcode that the JIT links into every JSON codec, so that these calls,
// and the simdjson On-Demand code under the reading ones, are inlined into the compiled routines.
//
// Everything here is inline code from json_slot.h, json_write.h and simdjson.h, and the C++
// runtime, but for calls to other helpers by name, which the JIT resolves.
#include <string>

#include "formats/json/json_helpers.h"
#include "formats/json/json_slot.h"
#include "formats/json/json_write.h"

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

char* jitser_json_int(char* out, std::int64_t v) { return json::put_int(out, v); }
char* jitser_json_uint(char* out, std::uint64_t v) { return json::put_uint(out, v); }
char* jitser_json_string(char* out, const char* data, std::size_t n) {
  if (char* end = json::put_plain_string(out, data, n)) return end;
  return jitser_json_escaped_string(out, data, n);
}

bool jitser_json_begin_object(json::Slot* value, json::Slot* iterator) {
  return json::slot::begin_object(value, iterator) == Errc::ok;
}

std::int32_t jitser_json_next_field(json::Slot* iterator, json::Slot* value, const char** raw_key) {
  bool more = false;
  if (json::slot::next_field(iterator, &more, raw_key, value) != Errc::ok) return -1;
  return more ? 1 : 0;
}

bool jitser_json_begin_array(json::Slot* value, json::Slot* iterator) {
  return json::slot::begin_array(value, iterator) == Errc::ok;
}

std::int32_t jitser_json_next_element(json::Slot* iterator, json::Slot* value) {
  bool more = false;
  if (json::slot::next_element(iterator, &more, value) != Errc::ok) return -1;
  return more ? 1 : 0;
}

bool jitser_json_take_null(json::Slot* value, bool* was_null) {
  return json::slot::take_null(value, was_null) == Errc::ok;
}

bool jitser_json_get_bool(json::Slot* value, std::uint8_t* out) {
  bool b = false;
  if (json::slot::get_bool(value, &b) != Errc::ok) return false;
  *out = b;
  return true;
}

bool jitser_json_get_int(json::Slot* value, std::int64_t* out) {
  return json::slot::get_int(value, out) == Errc::ok;
}

bool jitser_json_get_uint(json::Slot* value, std::uint64_t* out) {
  return json::slot::get_uint(value, out) == Errc::ok;
}

bool jitser_json_get_double(json::Slot* value, double* out) {
  return json::slot::get_double(value, out) == Errc::ok;
}

bool jitser_json_get_string(json::Slot* value, const char** data, std::size_t* size) {
  std::string_view text;
  if (json::slot::get_string(value, &text) != Errc::ok) return false;
  *data = text.data();
  *size = text.size();
  return true;
}

}  // extern "C"

}  // namespace jitser
