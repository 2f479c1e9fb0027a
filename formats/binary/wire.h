// The binary format's primitive encodings (docs/formats/binary.md), shared by both tiers.
// Everything here is a few instructions and branch-light; bounds are the caller's to give.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

// The kernel (binary_kernel.cpp) is compiled to bitcode with every rule it uses inlined into
// its functions: the JIT inlines those, not what they call.
#define JITSER_WIRE_INLINE [[gnu::always_inline]] inline

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

/// Writes v as LEB128 at p (room for kMaxVarintBytes); returns the end. One byte (most
/// lengths, counts and small fields) is a compare and a store.
JITSER_WIRE_INLINE std::uint8_t* put_varuint(std::uint8_t* p, std::uint64_t v) {
  if (v < 0x80) {
    *p = static_cast<std::uint8_t>(v);
    return p + 1;
  }
  do {
    *p++ = static_cast<std::uint8_t>(v) | 0x80;
    v >>= 7;
  } while (v >= 0x80);
  *p++ = static_cast<std::uint8_t>(v);
  return p;
}

enum class VarintStatus : std::uint8_t { ok, truncated, overlong, overflow };

/// A varint read out of line: where it ends and its value; or, when it is bad, a null end and
/// why (two words, so that it comes back in registers).
struct VarintRead {
  const std::uint8_t* next;
  std::uint64_t value;
};

/// Reads a LEB128 value of at most `Bits` (32 or 64) bits at p. Rejects encodings longer than
/// the width needs or ending in a redundant zero byte, so every value has one encoding. Not
/// inlined: compiled code keeps one copy per codec, and calls it past the one-byte fast path.
template <unsigned Bits>
[[gnu::noinline]] VarintRead get_varuint_long(const std::uint8_t* p, const std::uint8_t* end) {
  constexpr unsigned kMaxBytes = (Bits + 6) / 7;
  constexpr unsigned kSpare = 7 * kMaxBytes - Bits;  // high bits of the last byte that must be 0
  auto bad = [](VarintStatus why) { return VarintRead{nullptr, static_cast<std::uint64_t>(why)}; };
  std::uint64_t v = 0;
  for (unsigned i = 0; i < kMaxBytes; ++i) {
    if (p + i >= end) return bad(VarintStatus::truncated);
    const std::uint8_t byte = p[i];
    if (i == kMaxBytes - 1) {
      if (byte & 0x80) return bad(VarintStatus::overlong);
      if (byte >> (7 - kSpare)) return bad(VarintStatus::overflow);
    }
    v |= static_cast<std::uint64_t>(byte & 0x7F) << (7 * i);
    if (!(byte & 0x80)) {
      if (byte == 0 && i > 0) return bad(VarintStatus::overlong);
      return {p + i + 1, v};
    }
  }
  return bad(VarintStatus::overlong);  // unreachable: the last byte returns above
}

/// The same, with the one-byte case (most lengths, counts and small fields) in line; p moves
/// past the value only when it is good.
template <unsigned Bits>
JITSER_WIRE_INLINE VarintStatus get_varuint_of(const std::uint8_t*& p, const std::uint8_t* end,
                                               std::uint64_t& out) {
  if (p < end && *p < 0x80) {
    out = *p++;
    return VarintStatus::ok;
  }
  const VarintRead r = get_varuint_long<Bits>(p, end);
  if (!r.next) return static_cast<VarintStatus>(r.value);
  p = r.next;
  out = r.value;
  return VarintStatus::ok;
}

/// The same for a width known at run time: 32 bits, or else 64.
JITSER_WIRE_INLINE VarintStatus get_varuint(const std::uint8_t*& p, const std::uint8_t* end,
                                            unsigned bits, std::uint64_t& out) {
  return bits == 32 ? get_varuint_of<32>(p, end, out) : get_varuint_of<64>(p, end, out);
}

/// Compact int64 (Fory's SLI): 4 bytes of v << 1 when v is in [-2^30, 2^30), else the byte 0x01
/// and 8 bytes of v. Returns the end.
JITSER_WIRE_INLINE std::uint8_t* put_int64_compact(std::uint8_t* p, std::int64_t v) {
  if (v >= -(std::int64_t{1} << 30) && v < (std::int64_t{1} << 30)) {
    const auto small = static_cast<std::uint32_t>(static_cast<std::int32_t>(v)) << 1;
    std::memcpy(p, &small, 4);
    return p + 4;
  }
  *p = 0x01;
  std::memcpy(p + 1, &v, 8);
  return p + 9;
}

