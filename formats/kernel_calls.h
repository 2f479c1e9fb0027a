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
      reinterpret_cast<const void*>(&jitser_rt_omit),           \
      reinterpret_cast<const void*>(&jitser_rt_shared_earlier), \
      reinterpret_cast<const void*>(&jitser_rt_shared_new),     \
      reinterpret_cast<const void*>(&jitser_rt_missing),        \
      reinterpret_cast<const void*>(&jitser_rt_oneofs)
