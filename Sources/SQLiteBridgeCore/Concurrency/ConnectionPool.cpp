#include "ConnectionPool.hpp"

#include <algorithm>
#include <chrono>
#include <new>

#include "Connection.hpp"
#include "PoolObservation.hpp"
#include "SnapshotApi.hpp"
#include "SnapshotState.hpp"

namespace sqlitebridge {

namespace {

// The pools this thread holds a lease of: asking one of them again would wait
// for itself.
thread_local std::vector<const ConnectionPool*> heldPools;

// How many transient answers one begin absorbs, and the pause before each
// retry (doubling from 1 ms, at most 64 ms: under a second in all).
constexpr int kTransientRetryLimit = 10;

void pauseBeforeRetry(int attempt) noexcept {
  if (attempt == 0) {
    std::this_thread::yield();
    return;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1 << std::min(attempt - 1, 6)));
}

Error misuse(const char* message) noexcept { return poolError(SQLITE_MISUSE, message); }

}  // namespace

Error poolError(int code, const std::string& message) noexcept {
  try {
    return Error{code & 0xff, code, message, std::string()};
  } catch (...) {
    return Error{code & 0xff, code, std::string(), std::string()};
  }
}

Error ConnectionPool::openErrorOf(const ConnectionPool* pool, const char* what) noexcept {
  try {
    if (pool == nullptr)
      return poolError(SQLITE_NOMEM, std::string("out of memory, or the ") + what + " was moved from");
    return pool->openError_;
  } catch (...) {
    return pool == nullptr ? poolError(SQLITE_NOMEM, std::string())
                           : Error{pool->openError_.code, pool->openError_.extendedCode, std::string(), std::string()};
  }
}

ConnectionPool::ConnectionPool(Kind kind, Configuration configuration) noexcept
    : kind_(kind),
      configuration_(configuration),
      externalCheckMilliseconds_(configuration.externalChangeCheckMilliseconds) {}

std::unique_ptr<ConnectionPool> ConnectionPool::queue(Database writer, int externalCheckMilliseconds) noexcept {
  std::unique_ptr<ConnectionPool> pool(new (std::nothrow) ConnectionPool(Kind::Queue, Configuration()));
  if (!pool) return nullptr;
  pool->externalCheckMilliseconds_ = externalCheckMilliseconds;
  if (!writer.isOpen()) pool->openError_ = writer.lastError();
  pool->writer_.emplace(std::move(writer));
  return pool;
}

std::unique_ptr<ConnectionPool> ConnectionPool::pool(const std::string& path,
                                                     const Configuration& configuration) noexcept {
  std::unique_ptr<ConnectionPool> pool(new (std::nothrow) ConnectionPool(Kind::Pool, configuration));
  if (!pool) return nullptr;
  if (!pool->openPool(path)) pool->writer_.reset();
  return pool;
}

ConnectionPool::~ConnectionPool() {
  // Observations first: they stop scheduling fetches, and the broker's
  // external-change thread ends.
  std::shared_ptr<ObservationBroker> broker;
  {
    std::lock_guard<std::mutex> lock(brokerMutex_);
    broker = broker_;
  }
  if (broker) broker->shutdown();
  {
    std::lock_guard<std::mutex> lock(jobsMutex_);
    stopping_ = true;
  }
  jobsAdded_.notify_all();
  for (JobLine* line : {&writeJobs_, &readJobs_}) {
    for (std::thread& thread : line->threads) {
      // A job's block that drops the last owner of its own pool runs this
      // destructor on a job thread, which cannot wait for itself.
      if (thread.get_id() == std::this_thread::get_id()) {
        thread.detach();
      } else if (thread.joinable()) {
        thread.join();
      }
    }
  }
  closeSnapshots();
  // Readers first: the writer's close may checkpoint the WAL.
  readers_.clear();
  writer_.reset();
}

// MARK: Opening a pool

