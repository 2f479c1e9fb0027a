#include "formats/json/json_write.h"

#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>
#include <type_traits>

#include "formats/json/json_text.h"
#include "formats/time_text.h"
#include "typeinfo/utf8.h"

namespace jitser::json {
namespace {

// Which bytes a JSON string cannot hold as they are: control characters, quote and backslash.
constexpr std::array<bool, 256> kEscape = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 0x20; ++c) t[c] = true;
  t['"'] = t['\\'] = true;
  return t;
}();

// The text std::to_chars writes for v when v has few decimals (most numbers people write),
// found without it: null when v is not such a number. v is m / 10^k for the fewest fraction
// digits k that read back to v: IEEE division of the exact m by the exact 10^k rounds as a
// reader rounds the decimal, and the integer nearest to v * 10^k is the one candidate at that
// scale. Fewest fraction digits is fewest significant digits, as to_chars picks; and like it,
// the text is fixed notation only where that is no longer than scientific (else null).
template <class F>
char* put_short_decimal(char* out, F v) {
  constexpr int kMaxK = 8;
  constexpr F kPow10[kMaxK + 1] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
  // Below this, v * 10^k is within a quarter of the integer it stands for, so rounding the
  // product finds it: a few bits short of where F's integers stop being exact.
  constexpr F kExact = std::is_same_v<F, float> ? F(1 << 21) : F(1ull << 50);
  constexpr F kNearInteger = std::is_same_v<F, float> ? F(1.0 / (1 << 20)) : F(1.0 / (1ull << 49));
  const F magnitude = std::fabs(v);
  if (!(magnitude >= F(1e-3)) || magnitude >= F(1e15)) return nullptr;
  for (int k = 0; k <= kMaxK; ++k) {
    const F scaled = magnitude * kPow10[k];
    if (scaled >= kExact) return nullptr;
    const F whole = std::nearbyint(scaled);
    // A scale that holds v puts the product within an ulp or two of an integer: the cheap test
    // spares the division at the scales that cannot, for the doubles that have no short form.
    if (std::fabs(scaled - whole) > scaled * kNearInteger || whole / kPow10[k] != magnitude) {
      continue;
    }
    auto m = static_cast<std::uint64_t>(whole);
    int digits = 1;
    for (std::uint64_t rest = m; rest >= 10; rest /= 10) ++digits;
    int zeros = 0;  // trailing, for an integer
    for (std::uint64_t rest = m; k == 0 && rest % 10 == 0; rest /= 10) ++zeros;
    const int significant = digits - zeros;
    const int scientific = significant + (significant > 1) + 4;  // "d.ddde+XX"
    const int fixed = k == 0 ? digits : magnitude >= 1 ? digits + 1 : 2 + k;
    if (fixed > scientific) return nullptr;
    if (v < 0) *out++ = '-';
    if (k == 0) {
      out = put_digits(out, m);
      std::memcpy(out, ".0", 2);
      return out + 2;
    }
    const std::uint64_t unit = static_cast<std::uint64_t>(kPow10[k]);
    out = put_digits(out, m / unit);
    *out++ = '.';
    return put_digits(out, m % unit, k);
  }
  return nullptr;
}

// The shortest text that reads back to v, as std::to_chars writes it; a bare integer gains
// ".0" so the text reads back as a floating-point number.
template <class F>
char* put_floating(char* out, F v) {
  if (!std::isfinite(v)) return nullptr;
  if (char* end = put_short_decimal(out, v)) return end;
  char* end = std::to_chars(out, out + kMaxFloatChars, v).ptr;
  for (char* p = out; p != end; ++p) {
    if (*p == '.' || *p == 'e') return end;
  }
  end[0] = '.';
  end[1] = '0';
  return end + 2;
}

time_text::Fraction fraction(bool protobuf) {
  return protobuf ? time_text::Fraction::fewest_digits : time_text::Fraction::unit_digits;
}

}  // namespace

char* put_double(char* out, double v) { return put_floating(out, v); }
char* put_float(char* out, float v) { return put_floating(out, v); }

namespace {

template <class F>
char* put_proto_floating(char* out, F v) {
  auto quoted = [&](std::string_view word) {
    *out++ = '"';
    std::memcpy(out, word.data(), word.size());
    out += word.size();
    *out++ = '"';
    return out;
  };
  if (std::isnan(v)) return quoted("NaN");
  if (std::isinf(v)) return quoted(v > 0 ? "Infinity" : "-Infinity");
  constexpr bool single = std::is_same_v<F, float>;
  char* end = std::to_chars(out, out + kMaxFloatChars, v, std::chars_format::general,
                            single ? FLT_DIG : DBL_DIG)
                  .ptr;
  F back{};
  std::from_chars(out, end, back);
  if (back == v) return end;
  return std::to_chars(out, out + kMaxFloatChars, v, std::chars_format::general, single ? 9 : 17)
      .ptr;
}

}  // namespace

char* put_proto_double(char* out, double v) { return put_proto_floating(out, v); }
char* put_proto_float(char* out, float v) { return put_proto_floating(out, v); }

