// Plan to LLVM IR: one function per routine, every operand a constant.
#pragma once

#include <memory>
#include <string>

#include "formats/plan.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace jitser::jit {

/// The exported name of a Plan's entry function, e.g. "jitser.serialize.binary.MediaContent".
std::string entry_name(const Plan& plan);

/// Emits the Plan's routines into `module`; the root routine is exported as entry_name(plan).
/// The IR follows the contract in jit/runtime.h: helpers are declared by name, ops tables and
/// type descriptors are absolute addresses of this process.
void emit_plan(const Plan& plan, const RunOptions& options, llvm::Module& module);

}  // namespace jitser::jit
