// The fork gate: a process forked while one of jitser's threads is compiling inherits the
// compile's state as that thread left it. A lock it held, or a function-local static it was
// initializing inside LLVM (as the first optimizing compile initializes TargetLibraryInfo's
// table of library functions), stays taken in the child, where no thread will release it, and
// the child's first compile waits forever. So the compile jobs, and every call into LLVM, hold
// the gate for their length, and fork() waits at the gate until those under way are done: the
// child starts with no compile half made and none of jitser's locks held by a thread it lacks.
//
// The gate is one per process, as fork() is. It prefers the fork: compiles that would start
// while a fork waits wait behind it, or a fork could wait for compile_all to run dry.
#pragma once

namespace jitser::jit {

/// Held for the length of a compile job or a call into LLVM; fork() waits while any thread holds
/// one. A thread may hold several, nested. It takes the gate before any lock of jitser's and
/// never waits for it with one held, so a waiting fork cannot close the gate on a thread that
/// a compile under way waits for.
class ForkGuard {
 public:
  ForkGuard();
  ~ForkGuard();
  ForkGuard(const ForkGuard&) = delete;
  ForkGuard& operator=(const ForkGuard&) = delete;
};

}  // namespace jitser::jit
