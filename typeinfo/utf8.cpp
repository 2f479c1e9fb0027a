#include "typeinfo/utf8.h"

#include <cstring>

namespace jitser {

namespace {

constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;

// True when every byte is below 0x80: from sixteen bytes a vector at a time, below that a
// word or a byte at a time. Strings are checked as they are read, and a word at a time took
// about as long as copying them.
bool ascii_only(const std::uint8_t* s, std::size_t n) {
  if (n >= 16) return all_ascii(reinterpret_cast<const char*>(s), n);
  if (n < 8) {
    std::uint8_t any = 0;
    for (std::size_t i = 0; i < n; ++i) any |= s[i];
    return any < 0x80;
  }
  std::uint64_t head, tail;
  std::memcpy(&head, s, 8);
  std::memcpy(&tail, s + n - 8, 8);
  return ((head | tail) & kHighBits) == 0;
}

}  // namespace

bool valid_utf8(const std::uint8_t* s, std::size_t n, std::size_t* bad) {
  if (ascii_only(s, n)) return true;
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
