// Lowering for JSON (docs/formats/json.md): TypeDesc -> Plan.
#pragma once

#include "formats/plan.h"

namespace jitser {

/// The JSON Plan for a resolved root type. Both directions have the same instructions; each
/// struct routine lists its fields, whose keys the Plan holds pre-encoded (PlanField::key).
Plan lower_json(const TypeDesc& root, Direction direction);

/// JSON's encodings of a value (Instr::enc).
namespace json {
inline constexpr std::uint8_t kPlain = 0;
inline constexpr std::uint8_t kQuoted = 1;  // an integer as a string: a map key
}  // namespace json

/// "quoted" for a map key's integer, else nothing.
const char* json_enc_name(const Instr& in);

}  // namespace jitser
