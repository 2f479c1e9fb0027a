// Plan to LLVM IR: one function per routine, every operand a constant.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "formats/plan.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace jitser::jit {

/// The exported name of a Plan's entry function: "jitser.serialize.<format>.MediaContent".
std::string entry_name(const Plan& plan);

/// An address of this process that compiled code refers to by the symbol `name`:
/// `<entry>.host.<i>` for the i-th of the Plan's host_candidates (jit/code_identity.h), else
/// a name with kUncachedHost in it.
struct HostAddress {
  std::string name;
  const void* address;
};
inline constexpr const char* kUncachedHost = ".host.uncached.";

/// Emits the Plan's routines into `module`; the root routine is exported as `entry`
/// (entry_name(plan), with a suffix for first-tier code).
/// The IR follows the contract in formats/compiled_abi.h: helpers are declared by name, and
/// the type descriptors, ops tables and fields it refers to are external symbols, returned
/// with the addresses the JIT binds them to.
std::vector<HostAddress> emit_plan(const Plan& plan, const RunOptions& options,
                                   llvm::Module& module, const std::string& entry);

}  // namespace jitser::jit
