// jitser::Value in the binary format (docs/formats/binary.md, "Dynamic values"), for both tiers.
#pragma once

#include <cstddef>
#include <cstdint>

#include <jitser/buffer.h>
#include <jitser/status.h>
#include <jitser/value.h>

namespace jitser::wire {

/// Appends `v`, nesting at most `depth_left` arrays and maps; fails only with depth_exceeded.
Errc write_value(Buffer& out, const Value& v, std::uint32_t depth_left);

/// Reads one value from [*p, end) into `v` and advances *p. On failure *p is where the bad
/// bytes start.
Errc read_value(const std::uint8_t** p, const std::uint8_t* end, Value& v,
                std::uint32_t depth_left);

}  // namespace jitser::wire
