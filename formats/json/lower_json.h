// Lowering for JSON (docs/formats/json.md): TypeDesc -> Plan.
#pragma once

#include "formats/plan.h"

namespace jitser {

/// The JSON Plan for a resolved root type. Both directions have the same instructions; each
/// struct routine lists its fields, whose keys the Plan holds pre-encoded (PlanField::key).
Plan lower_json(const TypeDesc& root, Direction direction, const RunOptions& options);

/// JSON's encodings of a value (Instr::enc).
namespace json {
inline constexpr std::uint8_t kPlain = 0;
inline constexpr std::uint8_t kQuoted = 1;  // an integer as a string: a map key
// A value of a Protobuf message, as Protobuf's JSON mapping has it: 64-bit integers written as
// strings, floats in Protobuf's digits with NaN and infinities as strings, times with 0, 3, 6
// or 9 fraction digits; numbers read from strings too.
inline constexpr std::uint8_t kProto = 2;

/// Whether an integer of `width` bytes is written in quotes.
inline bool quoted_integer(std::uint32_t enc, std::uint32_t width) {
  return enc == kQuoted || (enc == kProto && width == 8);
}
}  // namespace json

/// "quoted" for a map key's integer, else nothing.
const char* json_enc_name(const Instr& in);

}  // namespace jitser