bool ConnectionPool::openPool(const std::string& path) noexcept {
  try {
    path_ = path;
    if (configuration_.maximumReaderCount < 1) {
      openError_ = misuse("maximumReaderCount must be at least 1");
      return false;
    }
    // Open options a pool cannot honour: its readers see the writer's
    // commits through WAL snapshots, which neither another journal mode nor
    // a shared cache (table locks failing at once with SQLITE_LOCKED) gives.
    if (configuration_.sharedCacheName) {
      openError_ = misuse(
          "a DatabasePool cannot open a shared in-memory database (sharedCacheName): its readers would meet the "
          "writer's table locks instead of reading a WAL snapshot; use a DatabaseQueue");
      return false;
    }
    if (configuration_.journalMode && *configuration_.journalMode != JournalMode::Wal) {
      openError_ = misuse("a DatabasePool runs in WAL mode, so its journalMode must be empty or WAL");
      return false;
    }
    readers_.resize(static_cast<std::size_t>(configuration_.maximumReaderCount));
    readJobs_.threadLimit = readers_.size();
    if (configuration_.readOnly) {
      // Readers only; the first one opens now, so that a missing or bad file
      // fails here.
      int slot = -1;
      Error error;
      if (lendReader(slot, error) == nullptr) {
        openError_ = error;
        return false;
      }
      returnReader(slot);
      return true;
    }
    Database writer = Database::open(path, configuration_);
    if (!writer.isOpen()) {
      openError_ = writer.lastError();
      return false;
    }
    if (writer.path().empty()) {
      openError_ = poolError(SQLITE_CANTOPEN,
                             "a DatabasePool needs a database file, and \"" + path +
                                 "\" is an in-memory or temporary database, which only the connection that opened it "
                                 "can see (its readers would not see its writes): use a DatabaseQueue");
      return false;
    }
    if (sqlite3_db_readonly(writer.handle(), "main") == 1) {
      openError_ = poolError(SQLITE_READONLY,
                             "a DatabasePool must write the database to put it in WAL mode, and " + path +
                                 " is read-only for this process: open the pool with Configuration::readOnly, or use a "
                                 "DatabaseQueue");
      return false;
    }
    Row mode;
    if (!writer.execute("PRAGMA journal_mode = WAL", mode)) {
      openError_ = writer.lastError();
      return false;
    }
    const std::string journalMode = mode.empty() ? std::string() : mode.value(0).asText();
    if (journalMode != "wal") {
      openError_ = poolError(SQLITE_ERROR, "a DatabasePool needs WAL mode, and SQLite kept " + path +
                                               " in journal mode \"" + journalMode + "\"");
      return false;
    }
    writer_.emplace(std::move(writer));
    return true;
  } catch (...) {
    openError_ = poolError(SQLITE_NOMEM, "out of memory");
    return false;
  }
}

Database ConnectionPool::openReaderConnection() const {
  Configuration configuration = configuration_;
  configuration.readOnly = true;
  // The writer has put the file in WAL already; a read-only pool's readers
  // ask for the mode themselves.
  if (!configuration_.readOnly) configuration.journalMode.reset();
  return Database::open(path_, configuration);
}

std::unique_ptr<Database> ConnectionPool::openChangeWatcher(Error& error) noexcept {
  if (kind_ == Kind::Queue || !isOpen()) return nullptr;
  try {
    auto database = std::make_unique<Database>(openReaderConnection());
    if (database->isOpen()) return database;
    error = database->lastError();
  } catch (...) {
    error = poolError(SQLITE_NOMEM, "out of memory");
  }
  return nullptr;
}

