// The observations of one DatabaseQueue or DatabasePool: each value or
// region observation (detail::Observation), and the broker, the one
// transaction observer on the writer that tells them of commits (and, with
// an external-change interval, of other processes' commits). Internal.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "sqlitebridge/Observation.hpp"
#include "sqlitebridge/SQLiteHeader.hpp"
#include "sqlitebridge/TransactionObserver.hpp"

namespace sqlitebridge {

class ConnectionPool;
struct AsyncJob;
class ObservationBroker;

namespace detail {

/// The database as one commit left it: an `sqlite3_snapshot` taken on the
/// pool's writer right after the commit (when the engine has the snapshot
/// API), shared by the fetches that commit schedules and freed with the
/// last of them. Nothing pins it: a checkpoint that copies past it and a
/// restart of the write-ahead log make opening it fail, and the fetch then
/// reads the database as it is (later, so it still sees the commit).
class CommitSnapshot {
 public:
  CommitSnapshot(sqlite3_snapshot* snapshot, std::uint64_t ticket) noexcept : snapshot_(snapshot), ticket_(ticket) {}
  CommitSnapshot(const CommitSnapshot&) = delete;
  CommitSnapshot& operator=(const CommitSnapshot&) = delete;
  ~CommitSnapshot();

  /// A snapshot of `writer` as it is now, between transactions (BEGIN, a
  /// read, `sqlite3_snapshot_get`, COMMIT); null when the engine has no
  /// snapshot API or SQLite could not record one (nothing reported).
  static std::shared_ptr<CommitSnapshot> take(Database& writer) noexcept;
  /// Moves `reader`'s open read transaction back to this snapshot; false
  /// when SQLite refused (SQLITE_ERROR_SNAPSHOT after a checkpoint went past
  /// it, or anything else): the reader is then in a read transaction on the
  /// database as it is.
  bool openOn(Database& reader) const noexcept;
  /// Orders commit notifications (see `Observation::valueChanged`).
  std::uint64_t ticket() const noexcept { return ticket_; }

 private:
  sqlite3_snapshot* const snapshot_;
  const std::uint64_t ticket_;
};

/// A number greater than every one drawn before (process-wide).
std::uint64_t nextCommitTicket() noexcept;

/// One observation. Its state is under `mutex_`; its callbacks run one at a
/// time under `callbackMutex_`, so that `cancel` can wait for a running one.
class Observation : public std::enable_shared_from_this<Observation> {
 public:
  Observation(ConnectionPool* pool, std::shared_ptr<ValueObserver> value, std::shared_ptr<RegionObserver> region,
              DatabaseRegion observed) noexcept;
  Observation(const Observation&) = delete;
  Observation& operator=(const Observation&) = delete;

  /// Joins `broker` and, for a value, runs the first fetch.
  void start(const std::shared_ptr<ObservationBroker>& broker) noexcept;
  /// A commit (on the writer, `db`) changed `changed`.
  void committed(const DatabaseRegion& changed, Database& db) noexcept;
  /// For a value observation: a commit changed `changed` (a fetch follows;
  /// no connection is needed). Does nothing for a region observation.
  /// `snapshot`, when not null, is the database as that commit left it: the
  /// next fetch reads it unless a later notification came first (a later
  /// snapshot, or one without a snapshot, after which fetches read the
  /// database as it is).
  void valueChanged(const DatabaseRegion& changed, std::shared_ptr<CommitSnapshot> snapshot = nullptr) noexcept;
  /// Whether a commit that changed `changed` makes this value observation
  /// fetch (now or after the fetch in flight), so that a snapshot for it is
  /// worth taking. A guess: the state may change before `valueChanged`.
  bool wantsSnapshotFor(const DatabaseRegion& changed) const noexcept;
  /// Whether this observes a region (its callback needs a connection).
  bool observesRegion() const noexcept { return regionObserver_ != nullptr; }
  /// See `ObservationHandle::cancel`.
  void cancel() noexcept;
  /// The pool is going away: nothing runs any more (no wait).
  void detach() noexcept;
  /// For tests: waits until no fetch is scheduled or running (the last one
  /// delivered and done); false when `deadline` came first.
  bool waitUntilIdle(std::chrono::steady_clock::time_point deadline) noexcept;
  bool isActive() const noexcept;

 private:
  static void runFetch(void* context, ConnectionLease* lease) noexcept;
  static void completeFetch(void* context) noexcept;
  /// Queues a fetch; under `mutex_`.
  void scheduleLocked() noexcept;
  /// Tells the broker what this observation cares about now; under `mutex_`
  /// (the broker never calls an observation while holding its own lock).
  void publishLocked() noexcept;
  bool onCallbackThread() const noexcept;

  ConnectionPool* const pool_;
  const std::shared_ptr<ValueObserver> value_;
  const std::shared_ptr<RegionObserver> regionObserver_;

