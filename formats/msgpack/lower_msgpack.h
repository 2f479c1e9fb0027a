// Lowering for MessagePack (docs/formats/msgpack.md): TypeDesc -> Plan.
#pragma once

#include "formats/plan.h"

namespace jitser {

/// The MessagePack Plan for a resolved root struct: structs as maps keyed by field name.
Plan lower_msgpack(const TypeDesc& root, Direction direction, const RunOptions& options);

/// An instruction's encoding for Plan dumps: MessagePack picks every encoding from the value,
/// so none is named.
const char* msgpack_enc_name(const Instr& in);

}  // namespace jitser
