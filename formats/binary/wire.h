// The binary format's primitive encodings (docs/formats/binary.md), shared by both tiers.
// Everything here is a few instructions and branch-light; bounds are the caller's to give.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace jitser::wire {

static_assert(std::endian::native == std::endian::little,
              "jitser's binary format stores little-endian values by copying them");

inline constexpr std::uint8_t kMagic = 0x4A;  // 'J'
inline constexpr std::uint8_t kVersion = 1;
inline constexpr std::uint8_t kHasFingerprint = 0x10;
inline constexpr std::uint8_t kVersionMask = 0x0F;

// Null and reference flags, as in Fory.
inline constexpr std::uint8_t kNull = 0xFD;      // -3: no value
inline constexpr std::uint8_t kRef = 0xFE;       // -2: a varuint id of an object read before
inline constexpr std::uint8_t kNotNull = 0xFF;   // -1: a value follows (not tracked)
inline constexpr std::uint8_t kRefValue = 0x00;  //  0: a new tracked object follows

// Element header of lists and maps: what each element (map: each value) carries.
inline constexpr std::uint8_t kElemTrackRef = 0x01;  // a reference flag per element
inline constexpr std::uint8_t kElemNullable = 0x02;  // a null flag per element
inline constexpr std::uint8_t kElemDeclared = 0x04;  // elements are of the declared type

// How the binary lowering encodes an integer or float (Instr::enc). Lists and maps carry their
// element header there instead.
enum Enc : std::uint8_t {
  kFixed,    // `width` bytes little-endian (8/16-bit integers, float, double)
  kVarint,   // LEB128 of an unsigned integer
  kZigzag,   // LEB128 of a signed integer, zigzag-mapped
  kCompact,  // int64: 4 bytes (v << 1) when v fits in 31 bits signed, else 0x01 and 8 bytes
};

inline constexpr std::size_t kMaxVarintBytes = 10;

// Elements that occupy no input bytes (empty structs) cannot be bounded by the input size.
inline constexpr std::uint64_t kMaxEmptyElements = 1u << 16;

constexpr std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
constexpr std::int64_t unzigzag(std::uint64_t v) {
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

/// Writes v as LEB128 at p (room for kMaxVarintBytes); returns the end.
inline std::uint8_t* put_varuint(std::uint8_t* p, std::uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<std::uint8_t>(v) | 0x80;
    v >>= 7;
  }
  *p++ = static_cast<std::uint8_t>(v);
  return p;
}

enum class VarintStatus : std::uint8_t { ok, truncated, overlong, overflow };

/// Reads a LEB128 value of at most `bits` (32 or 64) bits. Rejects encodings longer than the
/// width needs or ending in a redundant zero byte, so every value has one encoding.
inline VarintStatus get_varuint(const std::uint8_t*& p, const std::uint8_t* end, unsigned bits,
                                std::uint64_t& out) {
  if (p < end && *p < 0x80) {  // one byte: most lengths, counts and small fields
    out = *p++;
    return VarintStatus::ok;
  }
  const unsigned max_bytes = (bits + 6) / 7;
  std::uint64_t v = 0;
  for (unsigned i = 0; i < max_bytes; ++i) {
    if (p + i >= end) return VarintStatus::truncated;
    const std::uint8_t byte = p[i];
    if (i == max_bytes - 1) {
      if (byte & 0x80) return VarintStatus::overlong;
      const unsigned spare = 7 * max_bytes - bits;  // high bits of the last byte that must be 0
      if (byte >> (7 - spare)) return VarintStatus::overflow;
    }
    v |= static_cast<std::uint64_t>(byte & 0x7F) << (7 * i);
    if (!(byte & 0x80)) {
      if (byte == 0 && i > 0) return VarintStatus::overlong;
      p += i + 1;
      out = v;
      return VarintStatus::ok;
    }
  }
  return VarintStatus::overlong;  // unreachable: the last byte returns above
}

/// Compact int64 (Fory's SLI): 4 bytes of v << 1 when v is in [-2^30, 2^30), else the byte 0x01
/// and 8 bytes of v. Returns the end.
inline std::uint8_t* put_int64_compact(std::uint8_t* p, std::int64_t v) {
  if (v >= -(std::int64_t{1} << 30) && v < (std::int64_t{1} << 30)) {
    const auto small = static_cast<std::uint32_t>(static_cast<std::int32_t>(v)) << 1;
    std::memcpy(p, &small, 4);
    return p + 4;
  }
  *p = 0x01;
  std::memcpy(p + 1, &v, 8);
  return p + 9;
}

inline void put_fixed(std::uint8_t* p, const void* value, unsigned width) {
  std::memcpy(p, value, width);
}
}  // namespace jitser::wire