Database* ConnectionPool::lendReader(int& slot, Error& error, const AsyncJob* job) noexcept {
  try {
    std::unique_lock<std::mutex> lock(readersMutex_);
    std::size_t index = 0;
    auto free = [&] {
      for (index = 0; index < readers_.size(); ++index) {
        if (!readers_[index].busy) return true;
      }
      return job != nullptr && job->cancelled.load();
    };
    if (!free()) {
      ++waiting_;
      readerFreed_.wait(lock, free);
      --waiting_;
    }
    if (index == readers_.size()) {
      error = poolError(SQLITE_INTERRUPT, "cancelled while waiting for a reader");
      return nullptr;
    }
    // An open reader is lent before a new one is opened.
    for (std::size_t other = 0; other < readers_.size(); ++other) {
      if (!readers_[other].busy && readers_[other].database) {
        index = other;
        break;
      }
    }
    Reader& reader = readers_[index];
    reader.busy = true;
    if (!reader.database) {
      // Opening outside the lock would let two threads open the same slot.
      auto database = std::make_unique<Database>(openReaderConnection());
      if (!database->isOpen()) {
        error = database->lastError();
        reader.busy = false;
        lock.unlock();
        readerFreed_.notify_all();
        return nullptr;
      }
      reader.database = std::move(database);
    }
    slot = static_cast<int>(index);
    return reader.database.get();
  } catch (...) {
    error = poolError(SQLITE_NOMEM, "out of memory");
    return nullptr;
  }
}

void ConnectionPool::returnReader(int slot) noexcept {
  {
    std::lock_guard<std::mutex> lock(readersMutex_);
    readers_[static_cast<std::size_t>(slot)].busy = false;
  }
  // Every waiter: one woken for a cancelled job would leave without taking it.
  readerFreed_.notify_all();
}

// MARK: Leases

bool ConnectionPool::isHeldByThisThread() const noexcept {
  return std::find(heldPools.begin(), heldPools.end(), this) != heldPools.end();
}

bool ConnectionPool::acquire(LeaseKind kind, ConnectionLease& lease, const AsyncJob* job,
                             SnapshotState* snapshot) noexcept {
  lease = ConnectionLease();
  lease.pool = this;
  lease.kind = kind;
  try {
    if (!isOpen()) {
      lease.error = openError_;
      return false;
    }
    if (isHeldByThisThread()) {
      lease.error = misuse(
          "reentrant access: a read or write of a DatabaseQueue or DatabasePool was called from inside one of its "
          "own blocks, where it would wait for itself; use the Database the block was given");
      return false;
    }
    heldPools.reserve(heldPools.size() + 1);
  } catch (...) {
    lease.error = poolError(SQLITE_NOMEM, "out of memory");
    return false;
  }
  Database* database = nullptr;
  if (kind == LeaseKind::Read && kind_ == Kind::Pool) {
    database = lendReader(lease.reader, lease.error, job);
    if (database == nullptr) return false;
  } else {
    if (!writer_) {
      lease.error = poolError(SQLITE_READONLY,
                              "the DatabasePool was opened read-only (Configuration readOnly): it has no writer");
      return false;
    }
    try {
      std::unique_lock<std::mutex> lock(writerMutex_);
      auto free = [&] { return !writerBusy_ || (job != nullptr && job->cancelled.load()); };
      if (!free()) {
        ++waiting_;
        writerFreed_.wait(lock, free);
        --waiting_;
      }
      if (writerBusy_) {
        lease.error = poolError(SQLITE_INTERRUPT, "cancelled while waiting for the writer");
        return false;
      }
      writerBusy_ = true;
    } catch (...) {
      lease.error = poolError(SQLITE_NOMEM, "out of memory");
      return false;
    }
    database = &*writer_;
  }
  heldPools.push_back(this);
  lease.database = database;
  Connection& connection = *database->connection_;
  connection.failureMark = connection.failureCount;
  if (!beginTransaction(*database, kind, lease.error, snapshot != nullptr ? snapshot->snapshot() : nullptr)) {
    lease.ended = true;
    release(lease);
    lease.database = nullptr;
    return false;
  }
  lease.inTransaction = kind != LeaseKind::WriteWithoutTransaction;
  lease.snapshot = snapshot;
  connection.failureMark = connection.failureCount;
  return true;
}

