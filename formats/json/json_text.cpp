#include "formats/json/json_text.h"

#include <array>
#include <chrono>
#include <limits>

#include "formats/time_ticks.h"

namespace jitser::json {

namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

// Reads digits at text[*i...] into *v; false on overflow or when there are none.
bool digits(std::string_view text, std::size_t* i, std::uint64_t* v, std::size_t* count = nullptr) {
  const std::size_t start = *i;
  *v = 0;
  for (; *i < text.size() && digit(text[*i]); ++*i) {
    if (__builtin_mul_overflow(*v, 10u, v) ||
        __builtin_add_overflow(*v, static_cast<unsigned>(text[*i] - '0'), v))
      return false;
  }
  if (count) *count = *i - start;
  return *i > start;
}

// Exactly n digits at text[*i...].
bool fixed(std::string_view text, std::size_t* i, int n, int* v) {
  if (*i + n > text.size()) return false;
  *v = 0;
  for (int k = 0; k < n; ++k) {
    const char c = text[*i + k];
    if (!digit(c)) return false;
    *v = *v * 10 + (c - '0');
  }
  *i += n;
  return true;
}

// ".123" at text[*i...] as nanoseconds; no more digits than the unit holds.
bool fraction(std::string_view text, std::size_t* i, TimeUnit unit, std::uint64_t* nanos) {
  *nanos = 0;
  if (*i >= text.size() || text[*i] != '.') return true;
  ++*i;
  std::uint64_t v;
  std::size_t n = 0;
  if (!digits(text, i, &v, &n) || n > static_cast<std::size_t>(fraction_digits(unit))) return false;
  for (std::size_t k = n; k < 9; ++k) v *= 10;
  *nanos = v;
  return true;
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

bool parse_int(std::string_view text, std::int64_t* out) {
  std::size_t i = 0;
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) ++i;
  std::uint64_t v;
  if (!digits(text, &i, &v) || i != text.size()) return false;
  if (text.size() - negative > 1 && text[negative] == '0') return false;  // no leading zeros
  if (negative) {
    if (v > std::uint64_t{1} << 63) return false;
    *out = static_cast<std::int64_t>(0 - v);
    return true;
  }
  if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return false;
  *out = static_cast<std::int64_t>(v);
  return true;
}

bool parse_uint(std::string_view text, std::uint64_t* out) {
  std::size_t i = 0;
  if (!digits(text, &i, out) || i != text.size()) return false;
  return text.size() == 1 || text[0] != '0';
}

bool parse_decimal(std::string_view number, Decimal* out) {
  std::size_t i = 0;
  const bool negative = !number.empty() && number[0] == '-';
  if (negative) ++i;
  std::uint64_t unscaled = 0;
  std::int64_t scale = 0;
  bool any = false;
  for (; i < number.size(); ++i) {
    const char c = number[i];
    if (c == '.') continue;
    if (c == 'e' || c == 'E') break;
    if (__builtin_mul_overflow(unscaled, 10u, &unscaled) ||
        __builtin_add_overflow(unscaled, static_cast<unsigned>(c - '0'), &unscaled))
      return false;
    any = true;
  }
  if (!any) return false;
  if (const std::size_t dot = number.find('.'); dot != std::string_view::npos) {
    scale = static_cast<std::int64_t>(i - dot - 1);
  }
  if (i < number.size()) {  // exponent: JSON's grammar has been checked by the reader
    ++i;
    const bool minus = number[i] == '-';
    if (number[i] == '-' || number[i] == '+') ++i;
    std::uint64_t e;
    if (!digits(number, &i, &e) || e > (std::uint64_t{1} << 31)) return false;
    scale += minus ? static_cast<std::int64_t>(e) : -static_cast<std::int64_t>(e);
  }
  if (scale < std::numeric_limits<std::int32_t>::min() ||
      scale > std::numeric_limits<std::int32_t>::max())
    return false;
  if (unscaled > (negative ? std::uint64_t{1} << 63
                           : static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())))
    return false;
  out->unscaled =
      negative ? static_cast<std::int64_t>(0 - unscaled) : static_cast<std::int64_t>(unscaled);
  out->scale = static_cast<std::int32_t>(scale);
  return true;
}

bool decode_base64(std::string_view text, std::uint8_t* out, std::size_t* n) {
  static constexpr std::array<std::int8_t, 256> value = [] {
    std::array<std::int8_t, 256> t{};
    t.fill(-1);
    const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 64; ++i)
      t[static_cast<unsigned char>(alphabet[i])] = static_cast<std::int8_t>(i);
    return t;
  }();
  if (text.size() % 4) return false;
  std::size_t o = 0;
  for (std::size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    int pad = 0;
    if (last && text[i + 3] == '=') pad = text[i + 2] == '=' ? 2 : 1;
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      const int d = k >= 4 - pad ? 0 : value[static_cast<unsigned char>(text[i + k])];
      if (d < 0) return false;
      v = v << 6 | static_cast<std::uint32_t>(d);
    }
    // Padding must leave the unused bits zero: one encoding per byte string.
    if ((pad == 1 && (v & 0xFF)) || (pad == 2 && (v & 0xFFFF))) return false;
    out[o++] = static_cast<std::uint8_t>(v >> 16);
    if (pad < 2) out[o++] = static_cast<std::uint8_t>(v >> 8);
    if (pad < 1) out[o++] = static_cast<std::uint8_t>(v);
  }
  *n = o;
  return true;
}

bool parse_timestamp(std::string_view text, TimeUnit unit, std::int64_t* ticks) {
  using namespace std::chrono;
  std::size_t i = 0;
  int y, mo, d, h, mi, s;
  if (!fixed(text, &i, 4, &y) || i >= text.size() || text[i++] != '-' || !fixed(text, &i, 2, &mo) ||
      i >= text.size() || text[i++] != '-' || !fixed(text, &i, 2, &d) || i >= text.size() ||
      (text[i] != 'T' && text[i] != 't'))
    return false;
  ++i;
  if (!fixed(text, &i, 2, &h) || i >= text.size() || text[i++] != ':' || !fixed(text, &i, 2, &mi) ||
      i >= text.size() || text[i++] != ':' || !fixed(text, &i, 2, &s))
    return false;
  std::uint64_t nanos;
  if (!fraction(text, &i, unit, &nanos) || i >= text.size()) return false;
  int offset_minutes = 0;
  if (text[i] == 'Z' || text[i] == 'z') {
    ++i;
  } else if (text[i] == '+' || text[i] == '-') {
    const int sign = text[i++] == '-' ? -1 : 1;
    int oh, om;
    if (!fixed(text, &i, 2, &oh) || i >= text.size() || text[i++] != ':' ||
        !fixed(text, &i, 2, &om) || oh > 23 || om > 59)
      return false;
    offset_minutes = sign * (oh * 60 + om);
  } else {
    return false;
  }
  if (i != text.size() || h > 23 || mi > 59 || s > 59) return false;
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
  if (!digits(text, &i, &seconds)) return false;
  std::uint64_t nanos;
  if (!fraction(text, &i, unit, &nanos) || i + 1 != text.size() || text[i] != 's') return false;
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

}  // namespace jitser::json
