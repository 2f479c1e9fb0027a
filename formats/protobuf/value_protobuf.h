// jitser::Value in the Protobuf format, as the message docs/formats/protobuf.md declares
// ("Dynamic values"): a oneof of its kinds, arrays and maps as repeated nested messages.
#pragma once

#include <cstdint>

#include <jitser/buffer.h>
#include <jitser/status.h>
#include <jitser/value.h>

#include "formats/protobuf/fields.h"

namespace jitser::protobuf {

/// The fields of the Decimal message, `message { sint64 unscaled = 1; sint32 scale = 2; }`,
/// zeros left out: a decimal field's and a Value's.
void write_decimal(Buffer& out, const Decimal& d);
/// Reads the Decimal message in [p, end) into `d`.
bool read_decimal(const std::uint8_t* p, const std::uint8_t* end, Decimal& d, ReadFailure& fail);

/// Appends the fields of the Value message for `v`, nesting at most `depth_left` arrays and
/// maps; fails only with depth_exceeded.
Errc write_value(Buffer& out, const Value& v, std::uint32_t depth_left);

/// Reads the Value message in [p, end) into `v`.
bool read_value(const std::uint8_t* p, const std::uint8_t* end, Value& v, std::uint32_t depth_left,
                ReadFailure& fail);

}  // namespace jitser::protobuf