  mutable std::mutex mutex_;
  std::condition_variable idle_;
  bool cancelled_ = false;
  bool ended_ = false;
  bool fetching_ = false;
  bool dirty_ = false;
  bool regionKnown_ = false;
  DatabaseRegion region_;
  DatabaseRegion changedDuringFetch_;
  /// The snapshot the next fetch opens (null: the database as it is), and
  /// the ticket of the newest notification told (`valueChanged`).
  std::shared_ptr<CommitSnapshot> pendingSnapshot_;
  std::uint64_t notifiedTicket_ = 0;
  /// The snapshot of the fetch queued or running (set by `scheduleLocked`).
  std::shared_ptr<CommitSnapshot> fetchSnapshot_;
  /// Commits of a region callback's own writes, told after it returns.
  int nestedCommits_ = 0;
  std::shared_ptr<AsyncJob> job_;
  std::shared_ptr<Observation> keepAlive_;  // while a fetch is queued or runs
  std::weak_ptr<ObservationBroker> broker_;
  // What the last fetch gave, from runFetch to completeFetch.
  ValueObserver::Fetched fetched_ = ValueObserver::Fetched::Failed;
  Error fetchError_;
  DatabaseRegion fetchedRegion_;

  std::mutex callbackMutex_;
  std::atomic<std::thread::id> callbackThread_{};
};

}  // namespace detail

/// The writer's transaction observer for every observation of a pool.
class ObservationBroker final : public TransactionObserver {
 public:
  ObservationBroker(ConnectionPool& pool, int externalCheckMilliseconds) noexcept;
  ~ObservationBroker() override;

  void add(const std::shared_ptr<detail::Observation>& observation);
  /// What commits `observation` cares about now: `region`, or everything
  /// while `uncertain` (a fetch in flight, or none done yet). The broker
  /// answers `observes` from these alone, without asking the observations.
  void setInterest(const detail::Observation* observation, const DatabaseRegion& region, bool uncertain) noexcept;
  void remove(const detail::Observation* observation) noexcept;
  /// Starts the external-change thread when an interval was given; for a
  /// pool, opens the connection it polls (`ConnectionPool::openChangeWatcher`).
  void startExternalChecks() noexcept;
  /// Stops the external-change thread and detaches every observation.
  void shutdown() noexcept;
  /// How many external-change checks finished (for tests).
  std::uint64_t externalCheckCount() const noexcept { return externalChecks_.load(); }
  /// How many value fetches read a commit's snapshot, and how many could
  /// not open the one they were given and read the database as it is (for
  /// tests).
  std::uint64_t snapshotFetchCount() const noexcept { return snapshotFetches_.load(); }
  std::uint64_t snapshotFallbackCount() const noexcept { return snapshotFallbacks_.load(); }
  /// Counts a fetch that opened its snapshot (`opened`) or fell back.
  void countSnapshotFetch(bool opened) noexcept { (opened ? snapshotFetches_ : snapshotFallbacks_).fetch_add(1); }
  /// For tests: waits until no observation has a fetch scheduled or
  /// running; false when `deadline` came first.
  bool waitUntilIdle(std::chrono::steady_clock::time_point deadline) noexcept;

  bool observes(ChangeKind kind, const std::string& table, const std::vector<std::string>& columns) override;
  void databaseDidCommit(Database& db) override;

 private:
  /// The external-change thread: polls `watcher` (a pool's connection of
  /// its own), or the queue's connection when it is null.
  void checkExternalChanges(std::unique_ptr<Database> watcher, std::int64_t known) noexcept;
  /// The data version `watcher` reads, or (null) the queue's connection,
  /// leased in `lease` (release it after); -1 when it could not be read.
  std::int64_t pollDataVersion(Database* watcher, ConnectionLease& lease) noexcept;
  /// Tells every observation that another connection or process committed;
  /// region callbacks get `held` (the queue's connection), or else the
  /// writer (a read-only pool: a reader), leased for them.
  void tellExternalChange(Database* held) noexcept;
  std::vector<std::shared_ptr<detail::Observation>> snapshot();

  ConnectionPool& pool_;
  const int externalCheckMilliseconds_;
  std::mutex mutex_;
  std::vector<std::shared_ptr<detail::Observation>> observations_;
  struct Interest {
    const detail::Observation* observation;
    DatabaseRegion region;
    bool uncertain;
  };
  std::vector<Interest> interests_;
  /// The union of the interests, remade when one changed.
  DatabaseRegion interestUnion_;
  bool anyUncertain_ = false;
  bool unionStale_ = false;
  /// Counts the changes of the interests (made under `mutex_`): `observes`
  /// takes the lock only when it moved since the writer last looked.
  std::atomic<std::uint64_t> interestVersion_{0};

  // What `observes` answers from: used only by the thread that holds the
  // writer connection (the pool's writer lock orders those threads).
  /// The `interestVersion_` the copies below were made at (none yet: max).
  std::uint64_t answeredVersion_ = ~std::uint64_t{0};
  DatabaseRegion answeredUnion_;
  bool answeredUncertain_ = false;
  /// Answers for whole tables, forgotten when the interests change (names
  /// as SQLite passed them; another spelling is computed).
  struct TableAnswer {
    std::string table;
    bool observed;
  };
  static constexpr std::size_t kRememberedTables = 16;
  std::vector<TableAnswer> tableAnswers_;
  std::condition_variable stopped_;
  bool stopping_ = false;
  std::thread poller_;
  std::atomic<std::uint64_t> externalChecks_{0};
  std::atomic<std::uint64_t> snapshotFetches_{0};
  std::atomic<std::uint64_t> snapshotFallbacks_{0};
};

}  // namespace sqlitebridge
