// Values JSON carries as text: integer map keys, decimals (number text) and base64 bytes (times
// are formats/time_text.h). Each parser accepts exactly what json_write.h writes, and what the
// specifications it cites allow, nothing looser.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <jitser/type_desc.h>

namespace jitser::json {

/// Whether an integer fits a field of `width` bytes (1, 2, 4 or 8), signed or unsigned.
constexpr bool fits_int(std::int64_t v, unsigned width) {
  if (width >= 8) return true;
  const std::int64_t half = std::int64_t{1} << (width * 8 - 1);
  return v >= -half && v < half;
}
constexpr bool fits_uint(std::uint64_t v, unsigned width) {
  return width >= 8 || v < (std::uint64_t{1} << (width * 8));
}

/// A number read as a double, for a float32 field: out of range only when it rounds past the
/// largest float (the shortest text of FLT_MAX reads as a double a little above it).
inline bool to_float(double d, float* out) {
  *out = static_cast<float>(d);
  return !std::isinf(*out);
}
/// The same, but for NaN and the infinities, which Protobuf's JSON has.
inline bool to_proto_float(double d, float* out) {
  *out = static_cast<float>(d);
  return !std::isinf(*out) || std::isinf(d);
}

/// A whole string as a decimal integer ("-12"); false when it is not one or does not fit.
bool parse_int(std::string_view text, std::int64_t* out);
bool parse_uint(std::string_view text, std::uint64_t* out);

/// A JSON number's text as unscaled digits and a scale, every digit kept ("1.50" is 150 scale
/// 2, "15e-1" is 15 scale 1); false when the digits do not fit 64 bits or the scale 32.
bool parse_decimal(std::string_view number, Decimal* out);

/// Standard base64's sixty-four characters, each standing for its index (RFC 4648, section 4).
inline constexpr char kBase64Alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
/// Most bytes decode_base64 writes for base64 text of n characters.
inline constexpr std::size_t base64_decoded_size(std::size_t n) { return n / 4 * 3; }
/// Standard base64 with padding (RFC 4648, section 4); false on anything else.
bool decode_base64(std::string_view text, std::uint8_t* out, std::size_t* n);

}  // namespace jitser::json