enum class CompactStatus : std::uint8_t { ok, truncated, bad_tag, overlong };

/// Reads a compact int64 from [p, end), refusing a long form that holds a short value (one
/// encoding per value); when truncated, *need is how many bytes it needs.
JITSER_WIRE_INLINE CompactStatus get_int64_compact(const std::uint8_t*& p, const std::uint8_t* end,
                                                   std::int64_t& out, std::size_t& need) {
  need = 4;
  if (end - p < 4) return CompactStatus::truncated;
  if (!(p[0] & 1)) {
    std::uint32_t raw;
    std::memcpy(&raw, p, 4);
    out = static_cast<std::int32_t>(raw) >> 1;
    p += 4;
    return CompactStatus::ok;
  }
  if (p[0] != 0x01) return CompactStatus::bad_tag;
  need = 9;
  if (end - p < 9) return CompactStatus::truncated;
  std::int64_t v;
  std::memcpy(&v, p + 1, 8);
  if (v >= -(std::int64_t{1} << 30) && v < (std::int64_t{1} << 30)) return CompactStatus::overlong;
  out = v;
  p += 9;
  return CompactStatus::ok;
}

/// The most bytes a frame takes: magic, flags and the fingerprint.
inline constexpr std::size_t kMaxFrameBytes = 10;

/// Writes the frame before the root value; returns the end.
JITSER_WIRE_INLINE std::uint8_t* put_frame(std::uint8_t* p, std::uint64_t fingerprint,
                                           bool with_fingerprint) {
  p[0] = kMagic;
  p[1] = kVersion | (with_fingerprint ? kHasFingerprint : 0);
  if (!with_fingerprint) return p + 2;
  std::memcpy(p + 2, &fingerprint, 8);
  return p + 10;
}

enum class FrameStatus : std::uint8_t {
  ok,
  truncated,            // *need bytes are needed
  bad_magic,            // at the first byte
  bad_flags,            // at the second byte
  missing_fingerprint,  // after the flags
  other_fingerprint,    // at the fingerprint
};

/// Reads the frame: the magic byte, a version and flags this reader knows, and the fingerprint
/// if the flags say one follows, which must be `fingerprint`; `require` refuses a frame without.
/// On failure *p is where the bad bytes start.
JITSER_WIRE_INLINE FrameStatus get_frame(const std::uint8_t*& p, const std::uint8_t* end,
                                         std::uint64_t fingerprint, bool require,
                                         std::size_t& need) {
  need = 2;
  if (end - p < 2) return FrameStatus::truncated;
  if (p[0] != kMagic) return FrameStatus::bad_magic;
  const std::uint8_t flags = p[1];
  if ((flags & kVersionMask) != kVersion || (flags & ~(kVersionMask | kHasFingerprint))) {
    ++p;
    return FrameStatus::bad_flags;
  }
  p += 2;
  if (!(flags & kHasFingerprint))
    return require ? FrameStatus::missing_fingerprint : FrameStatus::ok;
  need = 8;
  if (end - p < 8) return FrameStatus::truncated;
  std::uint64_t fp;
  std::memcpy(&fp, p, 8);
  if (fp != fingerprint) return FrameStatus::other_fingerprint;
  p += 8;
  return FrameStatus::ok;
}

/// A decimal's scale, carried as a zigzag varint of 64 bits, must fit the int32 it is read into.
constexpr bool scale_fits(std::int64_t scale) { return scale == static_cast<std::int32_t>(scale); }

/// A time's nanoseconds are those of its second.
constexpr bool nanos_valid(std::uint64_t nanos) { return nanos < 1000000000; }

/// Whether a count of items of at least `min_bytes` each can be in `remaining` bytes, checked
/// before anything is allocated for it. Items of no bytes (empty structs) are bounded apart.
constexpr bool count_fits(std::uint64_t n, std::size_t remaining, std::size_t min_bytes) {
  return n <= (min_bytes ? remaining / min_bytes : kMaxEmptyElements);
}
}  // namespace jitser::wire
