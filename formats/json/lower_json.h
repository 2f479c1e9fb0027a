// Lowering for JSON (docs/formats/json.md): TypeDesc -> Plan.
#pragma once

#include "formats/plan.h"

namespace jitser {

/// The JSON Plan for a resolved root type. Both directions have the same instructions; each
/// struct routine lists its fields, whose keys the Plan holds pre-encoded (Plan::keys).
Plan lower_json(const TypeDesc& root, Direction direction);

}  // namespace jitser
