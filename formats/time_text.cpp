#include "formats/time_text.h"

#include <chrono>
#include <limits>

#include "formats/decimal_digits.h"
#include "formats/time_ticks.h"

namespace jitser::time_text {

namespace {

// The value of the n digits at p, or -1 when one of them is not a digit.
int digits_at(const char* p, int n) {
  int v = 0;
  for (int k = 0; k < n; ++k) {
    const unsigned digit = static_cast<unsigned char>(p[k]) - unsigned{'0'};
    if (digit > 9) return -1;
    v = v * 10 + static_cast<int>(digit);
  }
  return v;
}

// Whether c is the lowercase letter `lower` or its capital, both of which RFC 3339 allows.
bool letter_is(char c, char lower) { return (c | 0x20) == lower; }

// ".123" at text[*i...] as nanoseconds; no more digits than the unit holds.
bool get_fraction(std::string_view text, std::size_t* i, TimeUnit unit, std::uint64_t* nanos) {
  *nanos = 0;
  if (*i >= text.size() || text[*i] != '.') return true;
  const std::size_t first = ++*i;
  const auto most = static_cast<std::size_t>(fraction_digits(unit));
  std::uint64_t v = 0;
  for (; *i < text.size(); ++*i) {
    const unsigned digit = static_cast<unsigned char>(text[*i]) - unsigned{'0'};
    if (digit > 9) break;
    if (*i - first == most) return false;
    v = v * 10 + digit;
  }
  if (*i == first) return false;
  for (std::size_t k = *i - first; k < 9; ++k) v *= 10;
  *nanos = v;
  return true;
}

char* put_fraction(char* out, std::uint64_t nanos, TimeUnit unit, Fraction fraction) {
  const int digits = fraction == Fraction::unit_digits ? fraction_digits(unit)
                     : nanos == 0                      ? 0
                     : nanos % 1000000 == 0            ? 3
                     : nanos % 1000 == 0               ? 6
                                                       : 9;
  if (digits == 0) return out;
  *out++ = '.';
  std::uint64_t part = nanos;
  for (int i = digits; i < 9; ++i) part /= 10;
  return put_digits(out, part, digits);
}

}  // namespace

int fraction_digits(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::Seconds: return 0;
    case TimeUnit::Millis: return 3;
    case TimeUnit::Micros: return 6;
    case TimeUnit::Nanos: return 9;
  }
  return 0;
}

char* put_timestamp(char* out, std::int64_t ticks, TimeUnit unit, Fraction fraction) {
  using namespace std::chrono;
  std::int64_t seconds;
  std::uint64_t nanos;
  split_ticks(ticks, unit, seconds, nanos);
  // 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, as seconds since 1970.
  if (seconds < -62135596800 || seconds > 253402300799) return nullptr;
  std::int64_t days = seconds / 86400;
  std::int64_t rest = seconds % 86400;
  if (rest < 0) {
    rest += 86400;
    --days;
  }
  const year_month_day date{sys_days{std::chrono::days{days}}};
  out = put_digits(out, static_cast<std::uint64_t>(static_cast<int>(date.year())), 4);
  *out++ = '-';
  out = put_digits(out, static_cast<unsigned>(date.month()), 2);
  *out++ = '-';
  out = put_digits(out, static_cast<unsigned>(date.day()), 2);
  *out++ = 'T';
  out = put_digits(out, static_cast<std::uint64_t>(rest / 3600), 2);
  *out++ = ':';
  out = put_digits(out, static_cast<std::uint64_t>(rest / 60 % 60), 2);
  *out++ = ':';
  out = put_digits(out, static_cast<std::uint64_t>(rest % 60), 2);
  out = put_fraction(out, nanos, unit, fraction);
  *out++ = 'Z';
  return out;
}

char* put_duration(char* out, std::int64_t ticks, TimeUnit unit, Fraction fraction) {
  const std::int64_t per_second = ticks_per_second(unit);
  // Truncated toward zero with the sign in front: -1.5 s is "-1.500s", not "-2.500s".
  const std::uint64_t magnitude =
      ticks < 0 ? 0 - static_cast<std::uint64_t>(ticks) : static_cast<std::uint64_t>(ticks);
  if (ticks < 0) *out++ = '-';
  out = put_digits(out, magnitude / static_cast<std::uint64_t>(per_second));
  const std::uint64_t sub = magnitude % static_cast<std::uint64_t>(per_second);
  out =
      put_fraction(out, sub * static_cast<std::uint64_t>(1000000000 / per_second), unit, fraction);
  *out++ = 's';
  return out;
}

bool parse_timestamp(std::string_view text, TimeUnit unit, std::int64_t* ticks) {
  using namespace std::chrono;
  // Date and time sit at fixed places ("2024-05-06T07:08:09"), so they are read there, each
  // field in one go; a zone ("Z" at least) follows.
  constexpr std::size_t kDateTime = 19;
  if (text.size() <= kDateTime) return false;
  const char* p = text.data();
  const int y = digits_at(p, 4), mo = digits_at(p + 5, 2), d = digits_at(p + 8, 2);
  const int h = digits_at(p + 11, 2), mi = digits_at(p + 14, 2), s = digits_at(p + 17, 2);
  if ((y | mo | d | h | mi | s) < 0 || p[4] != '-' || p[7] != '-' || !letter_is(p[10], 't') ||
      p[13] != ':' || p[16] != ':' || h > 23 || mi > 59 || s > 59)
    return false;
  std::size_t i = kDateTime;
  std::uint64_t nanos;
  if (!get_fraction(text, &i, unit, &nanos) || i >= text.size()) return false;
  int offset_minutes = 0;
  if (letter_is(text[i], 'z')) {
    ++i;
  } else if (text[i] == '+' || text[i] == '-') {
    // "+hh:mm"
    if (text.size() - i < 6) return false;
    const int oh = digits_at(p + i + 1, 2), om = digits_at(p + i + 4, 2);
    if ((oh | om) < 0 || p[i + 3] != ':' || oh > 23 || om > 59) return false;
    offset_minutes = (text[i] == '-' ? -1 : 1) * (oh * 60 + om);
    i += 6;
  } else {
    return false;
  }
  if (i != text.size()) return false;
  const year_month_day date{year{y}, month{static_cast<unsigned>(mo)},
                            day{static_cast<unsigned>(d)}};
  if (!date.ok() || y == 0) return false;
  const std::int64_t days = sys_days{date}.time_since_epoch().count();
  const std::int64_t seconds = days * 86400 + h * 3600 + mi * 60 + s - offset_minutes * 60;
  return join_ticks(seconds, nanos, unit, *ticks);
}

bool parse_duration(std::string_view text, TimeUnit unit, std::int64_t* ticks) {
  std::size_t i = 0;
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) ++i;
  std::uint64_t seconds;
  if (!get_digits(text, &i, &seconds)) return false;
  std::uint64_t nanos;
  if (!get_fraction(text, &i, unit, &nanos) || i + 1 != text.size() || text[i] != 's') {
    return false;
  }
  const std::int64_t per_second = ticks_per_second(unit);
  std::uint64_t magnitude;
  if (__builtin_mul_overflow(seconds, static_cast<std::uint64_t>(per_second), &magnitude) ||
      __builtin_add_overflow(magnitude, nanos / static_cast<std::uint64_t>(1000000000 / per_second),
                             &magnitude))
    return false;
  if (magnitude > (negative ? std::uint64_t{1} << 63
                            : static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())))
    return false;
  *ticks =
      negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
  return true;
}

}  // namespace jitser::time_text
