// The On-Demand work behind a Slot, for json_read.cpp and for json_kernel.cpp, which the
// build also compiles to LLVM bitcode so that compiled readers take these calls in whole
// (jit/compiler.cpp). Private to those two: it brings in all of simdjson.h.
#pragma once

#include <simdjson.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <new>
#include <string_view>
#include <type_traits>

#include "formats/json/json_helpers.h"
#include "formats/json/json_read.h"

// Everything here is inlined into its callers, the helpers of json_kernel.cpp among them,
// so that each helper is one function in the bitcode.
#define JITSER_SLOT_INLINE [[gnu::always_inline]] inline

namespace jitser::json::slot {

namespace od = simdjson::ondemand;
using simdjson::error_code;

static_assert(kReadPadding >= simdjson::SIMDJSON_PADDING);

// A Slot holds an On-Demand value; or for the root, a pointer to the document, through which
// On-Demand reads a root scalar, and which compiled code then reads in fields as simdjson
// wrote them (a root value copied in by the host would be read back across its stores); or
// an iterator and whether it has yielded its first item; or a map's raw key and its offset.
enum class Mode : std::uint8_t { Unset, Value, Root, Fresh, Started, Key };
constexpr std::size_t kModeAt = 24;
static_assert(sizeof(od::value) <= kModeAt && sizeof(od::object_iterator) <= kModeAt &&
              sizeof(od::array_iterator) <= kModeAt && kModeAt < sizeof(Slot));
static_assert(std::is_trivially_copyable_v<od::value> &&
              std::is_trivially_copyable_v<od::object_iterator> &&
              std::is_trivially_copyable_v<od::array_iterator>);

JITSER_SLOT_INLINE Mode& mode(Slot* s) { return *reinterpret_cast<Mode*>(s->bytes + kModeAt); }
template <class T>
JITSER_SLOT_INLINE T& held(Slot* s) {
  return *std::launder(reinterpret_cast<T*>(s->bytes));
}
// On-Demand's values and iterators are each a value_iterator: a pointer, a depth and a
// position, which On-Demand has just written one by one. They are copied no wider than that:
// a block copy would read a word made of two smaller stores, which the processor cannot
// forward, and wait for them to reach the cache.
template <class T>
JITSER_SLOT_INLINE void hold(Slot* s, const T& v, Mode m) {
  const auto* from = reinterpret_cast<const unsigned char*>(&v);
  if constexpr (sizeof v == sizeof(od::value)) {
    static_assert(sizeof v == 24);
    std::memcpy(s->bytes, from, 8);
    std::memcpy(s->bytes + 8, from + 8, 4);
    std::memcpy(s->bytes + 12, from + 12, 4);
    std::memcpy(s->bytes + 16, from + 16, 8);
  } else {
    std::memcpy(s->bytes, from, sizeof v);
  }
  mode(s) = m;
}
JITSER_SLOT_INLINE void set_value(Slot* s, const od::value& v) { hold(s, v, Mode::Value); }

JITSER_SLOT_INLINE Errc map_error(error_code e) {
  switch (e) {
    case simdjson::SUCCESS: return Errc::ok;
    case simdjson::INCORRECT_TYPE: return Errc::type_mismatch;
    case simdjson::NUMBER_OUT_OF_RANGE: return Errc::out_of_range;
    case simdjson::UTF8_ERROR: return Errc::invalid_utf8;
    case simdjson::DEPTH_ERROR: return Errc::depth_exceeded;
    case simdjson::EMPTY:
    case simdjson::INCOMPLETE_ARRAY_OR_OBJECT:
    case simdjson::UNCLOSED_STRING: return Errc::truncated;
    default: return Errc::syntax_error;
  }
}

// Calls f on whichever of value or document the slot holds.
template <class F>
JITSER_SLOT_INLINE Errc with(Slot* s, F&& f) {
  if (mode(s) == Mode::Value) return map_error(f(held<od::value>(s)));
  if (mode(s) == Mode::Root) return map_error(f(*held<od::document*>(s)));
  return Errc::syntax_error;  // a read that failed left it unset
}

// Starts iterating an object or array held in `value`. A root container is read as a value
// (simdjson's start_root_* would take trailing bytes for a truncation).
template <class Container, class Iterator, class Get>
JITSER_SLOT_INLINE Errc begin(Slot* value, Slot* iterator, Get get) {
  od::value v;
  if (mode(value) == Mode::Value) {
    v = held<od::value>(value);
  } else if (mode(value) != Mode::Root || held<od::document*>(value)->get_value().get(v)) {
    return Errc::type_mismatch;  // a scalar root
  }
  Container container;
  if (Errc e = map_error(get(v, container)); e != Errc::ok) return e;
  simdjson::simdjson_result<Iterator> it = container.begin();
  if (it.error()) return map_error(it.error());
  hold(iterator, it.value_unsafe(), Mode::Fresh);
  return Errc::ok;
}

// Moves to the next item (the first, on the first call); false past the last.
template <class Iterator>
JITSER_SLOT_INLINE bool advance(Slot* iterator) {
  Iterator& it = held<Iterator>(iterator);
  if (mode(iterator) == Mode::Started) {
    ++it;
  } else {
    mode(iterator) = Mode::Started;
  }
  return it != it;  // On-Demand iterators compare unequal while they have items
}

JITSER_SLOT_INLINE Errc take_null(Slot* value, bool* was_null) {
  // is_null() consumes the value only when it is null; anything else is left to read.
  return with(value, [&](auto& h) { return h.is_null().get(*was_null); });
}

JITSER_SLOT_INLINE Errc get_bool(Slot* value, bool* out) {
  return with(value, [&](auto& h) { return h.get_bool().get(*out); });
}

// What a number was read as.
enum class NumberRead : std::uint8_t { Int, UInt, Double };

// Why a number did not read as the type asked for: jitser_json_number_error, the slow path,
// compiled into the library alone and called out of line from both tiers.
JITSER_SLOT_INLINE Errc number_error(Slot* value, NumberRead read) {
  return jitser_json_number_error(value, static_cast<std::uint8_t>(read));
}

// Calls out of line get copies of the slot and out-parameters that compiled code keeps in
// registers: an address passed to a call that is not inlined would keep them in memory.

// An integer that fits reads in one pass; a failed read consumes nothing, so integer_error can
// look at the value again.
JITSER_SLOT_INLINE Errc get_int(Slot* value, std::int64_t* out) {
  const Errc e = with(value, [&](auto& h) { return h.get_int64().get(*out); });
  if (e == Errc::ok) return e;
  Slot copy = *value;
  return number_error(&copy, NumberRead::Int);
}

JITSER_SLOT_INLINE Errc get_uint(Slot* value, std::uint64_t* out) {
  const Errc e = with(value, [&](auto& h) { return h.get_uint64().get(*out); });
  if (e == Errc::ok) return e;
  Slot copy = *value;
  const Errc why = number_error(&copy, NumberRead::UInt);
  if (why == Errc::ok) *out = 0;  // "-0"
  return why;
}

// The value path in line; a scalar document's (out of line for its size) writes a local.
JITSER_SLOT_INLINE Errc get_double(Slot* value, double* out) {
  Errc e;
  if (mode(value) == Mode::Value) {
    e = map_error(held<od::value>(value).get_double().get(*out));
  } else {
    double d = 0;
    e = with(value, [&](auto& h) { return h.get_double().get(d); });
    *out = d;
  }
  if (e == Errc::ok) return e;
  Slot copy = *value;
  return number_error(&copy, NumberRead::Double);
}

// JSON's whitespace (RFC 8259 `ws`).
JITSER_SLOT_INLINE bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Where scanning for a backslash a word at a time stops paying.
constexpr std::size_t kLongString = 32;

// Whether the n bytes at p hold a backslash. Most strings are short, and a call to memchr
// costs more than scanning them a word at a time; long ones (bytes in base64) are left to
// memchr, which scans a vector at a time. The last word reads up to 7 bytes past the end,
// which the input's padding makes readable; it counts only the bytes before the end.
JITSER_SLOT_INLINE bool has_backslash(const char* p, std::size_t n) {
  if (std::endian::native != std::endian::little || n >= kLongString) {
    return std::memchr(p, '\\', n) != nullptr;
  }
  constexpr std::uint64_t kOnes = 0x0101010101010101;
  for (;; p += 8, n -= 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    word ^= kOnes * '\\';
    // A byte of `hits` is set for the lowest zero byte of `word`, and may be for bytes above
    // it: exact for the bytes below the first backslash, which is all the mask keeps.
    const std::uint64_t hits = (word - kOnes) & ~word & kOnes * 0x80;
    if (n < 8) return (hits & ((std::uint64_t{1} << 8 * n) - 1)) != 0;
    if (hits) return true;
  }
}

// A string written without escapes is its text between the quotes, as it stands in the input:
// stage 1 has checked the whole input's UTF-8 and that no string holds a control character.
// Only strings with escapes are unescaped (into the parser's string buffer). Either way the
// view lives as long as the Document.
JITSER_SLOT_INLINE Errc get_string(Slot* value, std::string_view* out) {
  if (mode(value) == Mode::Value) {
    // The token runs from the opening quote to the next structural character.
    std::string_view token = held<od::value>(value).raw_json_token();
    while (!token.empty() && is_space(token.back())) {
      token.remove_suffix(1);
    }
    if (token.size() >= 2 && token.front() == '"' && token.back() == '"') {
      const std::string_view text = token.substr(1, token.size() - 2);
      if (!has_backslash(text.data(), text.size())) {
        *out = text;
        return Errc::ok;
      }
    }
  }
  return with(value, [&](auto& h) { return h.get_string().get(*out); });
}

JITSER_SLOT_INLINE Errc begin_object(Slot* value, Slot* iterator) {
  return begin<od::object, od::object_iterator>(
      value, iterator, [](od::value& v, od::object& o) { return v.get_object().get(o); });
}

// The item is read where On-Demand returns it, not copied into a local of its type: that copy
// is a block copy, which hold's reasons apply to as well.
JITSER_SLOT_INLINE Errc next_field(Slot* iterator, bool* more, const char** key, Slot* value) {
  *more = advance<od::object_iterator>(iterator);
  if (!*more) return Errc::ok;
  simdjson::simdjson_result<od::field> field = *held<od::object_iterator>(iterator);
  if (field.error()) return map_error(field.error());
  *key = field.value_unsafe().key().raw();
  set_value(value, field.value_unsafe().value());
  return Errc::ok;
}

JITSER_SLOT_INLINE Errc begin_array(Slot* value, Slot* iterator) {
  return begin<od::array, od::array_iterator>(
      value, iterator, [](od::value& v, od::array& a) { return v.get_array().get(a); });
}

JITSER_SLOT_INLINE Errc next_element(Slot* iterator, bool* more, Slot* value) {
  *more = advance<od::array_iterator>(iterator);
  if (!*more) return Errc::ok;
  simdjson::simdjson_result<od::value> element = *held<od::array_iterator>(iterator);
  if (element.error()) return map_error(element.error());
  set_value(value, element.value_unsafe());
  return Errc::ok;
}

}  // namespace jitser::json::slot

#undef JITSER_SLOT_INLINE
