// Value and region observations of a DatabaseQueue or DatabasePool, their
// handle, and the broker that tells them of commits.
#include "PoolObservation.hpp"

#include <algorithm>
#include <chrono>

#include "ConnectionObservation.hpp"
#include "ConnectionPool.hpp"
#include "SnapshotApi.hpp"

namespace sqlitebridge {

namespace detail {

// MARK: Commit snapshots

std::uint64_t nextCommitTicket() noexcept {
  static std::atomic<std::uint64_t> tickets{0};
  return tickets.fetch_add(1) + 1;
}

CommitSnapshot::~CommitSnapshot() {
  if (const SnapshotApi* api = snapshotApi()) api->free(snapshot_);
}

std::shared_ptr<CommitSnapshot> CommitSnapshot::take(Database& writer) noexcept {
  const SnapshotApi* api = snapshotApi();
  sqlite3* handle = writer.handle();
  if (api == nullptr || handle == nullptr || sqlite3_get_autocommit(handle) == 0) return nullptr;
  // Drawn before the snapshot is: it holds every commit told before.
  const std::uint64_t ticket = nextCommitTicket();
  // A read transaction of its own (the read makes it take its snapshot,
  // the one `sqlite3_snapshot_get` records): no write lock, and only this
  // thread holds the writer. The caller (`deliverPendingEnd`) keeps these
  // statements' errors from the call that committed.
  sqlite3_snapshot* snapshot = nullptr;
  try {
    if (writer.execute("BEGIN DEFERRED") && writer.execute("SELECT 1 FROM sqlite_master LIMIT 1") &&
        api->get(handle, "main", &snapshot) != SQLITE_OK) {
      snapshot = nullptr;
    }
    if (writer.isInTransaction() && !writer.execute("COMMIT")) writer.execute("ROLLBACK");
  } catch (...) {
    if (snapshot != nullptr) api->free(snapshot);
    snapshot = nullptr;
    if (sqlite3_get_autocommit(handle) == 0) sqlite3_exec(handle, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  if (snapshot == nullptr) return nullptr;
  try {
    return std::make_shared<CommitSnapshot>(snapshot, ticket);
  } catch (...) {
    api->free(snapshot);
    return nullptr;
  }
}

bool CommitSnapshot::openOn(Database& reader) const noexcept {
  const SnapshotApi* api = snapshotApi();
  sqlite3* handle = reader.handle();
  if (api == nullptr || handle == nullptr || sqlite3_get_autocommit(handle) != 0) return false;
  const int rc = api->open(handle, "main", snapshot_);
  if (rc == SQLITE_OK) return true;
  // SQLITE_ERROR_SNAPSHOT, SQLITE_ERROR and SQLITE_BUSY leave the read
  // transaction as it was; anything else may have ended it: begin one
  // again, as the pool does, so that the fetch reads one state.
  if (sqlite3_get_autocommit(handle) == 0) return false;
  try {
    if (reader.execute("BEGIN DEFERRED")) reader.execute("SELECT 1 FROM sqlite_master LIMIT 1");
  } catch (...) {
  }
  return false;
}

// MARK: Observation

Observation::Observation(ConnectionPool* pool, std::shared_ptr<ValueObserver> value,
                         std::shared_ptr<RegionObserver> region, DatabaseRegion observed) noexcept
    : pool_(pool), value_(std::move(value)), regionObserver_(std::move(region)), region_(std::move(observed)) {
  regionKnown_ = regionObserver_ != nullptr;
}

bool Observation::onCallbackThread() const noexcept { return callbackThread_.load() == std::this_thread::get_id(); }

bool Observation::isActive() const noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  return !cancelled_ && !ended_;
}

void Observation::start(const std::shared_ptr<ObservationBroker>& broker) noexcept {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    broker_ = broker;
  }
  try {
    broker->add(shared_from_this());
  } catch (...) {
    std::lock_guard<std::mutex> lock(mutex_);
    ended_ = true;
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  publishLocked();
  if (value_) scheduleLocked();
}

void Observation::publishLocked() noexcept {
  if (std::shared_ptr<ObservationBroker> broker = broker_.lock()) {
    broker->setInterest(this, region_, fetching_ || !regionKnown_);
  }
}

void Observation::scheduleLocked() noexcept {
  if (cancelled_ || ended_ || fetching_) return;
  try {
    auto job = std::make_shared<AsyncJob>();
    job->kind = LeaseKind::Read;
    job->run = &Observation::runFetch;
    job->complete = &Observation::completeFetch;
    job->context = this;
    keepAlive_ = shared_from_this();
    fetching_ = true;
    job_ = job;
    fetchSnapshot_ = std::move(pendingSnapshot_);
    pendingSnapshot_.reset();
    publishLocked();
    if (!pool_->submit(job)) throw std::bad_alloc();
  } catch (...) {
    // Out of memory, or the pool is closing: nothing more will run.
    fetching_ = false;
    ended_ = true;
    job_.reset();
    fetchSnapshot_.reset();
    keepAlive_.reset();
    idle_.notify_all();
  }
}

void Observation::committed(const DatabaseRegion& changed, Database& db) noexcept {
  if (regionObserver_) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (cancelled_ || ended_ || !region_.intersects(changed)) return;
      if (onCallbackThread()) {
        // A write of the callback itself committed: told once the callback
        // returns, still on the writer (no recursion).
        ++nestedCommits_;
        return;
      }
    }
    std::lock_guard<std::mutex> callback(callbackMutex_);
    callbackThread_.store(std::this_thread::get_id());
    for (;;) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (cancelled_ || ended_) break;
      }
      try {
        regionObserver_->changed(db);
      } catch (...) {
      }
      std::lock_guard<std::mutex> lock(mutex_);
      if (nestedCommits_ == 0) break;
      --nestedCommits_;
    }
    callbackThread_.store(std::thread::id());
    std::lock_guard<std::mutex> lock(mutex_);
    nestedCommits_ = 0;
    return;
  }
  valueChanged(changed);
}

