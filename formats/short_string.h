// Storing a short string into a string without a call, for the kernels' readers, and checking
// a short text as ASCII a word at a time, for their writers (longer ones: typeinfo/utf8.h). The
// standard layout of every string (typeinfo/strings.h) starts with a data pointer with room for 15
// chars and a terminator (its local buffer, or a heap block of more), then the size, as
// jit::std_layouts_match checks before any compiled code runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "typeinfo/strings.h"
#include "typeinfo/utf8.h"

namespace jitser {

/// Makes the String at `s`, of the given allocator, the first n <= 15 of the 16 bytes at
/// `sixteen`.
inline void assign_short_string(void* s, std::uint32_t allocator, const void* sixteen,
                                std::size_t n) {
  char* layout = static_cast<char*>(s) + std_layout_offset(static_cast<Allocator>(allocator));
  char* data;
  std::memcpy(&data, layout, sizeof data);
  std::memcpy(data, sixteen, 16);
  data[n] = '\0';
  std::memcpy(layout + sizeof data, &n, sizeof n);
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