bool ConnectionPool::beginTransaction(Database& database, LeaseKind kind, Error& error,
                                      sqlite3_snapshot* snapshot) noexcept {
  if (kind == LeaseKind::WriteWithoutTransaction) return true;
  const bool queueRead = kind == LeaseKind::Read && kind_ == Kind::Queue;
  if (queueRead) {
    // The queue's one connection, read-only for the block, and in a read
    // transaction as a pool's reader is: without one, each statement would
    // read the database as it is then, and a commit of another connection
    // or process could land between two statements of the block.
    if (!database.execute("PRAGMA query_only = 1")) {
      error = database.lastError();
      return false;
    }
    if (beginTransactionRetrying(database, kind, error)) return true;
    database.execute("PRAGMA query_only = 0");
    return false;
  }
  return beginTransactionRetrying(database, kind, error, snapshot);
}

bool ConnectionPool::beginTransactionRetrying(Database& database, LeaseKind kind, Error& error,
                                              sqlite3_snapshot* snapshot) noexcept {
  const int timeout = database.busyTimeout();
  for (int attempt = 0;; ++attempt) {
    const auto started = std::chrono::steady_clock::now();
    int code = SQLITE_OK;
    if (injectedFailures_.load() > 0 && injectedFailures_.fetch_sub(1) > 0) {
      code = injectedCode_.load();
      error = poolError(code, "transient answer injected by a test");
    } else {
      // A read transaction takes its snapshot at its first read, so read now:
      // the block sees the database as it is when it starts.
      bool begun = kind == LeaseKind::Read
                       ? database.execute("BEGIN DEFERRED") && database.execute("SELECT 1 FROM sqlite_master LIMIT 1")
                       : database.execute("BEGIN IMMEDIATE");
      if (begun && snapshot != nullptr) {
        // Moves the read transaction just begun back to the snapshot (it
        // loaded the schema first, which opening a snapshot needs).
        const int rc = detail::snapshotApi()->open(database.handle(), "main", snapshot);
        if (rc != SQLITE_OK) {
          begun = false;
          database.connection_->failFromSQLite(rc, std::string());
        }
      }
      if (begun) return true;
      error = database.lastError();
      code = error.extendedCode;
      if (code == SQLITE_ERROR_SNAPSHOT) {
        error = poolError(code,
                          "the reader could not open the snapshot: a checkpoint or another process's write "
                          "passed it (SQLITE_ERROR_SNAPSHOT)");
      }
      if (database.isInTransaction()) database.execute("ROLLBACK");
    }
    // SQLITE_PROTOCOL, and SQLITE_BUSY that came back before the busy
    // timeout ran out (so without the busy handler waiting: WAL recovery, a
    // checkpoint restarting the log), pass; a lock held past the timeout is
    // the caller's to hear about.
    const auto elapsed = std::chrono::steady_clock::now() - started;
    const bool transient = (code & 0xff) == SQLITE_PROTOCOL || ((code & 0xff) == SQLITE_BUSY && timeout > 0 &&
                                                                elapsed < std::chrono::milliseconds(timeout));
    if (!transient || attempt >= kTransientRetryLimit) return false;
    transientRetries_.fetch_add(1);
    pauseBeforeRetry(attempt);
  }
}

bool ConnectionPool::endOpenTransaction(Database& database) noexcept {
  // An interrupt meant for the block (`interrupt()` or a job's cancel from
  // another thread) can land on the ROLLBACK itself, which then fails and
  // leaves the transaction open for the next lease; SQLite forgets an
  // interrupt once no statement runs, so a second try goes through.
  for (int attempt = 0; attempt < 3 && database.isInTransaction(); ++attempt) {
    if (database.execute("ROLLBACK")) return true;
  }
  return !database.isInTransaction();
}

