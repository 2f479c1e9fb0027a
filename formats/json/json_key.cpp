#include "formats/json/json_key.h"

#include <cstring>
#include <string>

#include "formats/json/json_text.h"

namespace jitser::json {
namespace {

bool fits(std::int64_t v, unsigned width) {
  if (width >= 8) return true;
  const std::int64_t half = std::int64_t{1} << (width * 8 - 1);
  return v >= -half && v < half;
}
bool fits(std::uint64_t v, unsigned width) {
  return width >= 8 || v < (std::uint64_t{1} << (width * 8));
}

}  // namespace

Errc read_key(const Instr& in, std::string_view text, void* p) {
  switch (in.op) {
    case Op::String: static_cast<std::string*>(p)->assign(text); return Errc::ok;
    case Op::Int: {
      std::int64_t x = 0;
      if (!parse_int(text, &x) || !fits(x, in.width)) return Errc::type_mismatch;
      std::memcpy(p, &x, in.width);
      return Errc::ok;
    }
    case Op::UInt: {
      std::uint64_t x = 0;
      if (!parse_uint(text, &x) || !fits(x, in.width)) return Errc::type_mismatch;
      std::memcpy(p, &x, in.width);
      return Errc::ok;
    }
    case Op::Enum:
      for (const EnumValue& d : in.type->values) {
        if (d.name == text) {
          std::memcpy(p, &d.value, in.type->size);
          return Errc::ok;
        }
      }
      return Errc::unknown_enum;
    default: return Errc::invalid_descriptor;
  }
}

}  // namespace jitser::json
