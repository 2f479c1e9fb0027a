// Lowering for CBOR (docs/formats/cbor.md): TypeDesc -> Plan.
#pragma once

#include "formats/plan.h"

namespace jitser {

/// The CBOR Plan for a resolved root struct: structs as maps keyed by field name.
Plan lower_cbor(const TypeDesc& root, Direction direction, const RunOptions& options);

/// An instruction's encoding for Plan dumps: CBOR picks every encoding from the value, so none
/// is named.
const char* cbor_enc_name(const Instr& in);

}  // namespace jitser