bool Observation::wantsSnapshotFor(const DatabaseRegion& changed) const noexcept {
  if (regionObserver_) return false;
  std::lock_guard<std::mutex> lock(mutex_);
  return !cancelled_ && !ended_ && (fetching_ || !regionKnown_ || region_.intersects(changed));
}

void Observation::valueChanged(const DatabaseRegion& changed, std::shared_ptr<CommitSnapshot> snapshot) noexcept {
  if (regionObserver_) return;
  // Drawn after the change happened: a snapshot with a smaller ticket may
  // not hold it.
  const std::uint64_t ticket = snapshot ? snapshot->ticket() : nextCommitTicket();
  std::lock_guard<std::mutex> lock(mutex_);
  if (cancelled_ || ended_) return;
  // Only the newest notification decides what the next fetch reads: an
  // older snapshot told late (a region callback's own commit told inside
  // the outer commit's notification, or a commit of another process found
  // meanwhile) would read a state before a change already told.
  if (ticket > notifiedTicket_) {
    notifiedTicket_ = ticket;
    pendingSnapshot_ = std::move(snapshot);
  }
  if (fetching_) {
    // The fetch in flight may have read before this commit: whatever it
    // turns out to have read is checked against it when it is done.
    try {
      changedDuringFetch_.formUnion(changed);
    } catch (...) {
      dirty_ = true;
    }
    if (!regionKnown_ || region_.intersects(changed)) dirty_ = true;
    return;
  }
  if (!regionKnown_ || region_.intersects(changed)) scheduleLocked();
}

