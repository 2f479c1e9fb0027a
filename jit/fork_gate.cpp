#include "jit/fork_gate.h"

#include <pthread.h>

#include <mutex>

namespace jitser::jit {
namespace {

pthread_rwlock_t gate = PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;
// How many guards this thread holds: only the outermost takes the gate, since a second read
// lock asked for while a fork waits would wait for the fork, which waits for the first.
thread_local unsigned guards_held = 0;

void close_gate() { pthread_rwlock_wrlock(&gate); }
void open_gate_in_parent() { pthread_rwlock_unlock(&gate); }
// Made anew rather than unlocked: glibc knows a rwlock's writer by thread ID, and the child's
// one thread has an ID of its own, so its unlock would be taken for a reader's.
void open_gate_in_child() { gate = PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP; }

}  // namespace

ForkGuard::ForkGuard() {
  static std::once_flag registered;
  std::call_once(registered,
                 [] { pthread_atfork(close_gate, open_gate_in_parent, open_gate_in_child); });
  if (guards_held++ == 0) pthread_rwlock_rdlock(&gate);
}

ForkGuard::~ForkGuard() {
  if (--guards_held == 0) pthread_rwlock_unlock(&gate);
}

}  // namespace jitser::jit
