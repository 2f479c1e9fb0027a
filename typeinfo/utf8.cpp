#include "typeinfo/utf8.h"

#include <cstring>

namespace jitser {

namespace {

constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;

// True when every byte is below 0x80, checked a word at a time; the last word overlaps the one
// before it rather than ending byte by byte.
bool all_ascii(const std::uint8_t* s, std::size_t n) {
  if (n < 8) {
    std::uint8_t any = 0;
    for (std::size_t i = 0; i < n; ++i) any |= s[i];
    return any < 0x80;
  }
  std::uint64_t any = 0, word;
  for (std::size_t i = 0; i + 8 <= n; i += 8) {
    std::memcpy(&word, s + i, 8);
    any |= word;
  }
  std::memcpy(&word, s + n - 8, 8);
  return ((any | word) & kHighBits) == 0;
}

}  // namespace

bool valid_utf8(const std::uint8_t* s, std::size_t n, std::size_t* bad) {
  if (all_ascii(s, n)) return true;
  std::size_t i = 0;
  while (i < n) {
    // ASCII runs, eight bytes at a time: most text is mostly ASCII.
    if (i + 8 <= n) {
      std::uint64_t word;
      std::memcpy(&word, s + i, 8);
      if ((word & kHighBits) == 0) {
        i += 8;
        continue;
      }
    }
    const std::uint8_t c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t len;
    std::uint8_t lo = 0x80, hi = 0xBF;  // bounds of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;  // overlong
      if (c == 0xED) hi = 0x9F;  // surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;  // overlong
      if (c == 0xF4) hi = 0x8F;  // past U+10FFFF
    } else {
      if (bad) *bad = i;
      return false;
    }
    bool ok = i + len <= n && s[i + 1] >= lo && s[i + 1] <= hi;
    for (std::size_t k = 2; ok && k < len; ++k) ok = (s[i + k] & 0xC0) == 0x80;
    if (!ok) {
      if (bad) *bad = i;
      return false;
    }
    i += len;
  }
  return true;
}

}  // namespace jitser
