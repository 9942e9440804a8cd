// The threads of a DatabaseQueue or DatabasePool that run async blocks (the
// Swift facade's async read and write), so that waiting for a connection or
// for SQLite never blocks a caller's thread.
#include <new>
#include <stdexcept>

#include "ConnectionPool.hpp"
#include "SnapshotState.hpp"

namespace sqlitebridge {

namespace {

// Checked at every loop of a job's statement and as each statement ends: a
// cancel that lands between two statements (where sqlite3_interrupt would
// be forgotten) still stops the next one, however short (a statement of a
// few steps never reached a check every 256 steps, so a block running short
// statements after a cancel ran them all).
int stopWhenCancelled(void* job) noexcept {
  return static_cast<AsyncJob*>(job)->cancelled.load(std::memory_order_relaxed) ? 1 : 0;
}

constexpr int kProgressSteps = 1;

// The job whose block runs on this thread now, so that `finish` (called
// from the block) can stop the checks before ending the transaction: a
// cancelled job's ROLLBACK must not be stopped too.
thread_local AsyncJob* jobOnThisThread = nullptr;

}  // namespace

void ConnectionPool::endCancellationChecks(sqlite3* handle) noexcept {
  // `running` is written on this thread only (under the job's mutex, for
  // `cancel` on others).
  if (jobOnThisThread != nullptr && jobOnThisThread->running == handle) {
    sqlite3_progress_handler(handle, 0, nullptr, nullptr);
  }
}

void AsyncJob::cancel() noexcept {
  std::lock_guard<std::mutex> lock(mutex);
  cancelled.store(true);
  if (running != nullptr) sqlite3_interrupt(running);
  // The pool outlives a job that has not completed (its destructor waits
  // for the job threads), and `pool` is cleared under this lock before the
  // job completes.
  if (pool != nullptr) pool->wakeWaiters();
}

bool ConnectionPool::submit(const std::shared_ptr<AsyncJob>& job) noexcept {
  // A queue's reads share its one connection, so its writer's thread runs
  // them too; a pool's reads have threads of their own, one per reader.
  JobLine& line = job->kind == LeaseKind::Read && kind_ == Kind::Pool ? readJobs_ : writeJobs_;
  {
    std::lock_guard<std::mutex> lock(job->mutex);
    job->pool = this;
  }
  try {
    std::lock_guard<std::mutex> lock(jobsMutex_);
    if (stopping_) throw std::runtime_error("stopping");
    line.jobs.push_back(job);
    if (line.threads.size() < line.threadLimit && line.threads.size() < line.jobs.size() + line.busy) {
      line.threads.emplace_back([this, &line] { jobThread(&line); });
    }
  } catch (...) {
    std::lock_guard<std::mutex> lock(job->mutex);
    job->pool = nullptr;
    return false;
  }
  jobsAdded_.notify_all();
  return true;
}

void ConnectionPool::jobThread(JobLine* line) noexcept {
  std::unique_lock<std::mutex> lock(jobsMutex_);
  for (;;) {
    jobsAdded_.wait(lock, [&] { return stopping_ || !line->jobs.empty(); });
    if (line->jobs.empty()) return;  // stopping, nothing left
    std::shared_ptr<AsyncJob> job = std::move(line->jobs.front());
    line->jobs.pop_front();
    ++line->busy;
    const bool cancelAll = stopping_;
    lock.unlock();
    if (cancelAll) job->cancelled.store(true);
    runJob(*job);
    {
      std::lock_guard<std::mutex> jobLock(job->mutex);
      job->pool = nullptr;
    }
    if (job->complete != nullptr) job->complete(job->context);
    job.reset();
    lock.lock();
    --line->busy;
  }
}

void ConnectionPool::runJob(AsyncJob& job) noexcept {
  if (job.cancelled.load()) {
    job.run(job.context, nullptr);
    return;
  }
  ConnectionLease lease;
  const bool acquired = job.snapshot ? job.snapshot->acquire(lease, &job) : acquire(job.kind, lease, &job);
  if (!acquired) {
    // Cancelled while waiting for a connection: nothing was touched.
    job.run(job.context, job.cancelled.load() ? nullptr : &lease);
    return;
  }
  sqlite3* handle = lease.database->handle();
  {
    std::lock_guard<std::mutex> lock(job.mutex);
    job.running = handle;
  }
  if (job.cancelled.load()) {
    // Cancelled while waiting for the connection: the block never runs.
    {
      std::lock_guard<std::mutex> lock(job.mutex);
      job.running = nullptr;
    }
    release(lease);
    job.run(job.context, nullptr);
    return;
  }
  sqlite3_progress_handler(handle, kProgressSteps, stopWhenCancelled, &job);
  jobOnThisThread = &job;
  job.run(job.context, &lease);
  jobOnThisThread = nullptr;
  sqlite3_progress_handler(handle, 0, nullptr, nullptr);
  {
    std::lock_guard<std::mutex> lock(job.mutex);
    job.running = nullptr;
  }
  release(lease);
}

}  // namespace sqlitebridge
