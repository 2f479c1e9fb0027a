// CBOR's encodings (docs/formats/cbor.md, after RFC 8949): the heads a writer puts in their
// shortest form, floats in the shortest width that keeps their value, and a reader's view of
// one item's head with the well-formedness rules of section 3. Shared by the writer, the
// reader and jitser::Value's reading and writing in this folder.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace jitser::cbor {

/// The major types of RFC 8949, section 3.1.
enum class Major : std::uint8_t {
  Unsigned = 0,
  Negative = 1,
  Bytes = 2,
  Text = 3,
  Array = 4,
  Map = 5,
  Tag = 6,
  Simple = 7  // simple values, floats and the break
};

inline constexpr std::uint8_t kFalse = 0xf4;
inline constexpr std::uint8_t kTrue = 0xf5;
inline constexpr std::uint8_t kNull = 0xf6;
inline constexpr std::uint8_t kUndefined = 0xf7;
inline constexpr std::uint8_t kHalf = 0xf9;
inline constexpr std::uint8_t kSingle = 0xfa;
inline constexpr std::uint8_t kDouble = 0xfb;
inline constexpr std::uint8_t kBreak = 0xff;

/// The additional information that says "indefinite length" (or, in major type 7, "break").
inline constexpr std::uint8_t kIndefinite = 31;

/// The tags jitser reads and writes (RFC 8949, section 3.4; RFC 9581 for extended time).
inline constexpr std::uint64_t kTagTimeText = 0;
inline constexpr std::uint64_t kTagTimeEpoch = 1;
inline constexpr std::uint64_t kTagPositiveBignum = 2;
inline constexpr std::uint64_t kTagNegativeBignum = 3;
inline constexpr std::uint64_t kTagDecimal = 4;
inline constexpr std::uint64_t kTagExtendedTime = 1001;
/// Extended time's keys: the seconds (as tag 1 holds them) and the nanoseconds past them.
inline constexpr std::int64_t kExtendedSeconds = 1;
inline constexpr std::int64_t kExtendedNanos = -9;

/// The most bytes a head takes: the initial byte and a 64-bit argument.
inline constexpr std::size_t kMaxHead = 9;

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

/// A head's argument of 1, 2, 4 or 8 bytes, big-endian, one load each.
inline std::uint64_t get_argument(const std::uint8_t* p, unsigned bytes) {
  switch (bytes) {
    case 1: return *p;
    case 2: {
      std::uint16_t x;
      std::memcpy(&x, p, 2);
      return __builtin_bswap16(x);
    }
    case 4: {
      std::uint32_t x;
      std::memcpy(&x, p, 4);
      return __builtin_bswap32(x);
    }
    default: {
      std::uint64_t x;
      std::memcpy(&x, p, 8);
      return __builtin_bswap64(x);
    }
  }
}

/// The 8 bytes at p as a big-endian number: an argument of n bytes at p is its top 8*n bits, so
/// one load, a byte swap and a shift read any of the widths without a branch on which it is, as
/// compiled code reads integers in line. p must have 8 bytes that may be read.
inline std::uint64_t big_endian_word(const std::uint8_t* p) {
  std::uint64_t x;
  std::memcpy(&x, p, sizeof x);
  return __builtin_bswap64(x);
}

/// A head in its shortest form (RFC 8949, section 4.2.1): the argument in the initial byte
/// below 24, else in 1, 2, 4 or 8 bytes after it.
inline std::uint8_t* put_head(std::uint8_t* out, Major major, std::uint64_t n) {
  const auto m = static_cast<std::uint8_t>(static_cast<unsigned>(major) << 5);
  if (n < 24) {
    *out = static_cast<std::uint8_t>(m | n);
    return out + 1;
  }
  const unsigned size_class = n <= 0xff ? 0 : n <= 0xffff ? 1 : n <= 0xffffffff ? 2 : 3;
  *out = static_cast<std::uint8_t>(m | (24 + size_class));
  return put_be(out + 1, n, 1u << size_class);
}

inline std::uint8_t* put_uint(std::uint8_t* out, std::uint64_t v) {
  return put_head(out, Major::Unsigned, v);
}

/// A negative integer v is major type 1 with argument -1 - v, which is ~v.
inline std::uint8_t* put_int(std::uint8_t* out, std::int64_t v) {
  if (v >= 0) return put_uint(out, static_cast<std::uint64_t>(v));
  return put_head(out, Major::Negative, ~static_cast<std::uint64_t>(v));
}