bool ConnectionPool::finish(ConnectionLease& lease, bool commit, bool rollBackAfterFailedStatement) noexcept {
  if (lease.ended || lease.database == nullptr) return !lease.error.isError();
  lease.ended = true;
  lease.error = Error();
  Database& database = *lease.database;
  Connection& connection = *database.connection_;
  endCancellationChecks(database.handle());
  try {
    switch (lease.kind) {
      case LeaseKind::Read:
        if (kind_ == Kind::Queue) {
          endOpenTransaction(database);
          database.execute("PRAGMA query_only = 0");
        } else {
          endOpenTransaction(database);
        }
        return true;
      case LeaseKind::WriteWithoutTransaction:
        endOpenTransaction(database);
        return true;
      case LeaseKind::Write:
        break;
    }
    const bool statementFailed = connection.failureCount != connection.failureMark;
    if (!commit) {
      // `return db.execute(...)` that failed is a failure, not a rollback
      // the block asked for: its error is the lease's, also when SQLite
      // already rolled the transaction back after it (SQLITE_FULL,
      // SQLITE_IOERR, RAISE(ROLLBACK), ...).
      if (rollBackAfterFailedStatement && statementFailed) lease.error = connection.firstFailureSinceMark;
      endOpenTransaction(database);
      return !lease.error.isError();
    }
    if (!database.isInTransaction()) {
      // The block committed or rolled back itself, or SQLite rolled back
      // after an error.
      lease.error = statementFailed
                        ? connection.firstFailureSinceMark
                        : misuse("the write block ended its transaction itself (COMMIT or ROLLBACK inside the block)");
      return false;
    }
    if (rollBackAfterFailedStatement && statementFailed) {
      lease.error = connection.firstFailureSinceMark;
      endOpenTransaction(database);
      return false;
    }
    if (prepareToCommit(database, connection) && database.execute("COMMIT")) return true;
    lease.error = database.lastError();
    endOpenTransaction(database);
    return false;
  } catch (...) {
    endOpenTransaction(database);
    lease.error = poolError(SQLITE_NOMEM, "out of memory");
    return false;
  }
}

void ConnectionPool::release(ConnectionLease& lease) noexcept {
  if (lease.database == nullptr) return;
  if (!lease.ended) finish(lease, false, false);
  auto held = std::find(heldPools.rbegin(), heldPools.rend(), this);
  if (held != heldPools.rend()) heldPools.erase(std::next(held).base());
  if (lease.reader >= 0) {
    returnReader(lease.reader);
    // Last: once the snapshot is left, a closing pool may go on.
    SnapshotState* snapshot = lease.snapshot;
    lease.snapshot = nullptr;
    lease.database = nullptr;
    if (snapshot != nullptr) snapshot->leave();
    return;
  } else {
    {
      std::lock_guard<std::mutex> lock(writerMutex_);
      writerBusy_ = false;
    }
    // Every waiter: one woken for a cancelled job would leave without taking it.
    writerFreed_.notify_all();
  }
  lease.database = nullptr;
}

bool ConnectionPool::checkpoint(CheckpointMode mode, Error* error) noexcept {
  ConnectionLease lease;
  if (!acquire(LeaseKind::WriteWithoutTransaction, lease)) {
    if (error != nullptr) *error = lease.error;
    return false;
  }
  int sqliteMode = SQLITE_CHECKPOINT_PASSIVE;
  switch (mode) {
    case CheckpointMode::Passive:
      break;
    case CheckpointMode::Full:
      sqliteMode = SQLITE_CHECKPOINT_FULL;
      break;
    case CheckpointMode::Restart:
      sqliteMode = SQLITE_CHECKPOINT_RESTART;
      break;
    case CheckpointMode::Truncate:
      sqliteMode = SQLITE_CHECKPOINT_TRUNCATE;
      break;
  }
  Connection& connection = *lease.database->connection_;
  connection.clearError();
  const int rc = sqlite3_wal_checkpoint_v2(connection.db, nullptr, sqliteMode, nullptr, nullptr);
  bool ok = rc == SQLITE_OK;
  if (!ok) connection.failFromSQLite(rc, std::string());
  if (error != nullptr) *error = ok ? Error() : connection.error;
  release(lease);
  return ok;
}

void ConnectionPool::interrupt() noexcept {
  if (writer_) writer_->interrupt();
  std::lock_guard<std::mutex> lock(readersMutex_);
  for (const Reader& reader : readers_) {
    if (reader.database) reader.database->interrupt();
  }
}

