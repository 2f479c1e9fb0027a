// What a Protobuf reader's Slots hold, and the reading and writing steps that the interpreter's
// operations (protobuf_ops.cpp), the kernel (protobuf_kernel.cpp) and the helpers
// (protobuf_helpers.cpp) share, so that each rule is written once for both tiers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <jitser/type_desc.h>

#include "formats/ops.h"
#include "formats/protobuf/fields.h"
#include "formats/protobuf/wire.h"
#include "formats/time_ticks.h"

// Inlined into every caller, so that each kernel function is one function in the bitcode: the
// JIT inlines the kernel's functions, not what they call.
#define JITSER_PROTOBUF_INLINE [[gnu::always_inline]] inline
// A loop that clang must not vectorize (the kernel's bitcode is clang's).
#if defined(__clang__)
#define JITSER_PROTOBUF_SCALAR_LOOP \
  _Pragma("clang loop vectorize(disable) interleave(disable) unroll(disable)")
#else
#define JITSER_PROTOBUF_SCALAR_LOOP
#endif

namespace jitser::protobuf {

/// A Slot holds a field's value as read after its tag (a FieldValue), or a Cursor over the
/// fields of a message, the scalars of a packed run, or the one item of an unpacked field.
struct Cursor {
  const std::uint8_t* p;    // the next byte; Single: where the item starts
  const std::uint8_t* end;  // of the message, the run, or the item's bytes
  // Message: the number of the field next_field read last in the low four bytes, the raw key
  // compared with PlanField::match; above them, how many bytes past `end` the input holds, which
  // lets a short string be copied as one word and a varint be read as one. Packed: how many bytes
  // past `end` may be read. Single: the item's bits.
  std::uint64_t word;
  enum class Kind : std::uint8_t { Message, Packed, Single, Done } kind;
  wire::WireType type;  // Packed: the elements'; Single: the item's
};
static_assert(sizeof(FieldValue) <= sizeof(Slot) && sizeof(Cursor) <= sizeof(Slot));
static_assert(offsetof(FieldValue, p) == 0 && offsetof(Cursor, p) == 0,
              "offset() reads where any Slot's value is from its first word");

JITSER_PROTOBUF_INLINE FieldValue& value_of(Slot* s) {
  return *reinterpret_cast<FieldValue*>(s->bytes);
}
JITSER_PROTOBUF_INLINE Cursor& cursor_of(Slot* s) { return *reinterpret_cast<Cursor*>(s->bytes); }

/// A field the input left out (a map entry's key or value) reads as its zero value of the
/// type expected; a field that is there must have that wire type.
JITSER_PROTOBUF_INLINE bool as_type(FieldValue& v, wire::WireType type) {
  if (v.type == wire::kAbsent) {
    v.type = type;
    v.bits = 0;
    v.end = v.p;
  }
  return v.type == type;
}

/// A signed integer's value as the encoding reads it: zigzag, a 32-bit fixed word's sign, or
/// a varint's two's complement.
JITSER_PROTOBUF_INLINE std::int64_t signed_value(std::uint64_t bits, std::uint32_t enc) {
  if ((enc & wire::kWireTypeMask) == wire::kI32) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(bits));
  }
  if (enc & wire::kZigzag) return wire::unzigzag(bits);
  return static_cast<std::int64_t>(bits);
}
JITSER_PROTOBUF_INLINE bool fits_signed(std::int64_t x, unsigned width) {
  if (width >= 8) return true;
  const std::int64_t most = (std::int64_t{1} << (8 * width - 1)) - 1;
  return x <= most && x >= -most - 1;
}
JITSER_PROTOBUF_INLINE bool fits_unsigned(std::uint64_t x, unsigned width) {
  return width >= 8 || (x >> (8 * width)) == 0;
}

/// Starts reading the message in `value` (a LEN value, or absent: empty).
JITSER_PROTOBUF_INLINE bool begin_message(const FieldValue& v, Cursor& c, std::uint64_t slack) {
  if (v.type != wire::kLen && v.type != wire::kAbsent) return false;
  c = Cursor{.p = v.p,
             .end = v.type == wire::kAbsent ? v.p : v.end,
             .word = slack << 32,
             .kind = Cursor::Kind::Message,
             .type = wire::kAbsent};
  return true;
}

/// Starts the items of a list field's appearance: a packed run of scalars where the list is
/// packable (a LEN value's bytes, or an unpacked item's own, a run of one), else the one item.
/// An item of a packable list with another wire type is left Single, for its getter to refuse.
JITSER_PROTOBUF_INLINE void begin_items(const FieldValue& v, bool packable, std::uint32_t enc,
                                        Cursor& c) {
  const auto element = static_cast<wire::WireType>(enc & wire::kWireTypeMask);
  c = Cursor{.p = v.p, .end = v.end, .word = v.bits, .kind = Cursor::Kind::Single, .type = v.type};
  if (v.type == wire::kAbsent) {
    c.kind = Cursor::Kind::Done;
  } else if (packable && (v.type == wire::kLen || v.type == element)) {
    c.kind = Cursor::Kind::Packed;
    c.type = element;
    if (v.type != wire::kLen) c.word = 0;  // a LEN value's bits are what is readable past it
  }
}

