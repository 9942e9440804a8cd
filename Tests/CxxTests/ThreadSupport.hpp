// Threads in tests, with every wait bounded: a thread that fails or hangs
// fails its test with a message instead of stalling the run. Failures on
// worker threads are collected and reported by the test's own thread.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace sqlitebridge_test {

/// How long a test waits for another thread before it fails: far beyond what
/// any test needs, even under ThreadSanitizer on a loaded machine, and well
/// inside ctest's per-test TIMEOUT, so the message comes from here.
constexpr std::chrono::seconds kThreadWaitLimit{120};

/// Failures seen on worker threads, reported by the test's own thread: an
/// ASSERT on a worker would only leave the worker's function, and one failure
/// message per thread is easier to read than interleaved ones.
class Failures {
 public:
  void add(const std::string& message) {
    std::lock_guard<std::mutex> lock(mutex_);
    messages_.push_back(message);
  }
  /// All messages, one per line; empty when nothing failed.
  std::string text() const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string all;
    for (const std::string& message : messages_) all += message + "\n";
    return all;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> messages_;
};

/// A count that threads bring down to zero and others wait for (C++17 has no
/// std::latch); every wait is bounded.
class Latch {
 public:
  explicit Latch(int count) : remaining_(count) {}
  Latch(const Latch&) = delete;
  Latch& operator=(const Latch&) = delete;

  void countDown() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (--remaining_ <= 0) changed_.notify_all();
  }
  /// Waits until the count is zero; false when `limit` ran out first.
  bool waitFor(std::chrono::milliseconds limit = kThreadWaitLimit) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, limit, [&] { return remaining_ <= 0; });
  }
  /// Counts down and waits for the others (a start line); false when they
  /// did not all arrive within `limit`.
  bool arriveAndWait(std::chrono::milliseconds limit = kThreadWaitLimit) {
    countDown();
    return waitFor(limit);
  }
  bool isOpen() {
    std::lock_guard<std::mutex> lock(mutex_);
    return remaining_ <= 0;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int remaining_;
};

/// Ends the test process with a message on stderr: a thread did not finish
/// within the limit, so returning (and destroying what it uses) is not safe.
/// ctest reports the one test as failed, with the message.
[[noreturn]] inline void abortTest(const std::string& what) {
  std::fprintf(stderr, "FAILED: %s did not finish within %lld s; ending the test process\n", what.c_str(),
               static_cast<long long>(kThreadWaitLimit.count()));
  std::fflush(stderr);
  std::abort();
}

/// A thread that counts itself finished however its body ends, and whose
/// join is bounded (the destructor joins too).
class BoundedThread {
 public:
  /// Starts `body()` (any movable callable) on a new thread named `name` in
  /// failure messages.
  template <typename Body>
  BoundedThread(std::string name, Body body) : name_(std::move(name)), finished_(std::make_shared<Latch>(1)) {
    thread_ = std::thread([finished = finished_, body = std::move(body)]() mutable {
      struct CountDown {
        Latch& latch;
        ~CountDown() { latch.countDown(); }
      } countDown{*finished};
      body();
    });
  }
  BoundedThread(BoundedThread&&) = default;
  BoundedThread(const BoundedThread&) = delete;
  BoundedThread& operator=(const BoundedThread&) = delete;
  ~BoundedThread() { join(); }

  /// Waits for the body to return; ends the test process with a message when
  /// it has not within the limit.
  void join() {
    if (!thread_.joinable()) return;
    if (!finished_->waitFor()) abortTest(name_);
    thread_.join();
  }

 private:
  std::string name_;
  std::shared_ptr<Latch> finished_;
  std::thread thread_;
};

/// Runs `body(i)` on `count` threads and joins them all, each join bounded.
inline void runThreads(int count, const std::function<void(int)>& body) {
  std::vector<BoundedThread> threads;
  threads.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) threads.emplace_back("thread " + std::to_string(i), [&body, i] { body(i); });
  for (BoundedThread& thread : threads) thread.join();
}

}  // namespace sqlitebridge_test
