// Instructions that some hosts have and others lack or run slowly, for kernels to use in the
// code compiled into codecs. A kernel's bitcode (JITSER_KERNEL_BITCODE) is compiled for no
// particular x86-64, and the JIT compiles it for the host, so these are declared here and
// defined by the JIT in each module it optimizes, from the host it compiles for
// (jit/host_bits.h): the flag as a constant, which folds the kernel's choice away, and the
// instruction only where the flag holds. The library's own build of a kernel, which the
// interpreter and first-tier code call, keeps to portable code.
#pragma once

#include <cstdint>

#if defined(JITSER_KERNEL_BITCODE)
extern "C" {
/// Whether the host has BMI2's pext and runs it in a cycle or so (not in microcode, as AMD's
/// cores before Zen 3 do).
extern const bool jitser_host_fast_pext;
/// The bits of `v` that `mask` selects, packed into the low bits: pext. Call it only where
/// jitser_host_fast_pext holds.
std::uint64_t jitser_host_pext(std::uint64_t v, std::uint64_t mask);
}
#endif
