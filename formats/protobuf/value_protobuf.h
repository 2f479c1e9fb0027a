// jitser::Value in the Protobuf format, as the message docs/formats/protobuf.md declares
// ("Dynamic values"): a oneof of its kinds, arrays and maps as repeated nested messages.
#pragma once

#include <cstdint>

#include <jitser/buffer.h>
#include <jitser/status.h>
#include <jitser/value.h>

#include "formats/protobuf/fields.h"

namespace jitser::protobuf {

/// Reads the Decimal message in [p, end) into `d` (protobuf_slot.h writes it).
bool read_decimal(const std::uint8_t* p, const std::uint8_t* end, Decimal& d, ReadFailure& fail);

/// Reads the Timestamp or Duration message in `v` as a count of `unit`. In it, as in a
/// Decimal, unknown fields may be groups, which hold no groups themselves.
bool read_time(const FieldValue& v, TimeUnit unit, bool duration, std::int64_t& ticks,
               ReadFailure& fail);

/// Appends the fields of the Value message for `v`, nesting at most `depth_left` arrays and
/// maps; fails only with depth_exceeded.
Errc write_value(Buffer& out, const Value& v, std::uint32_t depth_left);

/// Reads the Value message in [p, end) into `v`.
bool read_value(const std::uint8_t* p, const std::uint8_t* end, Value& v, std::uint32_t depth_left,
                ReadFailure& fail);

}  // namespace jitser::protobuf
