// The Protobuf wire format's rules (docs/formats/protobuf.md), written once for the writer and
// the reader: varints, zigzag, tags and their wire types, and the encoding byte (Instr::enc)
// that the lowering picks for each value.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "formats/host_bits.h"

// Inlined into every caller: the kernel's functions are one function each in the bitcode, as
// the JIT inlines them and not what they call.
#define JITSER_PROTOBUF_WIRE_INLINE [[gnu::always_inline]] inline
#if defined(__clang__)
#define JITSER_PROTOBUF_KEEPS_REGISTERS [[clang::preserve_most]]
#else
#define JITSER_PROTOBUF_KEEPS_REGISTERS
#endif

namespace jitser::protobuf::wire {

/// The low three bits of a tag: how the value after it is framed.
enum WireType : std::uint8_t {
  kVarint = 0,
  kI64 = 1,
  kLen = 2,
  kStartGroup = 3,
  kEndGroup = 4,
  kI32 = 5,
  kAbsent = 0xFF,  // not on the wire: a reader's value for a field the input left out
};

/// Instr::enc: the value's wire type in the low three bits, and flags above them.
inline constexpr std::uint8_t kWireTypeMask = 0x07;
inline constexpr std::uint8_t kZigzag = 0x08;  // Int: sint32, sint64
inline constexpr std::uint8_t kPacked = 0x10;  // List, Array: scalar elements in one LEN run
/// Map: the key's wire type in the low bits, the value's shifted by this.
inline constexpr unsigned kMapValueShift = 4;

/// Op::Frame: the Plan has a field whose number is past kMaxFieldNumber, so writing fails.
inline constexpr std::uint8_t kUnwritableFrame = 0x01;

inline constexpr std::uint32_t kMaxFieldNumber = (1u << 29) - 1;
inline constexpr std::size_t kMaxVarintBytes = 10;
/// The high bit of each byte of a word: set on every byte of a varint but its last.
inline constexpr std::uint64_t kHighBits = 0x8080808080808080ull;

/// How many of the eight bytes of `w` end a varint (have their high bit clear). Summed by a
/// multiply rather than popcount, which the library's baseline target lacks.
JITSER_PROTOBUF_WIRE_INLINE std::uint64_t count_ends(std::uint64_t w) {
  return (((~w & kHighBits) >> 7) * 0x0101010101010101ull) >> 56;
}

// Where popcount is an instruction, or clang compiles the kernel's bitcode, which the JIT
// compiles for the host; gcc would call a library routine for it.
#if defined(__SSE2__) && (defined(__POPCNT__) || defined(__clang__))
#define JITSER_PROTOBUF_COUNT_ENDS16 1
/// How many of the sixteen bytes at p whose bits are set in `keep` end a varint.
JITSER_PROTOBUF_WIRE_INLINE unsigned count_ends16(const std::uint8_t* p, unsigned keep) {
  const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  return static_cast<unsigned>(
      std::popcount(~static_cast<unsigned>(_mm_movemask_epi8(bytes)) & keep));
}
#endif

JITSER_PROTOBUF_WIRE_INLINE std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
JITSER_PROTOBUF_WIRE_INLINE std::int64_t unzigzag(std::uint64_t v) {
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

JITSER_PROTOBUF_WIRE_INLINE std::uint32_t tag(std::uint32_t number, WireType type) {
  return number << 3 | type;
}

JITSER_PROTOBUF_WIRE_INLINE std::size_t varint_size(std::uint64_t v) {
  return (64 - static_cast<unsigned>(__builtin_clzll(v | 1)) + 6) / 7;
}

/// The low 56 bits of v as eight 7-bit groups, one per byte, high bits clear: join_groups
/// undone.
JITSER_PROTOBUF_WIRE_INLINE std::uint64_t split_groups(std::uint64_t v) {
  v = (v & 0x000000000FFFFFFFull) | ((v & 0x00FFFFFFF0000000ull) << 4);
  v = (v & 0x00003FFF00003FFFull) | ((v & 0x0FFFC0000FFFC000ull) << 2);
  return (v & 0x007F007F007F007Full) | ((v & 0x3F803F803F803F80ull) << 1);
}

/// Writes v in the fewest bytes, into room for kMaxVarintBytes, which it may write past its end;
/// returns the end. Past one byte, its groups are stored as one word, so that a long varint (a
/// negative int32 takes ten) costs about what a short one does.
JITSER_PROTOBUF_WIRE_INLINE std::uint8_t* put_varint(std::uint8_t* out, std::uint64_t v) {
  if (v < 0x80) {
    *out = static_cast<std::uint8_t>(v);
    return out + 1;
  }
  if (v < 0x4000) {
    out[0] = static_cast<std::uint8_t>(v | 0x80);
    out[1] = static_cast<std::uint8_t>(v >> 7);
    return out + 2;
  }
  if (v < std::uint64_t{1} << 56) {
    const std::size_t n = varint_size(v);  // 3 to 8
    const std::uint64_t w =
        split_groups(v) | (kHighBits & ((std::uint64_t{1} << (8 * (n - 1))) - 1));
    std::memcpy(out, &w, 8);
    return out + n;
  }
  const std::uint64_t w = split_groups(v) | kHighBits;
  std::memcpy(out, &w, 8);
  const std::uint64_t top = v >> 56;
  if (top < 0x80) {
    out[8] = static_cast<std::uint8_t>(top);
    return out + 9;
  }
  out[8] = static_cast<std::uint8_t>(top | 0x80);
  out[9] = 1;
  return out + 10;
}

enum class VarintStatus : std::uint8_t { ok, truncated, overlong };

/// The 7-bit groups of the eight bytes of `w` (their high bits ignored), joined: 56 bits. One
/// pext where compiled code runs on a host that has it fast (formats/host_bits.h).
JITSER_PROTOBUF_WIRE_INLINE std::uint64_t join_groups(std::uint64_t w) {
#if defined(JITSER_KERNEL_BITCODE)
  if (jitser_host_fast_pext) return jitser_host_pext(w, ~kHighBits);
#endif
  w &= ~kHighBits;
  w = (w & 0x007F007F007F007Full) | ((w & 0x7F007F007F007F00ull) >> 1);
  w = (w & 0x00003FFF00003FFFull) | ((w & 0x3FFF00003FFF0000ull) >> 2);
  return (w & 0x000000000FFFFFFFull) | ((w & 0x0FFFFFFF00000000ull) >> 4);
}

/// A varint read byte by byte: its value and size, 0 when it is not there whole.
struct VarintBytes {
  std::uint64_t value;
  std::uint32_t size;
  VarintStatus status;
};

/// get_varint's path near the end of what may be read. Out of line, so that the many inlined
/// copies of get_varint in compiled code carry only the word path; it takes and returns values,
/// so that the caller's position and result need not be in memory. Where clang compiles it (the
/// kernels' bitcode), it keeps the caller's registers, so that a loop that may call it keeps
/// its values in registers that need no saving on entry.
JITSER_PROTOBUF_KEEPS_REGISTERS [[gnu::noinline]] inline VarintBytes get_varint_bytes(
    const std::uint8_t* p, const std::uint8_t* end) {
  std::uint64_t result = 0;
  for (unsigned i = 0; i < kMaxVarintBytes; ++i) {
    if (p + i == end) return {0, 0, VarintStatus::truncated};
    const std::uint8_t b = p[i];
    if (i == kMaxVarintBytes - 1 && b > 1) return {0, 0, VarintStatus::overlong};
    result |= std::uint64_t{b & 0x7Fu} << (7 * i);
    if (b < 0x80) return {result, i + 1, VarintStatus::ok};
  }
  return {0, 0, VarintStatus::overlong};
}

/// A varint of three bytes or more at p, read as a word, its end found from the bytes' high
/// bits: its value and its size `n`, ten when it is overlong. Reads the word at p, and the
/// ninth and tenth bytes where the varint goes on into them.
JITSER_PROTOBUF_WIRE_INLINE VarintStatus get_long_varint(const std::uint8_t* p, std::uint64_t& v,
                                                         std::size_t& n) {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  std::uint64_t high = 0;  // the groups of bytes nine and ten
  if (const std::uint64_t stops = ~w & kHighBits) {
    n = (static_cast<unsigned>(__builtin_ctzll(stops)) >> 3) + 1;
    if (n < 8) w &= (std::uint64_t{1} << (8 * n)) - 1;
  } else if (p[8] < 0x80) {
    n = 9;
    high = std::uint64_t{p[8]} << 56;
  } else {
    n = 10;
    if (p[9] > 1) return VarintStatus::overlong;
    high = std::uint64_t{p[8] & 0x7Fu} << 56 | std::uint64_t{p[9]} << 63;
  }
  v = join_groups(w) | high;
  return VarintStatus::ok;
}

/// Reads a varint of at most ten bytes from [p, end), advancing p; `slack` bytes past `end`
/// may be read (not taken). Protobuf readers accept redundant high bytes (0x80 0x00), so only
/// a varint past ten bytes, or whose tenth byte sets bits above 64, is overlong. With ten bytes
/// readable, a varint is read as a word (get_long_varint), so that a long one (a negative int32
/// takes ten) costs about what a short one does.
JITSER_PROTOBUF_WIRE_INLINE VarintStatus get_varint(const std::uint8_t*& p, const std::uint8_t* end,
                                                    std::uint64_t& v, std::size_t slack = 0) {
  const auto left = static_cast<std::size_t>(end - p);
  if (left + slack < kMaxVarintBytes) [[unlikely]] {
    const VarintBytes r = get_varint_bytes(p, end);
    if (r.status != VarintStatus::ok) return r.status;
    v = r.value;
    p += r.size;
    return VarintStatus::ok;
  }
  // One and two bytes, the commonest; where a caller tested for one byte already, the
  // compiler drops the test here.
  if (left == 0) return VarintStatus::truncated;
  if (p[0] < 0x80) {
    v = p[0];
    p += 1;
    return VarintStatus::ok;
  }
  if (p[1] < 0x80) {
    if (left < 2) return VarintStatus::truncated;
    v = (p[0] & 0x7Fu) | std::uint64_t{p[1]} << 7;
    p += 2;
    return VarintStatus::ok;
  }
  std::uint64_t value;
  std::size_t n;
  const VarintStatus status = get_long_varint(p, value, n);
  // Bytes past `end` were read but belong to what follows.
  if (n > left) return VarintStatus::truncated;
  if (status != VarintStatus::ok) return status;
  v = value;
  p += n;
  return VarintStatus::ok;
}

/// Reads a varint that begins before `end` in a run whose last byte ends a varint (a packed
/// run that count_items accepted): it ends in the run, so its bytes need no test against
/// `end`, only its length one. `slack` bytes past `end` may be read.
JITSER_PROTOBUF_WIRE_INLINE VarintStatus get_run_varint(const std::uint8_t*& p,
                                                        const std::uint8_t* end, std::uint64_t& v,
                                                        std::size_t slack) {
  if (p[0] < 0x80) {
    v = p[0];
    p += 1;
    return VarintStatus::ok;
  }
  // p[0] goes on, so the run holds p[1], and so on to the varint's end.
  if (p[1] < 0x80) {
    v = (p[0] & 0x7Fu) | std::uint64_t{p[1]} << 7;
    p += 2;
    return VarintStatus::ok;
  }
  // The word read at p may pass the run's end by up to seven bytes.
  if (slack < 7) [[unlikely]] {
    return get_varint(p, end, v, slack);
  }
  std::size_t n;
  const VarintStatus status = get_long_varint(p, v, n);
  if (status != VarintStatus::ok) return status;
  p += n;
  return VarintStatus::ok;
}

}  // namespace jitser::protobuf::wire
