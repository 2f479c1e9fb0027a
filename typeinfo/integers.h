// The user's integers and enums as they lie in memory, for the interpreter, the formats'
// operations and Objects' access to their values.
#pragma once

#include <cstdint>
#include <cstring>

#include <jitser/type_desc.h>

namespace jitser {

/// A bool, integer, float, enum or time: a value of 1 to 8 bytes, trivially made and destroyed,
/// equal to another of its type exactly when their bytes are.
inline bool is_plain_number(Kind k) {
  switch (k) {
    case Kind::Bool:
    case Kind::Int8:
    case Kind::Int16:
    case Kind::Int32:
    case Kind::Int64:
    case Kind::UInt8:
    case Kind::UInt16:
    case Kind::UInt32:
    case Kind::UInt64:
    case Kind::Float32:
    case Kind::Float64:
    case Kind::Enum:
    case Kind::Timestamp:
    case Kind::Duration: return true;
    default: return false;
  }
}

inline bool is_unsigned(Kind k) {
  return k == Kind::UInt8 || k == Kind::UInt16 || k == Kind::UInt32 || k == Kind::UInt64;
}

/// A signed integer of `width` bytes (1, 2, 4 or 8) at p, widened.
inline std::int64_t load_signed(const void* p, unsigned width) {
  switch (width) {
    case 1: return *static_cast<const std::int8_t*>(p);
    case 2: return *static_cast<const std::int16_t*>(p);
    case 4: return *static_cast<const std::int32_t*>(p);
    default: return *static_cast<const std::int64_t*>(p);
  }
}

/// An integer or enum of type `t` at p, widened; an unsigned one as its bits.
inline std::int64_t load_integer(const TypeDesc& t, const void* p) {
  if (!is_unsigned(t.kind == Kind::Enum ? t.underlying : t.kind)) {
    return load_signed(p, static_cast<unsigned>(t.size));
  }
  std::uint64_t v = 0;
  std::memcpy(&v, p, t.size);
  return static_cast<std::int64_t>(v);
}

inline bool enum_declared(const TypeDesc& e, std::int64_t v) {
  for (const EnumValue& d : e.values) {
    if (d.value == v) return true;
  }
  return false;
}

}  // namespace jitser
