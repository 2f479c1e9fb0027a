// jitser::Value in JSON, for both tiers: a Value field or document is written and read by these.
#pragma once

#include <cstddef>
#include <cstdint>

#include <jitser/buffer.h>
#include <jitser/value.h>

#include "formats/json/json_read.h"

namespace jitser::json {

/// Appends `v` as JSON, nesting at most `depth_left` arrays and maps. Fails with not_finite,
/// invalid_utf8 or depth_exceeded.
Errc write_value(Buffer& out, const Value& v, std::uint32_t depth_left);

/// Reads the value in `slot` into `v`, nesting at most `depth_left` arrays and objects. JSON
/// numbers become Int, UInt (beyond int64) or Double; strings become String. On failure,
/// *offset is where in the input.
Errc read_value(const Document& doc, Slot* slot, Value& v, std::uint32_t depth_left,
                std::size_t* offset);

}  // namespace jitser::json