void Observation::runFetch(void* context, ConnectionLease* lease) noexcept {
  auto& self = *static_cast<Observation*>(context);
  Error error;
  ValueObserver::Fetched fetched = ValueObserver::Fetched::Failed;
  DatabaseRegion read = DatabaseRegion::fullDatabase();
  bool skipped = lease == nullptr;  // cancelled before it started
  if (!skipped && lease->database == nullptr) {
    error = lease->error;
  } else if (!skipped) {
    Database& db = *lease->database;
    std::shared_ptr<CommitSnapshot> snapshot;
    {
      std::lock_guard<std::mutex> lock(self.mutex_);
      snapshot.swap(self.fetchSnapshot_);
    }
    bool opened = false;
    if (snapshot) {
      // The reader's transaction, begun after the commit, moves back to the
      // commit's snapshot: this fetch reads the state that commit made,
      // not a later one. When it cannot, it reads the state it is at.
      opened = snapshot->openOn(db);
      if (std::shared_ptr<ObservationBroker> broker = self.broker_.lock()) broker->countSnapshotFetch(opened);
      snapshot.reset();
    }
    if (!opened) {
      // This fetch reads the database as it was when its transaction
      // began, maybe past the commits whose snapshots were told since it
      // was scheduled: the next fetch must not go back to one of them (nor
      // to one told later but taken before now), so it reads the database
      // as it is unless a commit after now hands it a snapshot.
      const std::uint64_t readAt = nextCommitTicket();
      std::lock_guard<std::mutex> lock(self.mutex_);
      self.notifiedTicket_ = std::max(self.notifiedTicket_, readAt);
      self.pendingSnapshot_.reset();
    }
    ConnectionObservation* observation = ConnectionObservation::of(db);
    if (observation != nullptr) {
      observation->beginRecording();
      ConnectionObservation::refreshHooks(db);
    }
    self.callbackThread_.store(std::this_thread::get_id());
    try {
      fetched = self.value_->fetch(db, error);
    } catch (...) {
      fetched = ValueObserver::Fetched::Failed;
      error = Error{SQLITE_ERROR, SQLITE_ERROR, "the fetch threw", std::string()};
    }
    self.callbackThread_.store(std::thread::id());
    if (observation != nullptr) {
      read = observation->endRecording();
      ConnectionObservation::refreshHooks(db);
    }
    // An interrupted fetch is no failure to report: cancelled, it ends;
    // interrupted otherwise (`interrupt()` of the pool), it runs again.
    if (fetched == ValueObserver::Fetched::Failed && (error.code & 0xff) == SQLITE_INTERRUPT) {
      skipped = true;
      std::lock_guard<std::mutex> lock(self.mutex_);
      if (!self.cancelled_) self.dirty_ = true;
    }
  }
  std::lock_guard<std::mutex> lock(self.mutex_);
  self.fetchSnapshot_.reset();  // not opened when the fetch was skipped
  if (skipped || self.cancelled_) {
    self.fetched_ = ValueObserver::Fetched::Same;  // nothing to deliver
    self.fetchedRegion_ = self.region_;
    return;
  }
  self.fetched_ = fetched;
  self.fetchError_ = error;
  self.fetchedRegion_ = std::move(read);
}