inline std::uint8_t* put_text_head(std::uint8_t* out, std::uint64_t n) {
  return put_head(out, Major::Text, n);
}

/// Text as a text string item in its shortest head: a key or an enum's name as written.
inline std::string text_item(std::string_view text) {
  std::uint8_t head[kMaxHead];
  const std::uint8_t* end = put_text_head(head, text.size());
  std::string item(reinterpret_cast<const char*>(head), static_cast<std::size_t>(end - head));
  return item.append(text);
}

/// A head alone as an item in its shortest form: a key that is an integer (major type 0 or 1).
inline std::string head_item(Major major, std::uint64_t n) {
  std::uint8_t head[kMaxHead];
  const std::uint8_t* end = put_head(head, major, n);
  return {reinterpret_cast<const char*>(head), static_cast<std::size_t>(end - head)};
}

/// A half-precision float's value (IEEE 754 binary16); a NaN keeps its sign and payload.
inline double from_half(std::uint16_t h) {
  const std::uint64_t sign = std::uint64_t{h} >> 15 << 63;
  const unsigned exponent = h >> 10 & 0x1f;
  const std::uint64_t mantissa = h & 0x3ff;
  double d;
  if (exponent == 0) {  // zero or subnormal: a multiple of 2^-24
    d = static_cast<double>(mantissa) * 0x1p-24;
    return sign ? -d : d;
  }
  const std::uint64_t bits =
      sign | (exponent == 0x1f ? std::uint64_t{0x7ff} : exponent - 15 + 1023) << 52 |
      mantissa << 42;
  std::memcpy(&d, &bits, 8);
  return d;
}

/// Whether `d` is exactly a half-precision float (a NaN: whether its payload fits ten bits),
/// and which one: from the double's bits, as the writer asks of every float.
inline bool to_half(double d, std::uint16_t& h) {
  std::uint64_t bits;
  std::memcpy(&bits, &d, 8);
  const auto sign = static_cast<std::uint16_t>(bits >> 48 & 0x8000);
  const auto exponent = static_cast<int>(bits >> 52 & 0x7ff);
  const std::uint64_t mantissa = bits & ((std::uint64_t{1} << 52) - 1);
  const std::uint64_t low42 = (std::uint64_t{1} << 42) - 1;
  if (exponent == 0x7ff) {  // infinities and NaNs, whose payload must fit ten bits
    if ((mantissa & low42) != 0) return false;
    h = static_cast<std::uint16_t>(sign | 0x7c00 | mantissa >> 42);
    return true;
  }
  if (exponent == 0 && mantissa == 0) {
    h = sign;
    return true;
  }
  const int e = exponent - 1023;
  if (e >= -14 && e <= 15) {  // a normal half: its ten bits of mantissa
    if ((mantissa & low42) != 0) return false;
    h = static_cast<std::uint16_t>(sign | static_cast<unsigned>(e + 15) << 10 | mantissa >> 42);
    return true;
  }
  if (e >= -24 && e < -14) {  // a subnormal half: a multiple of 2^-24
    const unsigned shift = static_cast<unsigned>(28 - e);
    const std::uint64_t significand = mantissa | std::uint64_t{1} << 52;
    if ((significand & ((std::uint64_t{1} << shift) - 1)) != 0) return false;
    h = static_cast<std::uint16_t>(sign | significand >> shift);
    return true;
  }
  return false;
}

/// Whether `d` is exactly a single-precision float (a NaN: whether its payload fits 23 bits).
inline bool to_single(double d, float& f) {
  if (std::isnan(d)) {
    std::uint64_t bits;
    std::memcpy(&bits, &d, 8);
    if ((bits & ((std::uint64_t{1} << 29) - 1)) != 0) return false;
    const auto single =
        static_cast<std::uint32_t>((bits >> 63) << 31 | 0x7f800000u | (bits >> 29 & 0x7fffff));
    std::memcpy(&f, &single, 4);
    return true;
  }
  f = static_cast<float>(d);
  return static_cast<double>(f) == d;
}

