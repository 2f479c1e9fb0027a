// jitser::Value in CBOR: written as the item of its type in preferred serialization, read from
// any well-formed item a Value holds (docs/formats/cbor.md, "Values of unknown shape").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <jitser/buffer.h>
#include <jitser/status.h>
#include <jitser/value.h>

namespace jitser::cbor {

/// Writes `v`, nesting at most `depth_left` levels: Errc::depth_exceeded past them.
Errc write_value(Buffer& out, const Value& v, std::uint32_t depth_left);

/// What went wrong reading a Value, and where.
struct ValueFault {
  Errc code = Errc::ok;
  std::string message;
  const std::uint8_t* at = nullptr;
};

/// Reads one item at p (not past end) into `out`, nesting at most `depth_left` levels; p ends
/// after it. False with `fault` set on failure.
bool read_value(const std::uint8_t*& p, const std::uint8_t* end, Value& out,
                std::uint32_t depth_left, ValueFault& fault);

}  // namespace jitser::cbor
