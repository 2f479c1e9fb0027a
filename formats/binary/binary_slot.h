// What a compiled binary reader's Slot holds, the input left, and the reading steps the kernel
// (binary_kernel.cpp) and the helpers (binary_helpers.cpp) share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "formats/binary/wire.h"
#include "formats/ops.h"

// Inlined into every caller, so that each kernel function is one function in the bitcode: the
// JIT inlines the kernel's functions, not what they call.
#define JITSER_BINARY_INLINE [[gnu::always_inline]] inline

namespace jitser::binary {

struct Input {
  const std::uint8_t* p;
  const std::uint8_t* end;
};
static_assert(sizeof(Input) <= sizeof(Slot));

JITSER_BINARY_INLINE Input& input(Slot* s) { return *reinterpret_cast<Input*>(s->bytes); }

JITSER_BINARY_INLINE bool varuint(Input& in, unsigned bits, std::uint64_t& v) {
  return wire::get_varuint(in.p, in.end, bits, v) == wire::VarintStatus::ok;
}

// A count of items of at least `min_bytes` each, bounded by the input left.
JITSER_BINARY_INLINE bool count(Input& in, std::size_t min_bytes, std::uint64_t& n) {
  return varuint(in, 64, n) &&
         wire::count_fits(n, static_cast<std::size_t>(in.end - in.p), min_bytes);
}

JITSER_BINARY_INLINE bool byte(Input& in, std::uint8_t& b) {
  if (in.p == in.end) return false;
  b = *in.p++;
  return true;
}

// `width` bytes little-endian, the high bytes of *out zero.
template <class T>
JITSER_BINARY_INLINE bool fixed(Input& in, unsigned width, T* out) {
  if (static_cast<std::size_t>(in.end - in.p) < width) return false;
  T v = 0;
  std::memcpy(&v, in.p, width);
  in.p += width;
  *out = v;
  return true;
}

}  // namespace jitser::binary