/// A float in the shortest of half, single and double precision that keeps its value, the
/// preferred serialization of RFC 8949, section 4.1.
inline std::uint8_t* put_double(std::uint8_t* out, double d) {
  std::uint16_t h;
  float f;
  if (to_half(d, h)) {
    *out = kHalf;
    return put_be(out + 1, h, 2);
  }
  if (to_single(d, f)) {
    std::uint32_t bits;
    std::memcpy(&bits, &f, 4);
    *out = kSingle;
    return put_be(out + 1, bits, 4);
  }
  std::uint64_t bits;
  std::memcpy(&bits, &d, 8);
  *out = kDouble;
  return put_be(out + 1, bits, 8);
}

/// What an item's head says.
struct Head {
  Major major;
  bool indefinite;  // a string, array or map whose end is a break
  /// The argument: an integer's (for Negative, -1 minus the value), a string's bytes, an
  /// array's items, a map's entries, a tag's number; for Simple, the simple value (below 256)
  /// or a float's bits, with `float_bytes` saying which width.
  std::uint64_t n;
  std::uint8_t float_bytes;  // 2, 4 or 8 for a float, else 0
};

enum class HeadStatus : std::uint8_t {
  ok,
  truncated,
  reserved,         // additional information 28 to 30
  bad_indefinite,   // indefinite length on an integer, a tag or a simple value
  bad_simple,       // a two-byte simple value below 32
  unexpected_break  // a break where an item must be
};

/// Reads the head at p (not past end): after it, p is at a string's bytes, an array's or
/// map's first item, a tag's item, or past the item whole. Lengths are not checked against
/// what is left.
inline HeadStatus get_head(const std::uint8_t*& p, const std::uint8_t* end, Head& h) {
  if (p == end) return HeadStatus::truncated;
  const std::uint8_t b = *p;
  const std::uint8_t info = b & 0x1f;
  h.major = static_cast<Major>(b >> 5);
  h.indefinite = false;
  h.float_bytes = 0;
  if (info < 24) {
    h.n = info;
    ++p;
    return HeadStatus::ok;
  }
  if (info == kIndefinite) {
    switch (h.major) {
      case Major::Bytes:
      case Major::Text:
      case Major::Array:
      case Major::Map:
        h.indefinite = true;
        h.n = 0;
        ++p;
        return HeadStatus::ok;
      case Major::Simple: return HeadStatus::unexpected_break;
      default: return HeadStatus::bad_indefinite;
    }
  }
  if (info > 27) return HeadStatus::reserved;
  const unsigned bytes = 1u << (info - 24);
  if (static_cast<std::size_t>(end - p) <= bytes) return HeadStatus::truncated;
  h.n = get_argument(p + 1, bytes);
  if (h.major == Major::Simple) {
    if (bytes == 1 && h.n < 32) return HeadStatus::bad_simple;
    if (bytes > 1) h.float_bytes = static_cast<std::uint8_t>(bytes);
  }
  p += 1 + bytes;
  return HeadStatus::ok;
}

/// Why a head is not well-formed, as messages say it.
inline const char* head_fault(HeadStatus status) {
  switch (status) {
    case HeadStatus::ok: return "";
    case HeadStatus::truncated: return "input ends inside an item";
    case HeadStatus::reserved: return "additional information 28 to 30 is reserved";
    case HeadStatus::bad_indefinite: return "an indefinite length on an item that has none";
    case HeadStatus::bad_simple: return "a two-byte simple value below 32";
    case HeadStatus::unexpected_break: return "a break outside an indefinite-length item";
  }
  return "?";
}

/// A decimal fraction (tag 4): [exponent, mantissa], the exponent being the negated scale.
inline constexpr std::size_t kMaxDecimal = 2 + 2 * kMaxHead;
inline std::uint8_t* put_decimal(std::uint8_t* out, std::int64_t unscaled, std::int32_t scale) {
  out = put_head(out, Major::Tag, kTagDecimal);
  out = put_head(out, Major::Array, 2);
  out = put_int(out, -std::int64_t{scale});
  return put_int(out, unscaled);
}

/// A float head's value, whichever its width.
inline double float_value(const Head& h) {
  switch (h.float_bytes) {
    case 2: return from_half(static_cast<std::uint16_t>(h.n));
    case 4: {
      float f;
      const auto bits = static_cast<std::uint32_t>(h.n);
      std::memcpy(&f, &bits, 4);
      return f;
    }
    default: {
      double d;
      std::memcpy(&d, &h.n, 8);
      return d;
    }
  }
}

enum class ChunkStatus : std::uint8_t {
  ok,
  truncated,
  too_long,
  bad_chunk,  // not a definite string of the string's major type
  rejected    // refused by the caller's check (text: not UTF-8)
};

