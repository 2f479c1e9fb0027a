// Storing a short string into a std::string without a call, for the kernels' readers: every
// std::string's data pointer has room for 15 chars and a terminator (its local buffer, or a
// heap block of more), and its size is the word at offset 8, as jit::std_layouts_match checks
// before any compiled code runs.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>

namespace jitser {

/// Makes `s` the first n <= 15 of the 16 bytes at `sixteen`.
inline void assign_short_string(std::string* s, const void* sixteen, std::size_t n) {
  char* data = s->data();
  std::memcpy(data, sixteen, 16);
  data[n] = '\0';
  std::memcpy(reinterpret_cast<char*>(s) + 8, &n, sizeof n);
}

/// Whether the first n <= 15 of the 16 bytes at `sixteen` are ASCII (and so UTF-8).
inline bool ascii_prefix(const void* sixteen, std::size_t n) {
  std::uint64_t lo, hi;
  std::memcpy(&lo, sixteen, 8);
  std::memcpy(&hi, static_cast<const char*>(sixteen) + 8, 8);
  const std::uint64_t bits = n * 8;
  const std::uint64_t lo_mask = n >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  const std::uint64_t hi_mask = n > 8 ? (std::uint64_t{1} << (bits - 64)) - 1 : 0;
  return (((lo & lo_mask) | (hi & hi_mask)) & 0x8080808080808080ull) == 0;
}

}  // namespace jitser
