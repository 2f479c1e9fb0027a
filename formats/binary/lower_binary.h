// Lowering for jitser's binary format (docs/formats/binary.md): TypeDesc -> Plan.
#pragma once

#include "formats/plan.h"

namespace jitser {

/// The binary Plan for a resolved root struct. Serialize and deserialize Plans have the same
/// instructions: the binary format is symmetric.
Plan lower_binary(const TypeDesc& root, Direction direction, const RunOptions& options);

/// An instruction's encoding for Plan dumps: "varint", "zigzag", ...; a list's or map's
/// element header, "header=0x04".
const char* binary_enc_name(const Instr& in);

}  // namespace jitser
