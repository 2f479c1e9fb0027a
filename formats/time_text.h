// Times as text: RFC 3339 timestamps ("2024-05-06T07:08:09.5Z") and durations as seconds with
// a fraction ("-1.500s", as the Protobuf JSON mapping writes them). JSON writes both quoted;
// CBOR writes timestamps under tag 0. Each parser accepts exactly what its writer writes, and
// what the specifications allow, nothing looser.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include <jitser/type_desc.h>

namespace jitser::time_text {

/// Fraction digits of a time unit: none, 3, 6 or 9. Text of a unit has no more than these.
int fraction_digits(TimeUnit unit);

/// How many fraction digits a writer gives: always the unit's, or the fewest of 0, 3, 6 and
/// 9 that hold the value (as Protobuf's JSON writes times).
enum class Fraction : std::uint8_t { unit_digits, fewest_digits };

/// Most bytes put_timestamp and put_duration write.
inline constexpr std::size_t kMaxChars = 30;

/// RFC 3339 in UTC ("2024-05-06T07:08:09.123456Z"); null outside the years 0001 to 9999,
/// which RFC 3339 cannot write.
char* put_timestamp(char* out, std::int64_t ticks, TimeUnit unit, Fraction fraction);
/// Seconds truncated toward zero, the sign in front, a fraction and an "s" ("-1.500s").
char* put_duration(char* out, std::int64_t ticks, TimeUnit unit, Fraction fraction);

/// RFC 3339 ("2024-05-06T07:08:09.5+02:00") as ticks of `unit` since 1970 UTC; false when it
/// is malformed, has more fraction digits than the unit holds, or does not fit.
bool parse_timestamp(std::string_view text, TimeUnit unit, std::int64_t* ticks);
/// A duration as put_duration writes it; the same rules.
bool parse_duration(std::string_view text, TimeUnit unit, std::int64_t* ticks);

}  // namespace jitser::time_text
