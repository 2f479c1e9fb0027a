// The interpreter: runs a Plan over the user's object, calling the format's wire rules natively.
// Until formats reach it only through their ops (docs/design.md), each format has a walker of
// its own here: binary's in interpreter.cpp, JSON's in interpret_json.cpp.
#pragma once

#include <cstdint>
#include <span>

#include "formats/buffer.h"
#include "formats/plan.h"
#include "typeinfo/status.h"

namespace jitser {

/// Appends the object's encoding to `out`. On failure `out` holds a partial encoding.
Status interpret_serialize(const Plan& plan, const RunOptions& options, const void* object,
                           Buffer& out);

/// Reads `input` into `object`, which must be a live object of the Plan's root type. On failure
/// the object stays valid to use and destroy, possibly partly overwritten. `padding` bytes past
/// the input's end may be read (JSON reads in place with json::kPadding of them).
Status interpret_deserialize(const Plan& plan, const RunOptions& options,
                             std::span<const std::uint8_t> input, std::size_t padding,
                             void* object);

// The format-specific halves (engine/interpreter.cpp, engine/interpret_json.cpp).
Status interpret_binary_serialize(const Plan& plan, const RunOptions& options, const void* object,
                                  Buffer& out);
Status interpret_binary_deserialize(const Plan& plan, const RunOptions& options,
                                    std::span<const std::uint8_t> input, void* object);
Status interpret_json_serialize(const Plan& plan, const RunOptions& options, const void* object,
                                Buffer& out);
Status interpret_json_deserialize(const Plan& plan, const RunOptions& options,
                                  std::span<const std::uint8_t> input, std::size_t padding,
                                  void* object);

}  // namespace jitser
