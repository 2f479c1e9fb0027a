#include "formats/json/json_text.h"

#include <array>
#include <limits>

#include "formats/decimal_digits.h"

namespace jitser::json {

bool parse_int(std::string_view text, std::int64_t* out) {
  std::size_t i = 0;
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) ++i;
  std::uint64_t v;
  if (!get_digits(text, &i, &v) || i != text.size()) return false;
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
  if (!get_digits(text, &i, out) || i != text.size()) return false;
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
    if (!get_digits(number, &i, &e) || e > (std::uint64_t{1} << 31)) return false;
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

}  // namespace jitser::json
