// MessagePack's encodings (docs/formats/msgpack.md, after the MessagePack specification): the
// format bytes, the shortest heads a writer puts, and a reader's view of one item's head. Shared
// by the writer, the reader and jitser::Value's reading and writing in this folder.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace jitser::msgpack {

// The format bytes of the specification that are not fix ranges.
inline constexpr std::uint8_t kNil = 0xc0;
inline constexpr std::uint8_t kNeverUsed = 0xc1;
inline constexpr std::uint8_t kFalse = 0xc2;
inline constexpr std::uint8_t kTrue = 0xc3;
inline constexpr std::uint8_t kBin8 = 0xc4;
inline constexpr std::uint8_t kExt8 = 0xc7;
inline constexpr std::uint8_t kFloat32 = 0xca;
inline constexpr std::uint8_t kFloat64 = 0xcb;
inline constexpr std::uint8_t kUint8 = 0xcc;
inline constexpr std::uint8_t kInt8 = 0xd0;
inline constexpr std::uint8_t kFixExt1 = 0xd4;
inline constexpr std::uint8_t kFixExt4 = 0xd6;
inline constexpr std::uint8_t kFixExt8 = 0xd7;
inline constexpr std::uint8_t kStr8 = 0xd9;
inline constexpr std::uint8_t kArray16 = 0xdc;
inline constexpr std::uint8_t kMap16 = 0xde;

/// The extension type the specification reserves for timestamps.
inline constexpr std::int8_t kTimestampType = -1;

/// The most bytes a head takes (a format byte and a 32-bit length), a number (a format byte and
/// 8 bytes), a timestamp (ext 8 with 12 bytes of data).
inline constexpr std::size_t kMaxHead = 5;
inline constexpr std::size_t kMaxNumber = 9;
inline constexpr std::size_t kMaxTimestamp = 15;

inline std::uint8_t* put_be(std::uint8_t* out, std::uint64_t v, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i)
    out[i] = static_cast<std::uint8_t>(v >> (8 * (bytes - 1 - i)));
  return out + bytes;
}

inline std::uint64_t get_be(const std::uint8_t* p, unsigned bytes) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < bytes; ++i) v = v << 8 | p[i];
  return v;
}

/// A non-negative integer in its shortest form: positive fixint, uint 8, 16, 32 or 64.
inline std::uint8_t* put_uint(std::uint8_t* out, std::uint64_t v) {
  if (v < 0x80) {
    *out = static_cast<std::uint8_t>(v);
    return out + 1;
  }
  const unsigned size_class = v <= 0xff ? 0 : v <= 0xffff ? 1 : v <= 0xffffffff ? 2 : 3;
  *out = static_cast<std::uint8_t>(kUint8 + size_class);
  return put_be(out + 1, v, 1u << size_class);
}

/// An integer in its shortest form: as put_uint when not negative, else negative fixint or
/// int 8, 16, 32 or 64.
inline std::uint8_t* put_int(std::uint8_t* out, std::int64_t v) {
  if (v >= 0) return put_uint(out, static_cast<std::uint64_t>(v));
  if (v >= -32) {
    *out = static_cast<std::uint8_t>(v);
    return out + 1;
  }
  const unsigned size_class = v >= INT8_MIN ? 0 : v >= INT16_MIN ? 1 : v >= INT32_MIN ? 2 : 3;
  *out = static_cast<std::uint8_t>(kInt8 + size_class);
  return put_be(out + 1, static_cast<std::uint64_t>(v), 1u << size_class);
}

inline std::uint8_t* put_float(std::uint8_t* out, float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, 4);
  *out = kFloat32;
  return put_be(out + 1, bits, 4);
}

inline std::uint8_t* put_double(std::uint8_t* out, double v) {
  std::uint64_t bits;
  std::memcpy(&bits, &v, 8);
  *out = kFloat64;
  return put_be(out + 1, bits, 8);
}

