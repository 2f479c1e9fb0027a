#include <memory>

#include <jitser/value.h>

namespace jitser {

Tagged::Tagged(std::uint64_t number, Value content)
    : number_(number), content_(std::make_unique<Value>(std::move(content))) {}
Tagged::Tagged(const Tagged& other)
    : number_(other.number_), content_(std::make_unique<Value>(*other.content_)) {}
Tagged::Tagged(Tagged&& other) noexcept = default;
Tagged& Tagged::operator=(const Tagged& other) {
  if (this != &other) *this = Tagged(other);
  return *this;
}
Tagged& Tagged::operator=(Tagged&& other) noexcept = default;
Tagged::~Tagged() = default;

bool Tagged::operator==(const Tagged& other) const {
  return number_ == other.number_ && *content_ == *other.content_;
}

const Value* Value::find(std::string_view key) const {
  if (type() != Type::Map) return nullptr;
  for (const Member& m : as_map()) {
    if (m.first == key) return &m.second;
  }
  return nullptr;
}

bool operator==(const Value& a, const Value& b) {
  using T = Value::Type;
  if (a.type() == T::Int && b.type() == T::UInt) {
    return a.as_int() >= 0 && static_cast<std::uint64_t>(a.as_int()) == b.as_uint();
  }
  if (a.type() == T::UInt && b.type() == T::Int) return b == a;
  if (a.type() == T::Float && b.type() == T::Double) {
    return static_cast<double>(a.as_float()) == b.as_double();
  }
  if (a.type() == T::Double && b.type() == T::Float) return b == a;
  return a.v_ == b.v_;
}

const char* value_type_name(Value::Type type) {
  switch (type) {
    case Value::Type::Null: return "null";
    case Value::Type::Bool: return "bool";
    case Value::Type::Int: return "int";
    case Value::Type::UInt: return "uint";
    case Value::Type::Double: return "double";
    case Value::Type::String: return "string";
    case Value::Type::Bytes: return "bytes";
    case Value::Type::Array: return "array";
    case Value::Type::Map: return "map";
    case Value::Type::Decimal: return "decimal";
    case Value::Type::Float: return "float";
    case Value::Type::Entries: return "map with keys that are not all strings";
    case Value::Type::Tagged: return "tagged item";
    case Value::Type::Extension: return "extension";
    case Value::Type::Simple: return "simple value";
  }
  return "?";
}

}  // namespace jitser
