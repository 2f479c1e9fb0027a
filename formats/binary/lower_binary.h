// Lowering for jitser's binary format (docs/formats/binary.md): TypeDesc -> Plan.
#pragma once

#include "formats/plan.h"

namespace jitser {

/// The binary Plan for a resolved root struct. Serialize and deserialize Plans have the same
/// instructions: the binary format is symmetric.
Plan lower_binary(const TypeDesc& root, Direction direction);

}  // namespace jitser
