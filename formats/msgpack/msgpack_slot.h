// What a compiled MessagePack reader's Slots hold, for the kernel (msgpack_kernel.cpp) and the
// helpers (msgpack_helpers.cpp): every MessagePack container states its count first, and its
// items follow one another, so reading is one walk through the input, on a CursorInput
// (formats/cursor_input.h), as the interpreter's reader keeps one position too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "formats/compiled_abi.h"
#include "formats/cursor_input.h"
#include "formats/msgpack/read_rules.h"
#include "formats/msgpack/wire.h"

extern "C" {
/// get_head at the input's position, compiled into the library: whether the head is
/// well-formed; the position after it.
bool jitser_msgpack_head(jitser::CursorInput* in, jitser::msgpack::Head* h);
}

namespace jitser::msgpack {

using Input = CursorInput;
using jitser::count_fits;
using jitser::input;
using jitser::left;
using jitser::readable_text;
using jitser::set_input;

/// The bytes of a Slot that compiled code copies.
inline constexpr std::uint32_t kSlotBytes = kCursorSlotBytes;

/// The head at the position, well-formed, read out of line (jitser_msgpack_head): the forms
/// read in line are the common ones, and get_head compiled into every codec made them slower
/// to compile than JSON's.
JITSER_MSGPACK_INLINE bool head(Input& in, Head& h) { return jitser_msgpack_head(&in, &h); }

/// An item's head, with the sized integers read in line (get_sized_int), the others by
/// get_head: what an integer field reads after its fix ints, without number_head's floats.
JITSER_MSGPACK_INLINE bool int_head(Input& in, Head& h) {
  if (in.p != in.end && *in.p >= kUint8 && *in.p <= 0xd3) {
    return get_sized_int(in.p, in.end, h) == HeadStatus::ok;
  }
  return head(in, h);
}

/// An item's head, with the number forms read in line (get_sized_int, and float 32 and 64),
/// the others by get_head.
JITSER_MSGPACK_INLINE bool number_head(Input& in, Head& h) {
  if (in.p != in.end && (*in.p == kFloat32 || *in.p == kFloat64)) {
    const unsigned bytes = *in.p == kFloat32 ? 4 : 8;
    if (static_cast<std::size_t>(in.end - in.p) <= bytes) return false;
    if (bytes == 4) {
      std::uint32_t x;
      std::memcpy(&x, in.p + 1, 4);
      h.bits = __builtin_bswap32(x);
    } else {
      std::memcpy(&h.bits, in.p + 1, 8);
      h.bits = __builtin_bswap64(h.bits);
    }
    h.type = bytes == 4 ? Type::Float32 : Type::Float64;
    in.p += 1 + bytes;
    return true;
  }
  return int_head(in, h);
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

}  // namespace jitser::msgpack