/// The chunks of an indefinite string of `major` whose head was read (p after it), up to its
/// break, each given to `take(bytes, n)`, which may refuse it (RFC 8949, section 3.2.3: a text
/// string's chunks are each UTF-8). On failure p is at the chunk at fault.
template <class Take>
ChunkStatus get_chunks(const std::uint8_t*& p, const std::uint8_t* end, Major major, Take take) {
  for (;;) {
    if (p == end) return ChunkStatus::truncated;
    if (*p == kBreak) {
      ++p;
      return ChunkStatus::ok;
    }
    const std::uint8_t* at = p;
    Head c;
    const HeadStatus s = get_head(p, end, c);
    if (s == HeadStatus::truncated) return ChunkStatus::truncated;
    if (s != HeadStatus::ok || c.major != major || c.indefinite) {
      p = at;
      return ChunkStatus::bad_chunk;
    }
    if (c.n > static_cast<std::uint64_t>(end - p)) {
      p = at;
      return ChunkStatus::too_long;
    }
    if (!take(p, static_cast<std::size_t>(c.n))) {
      p = at;
      return ChunkStatus::rejected;
    }
    p += c.n;
  }
}

enum class SkipStatus : std::uint8_t {
  ok,
  truncated,
  too_long,
  malformed  // with a HeadStatus saying why, or a chunk of an indefinite string that is not one
};

/// Steps p over one whole item, however deeply it nests, checking that it is well-formed
/// (RFC 8949, appendix C). Definite containers only add to a count of items still to come;
/// each indefinite one needs its break, so it is remembered in `open` (bounded by the input:
/// each takes a byte). On failure p is where the fault is and `why` says what it is when the
/// status is malformed (HeadStatus::ok for a bad chunk).
inline SkipStatus skip(const std::uint8_t*& p, const std::uint8_t* end, HeadStatus& why) {
  struct Open {
    std::uint64_t pending;  // definite items to come before this container's break
    bool map;
    bool odd;  // a map that has read a key and owes its value (flipped before each item)
  };
  std::vector<Open> open;
  std::uint64_t pending = 1;  // definite items outside every indefinite container
  auto left = [&] { return static_cast<std::uint64_t>(end - p); };
  for (;;) {
    std::uint64_t& count = open.empty() ? pending : open.back().pending;
    if (count == 0) {
      if (open.empty()) return SkipStatus::ok;
      if (p == end) return SkipStatus::truncated;
      if (*p == kBreak) {
        if (open.back().map && open.back().odd) {
          why = HeadStatus::unexpected_break;
          return SkipStatus::malformed;
        }
        ++p;
        open.pop_back();
        continue;
      }
      if (open.back().map) open.back().odd = !open.back().odd;
      count = 1;
    }
    --count;
    const std::uint8_t* at = p;
    Head h;
    why = get_head(p, end, h);
    if (why == HeadStatus::truncated) return SkipStatus::truncated;
    if (why != HeadStatus::ok) {
      p = at;
      return SkipStatus::malformed;
    }
    switch (h.major) {
      case Major::Bytes:
      case Major::Text:
        if (!h.indefinite) {
          if (h.n > left()) return SkipStatus::too_long;
          p += h.n;
          break;
        }
        switch (
            get_chunks(p, end, h.major, [](const std::uint8_t*, std::size_t) { return true; })) {
          case ChunkStatus::ok: break;
          case ChunkStatus::truncated: return SkipStatus::truncated;
          case ChunkStatus::too_long: return SkipStatus::too_long;
          default: why = HeadStatus::ok; return SkipStatus::malformed;
        }
        break;
      case Major::Array:
      case Major::Map: {
        const bool map = h.major == Major::Map;
        if (h.indefinite) {
          open.push_back({0, map, false});
          break;
        }
        std::uint64_t& to_come = open.empty() ? pending : open.back().pending;
        const std::uint64_t items = map ? 2 * h.n : h.n;
        if (h.n > left() || items > left() - to_come) return SkipStatus::too_long;
        to_come += items;
        break;
      }
      case Major::Tag: {
        std::uint64_t& to_come = open.empty() ? pending : open.back().pending;
        ++to_come;  // the tagged item
        break;
      }
      default: break;
    }
    const std::uint64_t to_come = open.empty() ? pending : open.back().pending;
    if (to_come > left()) return SkipStatus::truncated;
  }
}

}  // namespace jitser::cbor
