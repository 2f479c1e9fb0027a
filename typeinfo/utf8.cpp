#include "typeinfo/utf8.h"

#include <cstring>

namespace jitser {

namespace {

constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;

// Sixteen bytes as one value, which GCC and Clang keep in one vector register (SSE2 on x86-64).
using Bytes16 = std::uint8_t __attribute__((vector_size(16)));

// True when every byte is below 0x80, checked sixteen bytes at a time (or eight, below
// sixteen); the last step overlaps the one before it rather than ending byte by byte. Strings
// are checked as they are read, and a word at a time took about as long as copying them.
bool all_ascii(const std::uint8_t* s, std::size_t n) {
  if (n < 8) {
    std::uint8_t any = 0;
    for (std::size_t i = 0; i < n; ++i) any |= s[i];
    return any < 0x80;
  }
  if (n < 16) {
    std::uint64_t head, tail;
    std::memcpy(&head, s, 8);
    std::memcpy(&tail, s + n - 8, 8);
    return ((head | tail) & kHighBits) == 0;
  }
  Bytes16 any{}, bytes;
  for (std::size_t i = 0; i + 16 <= n; i += 16) {
    std::memcpy(&bytes, s + i, 16);
    any |= bytes;
  }
  std::memcpy(&bytes, s + n - 16, 16);
  any |= bytes;
  std::uint64_t halves[2];
  std::memcpy(halves, &any, 16);
  return ((halves[0] | halves[1]) & kHighBits) == 0;
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