void Observation::completeFetch(void* context) noexcept {
  auto& self = *static_cast<Observation*>(context);
  ValueObserver::Fetched fetched;
  Error error;
  {
    std::lock_guard<std::mutex> lock(self.mutex_);
    fetched = self.fetched_;
    error = self.fetchError_;
    // Commits from now on are matched against what this fetch read.
    self.region_ = self.fetchedRegion_;
    self.regionKnown_ = true;
  }
  if (fetched != ValueObserver::Fetched::Same) {
    std::lock_guard<std::mutex> callback(self.callbackMutex_);
    bool deliver = false;
    {
      std::lock_guard<std::mutex> lock(self.mutex_);
      deliver = !self.cancelled_ && !self.ended_;
      if (deliver && fetched == ValueObserver::Fetched::Failed) self.ended_ = true;  // an error ends it
    }
    if (deliver) {
      self.callbackThread_.store(std::this_thread::get_id());
      try {
        if (fetched == ValueObserver::Fetched::Changed) {
          self.value_->deliver();
        } else {
          self.value_->fail(error);
        }
      } catch (...) {
      }
      self.callbackThread_.store(std::thread::id());
    }
  }
  std::shared_ptr<Observation> keepAlive;
  std::shared_ptr<ObservationBroker> leaving;
  {
    std::lock_guard<std::mutex> lock(self.mutex_);
    if (!self.dirty_ && self.changedDuringFetch_.intersects(self.region_)) self.dirty_ = true;
    self.changedDuringFetch_ = DatabaseRegion();
    self.fetching_ = false;
    self.job_.reset();
    keepAlive.swap(self.keepAlive_);  // released after the lock: it may be the last owner
    self.publishLocked();
    if (self.dirty_ && !self.cancelled_ && !self.ended_) {
      self.dirty_ = false;
      self.scheduleLocked();
    }
    if (self.ended_ && !self.cancelled_) leaving = self.broker_.lock();
    self.idle_.notify_all();
  }
  if (leaving) leaving->remove(&self);
}

void Observation::cancel() noexcept {
  std::shared_ptr<AsyncJob> job;
  std::shared_ptr<ObservationBroker> broker;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (cancelled_) return;
    cancelled_ = true;
    job = job_;
    broker = broker_.lock();
  }
  if (broker) broker->remove(this);
  if (job) job->cancel();
  if (onCallbackThread()) return;  // inside our own callback: it is the last
  // A callback running on another thread is waited for.
  {
    std::lock_guard<std::mutex> callback(callbackMutex_);
  }
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [&] { return !fetching_; });
}

bool Observation::waitUntilIdle(std::chrono::steady_clock::time_point deadline) noexcept {
  std::unique_lock<std::mutex> lock(mutex_);
  return idle_.wait_until(lock, deadline, [&] { return !fetching_; });
}

void Observation::detach() noexcept {
  std::shared_ptr<AsyncJob> job;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ended_ = true;
    job = job_;
  }
  if (job) job->cancel();
}

// MARK: Starting

namespace {

std::shared_ptr<ObservationBroker> brokerOf(ConnectionPool* pool, Error& error) noexcept {
  if (pool == nullptr) {
    error = Error{SQLITE_MISUSE, SQLITE_MISUSE, "the queue or pool was moved from", std::string()};
    return nullptr;
  }
  return pool->observationBroker(error);
}

}  // namespace

ObservationHandle startValueObservation(ConnectionPool* pool, std::shared_ptr<ValueObserver> observer) noexcept {
  Error error;
  std::shared_ptr<ObservationBroker> broker = brokerOf(pool, error);
  std::shared_ptr<Observation> observation;
  if (broker) {
    try {
      observation = std::make_shared<Observation>(pool, observer, nullptr, DatabaseRegion());
    } catch (...) {
      error = Error{SQLITE_NOMEM, SQLITE_NOMEM, "out of memory", std::string()};
    }
  }
  if (!observation) {
    try {
      observer->fail(error);
    } catch (...) {
    }
    return ObservationHandle();
  }
  observation->start(broker);
  return ObservationHandle(std::move(observation));
}

ObservationHandle startRegionObservation(ConnectionPool* pool, DatabaseRegion region,
                                         std::shared_ptr<RegionObserver> observer, Error* error) noexcept {
  Error reason;
  std::shared_ptr<ObservationBroker> broker = brokerOf(pool, reason);
  std::shared_ptr<Observation> observation;
  if (broker) {
    try {
      observation = std::make_shared<Observation>(pool, nullptr, observer, std::move(region));
    } catch (...) {
      reason = Error{SQLITE_NOMEM, SQLITE_NOMEM, "out of memory", std::string()};
    }
  }
  if (!observation) {
    if (error != nullptr) *error = reason;
    return ObservationHandle();
  }
  observation->start(broker);
  if (error != nullptr) *error = Error();
  return ObservationHandle(std::move(observation));
}

}  // namespace detail