/// How many items begin_items started: one, none, or the elements of a packed run, false for
/// a run that does not hold whole elements. A varint ends at each byte below 0x80.
JITSER_PROTOBUF_INLINE bool count_items(const Cursor& c, std::uint64_t& n) {
  switch (c.kind) {
    case Cursor::Kind::Single: n = 1; return true;
    case Cursor::Kind::Packed: break;
    default: n = 0; return true;
  }
  const auto bytes = static_cast<std::size_t>(c.end - c.p);
  switch (c.type) {
    case wire::kI32: n = bytes / 4; return bytes % 4 == 0;
    case wire::kI64: n = bytes / 8; return bytes % 8 == 0;
    default: break;
  }
  // A byte ends a varint when its high bit is clear: counted sixteen bytes at a time where
  // that is cheap (wire.h), then eight, the last block's bytes past the run masked off where they
  // may be read. Runs are short, so the loops stay as written: vectorized by the compiler,
  // their set-up costs more than the counting.
  const std::uint8_t* p = c.p;
  std::size_t left = bytes;
  std::uint64_t ends = 0;
#if defined(JITSER_PROTOBUF_COUNT_ENDS16)
  JITSER_PROTOBUF_SCALAR_LOOP
  for (; left >= 16; left -= 16, p += 16) ends += wire::count_ends16(p, 0xFFFF);
  if (left != 0 && left + c.word >= 16) {
    ends += wire::count_ends16(p, (1u << left) - 1);
    left = 0;
  }
#endif
  JITSER_PROTOBUF_SCALAR_LOOP
  for (; left >= 8; left -= 8, p += 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    ends += wire::count_ends(word);
  }
  if (left != 0 && left + c.word >= 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    // Bytes past the run read as varints that go on.
    ends += wire::count_ends(word | (wire::kHighBits & ~((std::uint64_t{1} << (8 * left)) - 1)));
  } else {
    JITSER_PROTOBUF_SCALAR_LOOP
    for (; left != 0; --left, ++p) ends += *p < 0x80;
  }
  n = ends;
  return bytes == 0 || c.end[-1] < 0x80;
}

/// What next_item found.
enum class ItemStatus : std::uint8_t { item, done, malformed };

/// The next item of a list field's appearance into `item`.
JITSER_PROTOBUF_INLINE ItemStatus next_item(Cursor& c, FieldValue& item) {
  switch (c.kind) {
    case Cursor::Kind::Single:
      item = FieldValue{.p = c.p, .end = c.end, .bits = c.word, .type = c.type};
      c.kind = Cursor::Kind::Done;
      return ItemStatus::item;
    case Cursor::Kind::Packed:
      if (c.p == c.end) return ItemStatus::done;
      return frame_value(c.p, c.end, c.type, item) == FrameStatus::ok ? ItemStatus::item
                                                                      : ItemStatus::malformed;
    default: return ItemStatus::done;
  }
}

// ---- the well-known messages -------------------------------------------------------------

inline constexpr std::int64_t kNanosPerSecond = 1000000000;

/// The most bytes a Timestamp, Duration or Decimal message takes with its length: two varint
/// fields.
inline constexpr std::size_t kMaxSmallMessage = 1 + 2 * (1 + wire::kMaxVarintBytes);

/// Timestamp and Duration as their messages hold them: seconds, and nanoseconds that a
/// Duration gives the sign of its seconds.
JITSER_PROTOBUF_INLINE void time_fields(std::int64_t ticks, TimeUnit unit, bool duration,
                                        std::int64_t& seconds, std::int64_t& nanos) {
  std::uint64_t n = 0;
  split_ticks(ticks, unit, seconds, n);
  nanos = static_cast<std::int64_t>(n);
  if (duration && seconds < 0 && nanos > 0) {
    seconds += 1;
    nanos -= kNanosPerSecond;
  }
}

/// A message of two varint fields, numbers 1 and 2, zeros left out, after its length; it is
/// shorter than 128 bytes, so its length takes one byte.
JITSER_PROTOBUF_INLINE std::uint8_t* put_pair_message(std::uint8_t* out, std::uint64_t one,
                                                      std::uint64_t two) {
  std::uint8_t* body = out + 1;
  std::uint8_t* p = body;
  if (one) p = wire::put_varint(wire::put_varint(p, wire::tag(1, wire::kVarint)), one);
  if (two) p = wire::put_varint(wire::put_varint(p, wire::tag(2, wire::kVarint)), two);
  *out = static_cast<std::uint8_t>(p - body);
  return p;
}

/// Timestamp or Duration, with its length.
JITSER_PROTOBUF_INLINE std::uint8_t* put_time_message(std::uint8_t* out, std::int64_t ticks,
                                                      TimeUnit unit, bool duration) {
  std::int64_t seconds, nanos;
  time_fields(ticks, unit, duration, seconds, nanos);
  return put_pair_message(out, static_cast<std::uint64_t>(seconds),
                          static_cast<std::uint64_t>(nanos));
}

/// Decimal, `message { sint64 unscaled = 1; sint32 scale = 2; }`, with its length.
JITSER_PROTOBUF_INLINE std::uint8_t* put_decimal_message(std::uint8_t* out, const Decimal& d) {
  return put_pair_message(out, wire::zigzag(d.unscaled), wire::zigzag(d.scale));
}

/// Whether a Timestamp's (or a Duration's) seconds and nanoseconds are a valid pair.
JITSER_PROTOBUF_INLINE bool time_valid(std::int64_t seconds, std::int64_t nanos, bool duration) {
  if (!duration) return nanos >= 0 && nanos < kNanosPerSecond;
  return nanos > -kNanosPerSecond && nanos < kNanosPerSecond && !(seconds > 0 && nanos < 0) &&
         !(seconds < 0 && nanos > 0);
}

}  // namespace jitser::protobuf
