#include <jitser/type_desc.h>

namespace jitser {

TypeBox::TypeBox(TypeDesc desc) : ptr_(std::make_unique<TypeDesc>(std::move(desc))) {}
TypeBox::TypeBox(const TypeBox& other)
    : ptr_(other.ptr_ ? std::make_unique<TypeDesc>(*other.ptr_) : nullptr) {}
TypeBox& TypeBox::operator=(const TypeBox& other) {
  if (this != &other) ptr_ = other.ptr_ ? std::make_unique<TypeDesc>(*other.ptr_) : nullptr;
  return *this;
}
TypeBox::~TypeBox() = default;

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::Bool: return "bool";
    case Kind::Int8: return "int8";
    case Kind::Int16: return "int16";
    case Kind::Int32: return "int32";
    case Kind::Int64: return "int64";
    case Kind::UInt8: return "uint8";
    case Kind::UInt16: return "uint16";
    case Kind::UInt32: return "uint32";
    case Kind::UInt64: return "uint64";
    case Kind::Float32: return "float32";
    case Kind::Float64: return "float64";
    case Kind::String: return "string";
    case Kind::Bytes: return "bytes";
    case Kind::Dynamic: return "value";
    case Kind::Enum: return "enum";
    case Kind::Decimal: return "decimal";
    case Kind::Timestamp: return "timestamp";
    case Kind::Duration: return "duration";
    case Kind::Struct: return "struct";
    case Kind::List: return "list";
    case Kind::Array: return "array";
    case Kind::Optional: return "optional";
    case Kind::UniquePtr: return "unique_ptr";
    case Kind::SharedPtr: return "shared_ptr";
    case Kind::Map: return "map";
    case Kind::Named: return "named";
  }
  return "?";
}

namespace {
const char* unit_name(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::Seconds: return "s";
    case TimeUnit::Millis: return "ms";
    case TimeUnit::Micros: return "us";
    case TimeUnit::Nanos: return "ns";
  }
  return "?";
}
}  // namespace

std::string display_name(const TypeDesc& type) {
  auto inner = [](const TypeBox& box) { return box ? display_name(*box) : std::string("?"); };
  switch (type.kind) {
    case Kind::Struct:
    case Kind::Enum: return type.name;
    case Kind::Named:
      if (type.target) return type.target->name;
      return type.name.empty() ? std::string("<unnamed>") : type.name;
    case Kind::Timestamp:
    case Kind::Duration:
      return std::string(kind_name(type.kind)) + "(" + unit_name(type.unit) + ")";
    case Kind::List:
    case Kind::Optional:
    case Kind::UniquePtr:
    case Kind::SharedPtr:
      return std::string(kind_name(type.kind)) + "<" + inner(type.element) + ">";
    case Kind::Array:
      return "array<" + inner(type.element) + "," + std::to_string(type.count) + ">";
    case Kind::Map: return "map<" + inner(type.key) + "," + inner(type.element) + ">";
    default: return kind_name(type.kind);
  }
}

}  // namespace jitser
