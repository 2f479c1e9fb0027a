// How CBOR carries a time (docs/formats/cbor.md): epoch seconds under tag 1, an integer or a
// float, or extended time (tag 1001, RFC 9581) where no double holds the fraction; or, an
// option, RFC 3339 text under tag 0 (items.h). The writers
// and the readers of both tiers share these, so that every time written reads back as it was.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "formats/cbor/wire.h"
#include "formats/time_text.h"

namespace jitser::cbor {

/// Epoch seconds as a float (tag 1) as whole seconds and the nanoseconds nearest the fraction
/// past them; false for a value that is not finite or passes int64 seconds.
inline bool float_seconds(double seconds, std::int64_t& whole, std::uint64_t& nanos) {
  if (!(seconds >= -0x1p63 && seconds < 0x1p63)) return false;
  const double floored = std::floor(seconds);
  whole = static_cast<std::int64_t>(floored);
  nanos = static_cast<std::uint64_t>(std::llround((seconds - floored) * 1e9));
  if (nanos >= 1000000000) {
    nanos -= 1000000000;
    if (__builtin_add_overflow(whole, 1, &whole)) return false;
  }
  return true;
}

/// The most bytes put_timestamp writes: tag 1001, a map of two entries, each a small key and
/// an integer.
inline constexpr std::size_t kMaxTime = 3 + 1 + 2 * (1 + kMaxHead);

/// Instr::enc of a timestamp written as RFC 3339 text under tag 0 (RunOptions::text_timestamps).
inline constexpr std::uint8_t kTimeText = 1;
/// The most bytes put_time_text writes: the tag, a text head and the text.
inline constexpr std::size_t kMaxTimeText = 1 + 2 + time_text::kMaxChars;

/// A time of `seconds` and `nanos` past them: tag 1 with the seconds when there are no
/// nanoseconds; else tag 1 with a float when one reads back as the same time; else extended
/// time with the seconds and nanoseconds.
inline std::uint8_t* put_timestamp(std::uint8_t* out, std::int64_t seconds, std::uint64_t nanos) {
  if (nanos == 0) return put_int(put_head(out, Major::Tag, kTagTimeEpoch), seconds);
  const double d = static_cast<double>(seconds) + static_cast<double>(nanos) * 1e-9;
  std::int64_t whole;
  std::uint64_t fraction;
  if (float_seconds(d, whole, fraction) && whole == seconds && fraction == nanos) {
    return put_double(put_head(out, Major::Tag, kTagTimeEpoch), d);
  }
  out = put_head(out, Major::Tag, kTagExtendedTime);
  out = put_head(out, Major::Map, 2);
  out = put_int(out, kExtendedSeconds);
  out = put_int(out, seconds);
  out = put_int(out, kExtendedNanos);
  return put_uint(out, nanos);
}

}  // namespace jitser::cbor
