// JSON writing primitives, shared by both tiers: the interpreter calls them on a Buffer, compiled
// code on its own cursor after reserving the bound each one states. Each writes at `out` and
// returns the end of what it wrote, or null when the value cannot be written (the reason is the
// one the function names).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "formats/buffer.h"
#include "typeinfo/type_desc.h"

namespace jitser::json {

/// Most bytes put_int/put_uint write.
inline constexpr std::size_t kMaxIntChars = 20;
/// Most bytes put_double/put_float write: 24 for the shortest form, 2 for ".0".
inline constexpr std::size_t kMaxFloatChars = 26;
/// Most bytes put_decimal writes: sign, 19 digits, a point or "e-" and a 10-digit exponent,
/// and up to 21 zeros after "0." when the scale is within kMaxPlainScale.
inline constexpr std::size_t kMaxDecimalChars = 64;
/// Most bytes put_timestamp and put_duration write, quotes included.
inline constexpr std::size_t kMaxTimeChars = 40;

/// A string of n bytes writes at most this many: quotes, and 6 bytes (\u00XX) per input byte.
inline constexpr std::size_t string_bound(std::size_t n) { return 2 + 6 * n; }
/// Bytes of n bytes, as a base64 string with padding and quotes.
inline constexpr std::size_t base64_bound(std::size_t n) { return 2 + (n + 2) / 3 * 4; }

char* put_int(char* out, std::int64_t v);
char* put_uint(char* out, std::uint64_t v);
/// Shortest text that reads back to the same value; always with a '.' or an exponent, so it
/// reads back as a floating-point number. Null for NaN and infinities.
char* put_double(char* out, double v);
char* put_float(char* out, float v);
/// Quoted and escaped (RFC 8259: quote, backslash, control characters). Null when the bytes are
/// not UTF-8.
char* put_string(char* out, const char* data, std::size_t n);
/// Quoted standard base64 with padding (RFC 4648, section 4).
char* put_base64(char* out, const std::uint8_t* data, std::size_t n);
/// A JSON number with every digit: 12345 scale 2 is 123.45, scale -3 is 12345e3.
char* put_decimal(char* out, const Decimal& d);
/// Quoted RFC 3339 in UTC ("2024-05-06T07:08:09.123456Z"), with the fraction digits of the
/// unit (none, 3, 6 or 9). Null outside years 0001 to 9999.
char* put_timestamp(char* out, std::int64_t ticks, TimeUnit unit);
/// Quoted seconds with the fraction digits of the unit and an "s" ("-1.500s"), as the Protobuf
/// JSON mapping writes durations.
char* put_duration(char* out, std::int64_t ticks, TimeUnit unit);

/// Re-indents compact JSON (as jitser writes it) with newlines and two spaces per level.
std::string prettify(std::string_view compact);
/// The same, in place: both tiers write compact JSON and re-indent it after.
void prettify(Buffer& out);

}  // namespace jitser::json
