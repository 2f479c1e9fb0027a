// What a typed field accepts of a MessagePack item (docs/formats/msgpack.md, "Reading"): the
// rules both tiers apply to a head that get_head read, so that the interpreter's reader
// (msgpack_ops.cpp) and the compiled one (msgpack_kernel.cpp) accept exactly the same items.
// The interpreter words the failures; compiled code only needs to know that there was one.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include <jitser/status.h>
#include <jitser/type_desc.h>

#include "formats/msgpack/wire.h"
#include "formats/time_ticks.h"

// Inlined into every caller, so that each kernel function is one function in the bitcode.
#define JITSER_MSGPACK_INLINE [[gnu::always_inline]] inline

namespace jitser::msgpack {

/// Whether the integer of head h (Int or UInt) fits an integer field of `width` bytes.
JITSER_MSGPACK_INLINE bool int_fits(const Head& h, bool is_signed, unsigned width) {
  const unsigned bits = 8 * width;
  const bool negative = h.type == Type::Int;
  if (!is_signed) return !negative && (bits == 64 || (h.bits >> bits) == 0);
  if (negative) {
    return bits == 64 || static_cast<std::int64_t>(h.bits) >= -(std::int64_t{1} << (bits - 1));
  }
  return h.bits < (std::uint64_t{1} << (bits - 1));
}

/// A number into a float field of `width` bytes at `out`: a float 32 into either width; a
/// float 64 into a double, or into a float when it holds the same value; an integer that the
/// field's type holds exactly. type_mismatch for an item that is not a number, out_of_range
/// for one the field cannot hold exactly.
JITSER_MSGPACK_INLINE Errc to_floating(const Head& h, unsigned width, void* out) {
  double d;
  switch (h.type) {
    case Type::Float32: {
      float x;
      const auto bits = static_cast<std::uint32_t>(h.bits);
      std::memcpy(&x, &bits, 4);
      if (width == 4) {
        std::memcpy(out, &x, 4);
        return Errc::ok;
      }
      d = x;
      break;
    }
    case Type::Float64: std::memcpy(&d, &h.bits, 8); break;
    case Type::Int: {
      const auto v = static_cast<std::int64_t>(h.bits);
      d = static_cast<double>(v);
      if (d < -0x1p63 || static_cast<std::int64_t>(d) != v) return Errc::out_of_range;
      break;
    }
    case Type::UInt:
      d = static_cast<double>(h.bits);
      if (d >= 0x1p64 || static_cast<std::uint64_t>(d) != h.bits) return Errc::out_of_range;
      break;
    default: return Errc::type_mismatch;
  }
  if (width == 8) {
    std::memcpy(out, &d, 8);
    return Errc::ok;
  }
  const auto x = static_cast<float>(d);
  if (static_cast<double>(x) != d && !std::isnan(d)) return Errc::out_of_range;
  std::memcpy(out, &x, 4);
  return Errc::ok;
}

/// A decimal's second item, its scale: an integer an int32 holds.
JITSER_MSGPACK_INLINE bool scale_of(const Head& h, std::int32_t& scale) {
  std::int64_t s = 0;
  if (!as_signed(h, s) || s < INT32_MIN || s > INT32_MAX) return false;
  scale = static_cast<std::int32_t>(s);
  return true;
}

/// A timestamp extension's payload of h.bits bytes at p (in the input) as ticks of `unit`: one
/// of the three forms (else syntax_error), of a time the unit holds (else out_of_range).
JITSER_MSGPACK_INLINE Errc timestamp_ticks(const Head& h, const std::uint8_t* p, TimeUnit unit,
                                           std::int64_t& ticks) {
  std::int64_t seconds = 0;
  std::uint64_t nanos = 0;
  switch (h.bits) {
    case 4: seconds = static_cast<std::int64_t>(get_be(p, 4)); break;
    case 8: {
      const std::uint64_t packed = get_be(p, 8);
      nanos = packed >> 34;
      seconds = static_cast<std::int64_t>(packed & ((std::uint64_t{1} << 34) - 1));
      break;
    }
    case 12:
      nanos = get_be(p, 4);
      seconds = static_cast<std::int64_t>(get_be(p + 4, 8));
      break;
    default: return Errc::syntax_error;
  }
  if (nanos >= 1000000000 || !join_ticks(seconds, nanos, unit, ticks)) return Errc::out_of_range;
  return Errc::ok;
}

/// Whether a head is the timestamp extension.
JITSER_MSGPACK_INLINE bool is_timestamp(const Head& h) {
  return h.type == Type::Ext && h.ext == kTimestampType;
}

}  // namespace jitser::msgpack
