// The Protobuf format's kernel: its rules (wire.h, fields.h, protobuf_slot.h) as the functions
// of the kernel contract (formats/compiled_abi.h) that compiled code calls, compiled into the
// library and to LLVM bitcode the JIT links into Protobuf codecs (jitser_format_kernel in
// CMakeLists.txt), so that the calls inline with their operands constant.
//
// A reader's Slot holds a field's value (FieldValue) or a Cursor, as the interpreter's do. A
// message's cursor also carries how many bytes the input holds past the message's end, which a
// field's value gets too: a short string with sixteen bytes readable is copied as one word.
#include <algorithm>
#include <cstring>
#include <iterator>

#include "formats/kernel_calls.h"
#include "formats/plan.h"
#include "formats/protobuf/fields.h"
#include "formats/protobuf/protobuf_helpers.h"
#include "formats/protobuf/protobuf_slot.h"
#include "formats/protobuf/wire.h"
#include "formats/short_string.h"

namespace jitser {

using namespace protobuf;

namespace {

// After a field's value is framed: its number, and for a LEN value how many bytes are readable
// past its end.
JITSER_PROTOBUF_INLINE void framed(const Cursor& c, FieldValue& v, std::uint32_t number,
                                   wire::WireType type) {
  v.number = number;
  if (type == wire::kLen) {
    v.bits = std::min<std::uint64_t>((c.word >> 32) + (c.end - v.end), UINT32_MAX);
  }
}

}  // namespace

extern "C" {

// The layouts the kernel shares with the rest of the library, which is compiled by another
// compiler: the JIT links the bitcode only when its value of this equals the library's.
extern const std::uint64_t jitser_protobuf_kernel_layout;
const std::uint64_t jitser_protobuf_kernel_layout =
    sizeof(WriteContext) | sizeof(Buffer) << 16 | sizeof(std::string) << 32 |
    std::uint64_t{sizeof(Cursor)} << 48 | std::uint64_t{sizeof(FieldValue)} << 56;

std::uint8_t* jitser_protobuf_put_frame(std::uint8_t* out, std::uint64_t, bool, std::uint32_t enc) {
  return enc & wire::kUnwritableFrame ? nullptr : out;
}

std::uint8_t* jitser_protobuf_put_bool(std::uint8_t* out, std::uint8_t v) {
  *out = v;
  return out + 1;
}

// A fixed word's low bytes, or a varint: zigzag for sint, else the value's two's complement in
// 64 bits (ten bytes for a negative int32, as the specification says).
std::uint8_t* jitser_protobuf_put_int(std::uint8_t* out, std::int64_t v, std::uint32_t,
                                      std::uint32_t enc) {
  switch (enc & wire::kWireTypeMask) {
    case wire::kI32: std::memcpy(out, &v, 4); return out + 4;
    case wire::kI64: std::memcpy(out, &v, 8); return out + 8;
    default:
      return wire::put_varint(
          out, enc & wire::kZigzag ? wire::zigzag(v) : static_cast<std::uint64_t>(v));
  }
}

std::uint8_t* jitser_protobuf_put_uint(std::uint8_t* out, std::uint64_t v, std::uint32_t,
                                       std::uint32_t enc) {
  switch (enc & wire::kWireTypeMask) {
    case wire::kI32: std::memcpy(out, &v, 4); return out + 4;
    case wire::kI64: std::memcpy(out, &v, 8); return out + 8;
    default: return wire::put_varint(out, v);
  }
}

std::uint8_t* jitser_protobuf_put_float(std::uint8_t* out, float v, std::uint32_t) {
  std::memcpy(out, &v, 4);
  return out + 4;
}

std::uint8_t* jitser_protobuf_put_double(std::uint8_t* out, double v, std::uint32_t) {
  std::memcpy(out, &v, 8);
  return out + 8;
}

// The length, then the bytes. A std::string's storage always holds 16 bytes and the caller
// reserved 16 more than the size (protobuf_write_bound), so a short one copies as one move.
std::uint8_t* jitser_protobuf_put_string(std::uint8_t* out, const char* data, std::size_t n) {
  out = wire::put_varint(out, n);
  if (n <= 16) {
    std::memcpy(out, data, 16);
  } else {
    std::memcpy(out, data, n);
  }
  return out + n;
}

std::uint8_t* jitser_protobuf_put_bytes(std::uint8_t* out, const std::uint8_t* data,
                                        std::size_t n) {
  out = wire::put_varint(out, n);
  if (n) std::memcpy(out, data, n);
  return out + n;
}

std::uint8_t* jitser_protobuf_put_decimal(std::uint8_t* out, const Decimal* d) {
  return put_decimal_message(out, *d);
}

std::uint8_t* jitser_protobuf_put_time(std::uint8_t* out, std::int64_t ticks, std::uint32_t unit,
                                       std::uint32_t duration, std::uint32_t) {
  return put_time_message(out, ticks, static_cast<TimeUnit>(unit), duration != 0);
}

// A packed run's size is left room for and filled in by the emitter's sized framing; the items
// of other lists each follow their own key.
std::uint8_t* jitser_protobuf_put_begin_list(std::uint8_t* out, std::uint64_t, std::uint32_t,
                                             std::uint32_t) {
  return out;
}

std::uint8_t* jitser_protobuf_put_end_list(std::uint8_t* out, std::uint64_t, std::uint32_t) {
  return out;
}

// The length of what was written since the byte left at `mark`: one byte in place for a body
// shorter than 128 bytes, else out of line, where the body moves up.
WriteSpan jitser_protobuf_close_sized(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                      std::uint64_t mark) {
  std::uint8_t* at = ctx->out->data() + mark;
  const std::size_t body = static_cast<std::size_t>(cursor - at) - 1;
  if (body < 0x80) [[likely]] {
    *at = static_cast<std::uint8_t>(body);
    return {cursor, limit};
  }
  return jitser_protobuf_widen_sized(ctx, cursor, mark);
}

// ---- reading ------------------------------------------------------------------------------

bool jitser_protobuf_open(ReadContext* ctx, const std::uint8_t* p, const std::uint8_t* end,
                          Slot* root) {
  value_of(root) = FieldValue{.p = p, .end = end, .bits = ctx->padding, .type = wire::kLen};
  return true;
}

bool jitser_protobuf_finish(ReadContext*, Slot*) { return true; }

bool jitser_protobuf_get_frame(Slot*, std::uint64_t, bool) { return true; }

bool jitser_protobuf_get_bool(Slot* s, std::uint8_t* out) {
  FieldValue& v = value_of(s);
  if (!as_type(v, wire::kVarint)) return false;
  *out = v.bits != 0;
  return true;
}

bool jitser_protobuf_get_int(Slot* s, std::int64_t* out, std::uint32_t width, std::uint32_t enc) {
  FieldValue& v = value_of(s);
  if (!as_type(v, static_cast<wire::WireType>(enc & wire::kWireTypeMask))) return false;
  const std::int64_t x = signed_value(v.bits, enc);
  if (!fits_signed(x, width)) return false;
  *out = x;
  return true;
}

bool jitser_protobuf_get_uint(Slot* s, std::uint64_t* out, std::uint32_t width, std::uint32_t enc) {
  FieldValue& v = value_of(s);
  if (!as_type(v, static_cast<wire::WireType>(enc & wire::kWireTypeMask))) return false;
  if (!fits_unsigned(v.bits, width)) return false;
  *out = v.bits;
  return true;
}

bool jitser_protobuf_get_float(Slot* s, float* out, std::uint32_t) {
  FieldValue& v = value_of(s);
  if (!as_type(v, wire::kI32)) return false;
  // From the bits as a whole: a copy of half of them would have SROA split every Slot's bits
  // into halves, joined again at each use.
  const auto word = static_cast<std::uint32_t>(v.bits);
  std::memcpy(out, &word, 4);
  return true;
}

bool jitser_protobuf_get_double(Slot* s, double* out, std::uint32_t) {
  FieldValue& v = value_of(s);
  if (!as_type(v, wire::kI64)) return false;
  std::memcpy(out, &v.bits, 8);
  return true;
}

// A LEN value's bits say how many bytes the input holds past its end (next_field).
bool jitser_protobuf_get_string(Slot* s, void* out, std::uint32_t allocator) {
  FieldValue& v = value_of(s);
  if (!as_type(v, wire::kLen)) return false;
  const auto n = static_cast<std::size_t>(v.end - v.p);
  if (n <= 15 && n + v.bits >= 16 && ascii_prefix(v.p, n)) {
    assign_short_string(out, allocator, v.p, n);
    return true;
  }
  return jitser_rt_assign_text(out, allocator, v.p, n);
}

bool jitser_protobuf_get_bytes(Slot* s, void* list, const TypeDesc* type) {
  FieldValue& v = value_of(s);
  if (!as_type(v, wire::kLen)) return false;
  jitser_rt_assign_bytes(list, type, v.p, static_cast<std::size_t>(v.end - v.p));
  return true;
}

// Presence is the field's key: a field the input holds is present.
bool jitser_protobuf_get_null(Slot* s, std::uint8_t* is_null) {
  *is_null = value_of(s).type == wire::kAbsent;
  return true;
}

bool jitser_protobuf_get_shared(Slot* s, std::uint32_t* ref, std::uint32_t*) {
  *ref = value_of(s).type == wire::kAbsent ? kSharedNull : kSharedNew;
  return true;
}

bool jitser_protobuf_begin_object(Slot* value, Slot* iterator) {
  const FieldValue& v = value_of(value);
  const std::uint64_t slack =
      v.type == wire::kLen ? std::min<std::uint64_t>(v.bits, UINT32_MAX) : 0;
  return begin_message(v, cursor_of(iterator), slack);
}

// The next field's value and its raw key, the number in the cursor's low four bytes.
std::int32_t jitser_protobuf_next_field(Slot* iterator, Slot* value, const char** raw_key,
                                        std::uint32_t max_depth) {
  Cursor& c = cursor_of(iterator);
  // Set first, on every path: one address, which compiled code sees as one, so that the
  // cursor can live in registers.
  *raw_key = reinterpret_cast<const char*>(&c.word);
  if (c.p == c.end) return 0;
  std::uint32_t number = 0;
  wire::WireType type{};
  const std::uint64_t slack = c.word >> 32;
  if (read_tag(c.p, c.end, number, type, slack) != TagStatus::ok) return -1;
  FieldValue& v = value_of(value);
  if (frame_value(c.p, c.end, type, v, slack) != FrameStatus::ok) [[unlikely]] {
    // The helper gets a copy of the position: neither slot's address escapes, so both can
    // live in registers.
    const std::uint8_t* p = c.p;
    if (type != wire::kStartGroup || !jitser_protobuf_skip_group(&p, c.end, number, max_depth)) {
      return -1;
    }
    // Every part of the value written, as on the other paths: none of the last field's then
    // stays live around compiled code's loop over the fields.
    v = FieldValue{.p = c.p, .end = p, .bits = 0, .number = number, .type = wire::kStartGroup};
    c.p = p;
  }
  framed(c, v, number, type);
  c.word = (c.word >> 32) << 32 | number;  // the raw key compiled code compares
  return 1;
}

// Declared order's fast path: the field the emitter expects next, when the input holds its tag
// as written (PlanField::key), framed by the wire type the tag names. A tag takes at most five
// bytes: the loop over them has a constant bound, which the kernel's compiler unrolls, so that
// in compiled code, where the key and its size are constants, its bytes fold into the compares
// and the wire type into one case of frame_value.
bool jitser_protobuf_expect_field(Slot* iterator, Slot* value, const char* key,
                                  std::uint32_t key_size) {
  Cursor& c = cursor_of(iterator);
  if (static_cast<std::size_t>(c.end - c.p) < key_size) return false;
  std::uint64_t tag = 0;
  for (std::uint32_t i = 0; i < 5; ++i) {
    if (i == key_size) break;
    const auto byte = static_cast<std::uint8_t>(key[i]);
    if (c.p[i] != byte) return false;
    tag |= std::uint64_t{byte & 0x7fu} << (7 * i);
  }
  const auto type = static_cast<wire::WireType>(tag & 7);
  const std::uint8_t* p = c.p + key_size;
  // A value of 128 bytes or more is rare enough to leave to next_field, as is anything that
  // does not frame as written, for which next_field says why.
  if (type == wire::kLen && (p == c.end || *p >= 0x80)) return false;
  FieldValue& v = value_of(value);
  if (frame_value(p, c.end, type, v, c.word >> 32) != FrameStatus::ok) return false;
  c.p = p;
  // The cursor's raw key stays as it was: compiled code goes to the field's handler without
  // comparing it, and next_field sets it before it is compared again.
  framed(c, v, static_cast<std::uint32_t>(tag >> 3), type);
  return true;
}

// Raw keys are field numbers, compared with every field's: one that matched none names none.
std::int32_t jitser_protobuf_find_field(const char*, const FieldDesc* const*, std::uint32_t) {
  return -1;
}

bool jitser_protobuf_skip(Slot*) { return true; }  // next_field read past it

// An appearance's count of items comes first (repeated keys, formats/compiled_abi.h), so that
// compiled code reads them by a counted loop.
bool jitser_protobuf_begin_list(Slot* value, Slot* iterator, std::uint64_t* count, std::uint32_t,
                                std::uint32_t enc, std::uint32_t) {
  Cursor& c = cursor_of(iterator);
  const bool packable = (enc & wire::kPacked) != 0;
  begin_items(value_of(value), packable, enc, c);
  // An item of the wrong wire type: the interpreter says which.
  if (packable && c.kind == Cursor::Kind::Single) return false;
  return count_items(c, *count);
}

// Called as many times as begin_list counted. A packable list's appearance is always a run
// (begin_items), another list's one item, so the list's encoding, a constant, tells which, and
// compiled code's loop over a run does not ask the cursor.
std::int32_t jitser_protobuf_next_element(Slot* iterator, Slot* element, std::uint32_t enc) {
  Cursor& c = cursor_of(iterator);
  FieldValue& item = value_of(element);
  if (enc & wire::kPacked) {
    const auto type = static_cast<wire::WireType>(enc & wire::kWireTypeMask);
    if (type == wire::kVarint) {
      // begin_list accepted the run only if its last byte ends a varint, and counted the bytes
      // that end one; each read ends at the next of them, or fails: as many reads as it counted
      // stay inside the run, with no test against its end.
      item.type = wire::kVarint;
      item.p = c.p;
      if (wire::get_run_varint(c.p, c.end, item.bits, c.word) != wire::VarintStatus::ok) return -1;
      item.end = c.p;
      return 1;
    }
    if (c.p == c.end) return 0;
    return frame_value(c.p, c.end, type, item, c.word) == FrameStatus::ok ? 1 : -1;
  }
  if (c.kind != Cursor::Kind::Single) return 0;
  item = FieldValue{.p = c.p, .end = c.end, .bits = c.word, .type = c.type};
  c.kind = Cursor::Kind::Done;
  return 1;
}

// A packed run of fixed-width numbers as wide as the list's elements lies in the input as they
// lie in memory, both little-endian: copied whole. begin_list counted it whole.
bool jitser_protobuf_copy_elements(Slot* iterator, void* first, std::uint64_t n, std::uint32_t op,
                                   std::uint32_t width, std::uint32_t enc) {
  const auto element = static_cast<wire::WireType>(enc & wire::kWireTypeMask);
  const bool as_in_memory =
      (element == wire::kI32 && width == 4) || (element == wire::kI64 && width == 8);
  const auto o = static_cast<Op>(op);
  if (!(enc & wire::kPacked) || !as_in_memory ||
      (o != Op::Int && o != Op::UInt && o != Op::Float)) {
    return false;
  }
  if (n == 0) return true;
  Cursor& c = cursor_of(iterator);
  std::memcpy(first, c.p, n * width);
  c.p += n * width;
  return true;
}

// The functions compiled code calls that are not defined here (formats/kernel_calls.h).
extern const void* const jitser_protobuf_calls[];
const void* const jitser_protobuf_calls[] = {
    JITSER_RUNTIME_CALLS,
    reinterpret_cast<const void*>(&jitser_protobuf_get_decimal),
    reinterpret_cast<const void*>(&jitser_protobuf_get_time),
    reinterpret_cast<const void*>(&jitser_protobuf_write_value),
    reinterpret_cast<const void*>(&jitser_protobuf_write_bool_list),
    reinterpret_cast<const void*>(&jitser_protobuf_write_map),
    reinterpret_cast<const void*>(&jitser_protobuf_read_value),
    reinterpret_cast<const void*>(&jitser_protobuf_read_bool_list),
    reinterpret_cast<const void*>(&jitser_protobuf_read_map),
};

// The kernel's functions by name, as compiled into the library: first-tier code calls them out
// of line rather than linking and inlining their bitcode (jit/compiler.cpp, docs/jit.md).
// clang-format off
JITSER_KERNEL_FUNCTIONS(protobuf,
    JITSER_KERNEL_FUNCTION(jitser_protobuf_begin_list),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_begin_object),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_close_sized),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_copy_elements),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_expect_field),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_find_field),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_finish),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_get_bool),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_get_bytes),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_get_double),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_get_float),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_get_frame),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_get_int),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_get_null),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_get_shared),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_get_string),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_get_uint),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_next_element),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_next_field),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_open),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_put_begin_list),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_put_bool),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_put_bytes),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_put_decimal),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_put_double),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_put_end_list),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_put_float),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_put_frame),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_put_int),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_put_string),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_put_time),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_put_uint),
    JITSER_KERNEL_FUNCTION(jitser_protobuf_skip));
// clang-format on

}  // extern "C"

}  // namespace jitser