/// The head of a family that has a fix form of `fix_bits` bits under `fix` (str: 5 bits under
/// 0xa0; array and map: 4 bits under 0x90 and 0x80; bin: none) and 8-, 16- and 32-bit forms
/// from `first` (str and bin have an 8-bit one; arrays and maps start at 16).
inline std::uint8_t* put_head(std::uint8_t* out, std::uint8_t fix, unsigned fix_bits,
                              std::uint8_t first, bool has8, std::uint64_t n) {
  if (fix_bits != 0 && n < (1u << fix_bits)) {
    *out = static_cast<std::uint8_t>(fix | n);
    return out + 1;
  }
  if (has8 && n <= 0xff) {
    out[0] = first;
    out[1] = static_cast<std::uint8_t>(n);
    return out + 2;
  }
  const std::uint8_t base = has8 ? first + 1 : first;
  if (n <= 0xffff) {
    *out = base;
    return put_be(out + 1, n, 2);
  }
  *out = static_cast<std::uint8_t>(base + 1);
  return put_be(out + 1, n, 4);
}

inline std::uint8_t* put_str_head(std::uint8_t* out, std::uint64_t n) {
  return put_head(out, 0xa0, 5, kStr8, true, n);
}
inline std::uint8_t* put_array_head(std::uint8_t* out, std::uint64_t n) {
  return put_head(out, 0x90, 4, kArray16, false, n);
}
inline std::uint8_t* put_map_head(std::uint8_t* out, std::uint64_t n) {
  return put_head(out, 0x80, 4, kMap16, false, n);
}
/// Text as a str item in its shortest head: a key or an enum's name as written.
inline std::string str_item(std::string_view text) {
  std::uint8_t head[kMaxHead];
  const std::uint8_t* end = put_str_head(head, text.size());
  std::string item(reinterpret_cast<const char*>(head), static_cast<std::size_t>(end - head));
  return item.append(text);
}

/// bin 8, 16 or 32: bin has no fix form.
inline std::uint8_t* put_bin_head(std::uint8_t* out, std::uint64_t n) {
  return put_head(out, 0, 0, kBin8, true, n);
}

/// The most bytes put_ext_head writes: ext 32, its length and the type.
inline constexpr std::size_t kMaxExtHead = 6;
/// An extension's head for n bytes of `type`: fixext 1, 2, 4, 8 or 16 when n is one of those,
/// else ext 8, 16 or 32.
inline std::uint8_t* put_ext_head(std::uint8_t* out, std::int8_t type, std::uint64_t n) {
  const auto fix = static_cast<std::uint8_t>(n == 1 ? 0 : n == 2 ? 1 : n == 4 ? 2 : n == 8 ? 3 : 4);
  if (n == (1u << fix)) {
    out[0] = static_cast<std::uint8_t>(kFixExt1 + fix);
    out[1] = static_cast<std::uint8_t>(type);
    return out + 2;
  }
  const unsigned bytes = n <= 0xff ? 1 : n <= 0xffff ? 2 : 4;
  out[0] = static_cast<std::uint8_t>(kExt8 + (bytes == 1 ? 0 : bytes == 2 ? 1 : 2));
  out = put_be(out + 1, n, bytes);
  *out = static_cast<std::uint8_t>(type);
  return out + 1;
}

/// A timestamp (extension type -1) in the shortest of its three forms that holds it: 32 bits of
/// seconds; 30 bits of nanoseconds and 34 of seconds; 32 of nanoseconds and 64 of seconds.
inline std::uint8_t* put_timestamp(std::uint8_t* out, std::int64_t seconds, std::uint32_t nanos) {
  if (seconds >= 0 && (seconds >> 34) == 0) {
    const std::uint64_t packed = std::uint64_t{nanos} << 34 | static_cast<std::uint64_t>(seconds);
    if ((packed >> 32) == 0) {
      out[0] = kFixExt4;
      out[1] = static_cast<std::uint8_t>(kTimestampType);
      return put_be(out + 2, packed, 4);
    }
    out[0] = kFixExt8;
    out[1] = static_cast<std::uint8_t>(kTimestampType);
    return put_be(out + 2, packed, 8);
  }
  out[0] = kExt8;
  out[1] = 12;
  out[2] = static_cast<std::uint8_t>(kTimestampType);
  out = put_be(out + 3, nanos, 4);
  return put_be(out, static_cast<std::uint64_t>(seconds), 8);
}

