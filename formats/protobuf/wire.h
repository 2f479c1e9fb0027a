// The Protobuf wire format's rules (docs/formats/protobuf.md), written once for the writer and
// the reader: varints, zigzag, tags and their wire types, and the encoding byte (Instr::enc)
// that the lowering picks for each value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

// Inlined into every caller: the kernel's functions are one function each in the bitcode, as
// the JIT inlines them and not what they call.
#define JITSER_PROTOBUF_WIRE_INLINE [[gnu::always_inline]] inline

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
  std::size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

/// Writes v in the fewest bytes, into room for kMaxVarintBytes; returns the end.
JITSER_PROTOBUF_WIRE_INLINE std::uint8_t* put_varint(std::uint8_t* out, std::uint64_t v) {
  while (v >= 0x80) {
    *out++ = static_cast<std::uint8_t>(v | 0x80);
    v >>= 7;
  }
  *out++ = static_cast<std::uint8_t>(v);
  return out;
}

enum class VarintStatus : std::uint8_t { ok, truncated, overlong };

/// The 7-bit groups of the eight bytes of `w` (their high bits clear), joined: 56 bits.
JITSER_PROTOBUF_WIRE_INLINE std::uint64_t join_groups(std::uint64_t w) {
  w = (w & 0x007F007F007F007Full) | ((w & 0x7F007F007F007F00ull) >> 1);
  w = (w & 0x00003FFF00003FFFull) | ((w & 0x3FFF00003FFF0000ull) >> 2);
  return (w & 0x000000000FFFFFFFull) | ((w & 0x0FFFFFFF00000000ull) >> 4);
}

/// Reads a varint of at most ten bytes from [p, end), advancing p. Protobuf readers accept
/// redundant high bytes (0x80 0x00), so only a varint past ten bytes, or whose tenth byte sets
/// bits above 64, is overlong. With ten bytes left, a varint of more than one byte is read as a
/// word, its end found from the bytes' high bits, so that a long one (a negative int32 takes
/// ten) costs about what a short one does.
JITSER_PROTOBUF_WIRE_INLINE VarintStatus get_varint(const std::uint8_t*& p, const std::uint8_t* end,
                                                    std::uint64_t& v) {
  constexpr std::uint64_t kHighBits = 0x8080808080808080ull;
  if (end - p >= static_cast<std::ptrdiff_t>(kMaxVarintBytes)) {
    if (p[1] < 0x80) {  // two bytes: the commonest after one, which callers read themselves
      v = (p[0] & 0x7Fu) | std::uint64_t{p[1]} << 7;
      p += 2;
      return VarintStatus::ok;
    }
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    if (const std::uint64_t stops = ~w & kHighBits) {
      const unsigned n = (static_cast<unsigned>(__builtin_ctzll(stops)) >> 3) + 1;  // 1 to 8
      const std::uint64_t kept = n == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * n)) - 1;
      v = join_groups(w & kept & ~kHighBits);
      p += n;
      return VarintStatus::ok;
    }
    const std::uint64_t low = join_groups(w & ~kHighBits);
    if (p[8] < 0x80) {
      v = low | std::uint64_t{p[8]} << 56;
      p += 9;
      return VarintStatus::ok;
    }
    if (p[9] > 1) return VarintStatus::overlong;
    v = low | std::uint64_t{p[8] & 0x7Fu} << 56 | std::uint64_t{p[9]} << 63;
    p += 10;
    return VarintStatus::ok;
  }
  std::uint64_t result = 0;
  for (unsigned i = 0; i < kMaxVarintBytes; ++i) {
    if (p + i == end) return VarintStatus::truncated;
    const std::uint8_t b = p[i];
    if (i == kMaxVarintBytes - 1 && b > 1) return VarintStatus::overlong;
    result |= std::uint64_t{b & 0x7Fu} << (7 * i);
    if (b < 0x80) {
      p += i + 1;
      v = result;
      return VarintStatus::ok;
    }
  }
  return VarintStatus::overlong;
}

}  // namespace jitser::protobuf::wire
