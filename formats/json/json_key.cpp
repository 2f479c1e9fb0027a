#include "formats/json/json_key.h"

#include <cstring>
#include <string>

#include "formats/json/json_text.h"
#include "typeinfo/strings.h"

namespace jitser::json {

Errc read_key(const Instr& in, std::string_view text, void* p) {
  switch (in.op) {
    case Op::String: assign_string(*in.type, p, text); return Errc::ok;
    case Op::Int: {
      std::int64_t x = 0;
      if (!parse_int(text, &x) || !fits_int(x, in.width)) return Errc::type_mismatch;
      std::memcpy(p, &x, in.width);
      return Errc::ok;
    }
    case Op::UInt: {
      std::uint64_t x = 0;
      if (!parse_uint(text, &x) || !fits_uint(x, in.width)) return Errc::type_mismatch;
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
