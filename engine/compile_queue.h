// CompileQueue: the Engine's own small pool of compile threads. LLVM's NumCompileThreads does
// not bound how many compilations run at once, so jitser queues its jobs here instead; at most
// `threads` run together, and the threads start with the first job.
//
// A process forked from this one has none of the workers (jit/fork_gate.h). A worker takes the
// queue's lock only inside the fork gate, so the child finds the lock free, and waits for work
// on a semaphore, which no thread owns. The gate also means no job was running at the fork:
// the child's queue holds every job the parent's had not started, starts workers of its own
// for them with its next job, and does not wait for the parent's when it is destroyed.
#pragma once

#include <sys/types.h>
#include <unistd.h>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <semaphore>
#include <thread>

#include "jit/fork_gate.h"

namespace jitser::detail {

class CompileQueue {
 public:
  explicit CompileQueue(std::uint32_t threads) : max_threads_(threads ? threads : 1) {}
  /// Drops jobs that have not started and waits for those running.
  ~CompileQueue() {
    std::unique_lock lock(mutex_);
    adopt_after_fork();
    stopping_ = true;
    jobs_.clear();
    ready_->release(workers_);
    ended_.wait(lock, [this] { return workers_ == 0; });
  }
  CompileQueue(const CompileQueue&) = delete;
  CompileQueue& operator=(const CompileQueue&) = delete;

  void push(std::function<void()> job) {
    std::lock_guard lock(mutex_);
    adopt_after_fork();
    jobs_.push_back(std::move(job));
    if (workers_ < max_threads_ && workers_ < running_ + jobs_.size()) {
      // Detached: a forked child, which has none of the threads, must not join them.
      std::thread([this] { work(); }).detach();
      ++workers_;
    }
    ready_->release();
  }

 private:
  using Semaphore = std::counting_semaphore<>;

  // With mutex_ held: in a process forked from the queue's, forgets the workers, which are not
  // in it, and counts its jobs afresh.
  void adopt_after_fork() {
    const pid_t process = ::getpid();
    if (process == process_) return;
    process_ = process;
    workers_ = 0;
    running_ = 0;
    ready_ = std::make_unique<Semaphore>(static_cast<std::ptrdiff_t>(jobs_.size()));
  }

  void work() {
    Semaphore& ready = *ready_;
    for (;;) {
      ready.acquire();
      const jit::ForkGuard guard;
      std::function<void()> job;
      {
        std::lock_guard lock(mutex_);
        if (stopping_) {
          --workers_;
          ended_.notify_all();
          return;
        }
        job = std::move(jobs_.front());
        jobs_.pop_front();
        ++running_;
      }
      job();
      std::lock_guard lock(mutex_);
      --running_;
    }
  }

  const std::uint32_t max_threads_;
  std::mutex mutex_;
  std::condition_variable ended_;
  std::unique_ptr<Semaphore> ready_ = std::make_unique<Semaphore>(0);  // a job, or the end
  std::deque<std::function<void()>> jobs_;
  std::uint32_t workers_ = 0;  // started and not ended
  std::uint32_t running_ = 0;  // running a job
  pid_t process_ = ::getpid();
  bool stopping_ = false;
};

}  // namespace jitser::detail
