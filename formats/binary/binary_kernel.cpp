// The binary format's kernel: its writing rules (wire.h) as the functions of the kernel contract
// (formats/compiled_abi.h) that compiled code calls, compiled into the library and to LLVM
// bitcode the JIT links into binary codecs (jitser_format_kernel in CMakeLists.txt), so that
// the calls inline with their operands constant. Reading is still emitted as IR
// (jit/plan_to_ir.cpp) until the one emitter reads too (issue 12).
#include <cstring>

#include "formats/binary/binary_helpers.h"
#include "formats/binary/wire.h"
#include "formats/plan.h"
#include "formats/time_ticks.h"

namespace jitser {

extern "C" {

std::uint8_t* jitser_binary_put_frame(std::uint8_t* out, std::uint64_t fingerprint,
                                      bool with_fingerprint) {
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

std::uint8_t* jitser_binary_put_float(std::uint8_t* out, float v) {
  std::memcpy(out, &v, 4);
  return out + 4;
}

std::uint8_t* jitser_binary_put_double(std::uint8_t* out, double v) {
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
                                     std::uint32_t) {
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

}  // namespace jitser
