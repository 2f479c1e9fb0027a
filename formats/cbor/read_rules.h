// What a typed field accepts of a CBOR item (docs/formats/cbor.md, "Reading"): the rules every
// reader of the format applies to a head that get_head read, so that they accept exactly the
// same items. The callers word the failures.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include <jitser/status.h>
#include <jitser/type_desc.h>

#include "formats/cbor/wire.h"
#include "formats/time_ticks.h"

namespace jitser::cbor {

/// An integer as CBOR carries it: a magnitude argument and a sign; a negative one is -1 - n.
struct Integer {
  bool negative = false;
  std::uint64_t n = 0;
};

/// Whether an integer fits an integer field of `width` bytes.
inline bool int_fits(const Integer& v, bool is_signed, unsigned width) {
  const unsigned bits = 8 * width;
  if (!is_signed) return !v.negative && (bits == 64 || (v.n >> bits) == 0);
  // Either sign: n < 2^(bits-1), as -1 - n >= -2^(bits-1) is n <= 2^(bits-1) - 1.
  return v.n < (std::uint64_t{1} << (bits - 1));
}

/// An integer's two's complement bits, whose low bytes a field that int_fits holds.
inline std::uint64_t int_bits(const Integer& v) { return v.negative ? ~v.n : v.n; }

/// A bignum's magnitude (tags 2 and 3: big-endian bytes) as an Integer's argument; false when
/// it passes 64 bits.
inline bool bignum_magnitude(const std::uint8_t* p, std::size_t n, std::uint64_t& out) {
  while (n != 0 && *p == 0) {
    ++p;
    --n;
  }
  if (n > 8) return false;
  out = get_be(p, static_cast<unsigned>(n));
  return true;
}

/// A number into a float field of `width` bytes at `out`: a float of any width whose value the
/// field holds (a double's NaN goes in as a NaN), an integer the field's type holds exactly.
/// type_mismatch for an item that is not a number, out_of_range for one the field cannot hold.
inline Errc to_floating(const Head& h, unsigned width, void* out) {
  double d;
  if (h.float_bytes != 0) {
    d = float_value(h);
  } else if (h.major == Major::Unsigned) {
    d = static_cast<double>(h.n);
    if (d >= 0x1p64 || static_cast<std::uint64_t>(d) != h.n) return Errc::out_of_range;
  } else if (h.major == Major::Negative) {
    // -1 - n, whose magnitude n + 1 may be 2^64, which a double holds.
    if (h.n == UINT64_MAX) {
      d = -0x1p64;
    } else {
      const std::uint64_t magnitude = h.n + 1;
      const auto m = static_cast<double>(magnitude);
      if (m >= 0x1p64 || static_cast<std::uint64_t>(m) != magnitude) return Errc::out_of_range;
      d = -m;
    }
  } else {
    return Errc::type_mismatch;
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

/// A decimal fraction's exponent (tag 4) as a Decimal's scale, its negation: false when that
/// passes an int32.
inline bool scale_of(const Integer& exponent, std::int32_t& scale) {
  // exponent = -scale: from -INT32_MAX (scale INT32_MAX) to 2^31 (scale INT32_MIN).
  if (exponent.negative) {
    if (exponent.n >= INT32_MAX) return false;  // exponent below -INT32_MAX
    scale = static_cast<std::int32_t>(exponent.n + 1);
    return true;
  }
  if (exponent.n > std::uint64_t{1} << 31) return false;
  scale = static_cast<std::int32_t>(-static_cast<std::int64_t>(exponent.n));
  return true;
}

}  // namespace jitser::cbor
