// MessagePack's kernel: its rules (wire.h, read_rules.h) as the functions of the kernel contract
// (formats/compiled_abi.h), compiled into the library and to LLVM bitcode the JIT links into
// MessagePack codecs (jitser_format_kernel in CMakeLists.txt), so that the calls inline with
// their operands constant. The common forms (fix ints, sized ints, fixstr, fixarray, fixmap)
// are read in line; the others through get_head, out of line (jitser_msgpack_head).
//
// Every Slot points at the one position in the input (msgpack_slot.h): fields, elements and
// the values they hold are read each where the last one ended.
#include <cstring>
#include <iterator>
#include <new>

#include "formats/kernel_calls.h"
#include "formats/msgpack/msgpack_helpers.h"
#include "formats/msgpack/msgpack_slot.h"
#include "formats/msgpack/read_rules.h"
#include "formats/msgpack/wire.h"
#include "formats/plan.h"
#include "formats/short_string.h"
#include "formats/time_ticks.h"

namespace jitser {

using msgpack::Head;
using msgpack::Input;
using msgpack::input;
using msgpack::Type;

extern "C" {

// The Input the kernel and the helpers, compiled by different compilers, both read.
extern const std::uint64_t jitser_msgpack_kernel_layout;
const std::uint64_t jitser_msgpack_kernel_layout = kCursorInputLayout;

std::uint8_t* jitser_msgpack_put_frame(std::uint8_t* out, std::uint64_t, bool, std::uint32_t) {
  return out;
}

std::uint8_t* jitser_msgpack_put_bool(std::uint8_t* out, std::uint8_t v) {
  *out = v ? msgpack::kTrue : msgpack::kFalse;
  return out + 1;
}

std::uint8_t* jitser_msgpack_put_int(std::uint8_t* out, std::int64_t v, std::uint32_t,
                                     std::uint32_t) {
  return msgpack::put_int(out, v);
}

std::uint8_t* jitser_msgpack_put_uint(std::uint8_t* out, std::uint64_t v, std::uint32_t,
                                      std::uint32_t) {
  return msgpack::put_uint(out, v);
}

// Plans that write enums as integers; compiled code has checked that the value is declared.
std::uint8_t* jitser_msgpack_put_enum(std::uint8_t* out, std::int64_t v) {
  return msgpack::put_int(out, v);
}

std::uint8_t* jitser_msgpack_put_float(std::uint8_t* out, float v, std::uint32_t) {
  return msgpack::put_float(out, v);
}

std::uint8_t* jitser_msgpack_put_double(std::uint8_t* out, double v, std::uint32_t) {
  return msgpack::put_double(out, v);
}

// A string of ASCII bytes, the common case, is checked and copied here: one of up to 15 as one
// 16-byte word (a std::string's storage always holds 16 bytes, its local buffer or a heap block
// of more than 15 and a terminator, and the room reserved has a word to spare). Anything else is
// checked as UTF-8 by the host.
std::uint8_t* jitser_msgpack_put_string(std::uint8_t* out, const char* data, std::size_t n) {
  out = msgpack::put_str_head(out, n);
  if (n <= 15) {
    if (ascii_prefix(data, n)) {
      std::memcpy(out, data, 16);
      return out + n;
    }
  } else if (all_ascii(data, n)) {
    std::memcpy(out, data, n);
    return out + n;
  }
  return jitser_msgpack_put_text(out, data, n);
}

std::uint8_t* jitser_msgpack_put_bytes(std::uint8_t* out, const std::uint8_t* data, std::size_t n) {
  out = msgpack::put_bin_head(out, n);
  if (n) std::memcpy(out, data, n);
  return out + n;
}

std::uint8_t* jitser_msgpack_put_decimal(std::uint8_t* out, const Decimal* d) {
  *out++ = 0x92;  // [unscaled, scale]
  return msgpack::put_int(msgpack::put_int(out, d->unscaled), d->scale);
}

std::uint8_t* jitser_msgpack_put_time(std::uint8_t* out, std::int64_t ticks, std::uint32_t unit,
                                      std::uint32_t is_duration, std::uint32_t) {
  if (is_duration) return msgpack::put_int(out, ticks);
  std::int64_t seconds;
  std::uint64_t nanos;
  split_ticks(ticks, static_cast<TimeUnit>(unit), seconds, nanos);
  return msgpack::put_timestamp(out, seconds, static_cast<std::uint32_t>(nanos));
}

std::uint8_t* jitser_msgpack_put_begin_list(std::uint8_t* out, std::uint64_t n, std::uint32_t,
                                            std::uint32_t) {
  return msgpack::put_array_head(out, n);
}

std::uint8_t* jitser_msgpack_put_end_list(std::uint8_t* out, std::uint64_t, std::uint32_t) {
  return out;
}

bool jitser_msgpack_open(ReadContext* ctx, const std::uint8_t* p, const std::uint8_t* end,
                         Slot* root) {
  open_cursor(ctx, p, end, root);
  return true;
}

bool jitser_msgpack_finish(ReadContext*, Slot* root) { return input(root).p == input(root).end; }

bool jitser_msgpack_get_frame(Slot*, std::uint64_t, bool) { return true; }

bool jitser_msgpack_get_bool(Slot* s, std::uint8_t* out) {
  Input& in = input(s);
  if (in.p == in.end || (*in.p | 1) != msgpack::kTrue) return false;
  *out = *in.p++ & 1;
  return true;
}

// Fix ints, which every width holds, in line; any other encoding whose value fits.
bool jitser_msgpack_get_int(Slot* s, std::int64_t* out, std::uint32_t width, std::uint32_t) {
  Input& in = input(s);
  if (in.p != in.end && (*in.p < 0x80 || *in.p >= 0xe0)) {
    *out = static_cast<std::int8_t>(*in.p++);
    return true;
  }
  Head h;
  if (!msgpack::int_head(in, h) || (h.type != Type::Int && h.type != Type::UInt) ||
      !msgpack::int_fits(h, true, width)) {
    return false;
  }
  *out = static_cast<std::int64_t>(h.bits);
  return true;
}

bool jitser_msgpack_get_uint(Slot* s, std::uint64_t* out, std::uint32_t width, std::uint32_t) {
  Input& in = input(s);
  if (in.p != in.end && *in.p < 0x80) {
    *out = *in.p++;
    return true;
  }
  Head h;
  if (!msgpack::int_head(in, h) || h.type != Type::UInt || !msgpack::int_fits(h, false, width)) {
    return false;
  }
  *out = h.bits;
  return true;
}

// An enum as an integer of either sign, as its bits; compiled code checks that it is declared.
bool jitser_msgpack_get_enum(Slot* s, std::int64_t* out) {
  Input& in = input(s);
  if (in.p != in.end && (*in.p < 0x80 || *in.p >= 0xe0)) {
    *out = static_cast<std::int8_t>(*in.p++);
    return true;
  }
  Head h;
  if (!msgpack::int_head(in, h) || (h.type != Type::Int && h.type != Type::UInt)) return false;
  *out = static_cast<std::int64_t>(h.bits);
  return true;
}

bool jitser_msgpack_get_float(Slot* s, float* out, std::uint32_t) {
  Head h;
  return msgpack::number_head(input(s), h) && msgpack::to_floating(h, 4, out) == Errc::ok;
}

bool jitser_msgpack_get_double(Slot* s, double* out, std::uint32_t) {
  Head h;
  return msgpack::number_head(input(s), h) && msgpack::to_floating(h, 8, out) == Errc::ok;
}

// A str of up to 15 ASCII bytes, with 16 readable, is stored without a call; any other is
// checked as UTF-8 and assigned by the host.
bool jitser_msgpack_get_string(Slot* s, void* out, std::uint32_t allocator) {
  Input& in = input(s);
  std::uint64_t n = 0;
  if (!msgpack::str_head(in, n)) return false;
  if (n <= 15 && in.readable - in.p >= 16 && ascii_prefix(in.p, n)) {
    assign_short_string(out, allocator, in.p, n);
  } else if (!jitser_rt_assign_text(out, allocator, in.p, n)) {
    return false;
  }
  in.p += n;
  return true;
}

bool jitser_msgpack_get_bytes(Slot* s, void* list, const TypeDesc* type) {
  Input& in = input(s);
  Head h;
  if (!msgpack::head(in, h) || h.type != Type::Bin ||
      h.bits > static_cast<std::uint64_t>(in.end - in.p)) {
    return false;
  }
  jitser_rt_assign_bytes(list, type, in.p, h.bits);
  in.p += h.bits;
  return true;
}

// An enum's name, compared in place with 8 bytes readable past it, else copied.
bool jitser_msgpack_get_text(Slot* s, const char** data, std::size_t* size) {
  Input& in = input(s);
  std::uint64_t n = 0;
  if (!msgpack::str_head(in, n)) return false;
  *data = msgpack::readable_text(in, in.p, n);
  *size = n;
  in.p += n;
  return *data != nullptr;
}

bool jitser_msgpack_get_decimal(Slot* s, Decimal* d) {
  Input& in = input(s);
  Head h, unscaled, scale;
  std::int64_t u = 0;
  std::int32_t sc = 0;
  if (!msgpack::head(in, h) || h.type != Type::Array || h.bits != 2 ||
      !msgpack::head(in, unscaled) || !msgpack::as_signed(unscaled, u) ||
      !msgpack::head(in, scale) || !msgpack::scale_of(scale, sc)) {
    return false;
  }
  *d = Decimal{u, sc};
  return true;
}

bool jitser_msgpack_get_time(Slot* s, std::int64_t* ticks, std::uint32_t unit,
                             std::uint32_t is_duration, std::uint32_t) {
  Input& in = input(s);
  Head h;
  if (!msgpack::number_head(in, h)) return false;
  if (is_duration) return msgpack::as_signed(h, *ticks);
  if (!msgpack::is_timestamp(h) || h.bits > static_cast<std::uint64_t>(in.end - in.p) ||
      msgpack::timestamp_ticks(h, in.p, static_cast<TimeUnit>(unit), *ticks) != Errc::ok) {
    return false;
  }
  in.p += h.bits;
  return true;
}

bool jitser_msgpack_get_null(Slot* s, std::uint8_t* is_null) {
  Input& in = input(s);
  if (in.p == in.end) return false;
  *is_null = *in.p == msgpack::kNil;
  in.p += *is_null;
  return true;
}

// MessagePack has no references: a shared object is read as a new one wherever it appears.
bool jitser_msgpack_get_shared(Slot* s, std::uint32_t* ref, std::uint32_t*) {
  std::uint8_t is_null = 0;
  if (!jitser_msgpack_get_null(s, &is_null)) return false;
  *ref = is_null ? kSharedNull : kSharedNew;
  return true;
}

// A list's or array's count, bounded by the bytes left; its elements follow.
bool jitser_msgpack_begin_list(Slot* s, Slot*, std::uint64_t* count, std::uint32_t, std::uint32_t,
                               std::uint32_t min_item_bytes) {
  Input& in = input(s);
  std::uint64_t n = 0;
  if (!msgpack::head_of(in, Type::Array, 0x90, 0x0f, n) ||
      !msgpack::count_fits(in, n, min_item_bytes)) {
    return false;
  }
  *count = n;
  return true;
}

// A positional object's array head, which must count all its fields.
bool jitser_msgpack_begin_fields(Slot* value, std::uint32_t fields) {
  std::uint64_t n = 0;
  return msgpack::head_of(input(value), Type::Array, 0x90, 0x0f, n) && n == fields;
}

bool jitser_msgpack_begin_object(Slot* value, Slot* iterator) {
  Input& in = input(value);
  std::uint64_t n = 0;
  if (!msgpack::head_of(in, Type::Map, 0x80, 0x0f, n) || !msgpack::count_fits(in, n, 2)) {
    return false;
  }
  msgpack::set_input(iterator, &in);
  msgpack::left(iterator) = n;
  return true;
}

// A key must be a str; the raw key is its bytes, head included, as PlanField::match holds them.
std::int32_t jitser_msgpack_next_field(Slot* iterator, Slot* value, const char** raw_key,
                                       std::uint32_t) {
  if (msgpack::left(iterator) == 0) return 0;
  --msgpack::left(iterator);
  Input& in = input(iterator);
  const std::uint8_t* start = in.p;
  std::uint64_t n = 0;
  if (!msgpack::str_head(in, n)) return -1;
  in.p += n;
  *raw_key = msgpack::readable_text(in, start, static_cast<std::size_t>(in.p - start));
  if (!*raw_key) return -1;
  msgpack::set_input(value, &in);
  return 1;
}

// The key as written for the field expected next, compared where the next key starts: fields
// in declaration order, as jitser writes them, are read without a dispatch on their keys.
bool jitser_msgpack_expect_field(Slot* iterator, Slot* value, const char* key,
                                 std::uint32_t key_size) {
  Input& in = input(iterator);
  if (msgpack::left(iterator) == 0 || static_cast<std::size_t>(in.end - in.p) < key_size ||
      std::memcmp(in.p, key, key_size) != 0) {
    return false;
  }
  --msgpack::left(iterator);
  in.p += key_size;
  msgpack::set_input(value, &in);
  return true;
}

// In line, get_head and all: called out of line, as CBOR's is, it cut MediaContent's compile
// time further but made its map-layout reader a fifth slower, from how the one merged function
// was register-allocated.
bool jitser_msgpack_skip(Slot* value) {
  return msgpack::skip(input(value).p, input(value).end) == msgpack::SkipStatus::ok;
}

// The functions compiled code calls that are not defined here (formats/kernel_calls.h).
extern const void* const jitser_msgpack_calls[];
const void* const jitser_msgpack_calls[] = {
    JITSER_RUNTIME_CALLS,
    reinterpret_cast<const void*>(&jitser_msgpack_write_value),
    reinterpret_cast<const void*>(&jitser_msgpack_write_bool_list),
    reinterpret_cast<const void*>(&jitser_msgpack_write_map),
    reinterpret_cast<const void*>(&jitser_msgpack_find_field),
    reinterpret_cast<const void*>(&jitser_msgpack_read_bool_list),
    reinterpret_cast<const void*>(&jitser_msgpack_read_value),
    reinterpret_cast<const void*>(&jitser_msgpack_read_map),
    reinterpret_cast<const void*>(&jitser_msgpack_put_text),
    reinterpret_cast<const void*>(&jitser_msgpack_head),
};

// The kernel's functions by name, as compiled into the library: first-tier code calls them out
// of line rather than linking and inlining their bitcode (jit/compiler.cpp, docs/jit.md).
// clang-format off
JITSER_KERNEL_FUNCTIONS(msgpack,
    JITSER_KERNEL_FUNCTION(jitser_msgpack_begin_fields),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_begin_list),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_begin_object),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_expect_field),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_finish),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_get_bool),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_get_bytes),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_get_decimal),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_get_double),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_get_enum),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_get_float),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_get_frame),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_get_int),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_get_null),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_get_shared),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_get_string),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_get_text),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_get_time),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_get_uint),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_next_field),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_open),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_put_begin_list),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_put_bool),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_put_bytes),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_put_decimal),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_put_double),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_put_end_list),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_put_enum),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_put_float),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_put_frame),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_put_int),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_put_string),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_put_time),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_put_uint),
    JITSER_KERNEL_FUNCTION(jitser_msgpack_skip));
// clang-format on

}  // extern "C"

}  // namespace jitser
