// The binary format's kernel: its rules (wire.h) as the functions of the kernel contract
// (formats/compiled_abi.h) that compiled code calls, compiled into the library and to LLVM
// bitcode the JIT links into binary codecs (jitser_format_kernel in CMakeLists.txt), so that
// the calls inline with their operands constant.
//
// A reader's Slot holds the input left, [p, end): binary is positional, so fields, elements and
// the values they hold are all read from the one slot, each where the last one ended.
#include <cstring>
#include <iterator>

#include "formats/binary/binary_helpers.h"
#include "formats/binary/binary_slot.h"
#include "formats/binary/wire.h"
#include "formats/kernel_calls.h"
#include "formats/plan.h"
#include "formats/short_string.h"
#include "formats/time_ticks.h"

namespace jitser {

using binary::input;
using binary::Input;

extern "C" {

std::uint8_t* jitser_binary_put_frame(std::uint8_t* out, std::uint64_t fingerprint,
                                      bool with_fingerprint, std::uint32_t) {
  return wire::put_frame(out, fingerprint, with_fingerprint);
}

std::uint8_t* jitser_binary_put_bool(std::uint8_t* out, std::uint8_t v) {
  *out = v;
  return out + 1;
}

std::uint8_t* jitser_binary_put_int(std::uint8_t* out, std::int64_t v, std::uint32_t width,
                                    std::uint32_t enc) {
  switch (enc) {
    case wire::kFixed: std::memcpy(out, &v, width); return out + width;
    case wire::kCompact: return wire::put_int64_compact(out, v);
    default: return wire::put_varuint(out, wire::zigzag(v));
  }
}

std::uint8_t* jitser_binary_put_uint(std::uint8_t* out, std::uint64_t v, std::uint32_t width,
                                     std::uint32_t enc) {
  if (enc == wire::kFixed) {
    std::memcpy(out, &v, width);
    return out + width;
  }
  return wire::put_varuint(out, v);
}

std::uint8_t* jitser_binary_put_float(std::uint8_t* out, float v, std::uint32_t) {
  std::memcpy(out, &v, 4);
  return out + 4;
}

std::uint8_t* jitser_binary_put_double(std::uint8_t* out, double v, std::uint32_t) {
  std::memcpy(out, &v, 8);
  return out + 8;
}

// The size, then the bytes. A std::string's storage always holds 16 bytes (its local buffer, or
// a heap block of more than 15 chars and a terminator), and the caller reserved 16 bytes more
// than the size, so up to 16 bytes copy as one 16-byte move; up to 32 as the first and the last
// 16, which overlap; up to 64 as the first and the last 32.
std::uint8_t* jitser_binary_put_string(std::uint8_t* out, const char* data, std::size_t n) {
  out = wire::put_varuint(out, n);
  if (n <= 16) {
    std::memcpy(out, data, 16);
  } else if (n <= 32) {
    std::memcpy(out, data, 16);
    std::memcpy(out + n - 16, data + n - 16, 16);
  } else if (n <= 64) {
    std::memcpy(out, data, 32);
    std::memcpy(out + n - 32, data + n - 32, 32);
  } else {
    std::memcpy(out, data, n);
  }
  return out + n;
}

std::uint8_t* jitser_binary_put_bytes(std::uint8_t* out, const std::uint8_t* data, std::size_t n) {
  out = wire::put_varuint(out, n);
  if (n) std::memcpy(out, data, n);
  return out + n;
}

std::uint8_t* jitser_binary_put_enum(std::uint8_t* out, std::int64_t v) {
  return wire::put_varuint(out, wire::zigzag(v));
}

std::uint8_t* jitser_binary_put_decimal(std::uint8_t* out, const Decimal* d) {
  out = wire::put_varuint(out, wire::zigzag(d->unscaled));
  return wire::put_varuint(out, wire::zigzag(d->scale));
}

std::uint8_t* jitser_binary_put_time(std::uint8_t* out, std::int64_t ticks, std::uint32_t unit,
                                     std::uint32_t, std::uint32_t) {
  std::int64_t seconds;
  std::uint64_t nanos;
  split_ticks(ticks, static_cast<TimeUnit>(unit), seconds, nanos);
  return wire::put_varuint(wire::put_varuint(out, wire::zigzag(seconds)), nanos);
}

// A list: its count, and when it has elements, their header. An array: nothing.
std::uint8_t* jitser_binary_put_begin_list(std::uint8_t* out, std::uint64_t n, std::uint32_t op,
                                           std::uint32_t enc) {
  if (static_cast<Op>(op) == Op::Array) return out;
  out = wire::put_varuint(out, n);
  if (n) *out++ = static_cast<std::uint8_t>(enc);
  return out;
}

std::uint8_t* jitser_binary_put_end_list(std::uint8_t* out, std::uint64_t, std::uint32_t) {
  return out;
}

std::uint8_t* jitser_binary_put_shared_ref(std::uint8_t* out, std::uint32_t id) {
  *out = wire::kRef;
  return wire::put_varuint(out + 1, id);
}

}  // extern "C"

extern "C" {

bool jitser_binary_open(ReadContext*, const std::uint8_t* p, const std::uint8_t* end, Slot* root) {
  input(root) = {p, end};
  return true;
}

bool jitser_binary_finish(ReadContext*, Slot* root) { return input(root).p == input(root).end; }

bool jitser_binary_get_frame(Slot* s, std::uint64_t fingerprint, bool require) {
  std::size_t need = 0;
  return wire::get_frame(input(s).p, input(s).end, fingerprint, require, need) ==
         wire::FrameStatus::ok;
}

bool jitser_binary_get_bool(Slot* s, std::uint8_t* out) {
  Input& in = input(s);
  if (in.p == in.end || *in.p > 1) return false;
  *out = *in.p++;
  return true;
}

bool jitser_binary_get_int(Slot* s, std::int64_t* out, std::uint32_t width, std::uint32_t enc) {
  Input& in = input(s);
  switch (enc) {
    case wire::kFixed: return binary::fixed(in, width, out);
    case wire::kCompact: {
      std::size_t need = 0;
      return wire::get_int64_compact(in.p, in.end, *out, need) == wire::CompactStatus::ok;
    }
    default: {
      std::uint64_t v = 0;
      if (!binary::varuint(in, width * 8, v)) return false;
      *out = wire::unzigzag(v);
      return true;
    }
  }
}

bool jitser_binary_get_uint(Slot* s, std::uint64_t* out, std::uint32_t width, std::uint32_t enc) {
  if (enc == wire::kFixed) return binary::fixed(input(s), width, out);
  return binary::varuint(input(s), width * 8, *out);
}

bool jitser_binary_get_float(Slot* s, float* out, std::uint32_t) {
  return binary::fixed(input(s), 4, out);
}

bool jitser_binary_get_double(Slot* s, double* out, std::uint32_t) {
  return binary::fixed(input(s), 8, out);
}

}  // extern "C"

namespace {

// The n bytes at p, checked as UTF-8, into *out. One of up to 15 ASCII bytes, with 16 input
// bytes readable, is stored without a call; anything else is assigned by the host. Not inlined:
// compiled code keeps one copy per codec.
[[gnu::always_inline]] inline bool assign(void* out, std::uint32_t allocator, const std::uint8_t* p,
                                          const std::uint8_t* end, std::size_t n) {
  if (n <= 15 && end - p >= 16 && ascii_prefix(p, n)) {
    assign_short_string(out, allocator, p, n);
    return true;
  }
  return jitser_rt_assign_text(out, allocator, p, n);
}

}  // namespace

extern "C" {

bool jitser_binary_get_string(Slot* s, void* out, std::uint32_t allocator) {
  Input& in = input(s);
  std::uint64_t n = 0;
  if (!binary::count(in, 1, n) || !assign(out, allocator, in.p, in.end, n)) return false;
  in.p += n;
  return true;
}

bool jitser_binary_get_bytes(Slot* s, void* list, const TypeDesc* type) {
  Input& in = input(s);
  std::uint64_t n = 0;
  if (!binary::count(in, 1, n)) return false;
  jitser_rt_assign_bytes(list, type, in.p, n);
  in.p += n;
  return true;
}

bool jitser_binary_get_enum(Slot* s, std::int64_t* out) {
  std::uint64_t v = 0;
  if (!binary::varuint(input(s), 64, v)) return false;
  *out = wire::unzigzag(v);
  return true;
}

bool jitser_binary_get_decimal(Slot* s, Decimal* d) {
  std::uint64_t unscaled = 0, scale = 0;
  if (!binary::varuint(input(s), 64, unscaled) || !binary::varuint(input(s), 64, scale))
    return false;
  const std::int64_t sc = wire::unzigzag(scale);
  if (!wire::scale_fits(sc)) return false;
  d->unscaled = wire::unzigzag(unscaled);
  d->scale = static_cast<std::int32_t>(sc);
  return true;
}

bool jitser_binary_get_time(Slot* s, std::int64_t* ticks, std::uint32_t unit, std::uint32_t,
                            std::uint32_t) {
  std::uint64_t raw_seconds = 0, nanos = 0;
  if (!binary::varuint(input(s), 64, raw_seconds) || !binary::varuint(input(s), 32, nanos))
    return false;
  if (!wire::nanos_valid(nanos)) return false;
  return join_ticks(wire::unzigzag(raw_seconds), nanos, static_cast<TimeUnit>(unit), *ticks);
}

bool jitser_binary_get_null(Slot* s, std::uint8_t* is_null) {
  std::uint8_t flag = 0;
  if (!binary::byte(input(s), flag) || (flag != wire::kNull && flag != wire::kNotNull))
    return false;
  *is_null = flag == wire::kNull;
  return true;
}

bool jitser_binary_get_shared(Slot* s, std::uint32_t* ref, std::uint32_t* id) {
  std::uint8_t flag = 0;
  if (!binary::byte(input(s), flag)) return false;
  switch (flag) {
    case wire::kNull: *ref = kSharedNull; return true;
    case wire::kRefValue: *ref = kSharedNew; return true;
    case wire::kRef: {
      std::uint64_t v = 0;
      if (!binary::varuint(input(s), 32, v)) return false;
      *ref = kSharedEarlier;
      *id = static_cast<std::uint32_t>(v);
      return true;
    }
    default: return false;
  }
}

// A list's count comes first, bounded by the bytes left, then (when there are items) the
// element header the schema gives; an array's count is the schema's, so nothing is read.
bool jitser_binary_begin_list(Slot* s, Slot*, std::uint64_t* n, std::uint32_t op, std::uint32_t enc,
                              std::uint32_t min_item_bytes) {
  if (static_cast<Op>(op) == Op::Array) return true;
  Input& in = input(s);
  std::uint8_t header = 0;
  return binary::count(in, min_item_bytes, *n) &&
         (*n == 0 || (binary::byte(in, header) && header == enc));
}

// The functions compiled code calls that are not defined here (formats/kernel_calls.h).
extern const void* const jitser_binary_calls[];
const void* const jitser_binary_calls[] = {
    JITSER_RUNTIME_CALLS,
    reinterpret_cast<const void*>(&jitser_binary_write_value),
    reinterpret_cast<const void*>(&jitser_binary_write_bool_list),
    reinterpret_cast<const void*>(&jitser_binary_write_map),
    reinterpret_cast<const void*>(&jitser_binary_read_bool_list),
    reinterpret_cast<const void*>(&jitser_binary_read_value),
    reinterpret_cast<const void*>(&jitser_binary_read_map),
};

// The kernel's functions by name, as compiled into the library: first-tier code calls them out
// of line rather than linking and inlining their bitcode (jit/compiler.cpp, docs/jit.md).
// clang-format off
JITSER_KERNEL_FUNCTIONS(binary,
    JITSER_KERNEL_FUNCTION(jitser_binary_begin_list),
    JITSER_KERNEL_FUNCTION(jitser_binary_finish),
    JITSER_KERNEL_FUNCTION(jitser_binary_get_bool),
    JITSER_KERNEL_FUNCTION(jitser_binary_get_bytes),
    JITSER_KERNEL_FUNCTION(jitser_binary_get_decimal),
    JITSER_KERNEL_FUNCTION(jitser_binary_get_double),
    JITSER_KERNEL_FUNCTION(jitser_binary_get_enum),
    JITSER_KERNEL_FUNCTION(jitser_binary_get_float),
    JITSER_KERNEL_FUNCTION(jitser_binary_get_frame),
    JITSER_KERNEL_FUNCTION(jitser_binary_get_int),
    JITSER_KERNEL_FUNCTION(jitser_binary_get_null),
    JITSER_KERNEL_FUNCTION(jitser_binary_get_shared),
    JITSER_KERNEL_FUNCTION(jitser_binary_get_string),
    JITSER_KERNEL_FUNCTION(jitser_binary_get_time),
    JITSER_KERNEL_FUNCTION(jitser_binary_get_uint),
    JITSER_KERNEL_FUNCTION(jitser_binary_open),
    JITSER_KERNEL_FUNCTION(jitser_binary_put_begin_list),
    JITSER_KERNEL_FUNCTION(jitser_binary_put_bool),
    JITSER_KERNEL_FUNCTION(jitser_binary_put_bytes),
    JITSER_KERNEL_FUNCTION(jitser_binary_put_decimal),
    JITSER_KERNEL_FUNCTION(jitser_binary_put_double),
    JITSER_KERNEL_FUNCTION(jitser_binary_put_end_list),
    JITSER_KERNEL_FUNCTION(jitser_binary_put_enum),
    JITSER_KERNEL_FUNCTION(jitser_binary_put_float),
    JITSER_KERNEL_FUNCTION(jitser_binary_put_frame),
    JITSER_KERNEL_FUNCTION(jitser_binary_put_int),
    JITSER_KERNEL_FUNCTION(jitser_binary_put_shared_ref),
    JITSER_KERNEL_FUNCTION(jitser_binary_put_string),
    JITSER_KERNEL_FUNCTION(jitser_binary_put_time),
    JITSER_KERNEL_FUNCTION(jitser_binary_put_uint));
// clang-format on

}  // extern "C"

}  // namespace jitser
