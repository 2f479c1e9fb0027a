// Lowering for the Protobuf wire format (docs/formats/protobuf.md): TypeDesc -> Plan.
#pragma once

#include "formats/format_table.h"
#include "formats/plan.h"

namespace jitser {

/// The Protobuf Plan for a resolved root type: a message of the struct's fields, or, for a
/// root that is no struct, a message whose field 1 holds it. Both directions have the same
/// instructions.
Plan lower_protobuf(const TypeDesc& root, Direction direction, const RunOptions& options);

/// The first field whose number Protobuf cannot write (past 2^29 - 1), or null: both tiers
/// refuse to write a Plan that has one (its Op::Frame's encoding says so).
const PlanField* unwritable_field(const Plan& plan);

/// What the most bytes a put of the kernel writes for `in` (protobuf_kernel.cpp).
WriteBound protobuf_write_bound(const Instr& in);

/// An instruction's encoding for Plan dumps: its wire type, "zigzag", "packed".
const char* protobuf_enc_name(const Instr& in);

}  // namespace jitser
