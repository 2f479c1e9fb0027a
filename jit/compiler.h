// The JIT compiler: Plans to machine code through LLVM 19's ORC LLJIT. No LLVM header leaks out
// of jit/; the engine sees only this.
//
// One Compiler per Engine owns one LLJIT and every function it compiled; destroying it frees
// that code. compile() may be called from several threads at once: each call builds one module
// per direction (the deserializer's on a thread of its own), each in its own LLVMContext and
// TargetMachine, and only linking goes through the shared LLJIT. Every function here holds the
// fork gate (jit/fork_gate.h) while it runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <jitser/status.h>

#include "formats/plan.h"
#include "jit/runtime.h"

namespace jitser::jit {

/// The code a compile makes (docs/jit.md, "Tiers"): first-tier code, generated as fast as LLVM
/// can, that calls the format's kernel as compiled into the library; or optimized code, with
/// the kernel's bitcode linked in and inlined.
enum class CodeTier : std::uint8_t { First, Optimized };

/// Both directions of one codec in machine code.
struct CompiledCodec {
  WriteFn serialize = nullptr;
  ReadFn deserialize = nullptr;
  std::size_t code_bytes = 0;  // machine code of both directions, in bytes
  /// What the code cache did, for the statistics: "" without a cache, else per direction
  /// "hit", or why not and whether the compiled code was stored.
  std::string cache;
};

struct CompilerOptions {
  /// Write a perf jitdump (and a perf map) so `perf report` names the compiled functions.
  bool perf = false;
  /// Register compiled objects with gdb's JIT interface so backtraces name them.
  bool debugger = false;
  /// The persistent code cache's directory (jit/code_cache.h), or "" for none, and its bound.
  std::string cache_dir;
  std::uint64_t cache_max_bytes = 0;
};

class Compiler {
 public:
  /// Sets up the LLJIT; fails (with LLVM's reason) when the host target is unavailable.
  static Result<std::unique_ptr<Compiler>> create(const CompilerOptions& options);
  struct Impl;
  explicit Compiler(std::unique_ptr<Impl> impl);  // through create()
  ~Compiler();
  Compiler(const Compiler&) = delete;
  Compiler& operator=(const Compiler&) = delete;

  /// Compiles and links one codec's code of a tier. Any LLVM failure comes back as a Status
  /// (Errc::jit_failed).
  /// With `reject`, the module handed to LLVM is made invalid, to rehearse that failure.
  Result<CompiledCodec> compile(const Plan& serialize, const Plan& deserialize,
                                const RunOptions& options, CodeTier tier, bool reject = false);

 private:
  std::unique_ptr<Impl> impl_;
};

/// The IR the JIT builds for a Plan, before or after its optimization pipeline.
Result<std::string> plan_ir(const Plan& plan, const RunOptions& options, bool optimized);
/// The host assembly LLVM generates for that IR, with the JIT's target machine.
Result<std::string> plan_asm(const Plan& plan, const RunOptions& options);

}  // namespace jitser::jit
