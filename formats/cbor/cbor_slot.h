// What a compiled CBOR reader's Slots hold, for the kernel (cbor_kernel.cpp) and the helpers
// (cbor_helpers.cpp): items follow one another, so reading is one walk through the input, on
// a CursorInput (formats/cursor_input.h), as the interpreter's reader keeps one position too.
//
// Compiled code reads definite lengths and the tags of the kinds that have them. What is
// rarer (indefinite lengths, other tags, bignums) it leaves to the interpreter
// (jitser_rt_decline), which reads every well-formed item.
#pragma once

#include <cstddef>
#include <cstdint>

#include "formats/cbor/read_rules.h"
#include "formats/cbor/wire.h"
#include "formats/compiled_abi.h"
#include "formats/cursor_input.h"

extern "C" {
/// get_head at the input's position, compiled into the library: whether the head is
/// well-formed and not one compiled code leaves to the interpreter (an indefinite length or a
/// tag, which declines); the position after it.
bool jitser_cbor_head(jitser::CursorInput* in, jitser::cbor::Head* h);
}

namespace jitser::cbor {

using Input = CursorInput;
using jitser::count_fits;
using jitser::input;
using jitser::left;
using jitser::readable_text;
using jitser::set_input;

/// The bytes of a Slot that compiled code copies.
inline constexpr std::uint32_t kSlotBytes = kCursorSlotBytes;

/// Leaves the input to the interpreter: false, as the kernel function that calls it returns.
JITSER_CURSOR_INLINE bool decline(Input& in) { return jitser_rt_decline(in.ctx); }

/// The head at the position, well-formed. An indefinite length or a tag, which compiled code
/// leaves to the interpreter, declines. Read out of line, declining included
/// (jitser_cbor_head): the heads read in line are the common ones, and each test inlined at
/// every value made codecs slower to compile than JSON's.
JITSER_CURSOR_INLINE bool head(Input& in, Head& h) { return jitser_cbor_head(&in, &h); }

/// False, for an item compiled code does not read as the value asked for: one the interpreter
/// may read (a tag, an indefinite length) declines.
JITSER_CURSOR_INLINE bool not_read(Input& in) {
  Head h;
  head(in, h);
  return false;
}

/// The argument of a head of major type `major`, read in line when it is in the initial byte
/// (below 24) or the one after it, the common cases, and by get_head otherwise.
JITSER_CURSOR_INLINE bool head_of(Input& in, Major major, std::uint64_t& n) {
  const auto m = static_cast<std::uint8_t>(static_cast<unsigned>(major) << 5);
  if (in.p != in.end && (*in.p & 0xe0) == m) {
    const unsigned info = *in.p & 0x1f;
    if (info < 24) {
      n = info;
      ++in.p;
      return true;
    }
    if (info == 24 && in.end - in.p >= 2) {
      n = in.p[1];
      in.p += 2;
      return true;
    }
  }
  Head h;
  if (!head(in, h) || h.major != major) return false;
  n = h.n;
  return true;
}

/// An integer's head (major type 0 or 1), in line in any width where the input has a word after
/// the initial byte (big_endian_word), by get_head otherwise; false for any other item, and a
/// tag (a bignum) declines.
JITSER_CURSOR_INLINE bool integer_head(Input& in, Integer& v) {
  if (in.p == in.end) return false;
  const std::uint8_t b = *in.p;
  if (b >= 0x40) return not_read(in);
  const unsigned info = b & 0x1f;
  v.negative = b >= 0x20;
  if (info < 24) {
    v.n = info;
    ++in.p;
    return true;
  }
  if (info > 27) return false;  // reserved, or an indefinite length: not well-formed
  const unsigned bytes = 1u << (info - 24);
  if (static_cast<std::size_t>(in.end - in.p) > 8) {
    v.n = big_endian_word(in.p + 1) >> (64 - 8 * bytes);
    in.p += 1 + bytes;
    return true;
  }
  Head h;
  if (!head(in, h)) return false;
  v.n = h.n;
  return true;
}

/// A text string's head whose bytes are in the input.
JITSER_CURSOR_INLINE bool text_head(Input& in, std::uint64_t& n) {
  return head_of(in, Major::Text, n) && n <= static_cast<std::uint64_t>(in.end - in.p);
}

}  // namespace jitser::cbor
