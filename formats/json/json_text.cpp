#include "formats/json/json_text.h"

#include <array>
#include <cstring>
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

namespace {

// A character's six bits where its place in a group of four puts them, one table per place, so
// that a group decodes with four loads and three ors. A character outside the alphabet sets a
// bit above the group's 24, which one test finds for any number of groups.
constexpr std::uint32_t kNotBase64 = 0x80000000;
using Base64Tables = std::array<std::array<std::uint32_t, 256>, 4>;
constexpr Base64Tables kBase64Tables = [] {
  Base64Tables t{};
  for (auto& place : t) place.fill(kNotBase64);
  for (std::uint32_t i = 0; i < 64; ++i) {
    const auto c = static_cast<unsigned char>(kBase64Alphabet[i]);
    for (int place = 0; place < 4; ++place) t[place][c] = i << (18 - 6 * place);
  }
  return t;
}();

std::uint32_t base64_group(const unsigned char* s) {
  return kBase64Tables[0][s[0]] | kBase64Tables[1][s[1]] | kBase64Tables[2][s[2]] |
         kBase64Tables[3][s[3]];
}

}  // namespace

bool decode_base64(std::string_view text, std::uint8_t* out, std::size_t* n) {
  if (text.size() % 4) return false;
  if (text.empty()) {
    *n = 0;
    return true;
  }
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const unsigned char* last = s + text.size() - 4;
  std::uint8_t* o = out;
  // Every group before the last is whole: its three bytes go out as one four-byte store (the
  // fourth is overwritten by the next group), and bad characters are looked for once, after.
  std::uint32_t seen = 0;
  for (; s < last; s += 4, o += 3) {
    const std::uint32_t v = base64_group(s);
    seen |= v;
    const std::uint32_t bytes = __builtin_bswap32(v << 8);
    std::memcpy(o, &bytes, sizeof bytes);
  }
  // The last group may end in one or two '=', which stand for no bits.
  const int pad = s[3] != '=' ? 0 : s[2] == '=' ? 2 : 1;
  std::uint32_t v = kBase64Tables[0][s[0]] | kBase64Tables[1][s[1]];
  if (pad < 2) v |= kBase64Tables[2][s[2]];
  if (pad < 1) v |= kBase64Tables[3][s[3]];
  if ((seen | v) & kNotBase64) return false;
  // Padding must leave the unused bits zero: one encoding per byte string.
  if ((pad == 1 && (v & 0xFF)) || (pad == 2 && (v & 0xFFFF))) return false;
  *o++ = static_cast<std::uint8_t>(v >> 16);
  if (pad < 2) *o++ = static_cast<std::uint8_t>(v >> 8);
  if (pad < 1) *o++ = static_cast<std::uint8_t>(v);
  *n = static_cast<std::size_t>(o - out);
  return true;
}

}  // namespace jitser::json