char* put_string(char* out, const char* data, std::size_t n) {
  if (char* end = put_plain_string(out, data, n)) return end;
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(data);
  if (!valid_utf8(bytes, n)) return nullptr;
  static const char* hex = "0123456789abcdef";
  *out++ = '"';
  std::size_t run = 0;  // bytes since the last escape, copied in one go
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t c = bytes[i];
    if (!kEscape[c]) continue;
    std::memcpy(out, data + run, i - run);
    out += i - run;
    run = i + 1;
    *out++ = '\\';
    switch (c) {
      case '"': *out++ = '"'; break;
      case '\\': *out++ = '\\'; break;
      case '\b': *out++ = 'b'; break;
      case '\f': *out++ = 'f'; break;
      case '\n': *out++ = 'n'; break;
      case '\r': *out++ = 'r'; break;
      case '\t': *out++ = 't'; break;
      default:
        std::memcpy(out, "u00", 3);
        out[3] = hex[c >> 4];
        out[4] = hex[c & 15];
        out += 5;
    }
  }
  std::memcpy(out, data + run, n - run);
  out += n - run;
  *out++ = '"';
  return out;
}

char* put_base64(char* out, const std::uint8_t* data, std::size_t n) {
  const char* alphabet = kBase64Alphabet;
  *out++ = '"';
  std::size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    const std::uint32_t v = data[i] << 16 | data[i + 1] << 8 | data[i + 2];
    out[0] = alphabet[v >> 18];
    out[1] = alphabet[(v >> 12) & 63];
    out[2] = alphabet[(v >> 6) & 63];
    out[3] = alphabet[v & 63];
    out += 4;
  }
  if (i < n) {
    const std::uint32_t v = data[i] << 16 | (i + 1 < n ? data[i + 1] << 8 : 0);
    out[0] = alphabet[v >> 18];
    out[1] = alphabet[(v >> 12) & 63];
    out[2] = i + 1 < n ? alphabet[(v >> 6) & 63] : '=';
    out[3] = '=';
    out += 4;
  }
  *out++ = '"';
  return out;
}

// Scales up to this many digits are written with a decimal point; beyond, with an exponent, so
// a decimal is never more than kMaxDecimalChars long.
constexpr std::int32_t kMaxPlainScale = 20;

char* put_decimal(char* out, const Decimal& d) {
  const bool negative = d.unscaled < 0;
  const std::uint64_t magnitude = negative ? 0 - static_cast<std::uint64_t>(d.unscaled)
                                           : static_cast<std::uint64_t>(d.unscaled);
  if (negative) *out++ = '-';
  if (d.scale == 0) return put_digits(out, magnitude);
  if (d.scale < 0 || d.scale > kMaxPlainScale) {
    out = put_digits(out, magnitude);
    *out++ = 'e';
    return put_int(out, -static_cast<std::int64_t>(d.scale));
  }
  char digits[24];
  const int n = static_cast<int>(put_digits(digits, magnitude) - digits);
  if (n <= d.scale) {
    *out++ = '0';
    *out++ = '.';
    for (int i = n; i < d.scale; ++i) *out++ = '0';
    std::memcpy(out, digits, n);
    return out + n;
  }
  std::memcpy(out, digits, n - d.scale);
  out += n - d.scale;
  *out++ = '.';
  std::memcpy(out, digits + n - d.scale, d.scale);
  return out + d.scale;
}

// Times are time_text's, quoted; Protobuf's JSON gives them the fewest fraction digits.
char* put_timestamp(char* out, std::int64_t ticks, TimeUnit unit, bool protobuf) {
  *out++ = '"';
  out = time_text::put_timestamp(out, ticks, unit, fraction(protobuf));
  if (!out) return nullptr;
  *out++ = '"';
  return out;
}

char* put_duration(char* out, std::int64_t ticks, TimeUnit unit, bool protobuf) {
  *out++ = '"';
  out = time_text::put_duration(out, ticks, unit, fraction(protobuf));
  *out++ = '"';
  return out;
}

std::string prettify(std::string_view compact) {
  std::string out;
  out.reserve(compact.size() * 2);
  int depth = 0;
  bool in_string = false;
  auto newline = [&] {
    out += '\n';
    out.append(static_cast<std::size_t>(depth) * 2, ' ');
  };
  for (std::size_t i = 0; i < compact.size(); ++i) {
    const char c = compact[i];
    out += c;
    if (in_string) {
      if (c == '\\') {
        out += compact[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"': in_string = true; break;
      case '{':
      case '[':
        // An empty container stays on one line.
        if (i + 1 < compact.size() && (compact[i + 1] == '}' || compact[i + 1] == ']')) {
          out += compact[++i];
          break;
        }
        ++depth;
        newline();
        break;
      case '}':
      case ']':
        out.pop_back();
        --depth;
        newline();
        out += c;
        break;
      case ',': newline(); break;
      case ':': out += ' '; break;
      default: break;
    }
  }
  return out;
}

void prettify(Buffer& out) {
  const std::string pretty = prettify({reinterpret_cast<const char*>(out.data()), out.size()});
  out.clear();
  out.append(pretty.data(), pretty.size());
}

}  // namespace jitser::json
