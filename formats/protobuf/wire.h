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

/// Reads a varint of at most ten bytes from [p, end), advancing p. Protobuf readers accept
/// redundant high bytes (0x80 0x00), so only a varint past ten bytes, or whose tenth byte sets
/// bits above 64, is overlong.
JITSER_PROTOBUF_WIRE_INLINE VarintStatus get_varint(const std::uint8_t*& p, const std::uint8_t* end,
                                                    std::uint64_t& v) {
  // With ten bytes left, none of the bytes is checked against the end.
  const bool room = end - p >= static_cast<std::ptrdiff_t>(kMaxVarintBytes);
  std::uint64_t result = 0;
  for (unsigned i = 0; i < kMaxVarintBytes; ++i) {
    if (!room && p + i == end) return VarintStatus::truncated;
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