void ConnectionPool::wakeWaiters() noexcept {
  // Taking each lock orders the wake after a waiter's check of its job.
  {
    std::lock_guard<std::mutex> lock(writerMutex_);
  }
  writerFreed_.notify_all();
  {
    std::lock_guard<std::mutex> lock(readersMutex_);
  }
  readerFreed_.notify_all();
}

// MARK: Snapshots

bool ConnectionPool::pinSnapshot(Database& pin, sqlite3_snapshot*& out, bool& walEmpty, Error& error) noexcept {
  const detail::SnapshotApi& api = *detail::snapshotApi();
  walEmpty = false;
  if (!pin.execute("BEGIN DEFERRED") || !pin.execute("SELECT 1 FROM sqlite_master LIMIT 1")) {
    error = pin.lastError();
    endOpenTransaction(pin);
    return false;
  }
  sqlite3_snapshot* snapshot = nullptr;
  int rc = api.get(pin.handle(), "main", &snapshot);
  if (rc != SQLITE_OK) {
    // In a read transaction of a WAL database, without a write transaction,
    // the one reason left: no transaction was written to the write-ahead
    // log since it was created or restarted.
    walEmpty = (rc & 0xff) == SQLITE_ERROR;
    error = poolError(rc, "SQLite cannot record a snapshot of an empty write-ahead log");
    endOpenTransaction(pin);
    return false;
  }
  // Reopening the transaction on the snapshot it is at gives it a read mark
  // of the write-ahead log (a plain read transaction of a log whose every
  // frame was checkpointed reads the file alone, which would let the writer
  // restart the log and strand the snapshot): checkpoints cannot copy past
  // it, nor the writer restart the log, while it stays open.
  rc = api.open(pin.handle(), "main", snapshot);
  if (rc != SQLITE_OK) {
    pin.connection_->failFromSQLite(rc, std::string());
    error = pin.lastError();
    api.free(snapshot);
    endOpenTransaction(pin);
    return false;
  }
  out = snapshot;
  return true;
}

bool ConnectionPool::fillEmptyWal(Error& error) noexcept {
  ConnectionLease lease;
  if (!acquire(LeaseKind::Write, lease)) {
    error = lease.error;
    return false;
  }
  Database& writer = *lease.database;
  bool ok = false;
  try {
    Row version;
    ok = writer.execute("PRAGMA user_version", version) && !version.empty() &&
         writer.execute("PRAGMA user_version = " + std::to_string(version.value(0).asInteger()));
  } catch (...) {
    ok = false;
  }
  if (!ok && !writer.lastError().isError()) error = poolError(SQLITE_NOMEM, "out of memory");
  if (!ok && writer.lastError().isError()) error = writer.lastError();
  const bool committed = finish(lease, ok, true) && ok;
  if (ok && !committed) error = lease.error;
  release(lease);
  return committed;
}

bool ConnectionPool::makeSnapshot(std::shared_ptr<SnapshotState>& out, Error& error) noexcept {
  if (detail::snapshotApi() == nullptr) {
    error = detail::snapshotsUnavailableError();
    return false;
  }
  if (!isOpen()) {
    error = openError_;
    return false;
  }
  if (kind_ != Kind::Pool) {
    error = misuse("snapshots are made of a DatabasePool");
    return false;
  }
  if (isHeldByThisThread()) {
    error = misuse(
        "reentrant access: a snapshot of a DatabasePool was made from inside one of its own blocks, where it would "
        "wait for itself; make it outside");
    return false;
  }
  try {
    auto pin = std::make_unique<Database>(openReaderConnection());
    if (!pin->isOpen()) {
      error = pin->lastError();
      return false;
    }
    sqlite3_snapshot* snapshot = nullptr;
    // A checkpoint that empties the log again between the filling write and
    // the pin (TRUNCATE, RESTART) sends it round once more.
    constexpr int kAttempts = 3;
    for (int attempt = 0;; ++attempt) {
      bool walEmpty = false;
      if (pinSnapshot(*pin, snapshot, walEmpty, error)) break;
      if (!walEmpty || attempt + 1 >= kAttempts) return false;
      if (!writer_) {
        error = poolError(SQLITE_ERROR,
                          "SQLite cannot record a snapshot of an empty write-ahead log, and a read-only DatabasePool "
                          "cannot write one to fill it: make the snapshot once a transaction was written to the "
                          "database after it was opened or checkpointed with TRUNCATE or RESTART");
        return false;
      }
      if (!fillEmptyWal(error)) return false;
    }
    auto state = std::make_shared<SnapshotState>(this, std::move(pin), snapshot);
    {
      std::lock_guard<std::mutex> lock(snapshotsMutex_);
      snapshots_.erase(std::remove_if(snapshots_.begin(), snapshots_.end(),
                                      [](const std::weak_ptr<SnapshotState>& known) { return known.expired(); }),
                       snapshots_.end());
      snapshots_.push_back(state);
    }
    out = std::move(state);
    return true;
  } catch (...) {
    error = poolError(SQLITE_NOMEM, "out of memory");
    return false;
  }
}

