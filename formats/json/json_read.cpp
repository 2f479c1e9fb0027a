#include "formats/json/json_read.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <string>

#include "formats/json/json_slot.h"
#include "formats/json/json_text.h"
#include "formats/time_text.h"
#include "typeinfo/utf8.h"

namespace jitser::json {
namespace {

using namespace slot;

// The parser and a padded copy buffer, one per thread: simdjson's parser keeps buffers sized to
// the largest document it has read, and making one per call would allocate them every time.
// Nothing in them carries from one call to the next.
struct ThreadBuffers {
  od::parser parser;
  std::unique_ptr<char[]> copy;
  std::size_t copy_capacity = 0;
  std::string key;  // unescaped keys on the slow path
};
ThreadBuffers& buffers() {
  thread_local ThreadBuffers b;
  return b;
}

od::document& doc_of(unsigned char* storage) { return *reinterpret_cast<od::document*>(storage); }
const od::document& doc_of(const unsigned char* storage) {
  return *reinterpret_cast<const od::document*>(storage);
}

// A character that can be part of a JSON number's text; where a number token ends.
bool number_char(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

// What RFC 8259 calls a number: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
bool is_number_text(std::string_view t) {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t from = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    return i > from;
  };
  if (i < t.size() && t[i] == '-') ++i;
  if (i < t.size() && t[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < t.size() && t[i] == '.' && (++i, !digits())) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == t.size();
}

// The text of the number a value holds, as far as it is made of number characters; an error
// for a value that is not a number. A root number is consumed, as reading it would.
template <class H>
error_code number_token(H& h, std::string_view* out) {
  od::json_type t;
  if (error_code e = h.type().get(t)) return e;
  if (t != od::json_type::number) return simdjson::INCORRECT_TYPE;
  std::string_view token;
  if constexpr (std::is_same_v<std::decay_t<H>, od::document>) {
    if (error_code e = h.raw_json().get(token)) return e;
  } else {
    token = h.raw_json_token();
  }
  std::size_t n = 0;
  while (n < token.size() && number_char(token[n])) ++n;
  *out = token.substr(0, n);
  return simdjson::SUCCESS;
}

// Why a number did not read as the type asked for, the same for every width and both tiers.
// simdjson's own reason stands unless it is about the number (the input may end inside it);
// then text that is not a JSON number is a syntax error, a number that does not fit the field
// (an integer beyond its width, a double beyond its range) is out of range, and a fraction or
// an exponent for an integer field is a type mismatch. "-0" is zero for every integer type:
// simdjson refuses it as an unsigned integer, and this returns success for the caller to
// store 0.
Errc diagnose_number(Slot* value, NumberRead read) {
  return with(value, [&](auto& h) -> error_code {
    error_code why = simdjson::SUCCESS;
    switch (read) {
      case NumberRead::Int: {
        std::int64_t i;
        why = h.get_int64().get(i);
        break;
      }
      case NumberRead::UInt: {
        std::uint64_t u;
        why = h.get_uint64().get(u);
        break;
      }
      case NumberRead::Double: {
        double d;
        why = h.get_double().get(d);
        break;
      }
    }
    if (why != simdjson::NUMBER_ERROR && why != simdjson::INCORRECT_TYPE &&
        why != simdjson::NUMBER_OUT_OF_RANGE) {
      return why;
    }
    std::string_view token;
    if (error_code e = number_token(h, &token)) return e;
    if (!is_number_text(token)) return simdjson::NUMBER_ERROR;
    const bool integer = read == NumberRead::Int || read == NumberRead::UInt;
    if (integer && token.find_first_of(".eE") != std::string_view::npos) {
      return simdjson::INCORRECT_TYPE;
    }
    if (read == NumberRead::UInt && token == "-0") return simdjson::SUCCESS;
    return simdjson::NUMBER_OUT_OF_RANGE;
  });
}

}  // namespace

std::string kernel_name() {
  return "stage 1 " + simdjson::get_active_implementation()->name() + ", On-Demand " +
         SIMDJSON_STRINGIFY(SIMDJSON_BUILTIN_IMPLEMENTATION);
}

Document::Document() {
  static_assert(sizeof(od::document) <= sizeof(storage_) && alignof(od::document) <= 8);
  ::new (storage_) od::document();
}
Document::~Document() { doc_of(storage_).~document(); }

Errc Document::open(std::span<const std::uint8_t> input, std::size_t padding, Slot* root) {
  ThreadBuffers& b = buffers();
  const char* data = reinterpret_cast<const char*>(input.data());
  size_ = input.size();
  if (padding < kReadPadding) {
    if (b.copy_capacity < size_ + kReadPadding) {
      b.copy_capacity = size_ + kReadPadding;
      b.copy = std::make_unique_for_overwrite<char[]>(b.copy_capacity);
    }
    if (size_) std::memcpy(b.copy.get(), data, size_);
    std::memset(b.copy.get() + size_, 0, kReadPadding);
    data = b.copy.get();
  }
  begin_ = data;
  od::document& doc = doc_of(storage_);
  if (Errc e = map_error(b.parser.iterate(data, size_, size_ + kReadPadding).get(doc));
      e != Errc::ok)
    return e;
  open_ = true;
  od::document* pointer = &doc;
  hold(root, pointer, Mode::Root);
  return Errc::ok;
}

Errc Document::finish() {
  const char* at = nullptr;
  // current_location fails once every token has been consumed: nothing but whitespace is left.
  if (doc_of(storage_).current_location().get(at)) return Errc::ok;
  return Errc::trailing_bytes;
}

std::size_t Document::current_offset() const {
  if (!open_) return 0;  // simdjson found no document at all
  const char* at = nullptr;
  if (const_cast<od::document&>(doc_of(storage_)).current_location().get(at)) return size_;
  return offset(at);
}

std::size_t Document::end_of_text() const {
  std::size_t end = size_;
  while (end > 0 && is_space(begin_[end - 1])) --end;
  return end;
}

bool Document::cut_off_number(const Slot* value) const {
  if (mode(const_cast<Slot*>(value)) != Mode::Value) return false;
  std::size_t at = offset(value);
  while (at < size_ && number_char(begin_[at])) ++at;
  return at >= end_of_text();
}

std::size_t Document::first_bad_utf8() const {
  std::size_t bad = 0;
  return valid_utf8(reinterpret_cast<const std::uint8_t*>(begin_), size_, &bad) ? 0 : bad;
}

std::size_t Document::offset(const Slot* value) const {
  Slot* s = const_cast<Slot*>(value);
  if (mode(s) == Mode::Root) {
    // The root value starts at the first byte that is not whitespace.
    std::size_t at = 0;
    while (at < size_ && is_space(begin_[at])) ++at;
    return at;
  }
  if (mode(s) == Mode::Key) {
    std::size_t at;
    std::memcpy(&at, s->bytes + 8, sizeof at);
    return at;
  }
  if (mode(s) != Mode::Value) return current_offset();
  const std::string_view token = held<od::value>(s).raw_json_token();
  return offset(token.data());
}

Errc type_of(Slot* value, Type* type) {
  od::json_type t{};
  const Errc e = with(value, [&](auto& h) { return h.type().get(t); });
  if (e != Errc::ok) return e;
  switch (t) {
    case od::json_type::array: *type = Type::Array; break;
    case od::json_type::object: *type = Type::Object; break;
    case od::json_type::number: *type = Type::Number; break;
    case od::json_type::string: *type = Type::String; break;
    case od::json_type::boolean: *type = Type::Bool; break;
    case od::json_type::null: *type = Type::Null; break;
  }
  return Errc::ok;
}

Errc take_null(Slot* value, bool* was_null) { return slot::take_null(value, was_null); }

Errc get_bool(Slot* value, bool* out) { return slot::get_bool(value, out); }

Errc get_int(Slot* value, std::int64_t* out) { return slot::get_int(value, out); }

Errc get_uint(Slot* value, std::uint64_t* out) { return slot::get_uint(value, out); }

Errc get_double(Slot* value, double* out) { return slot::get_double(value, out); }

Errc get_number(Slot* value, NumberKind* kind, std::int64_t* i, std::uint64_t* u, double* d) {
  // The number's type first, then the reader of that type: simdjson 3.0's get_number() gives
  // 0 for a floating-point number of more than 19 digits (12345678901234567890.0), where
  // get_double() reads it right. An integer beyond 64 bits or a number beyond a double's range
  // is refused, out_of_range, rather than rounded: a Value holds what it read exactly or not at
  // all.
  od::number_type type;
  if (Errc e = with(value, [&](auto& h) { return h.get_number_type().get(type); }); e != Errc::ok)
    return e;
  Slot copy = *value;
  Errc read;
  switch (type) {
    case od::number_type::signed_integer:
      *kind = NumberKind::Int;
      read = with(value, [&](auto& h) { return h.get_int64().get(*i); });
      return read == Errc::ok ? read : number_error(&copy, NumberRead::Int);
    case od::number_type::unsigned_integer:
      *kind = NumberKind::UInt;
      read = with(value, [&](auto& h) { return h.get_uint64().get(*u); });
      return read == Errc::ok ? read : number_error(&copy, NumberRead::UInt);
    default:
      *kind = NumberKind::Double;
      read = with(value, [&](auto& h) { return h.get_double().get(*d); });
      return read == Errc::ok ? read : number_error(&copy, NumberRead::Double);
  }
}

Errc get_string(Slot* value, std::string_view* out) { return slot::get_string(value, out); }

Errc get_number_text(Slot* value, std::string_view* out) {
  return with(value, [&](auto& h) -> error_code {
    if (error_code e = number_token(h, out)) return e;
    return is_number_text(*out) ? simdjson::SUCCESS : simdjson::NUMBER_ERROR;
  });
}

Errc begin_object(Slot* value, Slot* iterator) { return slot::begin_object(value, iterator); }

Errc next_field(Slot* iterator, bool* more, const char** key, Slot* value) {
  return slot::next_field(iterator, more, key, value);
}

Errc unescaped_key(const char* raw_key, std::string_view* out) {
  // Keys rarely have escapes: without a backslash, the raw text is the key.
  const char* end = raw_key;
  while (*end != '"' && *end != '\\') ++end;
  if (*end == '"') {
    *out = std::string_view(raw_key, static_cast<std::size_t>(end - raw_key));
    return Errc::ok;
  }
  std::string& key = buffers().key;
  key.assign(raw_key, end);
  auto hex4 = [](const char* p, std::uint32_t* v) {
    *v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = p[i];
      const int d = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
      if (d < 0) return false;
      *v = *v << 4 | static_cast<std::uint32_t>(d);
    }
    return true;
  };
  // Stage 1 found the key's closing quote and checked its UTF-8; the padding makes the reads
  // past a short escape safe.
  for (const char* p = end; *p != '"';) {
    if (*p != '\\') {
      key += *p++;
      continue;
    }
    const char c = p[1];
    p += 2;
    switch (c) {
      case '"': key += '"'; break;
      case '\\': key += '\\'; break;
      case '/': key += '/'; break;
      case 'b': key += '\b'; break;
      case 'f': key += '\f'; break;
      case 'n': key += '\n'; break;
      case 'r': key += '\r'; break;
      case 't': key += '\t'; break;
      case 'u': {
        std::uint32_t cp;
        if (!hex4(p, &cp)) return Errc::syntax_error;
        p += 4;
        if (cp >= 0xDC00 && cp <= 0xDFFF) return Errc::syntax_error;  // a lone low surrogate
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          std::uint32_t low;
          if (p[0] != '\\' || p[1] != 'u' || !hex4(p + 2, &low) || low < 0xDC00 || low > 0xDFFF)
            return Errc::syntax_error;
          p += 6;
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        append_utf8(key, cp);
        break;
      }
      default: return Errc::syntax_error;
    }
  }
  *out = key;
  return Errc::ok;
}

void hold_key(Slot* slot, const char* raw_key, std::size_t offset) {
  std::memcpy(slot->bytes, &raw_key, sizeof raw_key);
  std::memcpy(slot->bytes + 8, &offset, sizeof offset);
  mode(slot) = Mode::Key;
}

const char* held_key(const Slot* slot) {
  const char* raw;
  std::memcpy(&raw, slot->bytes, sizeof raw);
  return raw;
}

Errc begin_array(Slot* value, Slot* iterator) { return slot::begin_array(value, iterator); }

Errc next_element(Slot* iterator, bool* more, Slot* value) {
  return slot::next_element(iterator, more, value);
}

Errc read_base64(Slot* value, void* list, const TypeDesc* type) {
  const ListOps& ops = *type->list_ops;
  std::string_view text;
  if (Errc e = json::get_string(value, &text); e != Errc::ok) return e;
  ops.resize(type, list, base64_decoded_size(text.size()));
  std::size_t n = 0;
  if (!decode_base64(text, static_cast<std::uint8_t*>(ops.data(type, list)), &n)) {
    return Errc::invalid_base64;
  }
  ops.resize(type, list, n);
  return Errc::ok;
}

Errc read_decimal(Slot* value, Decimal* out) {
  std::string_view text;
  if (Errc e = get_number_text(value, &text); e != Errc::ok) return e;
  return parse_decimal(text, out) ? Errc::ok : Errc::out_of_range;
}

Errc read_time(Slot* value, TimeUnit unit, bool duration, std::int64_t* ticks,
               std::string_view* text) {
  if (Errc e = json::get_string(value, text); e != Errc::ok) return e;
  const bool ok = duration ? time_text::parse_duration(*text, unit, ticks)
                           : time_text::parse_timestamp(*text, unit, ticks);
  return ok ? Errc::ok : Errc::out_of_range;
}

namespace {

// A number the value holds as a string: ok, or why not (`read` parses the whole text).
template <class Number, class Read>
Errc number_in_text(Slot* value, Number* out, Read read) {
  std::string_view text;
  if (slot::get_string(value, &text) != Errc::ok) return Errc::type_mismatch;
  return read(text, out) ? Errc::ok : Errc::type_mismatch;
}

}  // namespace

Errc get_proto_int(Slot* value, std::int64_t* out) {
  Type type{};
  if (Errc e = type_of(value, &type); e != Errc::ok) return e;
  if (type != Type::String) return slot::get_int(value, out);
  return number_in_text(value, out, parse_int);
}

Errc get_proto_uint(Slot* value, std::uint64_t* out) {
  Type type{};
  if (Errc e = type_of(value, &type); e != Errc::ok) return e;
  if (type != Type::String) return slot::get_uint(value, out);
  return number_in_text(value, out, parse_uint);
}

Errc get_proto_double(Slot* value, double* out) {
  Type type{};
  if (Errc e = type_of(value, &type); e != Errc::ok) return e;
  if (type != Type::String) return slot::get_double(value, out);
  return number_in_text(value, out, [](std::string_view text, double* d) {
    if (text == "NaN") {
      *d = std::numeric_limits<double>::quiet_NaN();
    } else if (text == "Infinity" || text == "-Infinity") {
      *d = text[0] == '-' ? -std::numeric_limits<double>::infinity()
                          : std::numeric_limits<double>::infinity();
    } else {
      const char* end = text.data() + text.size();
      auto [p, ec] = std::from_chars(text.data(), end, *d);
      return ec == std::errc() && p == end && !text.empty() && std::isfinite(*d);
    }
    return true;
  });
}

}  // namespace jitser::json

namespace jitser {

extern "C" Errc jitser_json_number_error(json::Slot* value, std::uint8_t read) {
  return json::diagnose_number(value, static_cast<json::slot::NumberRead>(read));
}

}  // namespace jitser
