#include "formats/json/json_text.h"

#include <array>
#include <cstring>
#include <limits>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

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

// The vector decoder looks a character up by its two nibbles, sixteen entries a table, which
// is what a byte shuffle can index. Each bit names a class of high nibbles: 0x01 the row of '+'
// and '/', 0x02 the digits', 0x04 the rows of '@' and '`' (low nibble 0 is no letter), 0x08 the
// rows of 'P' and 'p' (past 'Z' and 'z'), 0x10 the rows with no character of the alphabet. A
// character is in the alphabet when its high nibble's classes and those its low nibble is bad
// for share no bit. Its six bits are the character plus its high nibble's shift, '/' taking the
// slot below its own, since '+' shares its high nibble and needs another shift.
using NibbleTable = std::array<std::uint8_t, 16>;
constexpr NibbleTable kHighNibbleClasses = {0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08,
                                            0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10};
constexpr NibbleTable kLowNibbleBadFor = {0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,
                                          0x11, 0x11, 0x13, 0x1A, 0x1B, 0x1B, 0x1B, 0x1A};
constexpr NibbleTable kHighNibbleShift = {0, 16, 19, 4, 0xBF, 0xBF, 0xB9, 0xB9,
                                          0, 0,  0,  0, 0,    0,    0,    0};

// The nibble tables say of every byte what kBase64Tables says: the alphabet stays one rule.
constexpr bool nibble_tables_agree() {
  for (unsigned c = 0; c < 256; ++c) {
    const bool in_alphabet = (kHighNibbleClasses[c >> 4] & kLowNibbleBadFor[c & 15]) == 0;
    if (in_alphabet != (kBase64Tables[3][c] != kNotBase64)) return false;
    const unsigned slot = (c >> 4) - (c == '/');
    if (in_alphabet && ((c + kHighNibbleShift[slot]) & 0xFF) != kBase64Tables[3][c]) return false;
  }
  return true;
}
static_assert(nibble_tables_agree());

#if defined(__x86_64__)
// Decodes the 32-character blocks of s[0, n), 24 bytes each, into out; returns the characters
// decoded, and clears *ok if any was outside the alphabet.
__attribute__((target("avx2"))) std::size_t decode_base64_blocks(const unsigned char* s,
                                                                 std::size_t n, std::uint8_t* out,
                                                                 bool* ok) {
  // Each table in both halves, since a byte shuffle indexes within a half.
  const __m256i classes = _mm256_broadcastsi128_si256(
      _mm_loadu_si128(reinterpret_cast<const __m128i*>(kHighNibbleClasses.data())));
  const __m256i bad_for = _mm256_broadcastsi128_si256(
      _mm_loadu_si128(reinterpret_cast<const __m128i*>(kLowNibbleBadFor.data())));
  const __m256i shifts = _mm256_broadcastsi128_si256(
      _mm_loadu_si128(reinterpret_cast<const __m128i*>(kHighNibbleShift.data())));
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  const __m256i slash = _mm256_set1_epi8('/');
  // Six bits a byte to 24 a lane: first byte pairs (a * 64 + b), then pairs of pairs.
  const __m256i join_bytes = _mm256_set1_epi32(0x01400140);
  const __m256i join_pairs = _mm256_set1_epi32(0x00011000);
  // Each lane's three bytes, most significant first, packed to the low 12 bytes of each half,
  // then the halves' 12 bytes packed together.
  const __m256i order = _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1, 2,
                                         1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
  const __m256i halves = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
  __m256i bad = _mm256_setzero_si256();
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32, out += 24) {
    const __m256i text = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i));
    const __m256i high = _mm256_and_si256(_mm256_srli_epi32(text, 4), nibble);
    const __m256i low = _mm256_and_si256(text, nibble);
    bad = _mm256_or_si256(bad, _mm256_and_si256(_mm256_shuffle_epi8(classes, high),
                                                _mm256_shuffle_epi8(bad_for, low)));
    const __m256i slot = _mm256_add_epi8(high, _mm256_cmpeq_epi8(text, slash));
    const __m256i six = _mm256_add_epi8(text, _mm256_shuffle_epi8(shifts, slot));
    const __m256i lanes = _mm256_madd_epi16(_mm256_maddubs_epi16(six, join_bytes), join_pairs);
    const __m256i bytes = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(lanes, order), halves);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm256_castsi256_si128(bytes));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + 16), _mm256_extracti128_si256(bytes, 1));
  }
  if (!_mm256_testz_si256(bad, bad)) *ok = false;
  return i;
}

bool have_avx2() {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2;
}
#endif

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
  bool ok = true;
#if defined(__x86_64__)
  if (have_avx2()) {
    const std::size_t done = decode_base64_blocks(s, text.size() - 4, o, &ok);
    s += done;
    o += done / 4 * 3;
  }
#endif
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
  if (!ok || ((seen | v) & kNotBase64)) return false;
  // Padding must leave the unused bits zero: one encoding per byte string.
  if ((pad == 1 && (v & 0xFF)) || (pad == 2 && (v & 0xFFFF))) return false;
  *o++ = static_cast<std::uint8_t>(v >> 16);
  if (pad < 2) *o++ = static_cast<std::uint8_t>(v >> 8);
  if (pad < 1) *o++ = static_cast<std::uint8_t>(v);
  *n = static_cast<std::size_t>(o - out);
  return true;
}

}  // namespace jitser::json
