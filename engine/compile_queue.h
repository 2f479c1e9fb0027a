// CompileQueue: the Engine's own small pool of compile threads. LLVM's NumCompileThreads does
// not bound how many compilations run at once, so jitser queues its jobs here instead; at most
// `threads` run together, and the threads start with the first job.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace jitser::detail {

class CompileQueue {
 public:
  explicit CompileQueue(std::uint32_t threads) : max_threads_(threads ? threads : 1) {}
  /// Drops jobs that have not started and waits for those running.
  ~CompileQueue() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
      jobs_.clear();
    }
    wake_.notify_all();
    for (std::thread& t : threads_) t.join();
  }
  CompileQueue(const CompileQueue&) = delete;
  CompileQueue& operator=(const CompileQueue&) = delete;

  void push(std::function<void()> job) {
    {
      std::lock_guard lock(mutex_);
      jobs_.push_back(std::move(job));
      if (threads_.size() < max_threads_ && idle_ == 0) threads_.emplace_back([this] { work(); });
    }
    wake_.notify_one();
  }

 private:
  void work() {
    std::unique_lock lock(mutex_);
    for (;;) {
      ++idle_;
      wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      --idle_;
      if (stopping_) return;
      std::function<void()> job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      job();
      lock.lock();
    }
  }

  const std::uint32_t max_threads_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;
  std::vector<std::thread> threads_;
  std::uint32_t idle_ = 0;
  bool stopping_ = false;
};

}  // namespace jitser::detail
