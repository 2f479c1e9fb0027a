// UTF-8 (RFC 3629): validation, which rejects overlong forms, surrogates and code points past
// U+10FFFF, and encoding one code point, for the readers that decode \u escapes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace jitser {

/// Whether the n >= 16 bytes at data are ASCII (and so UTF-8), 16 at a time in one vector
/// register (SSE2 on x86-64), the last 16 overlapping those before. In line, for the kernels'
/// readers and writers.
[[gnu::always_inline]] inline bool all_ascii(const char* data, std::size_t n) {
  using Bytes16 = unsigned char __attribute__((vector_size(16)));
  Bytes16 any = {};
  Bytes16 bytes;
  for (std::size_t i = 0; i + 16 <= n; i += 16) {
    std::memcpy(&bytes, data + i, 16);
    any |= bytes;
  }
  std::memcpy(&bytes, data + n - 16, 16);
  any |= bytes;
  std::uint64_t halves[2];
  std::memcpy(halves, &any, 16);
  return ((halves[0] | halves[1]) & 0x8080808080808080ull) == 0;
}

/// True when the bytes are well-formed UTF-8. On failure, *bad (if given) is the offset of the
/// first byte of the bad sequence.
bool valid_utf8(const std::uint8_t* data, std::size_t size, std::size_t* bad = nullptr);

/// Appends the UTF-8 bytes of `cp`, a code point that is not a surrogate and is at most
/// U+10FFFF (the caller has checked).
inline void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | cp >> 6);
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | cp >> 12);
    out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | cp >> 18);
    out += static_cast<char>(0x80 | (cp >> 12 & 0x3F));
    out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace jitser
