// The binary format's kernel: the writing rules of wire.h as the functions compiled code calls,
// compiled into the library and to LLVM bitcode the JIT links into binary codecs
// (jitser_format_kernel in CMakeLists.txt), so that the calls inline and each rule is written
// once, in wire.h, for both tiers. Reading is still emitted as IR (jit/plan_to_ir.cpp): the
// kernel's readers measured slower there, and move here with the one emitter (issue 12).
#include "formats/binary/binary_helpers.h"
#include "formats/binary/wire.h"
#include "formats/time_ticks.h"

namespace jitser {

extern "C" {

std::uint8_t* jitser_binary_put_varuint(std::uint8_t* out, std::uint64_t v) {
  return wire::put_varuint(out, v);
}

std::uint8_t* jitser_binary_put_compact(std::uint8_t* out, std::int64_t v) {
  return wire::put_int64_compact(out, v);
}

std::uint8_t* jitser_binary_put_time(std::uint8_t* out, std::int64_t ticks, std::uint32_t unit) {
  std::int64_t seconds;
  std::uint64_t nanos;
  split_ticks(ticks, static_cast<TimeUnit>(unit), seconds, nanos);
  return wire::put_varuint(wire::put_varuint(out, wire::zigzag(seconds)), nanos);
}

std::uint8_t* jitser_binary_put_frame(std::uint8_t* out, std::uint64_t fingerprint,
                                      bool with_fingerprint) {
  return wire::put_frame(out, fingerprint, with_fingerprint);
}

}  // extern "C"

}  // namespace jitser