// MARK: ObservationHandle

ObservationHandle::ObservationHandle() noexcept = default;
ObservationHandle::ObservationHandle(std::shared_ptr<detail::Observation> observation) noexcept
    : observation_(std::move(observation)) {}
ObservationHandle::ObservationHandle(ObservationHandle&& other) noexcept = default;
ObservationHandle& ObservationHandle::operator=(ObservationHandle&& other) noexcept {
  if (this != &other) {
    cancel();
    observation_ = std::move(other.observation_);
  }
  return *this;
}
ObservationHandle::~ObservationHandle() { cancel(); }

void ObservationHandle::cancel() noexcept {
  if (observation_) observation_->cancel();
  observation_.reset();
}

bool ObservationHandle::isActive() const noexcept { return observation_ && observation_->isActive(); }

namespace {

ObservationHandle startRegion(ConnectionPool* pool, DatabaseRegion region, std::function<void(Database&)> onChange,
                              std::function<void(const Error&)> onError) {
  std::shared_ptr<detail::RegionObserver> observer;
  try {
    observer = std::make_shared<detail::FunctionRegionObserver>(std::move(onChange), onError);
  } catch (...) {
    if (onError) onError(Error{SQLITE_NOMEM, SQLITE_NOMEM, "out of memory", std::string()});
    return ObservationHandle();
  }
  Error error;
  ObservationHandle handle = detail::startRegionObservation(pool, std::move(region), observer, &error);
  if (!handle.isActive() && onError) onError(error);
  return handle;
}

}  // namespace

ObservationHandle observeRegion(DatabasePool& pool, DatabaseRegion region, std::function<void(Database&)> onChange,
                                std::function<void(const Error&)> onError) {
  return startRegion(ObservationAccess::of(pool), std::move(region), std::move(onChange), std::move(onError));
}

ObservationHandle observeRegion(DatabaseQueue& queue, DatabaseRegion region, std::function<void(Database&)> onChange,
                                std::function<void(const Error&)> onError) {
  return startRegion(ObservationAccess::of(queue), std::move(region), std::move(onChange), std::move(onError));
}

// MARK: The broker

ObservationBroker::ObservationBroker(ConnectionPool& pool, int externalCheckMilliseconds) noexcept
    : pool_(pool), externalCheckMilliseconds_(externalCheckMilliseconds) {}

ObservationBroker::~ObservationBroker() { shutdown(); }

void ObservationBroker::add(const std::shared_ptr<detail::Observation>& observation) {
  std::lock_guard<std::mutex> lock(mutex_);
  observations_.push_back(observation);
}

void ObservationBroker::setInterest(const detail::Observation* observation, const DatabaseRegion& region,
                                    bool uncertain) noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  try {
    for (Interest& interest : interests_) {
      if (interest.observation == observation) {
        if (interest.uncertain != uncertain || interest.region != region) {
          interest.region = region;
          interest.uncertain = uncertain;
          unionStale_ = true;
          interestVersion_.fetch_add(1, std::memory_order_release);
        }
        return;
      }
    }
    interests_.push_back(Interest{observation, region, uncertain});
    unionStale_ = true;
  } catch (...) {
    anyUncertain_ = true;  // out of memory: care about everything
  }
  interestVersion_.fetch_add(1, std::memory_order_release);
}

void ObservationBroker::remove(const detail::Observation* observation) noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = interests_.begin(); it != interests_.end(); ++it) {
    if (it->observation == observation) {
      interests_.erase(it);
      unionStale_ = true;
      interestVersion_.fetch_add(1, std::memory_order_release);
      break;
    }
  }
  for (auto it = observations_.begin(); it != observations_.end(); ++it) {
    if (it->get() == observation) {
      observations_.erase(it);
      return;
    }
  }
}

