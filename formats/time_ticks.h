// Timestamps and durations as a count of ticks of their TimeUnit, and as the seconds and
// nanoseconds the formats write (binary as two integers, JSON as RFC 3339 text or "1.5s").
// Shared by the formats and both tiers.
#pragma once

#include <cstdint>

#include <jitser/type_desc.h>

namespace jitser {

constexpr std::int64_t ticks_per_second(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::Seconds: return 1;
    case TimeUnit::Millis: return 1000;
    case TimeUnit::Micros: return 1000000;
    case TimeUnit::Nanos: return 1000000000;
  }
  return 1;
}

/// Splits a tick count into floored seconds and the nanoseconds past them.
inline void split_ticks(std::int64_t ticks, TimeUnit unit, std::int64_t& seconds,
                        std::uint64_t& nanos) {
  const std::int64_t per_second = ticks_per_second(unit);
  seconds = ticks / per_second;
  std::int64_t rest = ticks % per_second;
  if (rest < 0) {
    rest += per_second;
    --seconds;
  }
  nanos = static_cast<std::uint64_t>(rest * (1000000000 / per_second));
}

/// Joins seconds and nanoseconds (< 10^9) into a tick count; false when it does not fit.
inline bool join_ticks(std::int64_t seconds, std::uint64_t nanos, TimeUnit unit,
                       std::int64_t& ticks) {
  // Floored seconds times the unit can pass INT64_MIN before the positive remainder brings the
  // value back in range; borrowing one second keeps every step in range.
  const std::int64_t per_second = ticks_per_second(unit);
  std::int64_t sub = static_cast<std::int64_t>(nanos) / (1000000000 / per_second);
  if (seconds < 0 && sub > 0) {
    seconds += 1;
    sub -= per_second;
  }
  return !__builtin_mul_overflow(seconds, per_second, &ticks) &&
         !__builtin_add_overflow(ticks, sub, &ticks);
}

}  // namespace jitser
