// The binary format's helpers for compiled code, by name and address (formats/compiled_abi.h).
#pragma once

#include <cstdint>
#include <span>

#include "formats/compiled_abi.h"

namespace jitser {

std::span<const HelperSymbol> binary_helpers();

extern "C" {
// The kernel's functions (binary_kernel.cpp), compiled into the library and to the bitcode the
// JIT inlines. Each writes at `out` into room the caller made and returns the end.
std::uint8_t* jitser_binary_put_varuint(std::uint8_t* out, std::uint64_t v);
std::uint8_t* jitser_binary_put_compact(std::uint8_t* out, std::int64_t v);
std::uint8_t* jitser_binary_put_time(std::uint8_t* out, std::int64_t ticks, std::uint32_t unit);
std::uint8_t* jitser_binary_put_frame(std::uint8_t* out, std::uint64_t fingerprint,
                                      bool with_fingerprint);
}

}  // namespace jitser