bool ObservationBroker::waitUntilIdle(std::chrono::steady_clock::time_point deadline) noexcept {
  try {
    for (const std::shared_ptr<detail::Observation>& observation : snapshot()) {
      if (!observation->waitUntilIdle(deadline)) return false;
    }
    return true;
  } catch (...) {
    return false;  // no memory for the list
  }
}

std::vector<std::shared_ptr<detail::Observation>> ObservationBroker::snapshot() {
  std::lock_guard<std::mutex> lock(mutex_);
  return observations_;
}

bool ObservationBroker::observes(ChangeKind kind, const std::string& table, const std::vector<std::string>& columns) {
  // Asked on the writer several times per write statement (each row's
  // table, the REPLACE rule, the commit): while no interest changed, the
  // writer answers from its own copy of the union, without the lock, and
  // remembers the answer for a whole table, so that a commit nobody
  // observes costs a name comparison, not a region.
  if (interestVersion_.load(std::memory_order_acquire) != answeredVersion_) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (unionStale_) {
      DatabaseRegion remade;
      bool uncertain = false;
      for (const Interest& interest : interests_) {
        uncertain = uncertain || interest.uncertain;
        remade.formUnion(interest.region);
      }
      interestUnion_ = std::move(remade);
      anyUncertain_ = uncertain;
      unionStale_ = false;
    }
    answeredUnion_ = interestUnion_;
    answeredUncertain_ = anyUncertain_;
    tableAnswers_.clear();
    // Read under the lock, which every change holds: the copies match it.
    answeredVersion_ = interestVersion_.load(std::memory_order_relaxed);
  }
  if (answeredUncertain_) return true;
  const bool wholeTable = kind != ChangeKind::Update || columns.empty();
  if (wholeTable) {
    for (const TableAnswer& known : tableAnswers_) {
      if (known.table == table) return known.observed;
    }
  }
  const bool observed =
      answeredUnion_.intersects(wholeTable ? DatabaseRegion::table(table) : DatabaseRegion::columns(table, columns));
  if (wholeTable && tableAnswers_.size() < kRememberedTables) tableAnswers_.push_back(TableAnswer{table, observed});
  return observed;
}

void ObservationBroker::databaseDidCommit(Database& db) {
  const DatabaseRegion* changed = ConnectionObservation::committedRegionOf(db);
  const DatabaseRegion region = changed != nullptr ? *changed : DatabaseRegion::fullDatabase();
  if (region.isEmpty()) return;
  const std::vector<std::shared_ptr<detail::Observation>> observations = snapshot();
  // The value observations first, all told of this commit before a region
  // callback can commit again. Called after the commit, outside SQLite's
  // callbacks, on the writer this thread still holds: the database as the
  // commit left it can be recorded here, for the fetches it schedules to
  // read on readers (a pool's writer only; never for a queue, whose reads
  // run on this same connection later anyway).
  std::shared_ptr<detail::CommitSnapshot> commitSnapshot;
  if (!pool_.isQueue() && detail::snapshotApi() != nullptr) {
    const bool wanted =
        std::any_of(observations.begin(), observations.end(),
                    [&](const std::shared_ptr<detail::Observation>& o) { return o->wantsSnapshotFor(region); });
    if (wanted) commitSnapshot = detail::CommitSnapshot::take(db);
  }
  for (const std::shared_ptr<detail::Observation>& observation : observations) {
    if (!observation->observesRegion()) observation->valueChanged(region, commitSnapshot);
  }
  commitSnapshot.reset();
  for (const std::shared_ptr<detail::Observation>& observation : observations) {
    if (observation->observesRegion()) observation->committed(region, db);
  }
}

namespace {

// PRAGMA data_version changes when another connection (of this process or
// another) committed, never for this connection's own commits; the number
// belongs to the connection (two connections' numbers are not comparable).
std::int64_t readDataVersion(Database& database) noexcept {
  try {
    Row row;
    if (!database.execute("PRAGMA data_version", row) || row.empty()) return -1;
    return row.value(0).asInteger();
  } catch (...) {
    return -1;
  }
}

}  // namespace

