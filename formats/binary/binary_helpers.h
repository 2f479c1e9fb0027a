// The binary format's helpers for compiled code, by name and address (formats/compiled_abi.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "formats/compiled_abi.h"

namespace jitser {

std::span<const HelperSymbol> binary_helpers();

extern "C" {
// The kernel's functions (binary_kernel.cpp), compiled into the library and to the bitcode the
// JIT inlines: the puts of the kernel contract (formats/compiled_abi.h).
std::uint8_t* jitser_binary_put_frame(std::uint8_t* out, std::uint64_t fingerprint,
                                      bool with_fingerprint);
std::uint8_t* jitser_binary_put_bool(std::uint8_t* out, std::uint8_t v);
std::uint8_t* jitser_binary_put_int(std::uint8_t* out, std::int64_t v, std::uint32_t width,
                                    std::uint32_t enc);
std::uint8_t* jitser_binary_put_uint(std::uint8_t* out, std::uint64_t v, std::uint32_t width,
                                     std::uint32_t enc);
std::uint8_t* jitser_binary_put_float(std::uint8_t* out, float v);
std::uint8_t* jitser_binary_put_double(std::uint8_t* out, double v);
std::uint8_t* jitser_binary_put_string(std::uint8_t* out, const char* data, std::size_t n);
std::uint8_t* jitser_binary_put_bytes(std::uint8_t* out, const std::uint8_t* data, std::size_t n);
std::uint8_t* jitser_binary_put_enum(std::uint8_t* out, std::int64_t v);
std::uint8_t* jitser_binary_put_decimal(std::uint8_t* out, const Decimal* d);
std::uint8_t* jitser_binary_put_time(std::uint8_t* out, std::int64_t ticks, std::uint32_t unit,
                                     std::uint32_t duration);
std::uint8_t* jitser_binary_put_begin_list(std::uint8_t* out, std::uint64_t n, std::uint32_t op,
                                           std::uint32_t enc);
std::uint8_t* jitser_binary_put_end_list(std::uint8_t* out, std::uint64_t n, std::uint32_t op);
std::uint8_t* jitser_binary_put_shared_ref(std::uint8_t* out, std::uint32_t id);
}

}  // namespace jitser
