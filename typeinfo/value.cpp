#include <jitser/value.h>

namespace jitser {

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
  }
  return "?";
}

}  // namespace jitser
