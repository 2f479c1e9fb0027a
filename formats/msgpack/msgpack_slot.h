// What a compiled MessagePack reader's Slots hold, for the kernel (msgpack_kernel.cpp) and the
// helpers (msgpack_helpers.cpp).
//
// Every MessagePack container states its count first, and its items follow one another, so
// reading is one walk through the input: like the interpreter's reader, compiled code keeps
// one position, in the ReadContext, and every Slot points at it. An object's iterator holds
// besides the fields it has left. A Slot of its own position for each value would have to be
// handed back to the slot of the object or list around it once the value is read, which a
// slot lent to a call that is not inlined cannot do.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "formats/compiled_abi.h"
#include "formats/msgpack/read_rules.h"
#include "formats/msgpack/wire.h"

namespace jitser::msgpack {

struct Input {
  const std::uint8_t* p;
  const std::uint8_t* end;
  const std::uint8_t* readable;  // the end and the padding past it, which may be read
  ReadContext* ctx;
  // A key or enum name too near the end to be compared in place, with 8 bytes after it.
  char scratch[sizeof(ReadContext::input) - 4 * sizeof(void*)];
};
static_assert(sizeof(Input) == sizeof(ReadContext::input));

/// The bytes of a Slot that compiled code copies: the Input and an iterator's count.
inline constexpr std::uint32_t kSlotBytes = 16;

JITSER_MSGPACK_INLINE Input& input(Slot* s) {
  Input* in;
  std::memcpy(&in, s->bytes, sizeof in);
  return *in;
}
JITSER_MSGPACK_INLINE void set_input(Slot* s, Input* in) { std::memcpy(s->bytes, &in, sizeof in); }
JITSER_MSGPACK_INLINE std::uint64_t& left(Slot* s) {
  return *reinterpret_cast<std::uint64_t*>(s->bytes + 8);
}

JITSER_MSGPACK_INLINE bool head(Input& in, Head& h) {
  return get_head(in.p, in.end, h) == HeadStatus::ok;
}

/// An item's head, with the number forms read in line (get_sized_int, and float 32 and 64),
/// the others by get_head.
JITSER_MSGPACK_INLINE bool number_head(Input& in, Head& h) {
  if (in.p == in.end) return false;
  const std::uint8_t b = *in.p;
  if (b >= kUint8 && b <= 0xd3) return get_sized_int(in.p, in.end, h) == HeadStatus::ok;
  if (b == kFloat32 || b == kFloat64) {
    const unsigned bytes = b == kFloat32 ? 4 : 8;
    if (static_cast<std::size_t>(in.end - in.p) <= bytes) return false;
    if (bytes == 4) {
      std::uint32_t x;
      std::memcpy(&x, in.p + 1, 4);
      h.bits = __builtin_bswap32(x);
    } else {
      std::memcpy(&h.bits, in.p + 1, 8);
      h.bits = __builtin_bswap64(h.bits);
    }
    h.type = b == kFloat32 ? Type::Float32 : Type::Float64;
    in.p += 1 + bytes;
    return true;
  }
  return head(in, h);
}

/// A head of the family `type`, read in line when it is the fix form under `fix` (of `mask`
/// bits), the common case, and by get_head otherwise.
JITSER_MSGPACK_INLINE bool head_of(Input& in, Type type, std::uint8_t fix, std::uint8_t mask,
                                   std::uint64_t& n) {
  if (in.p != in.end && (*in.p & ~mask) == fix) {
    n = *in.p++ & mask;
    return true;
  }
  Head h;
  if (!head(in, h) || h.type != type) return false;
  n = h.bits;
  return true;
}

/// A str's head whose bytes are in the input.
JITSER_MSGPACK_INLINE bool str_head(Input& in, std::uint64_t& n) {
  return head_of(in, Type::Str, 0xa0, 0x1f, n) && n <= static_cast<std::uint64_t>(in.end - in.p);
}

/// A count of items of at least `min_bytes` each, bounded by the input left.
JITSER_MSGPACK_INLINE bool count_fits(const Input& in, std::uint64_t n, std::uint32_t min_bytes) {
  return n <= static_cast<std::uint64_t>(in.end - in.p) / (min_bytes ? min_bytes : 1);
}

/// The n bytes at `from` (in the input) with 8 more readable after them: where they are, or a
/// copy in the scratch; null, and the input left to the interpreter, for text too long for
/// it.
JITSER_MSGPACK_INLINE const char* readable_text(Input& in, const std::uint8_t* from,
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

}  // namespace jitser::msgpack
