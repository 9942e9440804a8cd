// The state behind a DatabaseQueue or a DatabasePool: its connections, the
// writer lock, the reader slots, the leases that lend them to blocks, and the
// threads that run the Swift facade's async blocks. Internal.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "sqlitebridge/CheckpointMode.hpp"
#include "sqlitebridge/Configuration.hpp"
#include "sqlitebridge/ConnectionLease.hpp"
#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

class ObservationBroker;
class SnapshotState;

/// A block submitted to run on one of the pool's own threads (the Swift
/// facade's async read and write). `run(context, lease)` is called once: with
/// the acquired lease (its `database` null when acquiring failed, the reason
/// in `error`), or with null when the job was cancelled before it started (it
/// then never touches the database). The pool gives the connection back
/// after `run` returns, then calls `complete(context)`, the job's last use of
/// `context`, so that the caller may free it as soon as that is called.
struct AsyncJob {
  using Run = void (*)(void* context, ConnectionLease* lease);
  using Complete = void (*)(void* context);
  LeaseKind kind = LeaseKind::Read;
  Run run = nullptr;
  Complete complete = nullptr;
  void* context = nullptr;
  /// Read without the lock by the progress handler while a statement runs.
  std::atomic<bool> cancelled{false};
  std::mutex mutex;
  /// The connection the job's block runs on, while it runs (under `mutex`).
  sqlite3* running = nullptr;
  /// The pool the job waits in, from `submit` until it completes (under
  /// `mutex`): `cancel` wakes its waits for a connection.
  ConnectionPool* pool = nullptr;
  /// For a read on a snapshot: the snapshot (its reader opens it).
  std::shared_ptr<SnapshotState> snapshot;

  /// Marks the job cancelled and interrupts its running statement, if any:
  /// a job not started yet never starts.
  void cancel() noexcept;
};

/// An error of `code` (primary and extended) saying `message`; the message
/// is left empty when memory runs out.
Error poolError(int code, const std::string& message) noexcept;

class ConnectionPool {
 public:
  /// `pool`'s open error, for `DatabaseQueue::openError` and
  /// `DatabasePool::openError`: SQLITE_NOMEM when there is no pool (out of
  /// memory at construction, or moved from: `what` names the owner).
  static Error openErrorOf(const ConnectionPool* pool, const char* what) noexcept;
  /// A queue over one connection opened already (`writer` may have failed:
  /// the queue then reports its error).
  static std::unique_ptr<ConnectionPool> queue(Database writer, int externalCheckMilliseconds = 0) noexcept;
  /// A pool over the file at `path`, switched to WAL (see `DatabasePool`).
  static std::unique_ptr<ConnectionPool> pool(const std::string& path, const Configuration& configuration) noexcept;
  ConnectionPool(const ConnectionPool&) = delete;
  ConnectionPool& operator=(const ConnectionPool&) = delete;
  /// Stops the job threads (cancelling jobs not started), then closes the
  /// connections.
  ~ConnectionPool();

  bool isOpen() const noexcept { return !openError_.isError(); }
  /// Whether this is a queue's (one connection) rather than a pool's.
  bool isQueue() const noexcept { return kind_ == Kind::Queue; }
  const Error& openError() const noexcept { return openError_; }

  /// Lends a connection for a block of `kind` (see `detail::acquireLease`).
  /// `job`, for an async job's block, stops the wait for a connection when
  /// the job is cancelled (false, nothing touched).
  /// `snapshot`, for a read (by `SnapshotState::acquire` only), opens the
  /// reader's transaction on that snapshot; the lease's `release` then
  /// tells the snapshot the read is over.
  bool acquire(LeaseKind kind, ConnectionLease& lease, const AsyncJob* job = nullptr,
               SnapshotState* snapshot = nullptr) noexcept;
  /// Wakes every wait for a connection, so that a cancelled job's wait ends.
  void wakeWaiters() noexcept;
  bool finish(ConnectionLease& lease, bool commit, bool rollBackAfterFailedStatement) noexcept;
  void release(ConnectionLease& lease) noexcept;
  bool checkpoint(CheckpointMode mode, Error* error) noexcept;
  void interrupt() noexcept;

  /// Queues `job` for one of the pool's threads (started on first use): the
  /// writer's thread for writes (and every job of a queue), the readers'
  /// threads for a pool's reads. False when out of memory (`job` not run).
  bool submit(const std::shared_ptr<AsyncJob>& job) noexcept;

  /// The broker of this queue's (pool's) observations, made on first use:
  /// registered on the writer (waiting for a running write), its
  /// external-change thread started. Null, with the reason in `error`, when
  /// the queue did not open, out of memory, or called from inside one of
  /// its blocks (SQLITE_MISUSE, reentrant access).
  std::shared_ptr<ObservationBroker> observationBroker(Error& error) noexcept;

  /// A snapshot of the database as it is now (see
  /// `DatabasePool::makeSnapshot`): a reader connection of its own pins it
  /// in a read transaction opened on it. False with the reason in `error`.
  bool makeSnapshot(std::shared_ptr<SnapshotState>& out, Error& error) noexcept;