/// What an item's head says.
enum class Type : std::uint8_t {
  Nil,
  Bool,
  Int,
  UInt,
  Float32,
  Float64,
  Str,
  Bin,
  Array,
  Map,
  Ext
};

struct Head {
  Type type;
  bool boolean;        // Bool
  std::int8_t ext;     // Ext: the extension type
  std::uint64_t bits;  // Int: a negative value's two's complement; UInt: a value that is not
                       // negative, in whichever encoding; floats: their bits;
                       // Str, Bin, Ext: the payload's bytes; Array, Map: the items or entries
};

enum class HeadStatus : std::uint8_t { ok, truncated, never_used };

/// The integer forms with a format byte and a big-endian value (uint 8 to 64 at 0xcc-0xcf, int
/// 8 to 64 at 0xd0-0xd3), for the head at p, which is one (p < end): small enough to inline
/// where integers are read. A signed form's value that is not negative is a UInt.
inline HeadStatus get_sized_int(const std::uint8_t*& p, const std::uint8_t* end, Head& h) {
  const std::uint8_t b = *p;
  const unsigned bytes = 1u << (b & 3);
  if (static_cast<std::size_t>(end - p) <= bytes) return HeadStatus::truncated;
  std::uint64_t v = 0;
  switch (bytes) {
    case 1: v = p[1]; break;
    case 2: {
      std::uint16_t x;
      std::memcpy(&x, p + 1, 2);
      v = __builtin_bswap16(x);
      break;
    }
    case 4: {
      std::uint32_t x;
      std::memcpy(&x, p + 1, 4);
      v = __builtin_bswap32(x);
      break;
    }
    default: std::memcpy(&v, p + 1, 8); v = __builtin_bswap64(v);
  }
  h.type = Type::UInt;
  h.boolean = false;
  h.ext = 0;
  if (b >= kInt8) {
    // Sign-extended from its width.
    const unsigned shift = 64 - 8 * bytes;
    v = static_cast<std::uint64_t>(static_cast<std::int64_t>(v << shift) >> shift);
    if (static_cast<std::int64_t>(v) < 0) h.type = Type::Int;
  }
  h.bits = v;
  p += 1 + bytes;
  return HeadStatus::ok;
}

