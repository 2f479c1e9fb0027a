// The JIT's side of formats/host_bits.h: what a kernel's bitcode may ask of the host, defined in
// each module the JIT optimizes from the machine it compiles for.
#pragma once

namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace jitser::jit {

/// Whether `machine`'s CPU has pext and runs it fast: BMI2, on a core other than AMD's before
/// Zen 3, which run it in microcode.
bool has_fast_pext(const llvm::TargetMachine& machine);

/// Defines in `module` what its linked kernel declares of formats/host_bits.h: the flags as
/// constants, which the pipeline folds, and the instructions as one-instruction functions
/// inlined where the host has them fast. An instruction the host lacks stays undefined, and
/// the flag that guards it is false.
void define_host_bits(llvm::Module& module, const llvm::TargetMachine& machine);

}  // namespace jitser::jit
