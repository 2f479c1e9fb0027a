// What decides the code the emitter makes of a Plan, as the code cache (jit/code_cache.h) keys
// and binds it. Kept beside the emitter: whatever the emitter comes to read of a Plan, its run
// options or the types it points into must be part of code_identity, or the cache would hand
// one codec another's code.
#pragma once

#include <string>
#include <vector>

#include "formats/plan.h"

namespace jitser::jit {

/// Everything the emitter reads to make a Plan's code, as text: the Plan's instructions,
/// fields and traits, the shape of every type it points into (kinds, sizes, enum values, which
/// operations its tables have), which host candidates share an address, and the run options.
/// Two Plans with one identity get the same code.
std::string code_identity(const Plan& plan, const RunOptions& options);

/// The addresses of this process that a Plan's code may refer to, in an order fixed by the
/// Plan: its routines' and instructions' types, their operation tables and operations, its
/// instructions and its fields' descriptors. Compiled code names the i-th as its host symbol
/// i, so code made in another process binds to the same things here.
std::vector<const void*> host_candidates(const Plan& plan);

}  // namespace jitser::jit
