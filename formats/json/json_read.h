// JSON reading, shared by both tiers, on simdjson's On-Demand API.
//
// A Document parses one input; Slots hold the On-Demand values and iterators the reading walks
// with. The interpreter and compiled code make the same calls in the same order, so they accept
// and reject the same inputs. Functions return Errc::ok or the error's code; the offset of a
// failure is the position of the value or key being read (Document::offset).
//
// simdjson reads up to kReadPadding bytes past the end of its input. Input that has them (a
// PaddedInput or PaddedString, jitser/buffer.h) is read in place; other input is first copied
// into a padded buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <jitser/buffer.h>
#include <jitser/status.h>
#include <jitser/type_desc.h>

#include "formats/ops.h"

namespace jitser::json {

/// One On-Demand value, object or array iterator, or a map's key; plain bytes to everyone but
/// json_read.cpp.
using Slot = ::jitser::Slot;

/// The simdjson kernels reading runs: stage 1 on the one simdjson picks for this CPU, the
/// On-Demand code on the one it was compiled for ("stage 1 icelake, On-Demand fallback").
std::string kernel_name();

class Document {
 public:
  Document();
  ~Document();
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;

  /// Starts reading `input`, of which `padding` bytes past the end are readable; sets `root`.
  Errc open(std::span<const std::uint8_t> input, std::size_t padding, Slot* root);
  /// After the root value: ok when only whitespace is left.
  Errc finish();
  /// The input offset of a value slot, or of the position in the document.
  std::size_t offset(const Slot* value) const;
  std::size_t offset(const char* p) const { return static_cast<std::size_t>(p - begin_); }
  std::size_t current_offset() const;
  /// The offset just past the last byte that is not whitespace: a syntax error found there is
  /// input that ends too early.
  std::size_t end_of_text() const;
  /// The input's size in bytes.
  std::size_t size() const { return size_; }
  /// Whether `value`, not the root, is a number that the end of the text cuts off: its digits
  /// run to the end, so its container is left open and the number may be cut short.
  bool cut_off_number(const Slot* value) const;
  /// The offset of the first byte that is not UTF-8, for an input open() refused as such.
  std::size_t first_bad_utf8() const;

 private:
  alignas(8) unsigned char storage_[64];  // the simdjson document
  const char* begin_ = nullptr;
  std::size_t size_ = 0;
  bool open_ = false;
};

/// What `value` holds, before reading it.
enum class Type : std::uint8_t { Array, Object, Number, String, Bool, Null };
Errc type_of(Slot* value, Type* type);

/// Consumes a null; *was_null says whether the value was one (nothing is consumed otherwise).
Errc take_null(Slot* value, bool* was_null);
Errc get_bool(Slot* value, bool* out);
/// type_mismatch for a non-number or a number with a fraction or exponent; out_of_range for an
/// integer beyond the type.
Errc get_int(Slot* value, std::int64_t* out);
Errc get_uint(Slot* value, std::uint64_t* out);
Errc get_double(Slot* value, double* out);
/// Integer, unsigned or double, whichever the number is (for jitser::Value).
enum class NumberKind : std::uint8_t { Int, UInt, Double };
Errc get_number(Slot* value, NumberKind* kind, std::int64_t* i, std::uint64_t* u, double* d);
/// The unescaped string, valid until the Document ends.
Errc get_string(Slot* value, std::string_view* out);
/// The number's text as written (for decimals).
Errc get_number_text(Slot* value, std::string_view* out);

// Typed reads both tiers make. Each fails with the code of the get_* call beneath it for a
// value of another JSON type, or as it says.
/// A base64 string into bytes; invalid_base64 for anything but RFC 4648 with padding.
Errc read_base64(Slot* value, void* list, const TypeDesc* type);
/// A number with every digit; out_of_range when they do not fit 64 bits, or the scale 32.
Errc read_decimal(Slot* value, Decimal* out);
/// An RFC 3339 timestamp, or a duration ("1.5s"), as ticks of `unit`; out_of_range when it is
/// malformed or beyond the unit. *text is the string read.
Errc read_time(Slot* value, TimeUnit unit, bool duration, std::int64_t* ticks,
               std::string_view* text);

/// Protobuf's JSON (json::kProto): a number, or a string that holds one, as Protobuf writes
/// 64-bit integers; for floats also "NaN", "Infinity" and "-Infinity". type_mismatch for
/// anything else, out_of_range for a number beyond the type.
Errc get_proto_int(Slot* value, std::int64_t* out);
Errc get_proto_uint(Slot* value, std::uint64_t* out);
Errc get_proto_double(Slot* value, double* out);

/// Starts an object; `iterator` then walks it with next_field.
Errc begin_object(Slot* value, Slot* iterator);
/// The next field: *key points at the key's raw text after its opening quote (escapes as
/// written); *more is false after the last field, and `value` is then unused.
Errc next_field(Slot* iterator, bool* more, const char** key, Slot* value);
/// The unescaped form of a raw key from next_field.
Errc unescaped_key(const char* raw_key, std::string_view* out);
/// Holds a raw key from next_field and its offset in a slot (a map's key), which
/// Document::offset then gives.
void hold_key(Slot* slot, const char* raw_key, std::size_t offset);
const char* held_key(const Slot* slot);
Errc begin_array(Slot* value, Slot* iterator);
Errc next_element(Slot* iterator, bool* more, Slot* value);

/// True when `raw` (from next_field) is exactly `quoted_tail`: the key's JSON text without its
/// opening quote, closing quote included. Keys written with escapes compare false.
inline bool raw_key_is(const char* raw, std::string_view quoted_tail) {
  return std::string_view(raw, quoted_tail.size()) == quoted_tail;
}

}  // namespace jitser::json