void ConnectionPool::closeSnapshots() noexcept {
  std::vector<std::weak_ptr<SnapshotState>> snapshots;
  {
    std::lock_guard<std::mutex> lock(snapshotsMutex_);
    snapshots.swap(snapshots_);
  }
  for (const std::weak_ptr<SnapshotState>& known : snapshots) {
    if (const std::shared_ptr<SnapshotState> snapshot = known.lock()) snapshot->close();
  }
}

std::shared_ptr<ObservationBroker> ConnectionPool::observationBroker(Error& error) noexcept {
  std::lock_guard<std::mutex> lock(brokerMutex_);
  if (broker_) return broker_;
  if (!isOpen()) {
    error = openError_;
    return nullptr;
  }
  std::shared_ptr<ObservationBroker> broker;
  try {
    broker = std::make_shared<ObservationBroker>(*this, externalCheckMilliseconds_);
  } catch (...) {
    error = poolError(SQLITE_NOMEM, "out of memory");
    return nullptr;
  }
  if (writer_) {
    // Registered on the writer while no write runs (waiting for one).
    ConnectionLease lease;
    if (!acquire(LeaseKind::WriteWithoutTransaction, lease)) {
      error = lease.error;
      return nullptr;
    }
    lease.database->add(broker, ObserverExtent::DatabaseLifetime);
    const Error added = lease.database->lastError();
    release(lease);
    if (added.isError()) {
      error = added;
      return nullptr;
    }
  } else if (isHeldByThisThread()) {
    error = misuse(
        "reentrant access: an observation of a DatabasePool was started from inside one of its own blocks; start it "
        "outside");
    return nullptr;
  }
  broker->startExternalChecks();
  broker_ = broker;
  return broker_;
}

std::uint64_t ConnectionPool::externalCheckCount() noexcept {
  std::lock_guard<std::mutex> lock(brokerMutex_);
  return broker_ ? broker_->externalCheckCount() : 0;
}

std::uint64_t ConnectionPool::observationSnapshotFetchCount() noexcept {
  std::lock_guard<std::mutex> lock(brokerMutex_);
  return broker_ ? broker_->snapshotFetchCount() : 0;
}

std::uint64_t ConnectionPool::observationSnapshotFallbackCount() noexcept {
  std::lock_guard<std::mutex> lock(brokerMutex_);
  return broker_ ? broker_->snapshotFallbackCount() : 0;
}

bool ConnectionPool::waitUntilObservationsIdle(std::int64_t milliseconds) noexcept {
  std::shared_ptr<ObservationBroker> broker;
  {
    std::lock_guard<std::mutex> lock(brokerMutex_);
    broker = broker_;
  }
  return !broker || broker->waitUntilIdle(std::chrono::steady_clock::now() + std::chrono::milliseconds(milliseconds));
}

void ConnectionPool::injectTransientFailures(int count, int code) noexcept {
  injectedCode_.store(code);
  injectedFailures_.store(count);
}

}  // namespace sqlitebridge
