// Status and Result: how every jitser operation reports failure, without exceptions.
//
// A successful Status is a null pointer, so the hot path pays one compare. A failure carries a
// code, a message, the byte offset in the input (deserialization) and the field path, e.g.
// `MediaContent.images[2].width`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>

#include <jitser/export.h>

namespace jitser {

enum class Errc : std::uint8_t {
  ok = 0,
  // Registration and codec lookup
  invalid_descriptor,  // a descriptor that contradicts itself (size, offsets, kinds)
  duplicate_type,      // a second, different type under a registered name
  duplicate_field,     // two fields with one wire name
  duplicate_number,    // two fields with one field number
  unregistered_type,   // a field refers to a type that is not registered
  recursive_by_value,  // a struct contains itself without a pointer or container between
  unknown_type,        // no registered type of that name or C++ type
  unsupported,         // a schema feature jitser cannot map (a Protobuf group or extension)
  cannot_read,         // a schema file that does not exist or cannot be read
  empty_codec,         // a default-constructed codec, which no Engine made
  // Reading input
  truncated,             // input ended inside a value
  varint_overlong,       // a varint longer than its width allows, or with a redundant last byte
  varint_overflow,       // a varint whose value does not fit the field
  length_too_large,      // a length or count larger than the remaining input can hold
  invalid_bool,          // a bool byte other than 0 or 1
  unknown_enum,          // an enum value that is not declared
  bad_reference,         // a reference id that no earlier object has
  depth_exceeded,        // nesting deeper than the configured limit
  trailing_bytes,        // bytes left over after the root value
  fingerprint_mismatch,  // bytes written for a different schema
  bad_header,            // not jitser binary, or an unsupported version or flag
  bad_flag,              // a null/reference flag this field cannot take
  invalid_utf8,          // a string that is not UTF-8
  duplicate_key,         // a map key that appears twice
  out_of_range,          // a value outside what the field's type can hold
  syntax_error,          // text that is not well-formed in the format (JSON)
  type_mismatch,         // a value of another type than the field's (a string for an int)
  missing_field,         // a required field absent from the input
  unknown_field,         // a field the type does not declare, under a strict option
  invalid_base64,        // bytes written as a string that is not base64
  oneof_conflict,        // two fields of one oneof hold a value (also when writing)
  // Writing
  not_finite,  // NaN or an infinity where the format has no way to write it
  cycle,       // a shared object that contains itself, in a format without references
  // Compiling
  jit_failed,  // LLVM could not compile a codec; it keeps running on the interpreter
  // A jitser bug: a failure made without a code (Status(Errc::ok, ...) becomes this)
  internal,
};

/// A short fixed name for a code, e.g. "truncated".
JITSER_API const char* errc_name(Errc code);

class [[nodiscard]] JITSER_API Status {
 public:
  static constexpr std::size_t kNoOffset = static_cast<std::size_t>(-1);

  Status() = default;
  /// A failure. `code` is never ok: a failure made with Errc::ok carries Errc::internal, so
  /// no Status is both a failure and ok.
  Status(Errc code, std::string message, std::size_t offset = kNoOffset, std::string path = {});
  Status(const Status& other);
  Status& operator=(const Status& other);
  // Inline, so that passing on and dropping a successful Status costs a null check.
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;
  ~Status() = default;

  bool ok() const { return detail_ == nullptr; }
  explicit operator bool() const { return ok(); }
  Errc code() const;
  const std::string& message() const;
  std::size_t offset() const;  // kNoOffset when not about input bytes
  const std::string& path() const;

  /// "truncated at byte 17 in MediaContent.images[2].width: ...", or "ok".
  std::string to_string() const;

 private:
  struct Detail {
    Errc code;
    std::string message;
    std::size_t offset;
    std::string path;
  };
  std::unique_ptr<Detail> detail_;
};

/// A value or the Status that explains why there is none.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Status status) : v_(std::move(status)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  /// The failure; an ok Status when there is a value.
  Status status() const { return ok() ? Status() : std::get<1>(v_); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace jitser