  /// For a pool: a read-only connection of its own to the pool's file,
  /// opened as a reader is but never lent to a block, for the observations'
  /// external-change checks (`PRAGMA data_version` counts per connection,
  /// so it must always be read on the same one). Null for a queue (whose
  /// one connection is polled) and when the pool did not open; null with
  /// the reason in `error` when opening failed.
  std::unique_ptr<Database> openChangeWatcher(Error& error) noexcept;
  /// For tests: how many external-change checks the observations' thread
  /// finished (0 before the first observation, or without an interval).
  std::uint64_t externalCheckCount() noexcept;
  /// The observations' snapshot fetches and fallbacks (see ObservationBroker).
  std::uint64_t observationSnapshotFetchCount() noexcept;
  std::uint64_t observationSnapshotFallbackCount() noexcept;
  /// For tests: waits at most `milliseconds` until no observation of the
  /// pool has a fetch scheduled or running; false when the time ran out.
  bool waitUntilObservationsIdle(std::int64_t milliseconds) noexcept;

  /// For tests: the next `count` transaction begins answer `code` (as SQLite
  /// can under contention, without calling the busy handler) before trying.
  void injectTransientFailures(int count, int code) noexcept;
  /// Blocks waiting for a connection now (for tests that must know a job
  /// waits before they cancel it).
  int waitingCount() const noexcept { return waiting_.load(); }
  /// Transient answers absorbed by a retry so far.
  std::int64_t transientRetryCount() const noexcept { return transientRetries_.load(); }

 private:
  enum class Kind { Queue, Pool };
  struct Reader {
    std::unique_ptr<Database> database;
    bool busy = false;
  };
  struct JobLine {
    std::deque<std::shared_ptr<AsyncJob>> jobs;
    std::vector<std::thread> threads;
    std::size_t threadLimit = 1;
    /// Threads running a job now.
    std::size_t busy = 0;
  };

  ConnectionPool(Kind kind, Configuration configuration) noexcept;
  bool openPool(const std::string& path) noexcept;
  /// A new reader connection (not open when it failed: see `lastError()`).
  Database openReaderConnection() const;
  Database* lendReader(int& slot, Error& error, const AsyncJob* job = nullptr) noexcept;
  void returnReader(int slot) noexcept;
  bool beginTransaction(Database& database, LeaseKind kind, Error& error,
                        sqlite3_snapshot* snapshot = nullptr) noexcept;
  /// BEGIN (IMMEDIATE for a write; DEFERRED and a first read, which takes
  /// the snapshot, for a read; then `snapshot`, when given, opened),
  /// absorbing transient answers.
  bool beginTransactionRetrying(Database& database, LeaseKind kind, Error& error,
                                sqlite3_snapshot* snapshot = nullptr) noexcept;
  /// Opens `pin`'s read transaction on the database as it is now, pinned
  /// there (see `makeSnapshot`); the snapshot in `out`. `walEmpty` tells
  /// that SQLite could not record a snapshot of an empty write-ahead log.
  bool pinSnapshot(Database& pin, sqlite3_snapshot*& out, bool& walEmpty, Error& error) noexcept;
  /// Commits a write that changes nothing, so that the write-ahead log
  /// holds a transaction (SQLite records no snapshot of an empty one).
  bool fillEmptyWal(Error& error) noexcept;
  /// Closes every snapshot still alive (waiting for their running reads).
  void closeSnapshots() noexcept;
  bool endOpenTransaction(Database& database) noexcept;
  /// When `handle` runs the block of this thread's async job, stops its
  /// cancellation checks (the block is over once `finish` runs).
  static void endCancellationChecks(sqlite3* handle) noexcept;
  bool isHeldByThisThread() const noexcept;
  void jobThread(JobLine* line) noexcept;
  void runJob(AsyncJob& job) noexcept;

  const Kind kind_;
  const Configuration configuration_;
  std::string path_;
  Error openError_;
  /// The writer (the queue's only connection); closed in a read-only pool.
  std::optional<Database> writer_;
  /// The writer lock: `writerBusy_` under `writerMutex_`, waited for on
  /// `writerFreed_` (a condition, not a plain mutex, so that a cancelled
  /// job's wait can end).
  std::mutex writerMutex_;
  std::condition_variable writerFreed_;
  bool writerBusy_ = false;
  std::mutex readersMutex_;
  std::condition_variable readerFreed_;
  std::vector<Reader> readers_;
  std::atomic<int> injectedFailures_{0};
  std::atomic<int> injectedCode_{0};
  std::atomic<std::int64_t> transientRetries_{0};
  std::atomic<int> waiting_{0};
  std::mutex jobsMutex_;
  std::condition_variable jobsAdded_;
  bool stopping_ = false;
  JobLine writeJobs_;
  JobLine readJobs_;
  int externalCheckMilliseconds_ = 0;
  std::mutex snapshotsMutex_;
  std::vector<std::weak_ptr<SnapshotState>> snapshots_;
  std::mutex brokerMutex_;
  std::shared_ptr<ObservationBroker> broker_;
};

}  // namespace sqlitebridge
