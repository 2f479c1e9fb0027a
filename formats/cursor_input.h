// The reading state of formats whose items follow one another with nothing to go back to
// (MessagePack, CBOR): compiled code keeps one position in the input, in the ReadContext, and
// every Slot points at it; an object's or container's iterator holds besides the items it has
// left. A Slot of its own position for each value would have to be handed back to the slot of
// the object or list around it once the value is read, which a slot lent to a call that is
// not inlined cannot do. Shared by those formats' kernels and helpers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>

#include "formats/compiled_abi.h"

// Inlined into every caller, so that each kernel function is one function in the bitcode.
#define JITSER_CURSOR_INLINE [[gnu::always_inline]] inline

namespace jitser {

struct CursorInput {
  const std::uint8_t* p;
  const std::uint8_t* end;
  const std::uint8_t* readable;  // the end and the padding past it, which may be read
  ReadContext* ctx;
  // A key or enum name too near the end to be compared in place, with 8 bytes after it.
  char scratch[sizeof(ReadContext::input) - 4 * sizeof(void*)];
};
static_assert(sizeof(CursorInput) == sizeof(ReadContext::input));

/// The bytes of a Slot that compiled code copies: the CursorInput's address and an iterator's
/// count.
inline constexpr std::uint32_t kCursorSlotBytes = 16;

/// The layout a kernel and the helpers, compiled by different compilers, both assume.
inline constexpr std::uint64_t kCursorInputLayout =
    sizeof(CursorInput) | offsetof(CursorInput, ctx) << 12 | offsetof(CursorInput, scratch) << 24;

/// Makes the CursorInput of a call in its context, and points the root's Slot at it.
JITSER_CURSOR_INLINE CursorInput& open_cursor(ReadContext* ctx, const std::uint8_t* p,
                                              const std::uint8_t* end, Slot* root) {
  CursorInput* in = ::new (ctx->input) CursorInput;  // the scratch is written before it is read
  in->p = p;
  in->end = end;
  in->readable = end + ctx->padding;
  in->ctx = ctx;
  std::memcpy(root->bytes, &in, sizeof in);
  return *in;
}

JITSER_CURSOR_INLINE CursorInput& input(Slot* s) {
  CursorInput* in;
  std::memcpy(&in, s->bytes, sizeof in);
  return *in;
}
JITSER_CURSOR_INLINE void set_input(Slot* s, CursorInput* in) {
  std::memcpy(s->bytes, &in, sizeof in);
}
JITSER_CURSOR_INLINE std::uint64_t& left(Slot* s) {
  return *reinterpret_cast<std::uint64_t*>(s->bytes + 8);
}

/// A count of items of at least `min_bytes` each, bounded by the input left.
JITSER_CURSOR_INLINE bool count_fits(const CursorInput& in, std::uint64_t n,
                                     std::uint32_t min_bytes) {
  return n <= static_cast<std::uint64_t>(in.end - in.p) / (min_bytes ? min_bytes : 1);
}

/// The n bytes at `from` (in the input) with 8 more readable after them: where they are, or a
/// copy in the scratch; null, and the input left to the interpreter, for text too long for
/// it.
JITSER_CURSOR_INLINE const char* readable_text(CursorInput& in, const std::uint8_t* from,
                                               std::size_t n) {
  if (static_cast<std::size_t>(in.readable - from) >= n + 8) {
    return reinterpret_cast<const char*>(from);
  }
  if (n + 8 > sizeof in.scratch) {
    jitser_rt_decline(in.ctx);
    return nullptr;
  }
  std::memset(in.scratch, 0, n + 8);
  std::memcpy(in.scratch, from, n);
  return in.scratch;
}

}  // namespace jitser