std::int64_t ObservationBroker::pollDataVersion(Database* watcher, ConnectionLease& lease) noexcept {
  if (watcher != nullptr) return readDataVersion(*watcher);
  // A queue: its one connection, which never sees its own commits there.
  if (!pool_.acquire(LeaseKind::WriteWithoutTransaction, lease)) return -1;
  return readDataVersion(*lease.database);
}

void ObservationBroker::startExternalChecks() noexcept {
  if (externalCheckMilliseconds_ <= 0) return;
  // A pool is polled on a connection of its own, always the same one: never
  // the writer (which a check would hold up, and be held up by, at every
  // interval) and never a reader lent to blocks (each reader counts its own
  // versions, so a check on another reader than the last would see a change
  // that did not happen, or miss one). The version to compare with is read
  // now, before the first fetch, so that a commit right after it is not
  // taken for the starting point.
  Error error;
  std::unique_ptr<Database> watcher = pool_.openChangeWatcher(error);
  ConnectionLease lease;
  const std::int64_t known = watcher || pool_.isQueue() ? pollDataVersion(watcher.get(), lease) : -1;
  pool_.release(lease);
  try {
    poller_ = std::thread(
        [this, known, database = std::move(watcher)]() mutable { checkExternalChanges(std::move(database), known); });
  } catch (...) {
  }
}

void ObservationBroker::tellExternalChange(Database* held) noexcept {
  const DatabaseRegion everything = DatabaseRegion::fullDatabase();
  std::vector<std::shared_ptr<detail::Observation>> observations;
  try {
    observations = snapshot();
  } catch (...) {
    return;
  }
  bool regions = false;
  for (const std::shared_ptr<detail::Observation>& observation : observations) {
    if (observation->observesRegion()) {
      regions = true;
    } else {
      observation->valueChanged(everything);
    }
  }
  if (!regions) return;
  // Region callbacks run on the writer (a read-only pool's: a reader),
  // leased only now that there is a change to tell.
  ConnectionLease lease;
  Database* database = held;
  if (database == nullptr) {
    if (!pool_.acquire(LeaseKind::WriteWithoutTransaction, lease) && !pool_.acquire(LeaseKind::Read, lease)) return;
    database = lease.database;
  }
  for (const std::shared_ptr<detail::Observation>& observation : observations) {
    if (observation->observesRegion()) observation->committed(everything, *database);
  }
  pool_.release(lease);
}

void ObservationBroker::checkExternalChanges(std::unique_ptr<Database> watcher, std::int64_t known) noexcept {
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (stopped_.wait_for(lock, std::chrono::milliseconds(externalCheckMilliseconds_), [&] { return stopping_; }))
        return;
    }
    if (!watcher && !pool_.isQueue()) {
      // A pool's watcher that could not open before is tried again.
      Error error;
      watcher = pool_.openChangeWatcher(error);
    }
    ConnectionLease lease;
    const std::int64_t version = watcher || pool_.isQueue() ? pollDataVersion(watcher.get(), lease) : -1;
    if (version >= 0 && known >= 0 && version != known) tellExternalChange(lease.database);
    if (version >= 0) known = version;
    pool_.release(lease);
    externalChecks_.fetch_add(1);
  }
}

void ObservationBroker::shutdown() noexcept {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  stopped_.notify_all();
  if (poller_.joinable()) {
    if (poller_.get_id() == std::this_thread::get_id()) {
      poller_.detach();
    } else {
      poller_.join();
    }
  }
  std::vector<std::shared_ptr<detail::Observation>> observations;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    observations.swap(observations_);
  }
  for (const std::shared_ptr<detail::Observation>& observation : observations) observation->detach();
}

}  // namespace sqlitebridge
