// For each kernel's table of the functions compiled code calls that the kernel does not define
// (jitser_<format>_calls): taking their addresses makes the kernel's bitcode declare each with
// its C++ type, and the JIT refuses compiled code that declares one with another
// (jit/compiler.cpp, link_kernel). Nothing uses such a table, so linking leaves it out of
// compiled code.
#pragma once

#include "formats/compiled_abi.h"

/// The runtime helpers (formats/compiled_abi.h), first in every kernel's table.
#define JITSER_RUNTIME_CALLS                                    \
  reinterpret_cast<const void*>(&jitser_rt_grow),               \
      reinterpret_cast<const void*>(&jitser_rt_shared_id),      \
      reinterpret_cast<const void*>(&jitser_rt_open_shared),    \
      reinterpret_cast<const void*>(&jitser_rt_close_shared),   \
      reinterpret_cast<const void*>(&jitser_rt_assign_text),    \
      reinterpret_cast<const void*>(&jitser_rt_assign_bytes),   \
      reinterpret_cast<const void*>(&jitser_rt_omit),           \
      reinterpret_cast<const void*>(&jitser_rt_shared_earlier), \
      reinterpret_cast<const void*>(&jitser_rt_shared_new),     \
      reinterpret_cast<const void*>(&jitser_rt_missing),        \
      reinterpret_cast<const void*>(&jitser_rt_absent),         \
      reinterpret_cast<const void*>(&jitser_rt_decline),        \
      reinterpret_cast<const void*>(&jitser_rt_absent_value),   \
      reinterpret_cast<const void*>(&jitser_rt_oneofs)

/// A kernel's table of its own functions by name, jitser_<format>_kernel_functions and its
/// count, which first-tier code calls out of line; each entry is JITSER_KERNEL_FUNCTION(f).
// clang-format off
#define JITSER_KERNEL_FUNCTION(f) HelperSymbol{#f, reinterpret_cast<void*>(&f)}
#define JITSER_KERNEL_FUNCTIONS(format, ...)                                  \
  extern const HelperSymbol jitser_##format##_kernel_functions[];             \
  extern const std::size_t jitser_##format##_kernel_function_count;           \
  const HelperSymbol jitser_##format##_kernel_functions[] = {__VA_ARGS__};    \
  const std::size_t jitser_##format##_kernel_function_count =                 \
      std::size(jitser_##format##_kernel_functions)
// clang-format on
