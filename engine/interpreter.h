// The interpreter: runs a Plan over the user's object, calling the format's operations
// (formats/ops.h), which the table of formats makes, for its bytes. It names no format.
#pragma once

#include <cstdint>
#include <span>

#include <jitser/buffer.h>
#include <jitser/status.h>

#include "formats/plan.h"

namespace jitser {

/// Appends the object's encoding to `out`. On failure `out` holds a partial encoding.
Status interpret_serialize(const Plan& plan, const RunOptions& options, const void* object,
                           Buffer& out);

/// Reads `input` into `object`, which must be a live object of the Plan's root type. On failure
/// the object stays valid to use and destroy, possibly partly overwritten. `padding` bytes past
/// the input's end may be read (JSON reads in place with 64 of them).
Status interpret_deserialize(const Plan& plan, const RunOptions& options,
                             std::span<const std::uint8_t> input, std::size_t padding,
                             void* object);

}  // namespace jitser
