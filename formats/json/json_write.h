// JSON writing primitives, shared by both tiers: the interpreter calls them on a Buffer, compiled
// code on its own cursor after reserving the bound each one states. Each writes at `out` and
// returns the end of what it wrote, or null when the value cannot be written (the reason is the
// one the function names).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include <jitser/buffer.h>
#include <jitser/type_desc.h>

#include "formats/decimal_digits.h"
#include "formats/time_text.h"

namespace jitser::json {

/// Most bytes put_int/put_uint write.
inline constexpr std::size_t kMaxIntChars = 20;
/// Most bytes put_double/put_float write: 24 for the shortest form, 2 for ".0".
inline constexpr std::size_t kMaxFloatChars = 26;
/// Most bytes put_decimal writes: sign, 19 digits, a point or "e-" and a 10-digit exponent,
/// and up to 21 zeros after "0." when the scale is within kMaxPlainScale.
inline constexpr std::size_t kMaxDecimalChars = 64;
/// Most bytes put_timestamp and put_duration write, quotes included.
inline constexpr std::size_t kMaxTimeChars = time_text::kMaxChars + 2;

/// A string of n bytes writes at most this many: quotes, and 6 bytes (\u00XX) per input byte.
inline constexpr std::size_t string_bound(std::size_t n) { return 2 + 6 * n; }
/// Bytes of n bytes, as a base64 string with padding and quotes.
inline constexpr std::size_t base64_bound(std::size_t n) { return 2 + (n + 2) / 3 * 4; }

inline char* put_uint(char* out, std::uint64_t v) { return put_digits(out, v); }
inline char* put_int(char* out, std::int64_t v) {
  if (v >= 0) return put_digits(out, static_cast<std::uint64_t>(v));
  *out++ = '-';
  return put_digits(out, 0 - static_cast<std::uint64_t>(v));
}

/// The string quoted, when none of its bytes needs care: no quote, backslash or control
/// character to escape, and no byte above 0x7F to check as UTF-8. Null otherwise (what it wrote
/// is then garbage). Checks eight bytes at a time.
inline char* put_plain_string(char* out, const char* data, std::size_t n) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ull;
  constexpr std::uint64_t kHigh = 0x8080808080808080ull;
  // Whether any byte is below 0x20, a quote, a backslash or above 0x7F; the tests for a byte
  // below a bound and for a zero byte are exact whenever they answer "any".
  auto care = [](std::uint64_t w) {
    auto below = [](std::uint64_t x, std::uint64_t bound) { return (x - kOnes * bound) & ~x; };
    return (below(w, 0x20) | below(w ^ (kOnes * '"'), 1) | below(w ^ (kOnes * '\\'), 1) | w) &
           kHigh;
  };
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, data + i, 8);
    if (care(w)) return nullptr;
  }
  if (i < n) {
    std::uint64_t w = kOnes * 'a';  // harmless filler past the end
    std::memcpy(&w, data + i, n - i);
    if (care(w)) return nullptr;
  }
  *out++ = '"';
  std::memcpy(out, data, n);
  out[n] = '"';
  return out + n + 1;
}
/// Shortest text that reads back to the same value; always with a '.' or an exponent, so it
/// reads back as a floating-point number. Null for NaN and infinities.
char* put_double(char* out, double v);
char* put_float(char* out, float v);
/// As Protobuf's JSON writes floats: the fewer of 15 or 17 significant digits (6 or 9 for a
/// float) that read back to the value, in printf's %g form (`2`, `1e+20`), and NaN and the
/// infinities as the strings "NaN", "Infinity" and "-Infinity".
char* put_proto_double(char* out, double v);
char* put_proto_float(char* out, float v);
/// Quoted and escaped (RFC 8259: quote, backslash, control characters). Null when the bytes are
/// not UTF-8.
char* put_string(char* out, const char* data, std::size_t n);
/// Quoted standard base64 with padding (RFC 4648, section 4).
char* put_base64(char* out, const std::uint8_t* data, std::size_t n);
/// A JSON number with every digit: 12345 scale 2 is 123.45, scale -3 is 12345e3.
char* put_decimal(char* out, const Decimal& d);
/// Quoted RFC 3339 in UTC ("2024-05-06T07:08:09.123456Z"), with the fraction digits of the
/// unit (none, 3, 6 or 9), or with `protobuf`, as few of those as the value needs, as
/// Protobuf's JSON writes them. Null outside years 0001 to 9999.
char* put_timestamp(char* out, std::int64_t ticks, TimeUnit unit, bool protobuf = false);
/// Quoted seconds with a fraction and an "s" ("-1.500s"), as the Protobuf JSON mapping writes
/// durations; the fraction digits as for put_timestamp.
char* put_duration(char* out, std::int64_t ticks, TimeUnit unit, bool protobuf = false);

/// Re-indents compact JSON (as jitser writes it) with newlines and two spaces per level.
std::string prettify(std::string_view compact);
/// The same, in place: both tiers write compact JSON and re-indent it after.
void prettify(Buffer& out);

}  // namespace jitser::json