/// Reads the head at p (not past end): after it, p is at the payload of a str, bin or ext, and
/// past any other item whole. Lengths are not checked against what is left.
inline HeadStatus get_head(const std::uint8_t*& p, const std::uint8_t* end, Head& h) {
  if (p == end) return HeadStatus::truncated;
  const std::uint8_t b = *p;
  const auto left = static_cast<std::size_t>(end - p) - 1;
  auto sized = [&](Type type, unsigned bytes) {
    if (left < bytes) return HeadStatus::truncated;
    h.type = type;
    h.bits = get_be(p + 1, bytes);
    p += 1 + bytes;
    return HeadStatus::ok;
  };
  if (b < 0x80) {
    h = {Type::UInt, false, 0, b};
    ++p;
    return HeadStatus::ok;
  }
  if (b >= 0xe0) {
    h = {Type::Int, false, 0, static_cast<std::uint64_t>(static_cast<std::int8_t>(b))};
    ++p;
    return HeadStatus::ok;
  }
  if (b < 0x90) {
    h = {Type::Map, false, 0, b & 0x0fu};
    ++p;
    return HeadStatus::ok;
  }
  if (b < 0xa0) {
    h = {Type::Array, false, 0, b & 0x0fu};
    ++p;
    return HeadStatus::ok;
  }
  if (b < 0xc0) {
    h = {Type::Str, false, 0, b & 0x1fu};
    ++p;
    return HeadStatus::ok;
  }
  h.ext = 0;
  h.boolean = false;
  switch (b) {
    case kNil:
      h.type = Type::Nil;
      ++p;
      return HeadStatus::ok;
    case kNeverUsed: return HeadStatus::never_used;
    case kFalse:
    case kTrue:
      h.type = Type::Bool;
      h.boolean = b == kTrue;
      ++p;
      return HeadStatus::ok;
    case 0xc4: return sized(Type::Bin, 1);
    case 0xc5: return sized(Type::Bin, 2);
    case 0xc6: return sized(Type::Bin, 4);
    case 0xc7:
    case 0xc8:
    case 0xc9: {
      const unsigned bytes = 1u << (b - 0xc7);
      if (left < bytes + 1) return HeadStatus::truncated;
      h.type = Type::Ext;
      h.bits = get_be(p + 1, bytes);
      h.ext = static_cast<std::int8_t>(p[1 + bytes]);
      p += 2 + bytes;
      return HeadStatus::ok;
    }
    case kFloat32: return sized(Type::Float32, 4);
    case kFloat64: return sized(Type::Float64, 8);
    case 0xcc:
    case 0xcd:
    case 0xce:
    case 0xcf:
    case 0xd0:
    case 0xd1:
    case 0xd2:
    case 0xd3: return get_sized_int(p, end, h);
    case 0xd4:
    case 0xd5:
    case 0xd6:
    case 0xd7:
    case 0xd8:
      if (left < 1) return HeadStatus::truncated;
      h.type = Type::Ext;
      h.bits = 1u << (b - 0xd4);
      h.ext = static_cast<std::int8_t>(p[1]);
      p += 2;
      return HeadStatus::ok;
    case 0xd9: return sized(Type::Str, 1);
    case 0xda: return sized(Type::Str, 2);
    case 0xdb: return sized(Type::Str, 4);
    case 0xdc: return sized(Type::Array, 2);
    case 0xdd: return sized(Type::Array, 4);
    case 0xde: return sized(Type::Map, 2);
    default: return sized(Type::Map, 4);  // 0xdf
  }
}

/// Whether a head's item is a number that an Int holds (its value in `v`).
inline bool as_signed(const Head& h, std::int64_t& v) {
  if (h.type == Type::Int || (h.type == Type::UInt && h.bits <= INT64_MAX)) {
    v = static_cast<std::int64_t>(h.bits);
    return true;
  }
  return false;
}

enum class SkipStatus : std::uint8_t { ok, truncated, never_used, too_long };

/// Steps p over one whole item, however deeply it nests: the items still to step over are
/// counted, not recursed into, and every count is bounded by the bytes left (an item takes at
/// least one byte).
inline SkipStatus skip(const std::uint8_t*& p, const std::uint8_t* end) {
  std::uint64_t pending = 1;
  while (pending != 0) {
    --pending;
    Head h;
    switch (get_head(p, end, h)) {
      case HeadStatus::ok: break;
      case HeadStatus::truncated: return SkipStatus::truncated;
      case HeadStatus::never_used: return SkipStatus::never_used;
    }
    const auto left = static_cast<std::uint64_t>(end - p);
    switch (h.type) {
      case Type::Str:
      case Type::Bin:
      case Type::Ext:
        if (h.bits > left) return SkipStatus::too_long;
        p += h.bits;
        break;
      case Type::Array:
        if (h.bits > left - pending) return SkipStatus::too_long;
        pending += h.bits;
        break;
      case Type::Map:
        if (h.bits > (left - pending) / 2) return SkipStatus::too_long;
        pending += 2 * h.bits;
        break;
      default: break;
    }
    // Each item still to come takes a byte at least.
    if (pending > static_cast<std::uint64_t>(end - p)) return SkipStatus::truncated;
  }
  return SkipStatus::ok;
}

}  // namespace jitser::msgpack
