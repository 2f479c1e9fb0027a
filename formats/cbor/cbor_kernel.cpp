// CBOR's kernel: its rules (wire.h, read_rules.h, time_rules.h) as the functions of the kernel
// contract (formats/compiled_abi.h), compiled into the library and to LLVM bitcode the JIT
// links into CBOR codecs (jitser_format_kernel in CMakeLists.txt), so that the calls inline
// with their operands constant. Integers, and heads whose argument is in the initial byte or
// the one after, are read in line; the others out of line (jitser_cbor_head).
//
// Every Slot points at the one position in the input (cbor_slot.h): fields, elements and the
// values they hold are read each where the last one ended. Indefinite lengths, and tags other
// than those of times and decimals, are left to the interpreter.
#include <cstring>
#include <iterator>

#include "formats/cbor/cbor_helpers.h"
#include "formats/cbor/cbor_slot.h"
#include "formats/cbor/read_rules.h"
#include "formats/cbor/time_rules.h"
#include "formats/cbor/wire.h"
#include "formats/kernel_calls.h"
#include "formats/plan.h"
#include "formats/short_string.h"
#include "formats/time_ticks.h"

namespace jitser {

using cbor::Head;
using cbor::Input;
using cbor::input;
using cbor::Major;

extern "C" {

// The Input the kernel and the helpers, compiled by different compilers, both read.
extern const std::uint64_t jitser_cbor_kernel_layout;
const std::uint64_t jitser_cbor_kernel_layout = kCursorInputLayout;

std::uint8_t* jitser_cbor_put_frame(std::uint8_t* out, std::uint64_t, bool, std::uint32_t) {
  return out;
}

std::uint8_t* jitser_cbor_put_bool(std::uint8_t* out, std::uint8_t v) {
  *out = v ? cbor::kTrue : cbor::kFalse;
  return out + 1;
}

std::uint8_t* jitser_cbor_put_int(std::uint8_t* out, std::int64_t v, std::uint32_t, std::uint32_t) {
  return cbor::put_int(out, v);
}

std::uint8_t* jitser_cbor_put_uint(std::uint8_t* out, std::uint64_t v, std::uint32_t,
                                   std::uint32_t) {
  return cbor::put_uint(out, v);
}

// Plans that write enums as integers; compiled code has checked that the value is declared.
std::uint8_t* jitser_cbor_put_enum(std::uint8_t* out, std::int64_t v) {
  return cbor::put_int(out, v);
}

std::uint8_t* jitser_cbor_put_float(std::uint8_t* out, float v, std::uint32_t) {
  return cbor::put_double(out, v);
}

std::uint8_t* jitser_cbor_put_double(std::uint8_t* out, double v, std::uint32_t) {
  return cbor::put_double(out, v);
}

// A string of ASCII bytes, the common case, is checked and copied here: one of up to 15 as one
// 16-byte word (a std::string's storage always holds 16 bytes, its local buffer or a heap block
// of more than 15 and a terminator, and the room reserved has a word to spare). Anything else is
// checked as UTF-8 by the host.
std::uint8_t* jitser_cbor_put_string(std::uint8_t* out, const char* data, std::size_t n) {
  out = cbor::put_text_head(out, n);
  if (n <= 15) {
    if (ascii_prefix(data, n)) {
      std::memcpy(out, data, 16);
      return out + n;
    }
  } else if (all_ascii(data, n)) {
    std::memcpy(out, data, n);
    return out + n;
  }
  return jitser_cbor_put_text(out, data, n);
}

std::uint8_t* jitser_cbor_put_bytes(std::uint8_t* out, const std::uint8_t* data, std::size_t n) {
  out = cbor::put_head(out, Major::Bytes, n);
  if (n) std::memcpy(out, data, n);
  return out + n;
}

std::uint8_t* jitser_cbor_put_decimal(std::uint8_t* out, const Decimal* d) {
  return cbor::put_decimal(out, d->unscaled, d->scale);
}

std::uint8_t* jitser_cbor_put_time(std::uint8_t* out, std::int64_t ticks, std::uint32_t unit,
                                   std::uint32_t is_duration, std::uint32_t enc) {
  if (is_duration) return cbor::put_int(out, ticks);
  if (enc == cbor::kTimeText) return jitser_cbor_put_time_text(out, ticks, unit);
  std::int64_t seconds;
  std::uint64_t nanos;
  split_ticks(ticks, static_cast<TimeUnit>(unit), seconds, nanos);
  return cbor::put_timestamp(out, seconds, nanos);
}

std::uint8_t* jitser_cbor_put_begin_list(std::uint8_t* out, std::uint64_t n, std::uint32_t,
                                         std::uint32_t) {
  return cbor::put_head(out, Major::Array, n);
}

std::uint8_t* jitser_cbor_put_end_list(std::uint8_t* out, std::uint64_t, std::uint32_t) {
  return out;
}

bool jitser_cbor_open(ReadContext* ctx, const std::uint8_t* p, const std::uint8_t* end,
                      Slot* root) {
  open_cursor(ctx, p, end, root);
  return true;
}

bool jitser_cbor_finish(ReadContext*, Slot* root) { return input(root).p == input(root).end; }

bool jitser_cbor_get_frame(Slot*, std::uint64_t, bool) { return true; }

bool jitser_cbor_get_bool(Slot* s, std::uint8_t* out) {
  Input& in = input(s);
  if (in.p != in.end && (*in.p | 1) == cbor::kTrue) {
    *out = *in.p++ & 1;
    return true;
  }
  return cbor::not_read(in);
}

bool jitser_cbor_get_int(Slot* s, std::int64_t* out, std::uint32_t width, std::uint32_t) {
  cbor::Integer v;
  if (!cbor::integer_head(input(s), v) || !cbor::int_fits(v, true, width)) return false;
  *out = static_cast<std::int64_t>(cbor::int_bits(v));
  return true;
}

bool jitser_cbor_get_uint(Slot* s, std::uint64_t* out, std::uint32_t width, std::uint32_t) {
  cbor::Integer v;
  if (!cbor::integer_head(input(s), v) || !cbor::int_fits(v, false, width)) return false;
  *out = v.n;
  return true;
}

// An enum as an integer of either sign, as its bits; compiled code checks that it is declared.
bool jitser_cbor_get_enum(Slot* s, std::int64_t* out) {
  cbor::Integer v;
  if (!cbor::integer_head(input(s), v) ||
      (!cbor::int_fits(v, true, 8) && !cbor::int_fits(v, false, 8))) {
    return false;
  }
  *out = static_cast<std::int64_t>(cbor::int_bits(v));
  return true;
}

bool jitser_cbor_get_float(Slot* s, float* out, std::uint32_t) {
  Head h;
  return cbor::head(input(s), h) && cbor::to_floating(h, 4, out) == Errc::ok;
}

bool jitser_cbor_get_double(Slot* s, double* out, std::uint32_t) {
  Head h;
  return cbor::head(input(s), h) && cbor::to_floating(h, 8, out) == Errc::ok;
}

// A text string of up to 15 ASCII bytes, with 16 readable, is stored without a call; any
// other is checked as UTF-8 and assigned by the host.
bool jitser_cbor_get_string(Slot* s, void* out, std::uint32_t allocator) {
  Input& in = input(s);
  std::uint64_t n = 0;
  if (!cbor::text_head(in, n)) return false;
  if (n <= 15 && in.readable - in.p >= 16 && ascii_prefix(in.p, n)) {
    assign_short_string(out, allocator, in.p, n);
  } else if (!jitser_rt_assign_text(out, allocator, in.p, n)) {
    return false;
  }
  in.p += n;
  return true;
}

bool jitser_cbor_get_bytes(Slot* s, void* list, const TypeDesc* type) {
  Input& in = input(s);
  std::uint64_t n = 0;
  if (!cbor::head_of(in, Major::Bytes, n) || n > static_cast<std::uint64_t>(in.end - in.p)) {
    return false;
  }
  jitser_rt_assign_bytes(list, type, in.p, n);
  in.p += n;
  return true;
}

// An enum's name, compared in place with 8 bytes readable past it, else copied.
bool jitser_cbor_get_text(Slot* s, const char** data, std::size_t* size) {
  Input& in = input(s);
  std::uint64_t n = 0;
  if (!cbor::text_head(in, n)) return false;
  *data = cbor::readable_text(in, in.p, n);
  *size = n;
  in.p += n;
  return *data != nullptr;
}

// Tag 4 around [exponent, mantissa], each an integer head.
bool jitser_cbor_get_decimal(Slot* s, Decimal* d) {
  Input& in = input(s);
  Head h, exponent, mantissa;
  if (in.p == in.end) return false;
  if (*in.p != 0xc4) return cbor::not_read(in);
  ++in.p;
  if (!cbor::head(in, h) || h.major != Major::Array || h.n != 2 || !cbor::head(in, exponent) ||
      !cbor::head(in, mantissa)) {
    return false;
  }
  const auto is_int = [](const Head& x) {
    return x.major == Major::Unsigned || x.major == Major::Negative;
  };
  const cbor::Integer e{exponent.major == Major::Negative, exponent.n};
  const cbor::Integer m{mantissa.major == Major::Negative, mantissa.n};
  if (!is_int(exponent) || !is_int(mantissa) || !cbor::scale_of(e, d->scale) ||
      !cbor::int_fits(m, true, 8)) {
    return false;
  }
  d->unscaled = static_cast<std::int64_t>(cbor::int_bits(m));
  return true;
}

// A duration's integer; a timestamp's tag 1 with an integer or a float, tag 1001 with the
// seconds and nanoseconds as jitser writes them, or tag 0 with definite text (others are left
// to the interpreter).
bool jitser_cbor_get_time(Slot* s, std::int64_t* ticks, std::uint32_t unit,
                          std::uint32_t is_duration, std::uint32_t) {
  Input& in = input(s);
  Head h;
  if (is_duration) {
    if (!cbor::head(in, h) || (h.major != Major::Unsigned && h.major != Major::Negative)) {
      return false;
    }
    const cbor::Integer v{h.major == Major::Negative, h.n};
    if (!cbor::int_fits(v, true, 8)) return false;
    *ticks = static_cast<std::int64_t>(cbor::int_bits(v));
    return true;
  }
  std::int64_t seconds = 0;
  std::uint64_t nanos = 0;
  if (in.p != in.end && *in.p == 0xc1) {
    ++in.p;
    if (!cbor::head(in, h)) return false;
    if (h.float_bytes) {
      if (!cbor::float_seconds(cbor::float_value(h), seconds, nanos)) return false;
    } else {
      const cbor::Integer v{h.major == Major::Negative, h.n};
      if ((h.major != Major::Unsigned && h.major != Major::Negative) || !cbor::int_fits(v, true, 8))
        return false;
      seconds = static_cast<std::int64_t>(cbor::int_bits(v));
    }
  } else if (in.end - in.p >= 6 && std::memcmp(in.p, "\xd9\x03\xe9\xa2\x01", 5) == 0) {
    in.p += 5;
    Head sec, key, frac;
    if (!cbor::head(in, sec) || !cbor::head(in, key) || key.major != Major::Negative ||
        key.n != 8 || !cbor::head(in, frac) || frac.major != Major::Unsigned ||
        frac.n >= 1000000000) {
      return cbor::decline(in);
    }
    const cbor::Integer v{sec.major == Major::Negative, sec.n};
    if ((sec.major != Major::Unsigned && sec.major != Major::Negative) ||
        !cbor::int_fits(v, true, 8)) {
      return cbor::decline(in);
    }
    seconds = static_cast<std::int64_t>(cbor::int_bits(v));
    nanos = frac.n;
  } else if (in.p != in.end && *in.p == 0xc0) {
    ++in.p;
    return jitser_cbor_get_time_text(&in, ticks, unit);
  } else {
    return cbor::not_read(in);
  }
  return join_ticks(seconds, nanos, static_cast<TimeUnit>(unit), *ticks);
}

// Null; undefined and tags, which a jitser::Value holds and other kinds take as null or step
// over, are left to the interpreter, which knows the element's kind.
bool jitser_cbor_get_null(Slot* s, std::uint8_t* is_null) {
  Input& in = input(s);
  if (in.p == in.end) return false;
  const std::uint8_t b = *in.p;
  if ((b >> 5) == static_cast<unsigned>(Major::Tag) || b == cbor::kUndefined) {
    return cbor::decline(in);
  }
  *is_null = b == cbor::kNull;
  in.p += *is_null;
  return true;
}

// CBOR has no references here: a shared object is read as a new one wherever it appears.
bool jitser_cbor_get_shared(Slot* s, std::uint32_t* ref, std::uint32_t*) {
  std::uint8_t is_null = 0;
  if (!jitser_cbor_get_null(s, &is_null)) return false;
  *ref = is_null ? kSharedNull : kSharedNew;
  return true;
}

// A list's or array's count, bounded by the bytes left; its elements follow.
bool jitser_cbor_begin_list(Slot* s, Slot*, std::uint64_t* count, std::uint32_t, std::uint32_t,
                            std::uint32_t min_item_bytes) {
  Input& in = input(s);
  std::uint64_t n = 0;
  if (!cbor::head_of(in, Major::Array, n) || !cbor::count_fits(in, n, min_item_bytes)) {
    return false;
  }
  *count = n;
  return true;
}

// A positional object's array head, which must count all its fields; one of indefinite length
// is left to the interpreter.
bool jitser_cbor_begin_fields(Slot* value, std::uint32_t fields) {
  std::uint64_t n = 0;
  return cbor::head_of(input(value), Major::Array, n) && n == fields;
}

bool jitser_cbor_begin_object(Slot* value, Slot* iterator) {
  Input& in = input(value);
  std::uint64_t n = 0;
  if (!cbor::head_of(in, Major::Map, n) || !cbor::count_fits(in, n, 2)) return false;
  cbor::set_input(iterator, &in);
  cbor::left(iterator) = n;
  return true;
}

// A key must be a text string or an integer; the raw key is its bytes, head included, as
// PlanField::match holds them.
std::int32_t jitser_cbor_next_field(Slot* iterator, Slot* value, const char** raw_key,
                                    std::uint32_t) {
  if (cbor::left(iterator) == 0) return 0;
  --cbor::left(iterator);
  Input& in = input(iterator);
  const std::uint8_t* start = in.p;
  if (in.p != in.end && *in.p < 0x40) {
    // An integer key (keys_by_number); one in a longer head than it needs is left to the
    // interpreter, which makes it shortest, as keys are compared.
    Head h;
    if (!cbor::head(in, h)) return -1;
    std::uint8_t shortest[cbor::kMaxHead];
    if (cbor::put_head(shortest, h.major, h.n) - shortest != in.p - start) {
      (void)cbor::decline(in);
      return -1;
    }
  } else {
    std::uint64_t n = 0;
    if (!cbor::text_head(in, n)) return -1;
    in.p += n;
  }
  *raw_key = cbor::readable_text(in, start, static_cast<std::size_t>(in.p - start));
  if (!*raw_key) return -1;
  cbor::set_input(value, &in);
  return 1;
}

// The key as written for the field expected next, compared where the next key starts: fields
// in declaration order, as jitser writes them, are read without a dispatch on their keys.
bool jitser_cbor_expect_field(Slot* iterator, Slot* value, const char* key,
                              std::uint32_t key_size) {
  Input& in = input(iterator);
  if (cbor::left(iterator) == 0 || static_cast<std::size_t>(in.end - in.p) < key_size ||
      std::memcmp(in.p, key, key_size) != 0) {
    return false;
  }
  --cbor::left(iterator);
  in.p += key_size;
  cbor::set_input(value, &in);
  return true;
}

bool jitser_cbor_skip(Slot* value) { return jitser_cbor_skip_item(&input(value)); }

// The functions compiled code calls that are not defined here (formats/kernel_calls.h).
extern const void* const jitser_cbor_calls[];
const void* const jitser_cbor_calls[] = {
    JITSER_RUNTIME_CALLS,
    reinterpret_cast<const void*>(&jitser_cbor_write_value),
    reinterpret_cast<const void*>(&jitser_cbor_write_bool_list),
    reinterpret_cast<const void*>(&jitser_cbor_write_map),
    reinterpret_cast<const void*>(&jitser_cbor_find_field),
    reinterpret_cast<const void*>(&jitser_cbor_read_bool_list),
    reinterpret_cast<const void*>(&jitser_cbor_read_value),
    reinterpret_cast<const void*>(&jitser_cbor_read_map),
    reinterpret_cast<const void*>(&jitser_cbor_put_text),
    reinterpret_cast<const void*>(&jitser_cbor_skip_item),
    reinterpret_cast<const void*>(&jitser_cbor_head),
    reinterpret_cast<const void*>(&jitser_cbor_put_time_text),
    reinterpret_cast<const void*>(&jitser_cbor_get_time_text),
};

// The kernel's functions by name, as compiled into the library: first-tier code calls them out
// of line rather than linking and inlining their bitcode (jit/compiler.cpp, docs/jit.md).
// clang-format off
JITSER_KERNEL_FUNCTIONS(cbor,
    JITSER_KERNEL_FUNCTION(jitser_cbor_begin_fields),
    JITSER_KERNEL_FUNCTION(jitser_cbor_begin_list),
    JITSER_KERNEL_FUNCTION(jitser_cbor_begin_object),
    JITSER_KERNEL_FUNCTION(jitser_cbor_expect_field),
    JITSER_KERNEL_FUNCTION(jitser_cbor_finish),
    JITSER_KERNEL_FUNCTION(jitser_cbor_get_bool),
    JITSER_KERNEL_FUNCTION(jitser_cbor_get_bytes),
    JITSER_KERNEL_FUNCTION(jitser_cbor_get_decimal),
    JITSER_KERNEL_FUNCTION(jitser_cbor_get_double),
    JITSER_KERNEL_FUNCTION(jitser_cbor_get_enum),
    JITSER_KERNEL_FUNCTION(jitser_cbor_get_float),
    JITSER_KERNEL_FUNCTION(jitser_cbor_get_frame),
    JITSER_KERNEL_FUNCTION(jitser_cbor_get_int),
    JITSER_KERNEL_FUNCTION(jitser_cbor_get_null),
    JITSER_KERNEL_FUNCTION(jitser_cbor_get_shared),
    JITSER_KERNEL_FUNCTION(jitser_cbor_get_string),
    JITSER_KERNEL_FUNCTION(jitser_cbor_get_text),
    JITSER_KERNEL_FUNCTION(jitser_cbor_get_time),
    JITSER_KERNEL_FUNCTION(jitser_cbor_get_uint),
    JITSER_KERNEL_FUNCTION(jitser_cbor_next_field),
    JITSER_KERNEL_FUNCTION(jitser_cbor_open),
    JITSER_KERNEL_FUNCTION(jitser_cbor_put_begin_list),
    JITSER_KERNEL_FUNCTION(jitser_cbor_put_bool),
    JITSER_KERNEL_FUNCTION(jitser_cbor_put_bytes),
    JITSER_KERNEL_FUNCTION(jitser_cbor_put_decimal),
    JITSER_KERNEL_FUNCTION(jitser_cbor_put_double),
    JITSER_KERNEL_FUNCTION(jitser_cbor_put_end_list),
    JITSER_KERNEL_FUNCTION(jitser_cbor_put_enum),
    JITSER_KERNEL_FUNCTION(jitser_cbor_put_float),
    JITSER_KERNEL_FUNCTION(jitser_cbor_put_frame),
    JITSER_KERNEL_FUNCTION(jitser_cbor_put_int),
    JITSER_KERNEL_FUNCTION(jitser_cbor_put_string),
    JITSER_KERNEL_FUNCTION(jitser_cbor_put_time),
    JITSER_KERNEL_FUNCTION(jitser_cbor_put_uint),
    JITSER_KERNEL_FUNCTION(jitser_cbor_skip));
// clang-format on

}  // extern "C"

}  // namespace jitser
