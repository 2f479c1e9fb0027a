// Lowering for the Protobuf wire format (docs/formats/protobuf.md): TypeDesc -> Plan.
#pragma once

#include "formats/plan.h"

namespace jitser {

/// The Protobuf Plan for a resolved root type: a message of the struct's fields, or, for a
/// root that is no struct, a message whose field 1 holds it. Both directions have the same
/// instructions.
Plan lower_protobuf(const TypeDesc& root, Direction direction);

/// An instruction's encoding for Plan dumps: its wire type, "zigzag", "packed".
const char* protobuf_enc_name(const Instr& in);

}  // namespace jitser
