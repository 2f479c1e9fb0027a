// jitser::Value: a dynamic value, for data whose shape is not known in advance.
//
// A Value is null, a bool, a signed or unsigned integer, a double, a string, bytes, an array, a
// map with string keys, or a decimal. It is usable as a whole document (`engine.codec<Value>`)
// or as a field of a registered struct, in every format. Maps keep their members in document
// order, and keep a key that a document repeats: a Value holds what it read.
//
// It also holds what MessagePack and CBOR carry beyond those, so that a document read and
// written again is the same bytes: a float32, a map with keys that are not all text, a CBOR
// tag and its content, a CBOR simple value (`undefined` among them), and a MessagePack
// extension. A format that has no such item refuses to write one with `unsupported`.
//
//   jitser::Value v = jitser::Value::Map{{"id", 7}, {"tags", jitser::Value::Array{"a", "b"}}};
//   if (const jitser::Value* id = v.find("id")) std::int64_t n = id->as_int();
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <jitser/export.h>
#include <jitser/type_desc.h>

namespace jitser {

class Value;
/// Equal type and content; an Int and a UInt are equal when they hold the same number, and a
/// Float and a Double when they hold the same value.
JITSER_API bool operator==(const Value& a, const Value& b);

/// A CBOR tag (RFC 8949, section 3.4) and the item it tags, for tags a Value has no type of
/// its own for. Integers a Value's Int and UInt cannot hold are bignums here: tag 2 or 3
/// around the big-endian bytes of the magnitude (a negative integer below int64 too), and CBOR
/// writes one that fits 64 bits as a plain integer head.
class JITSER_API Tagged {
 public:
  Tagged(std::uint64_t number, Value content);
  Tagged(const Tagged& other);
  Tagged(Tagged&& other) noexcept;
  Tagged& operator=(const Tagged& other);
  Tagged& operator=(Tagged&& other) noexcept;
  ~Tagged();

  std::uint64_t number() const { return number_; }
  /// The tagged item; a Tagged that was moved from has none, and must be assigned before this.
  const Value& content() const { return *content_; }
  Value& content() { return *content_; }

  bool operator==(const Tagged& other) const;

 private:
  std::uint64_t number_;
  std::unique_ptr<Value> content_;  // null only once moved from
};

/// A MessagePack extension: its type (negative types are the specification's own, -1 the
/// timestamp) and its bytes.
struct Extension {
  std::int8_t type = 0;
  std::vector<std::uint8_t> data;
  friend bool operator==(const Extension&, const Extension&) = default;
};

/// A CBOR simple value other than false, true and null: 0 to 19, 23 (`undefined`) and 32 to
/// 255 (RFC 8949, section 3.3).
struct Simple {
  std::uint8_t value = 0;
  friend bool operator==(const Simple&, const Simple&) = default;
};
/// CBOR's `undefined`.
inline constexpr Simple kUndefined{23};

class JITSER_API Value {
 public:
  enum class Type : std::uint8_t {
    Null,
    Bool,
    Int,
    UInt,
    Double,
    String,
    Bytes,
    Array,
    Map,
    Decimal,
    Float,      // a float32, as MessagePack's float 32 holds one
    Entries,    // a map whose keys are not all strings
    Tagged,     // a CBOR tag and its content
    Extension,  // a MessagePack extension
    Simple      // a CBOR simple value
  };
  using Bytes = std::vector<std::uint8_t>;
  using Array = std::vector<Value>;
  using Member = std::pair<std::string, Value>;
  using Map = std::vector<Member>;
  /// A map entry whose key is any Value.
  using Entry = std::pair<Value, Value>;
  using Entries = std::vector<Entry>;

  Value() = default;
  Value(std::nullptr_t) {}
  Value(bool b) : v_(b) {}
  Value(int i) : v_(std::int64_t{i}) {}
  Value(std::int64_t i) : v_(i) {}
  Value(std::uint64_t u) : v_(u) {}
  Value(double d) : v_(d) {}
  Value(const char* s) : v_(std::string(s)) {}
  Value(std::string s) : v_(std::move(s)) {}
  Value(Bytes b) : v_(std::move(b)) {}
  Value(Array a) : v_(std::move(a)) {}
  Value(Map m) : v_(std::move(m)) {}
  Value(Decimal d) : v_(d) {}
  Value(float f) : v_(f) {}
  Value(Entries e) : v_(std::move(e)) {}
  Value(jitser::Tagged t) : v_(std::move(t)) {}
  Value(jitser::Extension x) : v_(std::move(x)) {}
  Value(jitser::Simple s) : v_(s) {}

  Type type() const { return static_cast<Type>(v_.index()); }
  bool is_null() const { return type() == Type::Null; }

  // Accessors for the held alternative; calling one for another type throws
  // std::bad_variant_access.
  bool as_bool() const { return std::get<bool>(v_); }
  std::int64_t as_int() const { return std::get<std::int64_t>(v_); }
  std::uint64_t as_uint() const { return std::get<std::uint64_t>(v_); }
  double as_double() const { return std::get<double>(v_); }
  const std::string& as_string() const { return std::get<std::string>(v_); }
  std::string& as_string() { return std::get<std::string>(v_); }
  const Bytes& as_bytes() const { return std::get<Bytes>(v_); }
  Bytes& as_bytes() { return std::get<Bytes>(v_); }
  const Array& as_array() const { return std::get<Array>(v_); }
  Array& as_array() { return std::get<Array>(v_); }
  const Map& as_map() const { return std::get<Map>(v_); }
  Map& as_map() { return std::get<Map>(v_); }
  Decimal as_decimal() const { return std::get<Decimal>(v_); }
  float as_float() const { return std::get<float>(v_); }
  const Entries& as_entries() const { return std::get<Entries>(v_); }
  Entries& as_entries() { return std::get<Entries>(v_); }
  const jitser::Tagged& as_tagged() const { return std::get<jitser::Tagged>(v_); }
  jitser::Tagged& as_tagged() { return std::get<jitser::Tagged>(v_); }
  const jitser::Extension& as_extension() const { return std::get<jitser::Extension>(v_); }
  jitser::Simple as_simple() const { return std::get<jitser::Simple>(v_); }

  /// The first member of a map with this key, or null (also when this is not a map).
  const Value* find(std::string_view key) const;

  friend bool operator==(const Value& a, const Value& b);

 private:
  std::variant<std::monostate, bool, std::int64_t, std::uint64_t, double, std::string, Bytes, Array,
               Map, Decimal, float, Entries, jitser::Tagged, jitser::Extension, jitser::Simple>
      v_;
};

/// "null", "bool", ... as error messages name a Value's type.
JITSER_API const char* value_type_name(Value::Type type);

}  // namespace jitser
