// ConnectionObservation: footprints, the open transaction's changes, and
// who is told what when, on one connection.
#include "ConnectionObservation.hpp"

#include <algorithm>

#include "Connection.hpp"
#include "Hooks.hpp"
#include "SqlText.hpp"
#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

namespace {

// The authorizer every connection gets at open: it does nothing until the
// connection is observed.
int authorizerTrampoline(void* argument, int code, const char* first, const char* second, const char* database,
                         const char* inner) noexcept {
  Connection& connection = *static_cast<Connection*>(argument);
  if (!connection.observation) return SQLITE_OK;
  return connection.observation->authorize(code, first, second, database, inner);
}

// How much the authorizer keeps of SQLite's own re-prepares before giving
// up on them (the statement then counts as unknown).
constexpr std::size_t kUnclaimedLimit = 4096;

Error vetoError(const Error& given) {
  if (given.code != 0) return given;
  // No code given: SQLite's own for a vetoed commit, with the observer's
  // message when it gave one.
  return Error{SQLITE_CONSTRAINT, SQLITE_CONSTRAINT_COMMITHOOK,
               given.message.empty() ? "a transaction observer vetoed the commit" : given.message, std::string()};
}

void mergeColumns(std::vector<std::string>& into, const std::vector<std::string>& columns) {
  if (into.empty()) return;  // every column already
  if (columns.empty()) {
    into.clear();
    return;
  }
  for (const std::string& column : columns) {
    bool known = false;
    for (const std::string& existing : into) known = known || sameIdentifier(existing, column);
    if (!known) into.push_back(column);
  }
}

void addKeyTo(std::vector<ChangeKey>& keys, ChangeKind kind, const std::string& table,
              const std::vector<std::string>& columns) {
  for (ChangeKey& key : keys) {
    if (key.kind != kind || !sameIdentifier(key.table, table)) continue;
    if (kind == ChangeKind::Update) mergeColumns(key.columns, columns);
    return;
  }
  keys.push_back(ChangeKey{kind, table, kind == ChangeKind::Update ? columns : std::vector<std::string>()});
}

}  // namespace

void installAuthorizer(Connection& connection) noexcept {
  if (connection.db != nullptr) sqlite3_set_authorizer(connection.db, &authorizerTrampoline, &connection);
}

ConnectionObservation::ConnectionObservation(Connection& connection) noexcept : connection_(connection) {}

ConnectionObservation* ConnectionObservation::of(Database& database) noexcept {
  if (!database.connection_ || database.connection_->db == nullptr) return nullptr;
  return database.connection_->observe();
}

const DatabaseRegion* ConnectionObservation::committedRegionOf(Database& database) noexcept {
  if (!database.connection_ || !database.connection_->observation) return nullptr;
  return &database.connection_->observation->committedRegion_;
}

void ConnectionObservation::refreshHooks(Database& database) noexcept {
  if (database.connection_) refreshSQLiteHooks(*database.connection_);
}

// MARK: Footprints

void ConnectionObservation::willPrepare() noexcept {
  log_.clear();
  preparing_ = Preparing::Collecting;
}

void ConnectionObservation::didPrepare(sqlite3_stmt* stmt) noexcept {
  preparing_ = Preparing::Building;  // the lookups below prepare statements of their own
  if (stmt != nullptr) {
    StatementFootprint footprint = makeFootprint(connection_.db, log_);
    try {
      footprints_[stmt] = std::move(footprint);
    } catch (...) {
      // Out of memory: the statement stays unknown (reads and changes all).
    }
  }
  log_.clear();
  preparing_ = Preparing::No;
}

void ConnectionObservation::forget(sqlite3_stmt* stmt) noexcept {
  auto found = footprints_.find(stmt);
  if (found == footprints_.end()) return;
  if (running_ == &found->second) running_ = nullptr;
  footprints_.erase(found);
}

const StatementFootprint* ConnectionObservation::footprint(sqlite3_stmt* stmt) const noexcept {
  auto found = footprints_.find(stmt);
  return found == footprints_.end() ? nullptr : &found->second;
}

int ConnectionObservation::authorize(int code, const char* first, const char* second, const char* database,
                                     const char* inner) noexcept {
  if (preparing_ == Preparing::Building) return SQLITE_OK;
  // SQLite compiling what one of the core's own lookups needs (a view's
  // columns for pragma_table_list): no caller's statement was re-prepared.
  if (preparing_ == Preparing::No && ownLookups_ > 0) return SQLITE_OK;
  std::vector<AuthorizerRecord>& records = preparing_ == Preparing::Collecting ? log_ : unclaimed_;
  if (preparing_ == Preparing::No && records.size() >= kUnclaimedLimit) return SQLITE_OK;
  try {
    AuthorizerRecord record;
    record.code = code;
    if (first != nullptr) record.first = first;
    if (second != nullptr) record.second = second;
    if (database != nullptr) record.database = database;
    if (inner != nullptr) record.inner = inner;
    // SQLITE_IGNORE makes a DELETE run row by row, so that the update hook
    // tells of every row, while someone observes deletions of the table.
    // Never for DROP TABLE's own delete, which IGNORE would silently skip.
    bool ignore = false;
    if (code == SQLITE_DELETE && preparing_ == Preparing::Collecting && !isInternalTable(record.first)) {
      const bool dropping =
          !records.empty() &&
          (records.back().code == SQLITE_DROP_TABLE || records.back().code == SQLITE_DROP_TEMP_TABLE ||
           records.back().code == SQLITE_DROP_VTABLE) &&
          sameIdentifier(records.back().first, record.first);
      if (!dropping) {
        const ChangeKey key{ChangeKind::Delete, record.first, {}};
        for (const Observer& entry : observers_) {
          std::shared_ptr<TransactionObserver> observer = entry.lock();
          if (observer && observes(*observer, key)) {
            ignore = true;
            break;
          }
        }
      }
    }
    record.truncationOff = ignore;
    records.push_back(std::move(record));
    return ignore ? SQLITE_IGNORE : SQLITE_OK;
  } catch (...) {
    return SQLITE_OK;
  }
}

// MARK: Observers

void ConnectionObservation::add(const std::shared_ptr<TransactionObserver>& observer, ObserverExtent extent) {
  if (!observer) return;
  Observer entry;
  entry.identity = observer.get();
  entry.extent = extent;
  if (extent == ObserverExtent::ObserverLifetime) {
    entry.weak = observer;
  } else {
    entry.strong = observer;
  }
  observers_.push_back(std::move(entry));
}

void ConnectionObservation::addForeign(const std::shared_ptr<TransactionObserver>& observer, ObserverExtent extent,
                                       const void* identity, bool (*alive)(void*), void* aliveContext) {
  if (!observer) return;
  Observer entry;
  entry.identity = observer.get();
  entry.foreignIdentity = identity;
  entry.extent = extent;
  entry.strong = observer;
  entry.alive = alive;
  entry.aliveContext = aliveContext;
  observers_.push_back(std::move(entry));
}

void ConnectionObservation::removeForeign(const void* identity) noexcept {
  observers_.erase(std::remove_if(observers_.begin(), observers_.end(),
                                  [&](const Observer& entry) { return entry.foreignIdentity == identity; }),
                   observers_.end());
  interests_.clear();
}

void ConnectionObservation::remove(const TransactionObserver* observer) noexcept {
  observers_.erase(std::remove_if(observers_.begin(), observers_.end(),
                                  [&](const Observer& entry) { return entry.identity == observer; }),
                   observers_.end());
  interests_.clear();
}

void ConnectionObservation::pruneObservers() noexcept {
  observers_.erase(
      std::remove_if(observers_.begin(), observers_.end(), [](const Observer& entry) { return entry.gone(); }),
      observers_.end());
}

bool ConnectionObservation::observes(TransactionObserver& observer, const ChangeKey& key) noexcept {
  try {
    if (observer.observes(key.kind, key.table, key.columns)) return true;
    // A REPLACE conflict deletes rows without telling the update hook: an
    // observer of deletions hears of every insert and update too.
    static const std::vector<std::string> none;
    return key.kind != ChangeKind::Delete && observer.observes(ChangeKind::Delete, key.table, none);
  } catch (...) {
    return true;  // never miss a change because an observer failed to answer
  }
}

std::vector<std::shared_ptr<TransactionObserver>> ConnectionObservation::interestedObservers() noexcept {
  std::vector<std::shared_ptr<TransactionObserver>> interested;
  try {
    pruneObservers();
    bool everything = false;
    std::vector<ChangeKey> merged;
    for (const Level& level : levels_) {
      everything = everything || level.everything;
      if (levels_.size() > 1) {
        for (const ChangeKey& key : level.keys) addKeyTo(merged, key.kind, key.table, key.columns);
      }
    }
    const std::vector<ChangeKey>& keys = levels_.size() == 1 ? levels_[0].keys : merged;
    if (!everything && keys.empty()) return interested;
    for (const Observer& entry : observers_) {
      std::shared_ptr<TransactionObserver> observer = entry.lock();
      if (!observer) continue;
      bool wants = everything;
      for (std::size_t i = 0; !wants && i < keys.size(); ++i) wants = observes(*observer, keys[i]);
      if (wants && std::find(interested.begin(), interested.end(), observer) == interested.end()) {
        interested.push_back(std::move(observer));
      }
    }
  } catch (...) {
  }
  return interested;
}

// MARK: Recording

void ConnectionObservation::beginRecording() noexcept {
  if (recordingDepth_++ == 0) recorded_ = DatabaseRegion();
}

DatabaseRegion ConnectionObservation::endRecording() noexcept {
  if (recordingDepth_ > 0) --recordingDepth_;
  try {
    return recorded_;
  } catch (...) {
    try {
      return DatabaseRegion::fullDatabase();
    } catch (...) {
      return DatabaseRegion();
    }
  }
}

// MARK: The open transaction

void ConnectionObservation::addKey(ChangeKind kind, const std::string& table,
                                   const std::vector<std::string>& columns) noexcept {
  try {
    if (levels_.empty()) levels_.emplace_back();
    addKeyTo(levels_.back().keys, kind, table, columns);
  } catch (...) {
    if (!levels_.empty()) levels_.back().everything = true;
  }
}

void ConnectionObservation::statementStarts(sqlite3_stmt* stmt) noexcept {
  // The lookups of a footprint being made (didPrepare), and the schema
  // lookups of the core's own calls, are the core's own: they neither read
  // for a recorded fetch nor end the running statement.
  if (isMakingFootprint() || ownLookups_ > 0) return;
  hasVeto_ = false;  // a veto not reported by the statement it failed is stale
  running_ = nullptr;
  interests_.clear();
  auto found = footprints_.find(stmt);
  StatementFootprint* footprint = found == footprints_.end() ? nullptr : &found->second;
  if (!unclaimed_.empty()) {
    // SQLite prepared this statement again (the schema changed): what it
    // may read and change now is added to what it did before. The tables
    // cannot be looked up inside SQLite's callback, so every change counts
    // as soon as it runs.
    if (footprint != nullptr && !footprint->unknown) {
      try {
        StatementFootprint again = makeFootprint(nullptr, unclaimed_);
        footprint->reads.formUnion(again.reads);
        footprint->unknown = again.unknown;
        for (WriteTarget& target : again.writes) footprint->writes.push_back(std::move(target));
      } catch (...) {
        footprint->unknown = true;
      }
    }
    unclaimed_.clear();
  }
  if (recordingDepth_ > 0) {
    try {
      if (footprint != nullptr && !footprint->unknown) {
        recorded_.formUnion(footprint->reads);
      } else {
        recorded_ = DatabaseRegion::fullDatabase();
      }
    } catch (...) {
    }
  }
  if (observers_.empty()) return;
  if (footprint == nullptr || footprint->unknown) {
    // Prepared outside the core (or its footprint was lost): a write may
    // have changed anything.
    if (sqlite3_stmt_readonly(stmt) == 0) {
      if (levels_.empty()) levels_.emplace_back();
      levels_.back().everything = true;
    }
    return;
  }
  running_ = footprint;
  if (footprint->control != TransactionControl::None) {
    applyControl(*footprint);
    return;
  }
  for (const WriteTarget& target : footprint->writes) {
    if (target.hidden) addKey(target.kind, target.table, target.columns);
  }
}

void ConnectionObservation::applyControl(const StatementFootprint& footprint) noexcept {
  try {
    if (levels_.empty()) levels_.emplace_back();
    // The savepoint named, searched from the innermost (SQLite's rule);
    // level 0 is the transaction itself.
    auto find = [&]() -> std::size_t {
      for (std::size_t i = levels_.size(); i-- > 1;) {
        if (sameIdentifier(levels_[i].savepoint, footprint.savepoint)) return i;
      }
      return 0;
    };
    switch (footprint.control) {
      case TransactionControl::Savepoint: {
        Level level;
        level.savepoint = footprint.savepoint;
        levels_.push_back(std::move(level));
        break;
      }
      case TransactionControl::Release: {
        const std::size_t index = find();
        if (index == 0) break;  // no such savepoint: the statement fails
        mergeLevelsFrom(index);
        if (levels_.size() == 1) flushEvents(levels_[0].events);
        break;
      }
      case TransactionControl::RollbackTo: {
        const std::size_t index = find();
        if (index == 0) break;
        levels_.resize(index + 1);
        Level& level = levels_[index];
        level.keys.clear();
        level.everything = false;
        level.events.clear();
        break;
      }
      default:
        break;
    }
  } catch (...) {
    if (!levels_.empty()) levels_.back().everything = true;
  }
}

void ConnectionObservation::mergeLevelsFrom(std::size_t index) noexcept {
  if (index == 0 || index >= levels_.size()) return;
  Level& into = levels_[index - 1];
  try {
    for (std::size_t i = index; i < levels_.size(); ++i) {
      Level& level = levels_[i];
      into.everything = into.everything || level.everything;
      for (const ChangeKey& key : level.keys) addKeyTo(into.keys, key.kind, key.table, key.columns);
      for (BufferedEvent& event : level.events) into.events.push_back(std::move(event));
    }
  } catch (...) {
    into.everything = true;
  }
  levels_.resize(index);
}

void ConnectionObservation::rowChanged(ChangeKind kind, const char* table, std::int64_t rowID) noexcept {
  if (observers_.empty() || table == nullptr) return;
  static const std::vector<std::string> everyColumn;
  const std::vector<std::string>* columns = &everyColumn;
  if (kind == ChangeKind::Update && running_ != nullptr) {
    if (const WriteTarget* target = running_->target(ChangeKind::Update, table)) columns = &target->columns;
  }
  try {
    if (levels_.empty()) levels_.emplace_back();
    // Rows of one table come in runs: the last key is checked first.
    std::vector<ChangeKey>& keys = levels_.back().keys;
    const bool known = !keys.empty() && keys.back().kind == kind && keys.back().table == table &&
                       (kind != ChangeKind::Update || keys.back().columns.empty() || keys.back().columns == *columns);
    if (!known) addKeyTo(keys, kind, table, *columns);
    // Who wants this event: asked once per statement, kind and table.
    Interest* interest = nullptr;
    for (Interest& candidate : interests_) {
      if (candidate.kind == kind && candidate.table == table) interest = &candidate;
    }
    if (interest == nullptr) {
      Interest made{kind, table, {}};
      const std::string name(table);
      for (const Observer& entry : observers_) {
        std::shared_ptr<TransactionObserver> observer = entry.lock();
        if (!observer) continue;
        bool wants = false;
        try {
          wants = observer->observes(kind, name, *columns);
        } catch (...) {
        }
        if (wants) made.observers.push_back(std::move(observer));
      }
      interests_.push_back(std::move(made));
      interest = &interests_.back();
    }
    if (interest->observers.empty()) return;
    DatabaseEvent event{kind, table, rowID};
    if (levels_.size() > 1) {
      levels_.back().events.push_back(BufferedEvent{std::move(event), *columns});
      return;
    }
    for (const std::shared_ptr<TransactionObserver>& observer : interest->observers) {
      try {
        observer->databaseDidChange(event);
      } catch (...) {
      }
    }
  } catch (...) {
    if (!levels_.empty()) levels_.back().everything = true;
  }
}

void ConnectionObservation::flushEvents(std::vector<BufferedEvent>& events) noexcept {
  std::vector<BufferedEvent> told;
  told.swap(events);
  for (const BufferedEvent& buffered : told) {
    for (const Observer& entry : observers_) {
      std::shared_ptr<TransactionObserver> observer = entry.lock();
      if (!observer) continue;
      try {
        if (observer->observes(buffered.event.kind, buffered.event.table, buffered.columns)) {
          observer->databaseDidChange(buffered.event);
        }
      } catch (...) {
      }
    }
  }
}

DatabaseRegion ConnectionObservation::changedRegion() const {
  DatabaseRegion region;
  for (const Level& level : levels_) {
    if (level.everything) return DatabaseRegion::fullDatabase();
    for (const ChangeKey& key : level.keys) {
      if (key.kind == ChangeKind::Update && !key.columns.empty()) {
        region.formUnion(DatabaseRegion::columns(key.table, key.columns));
      } else {
        region.formUnion(DatabaseRegion::table(key.table));
      }
    }
  }
  return region;
}

void ConnectionObservation::resetTransaction() noexcept {
  notified_ = false;
  // Level 0 is kept, emptied, so that the next transaction reuses its
  // storage.
  if (levels_.size() > 1) levels_.resize(1);
  if (!levels_.empty()) {
    Level& level = levels_[0];
    level.keys.clear();
    level.everything = false;
    level.events.clear();
  }
  interests_.clear();
}

int ConnectionObservation::willCommit() noexcept {
  if (levels_.empty()) levels_.emplace_back();
  mergeLevelsFrom(1);
  flushEvents(levels_[0].events);
  std::vector<std::shared_ptr<TransactionObserver>> interested = interestedObservers();
  for (const std::shared_ptr<TransactionObserver>& observer : interested) {
    Error error;
    bool accepted = false;
    try {
      accepted = observer->databaseWillCommit(&error);
    } catch (...) {
      error = Error{SQLITE_CONSTRAINT, SQLITE_CONSTRAINT_COMMITHOOK,
                    "a transaction observer threw from databaseWillCommit", std::string()};
    }
    if (!accepted) {
      try {
        veto_ = vetoError(error);
      } catch (...) {
        veto_ = Error{SQLITE_CONSTRAINT, SQLITE_CONSTRAINT_COMMITHOOK, std::string(), std::string()};
      }
      hasVeto_ = true;
      return 1;  // SQLite rolls back, then calls the rollback hook
    }
  }
  try {
    // Only the observers told of the commit read the region.
    pendingRegion_ = interested.empty() ? DatabaseRegion() : changedRegion();
  } catch (...) {
    pendingRegion_ = DatabaseRegion::fullDatabase();
  }
  pendingObservers_ = std::move(interested);
  pending_ = End::Commit;
  notified_ = false;
  return 0;
}

void ConnectionObservation::didRollback() noexcept {
  bool changed = false;
  for (const Level& level : levels_) changed = changed || level.everything || !level.keys.empty();
  if (changed) {
    pendingObservers_ = interestedObservers();
    pendingRegion_ = DatabaseRegion();
    pending_ = End::Rollback;
  }
  resetTransaction();
}

bool ConnectionObservation::notifyChanges(const DatabaseRegion& region) {
  if (region.isEmpty()) return true;
  const bool inTransaction = connection_.db != nullptr && sqlite3_get_autocommit(connection_.db) == 0;
  if (levels_.empty()) levels_.emplace_back();
  if (region.isFullDatabase()) {
    levels_.back().everything = true;
  } else {
    for (const std::string& table : region.tableNames()) {
      addKeyTo(levels_.back().keys, ChangeKind::Insert, table, {});
      addKeyTo(levels_.back().keys, ChangeKind::Update, table, {});
      addKeyTo(levels_.back().keys, ChangeKind::Delete, table, {});
    }
  }
  if (inTransaction) {
    notified_ = true;
    return true;
  }
  // Outside a transaction the changes were made already: told as a commit.
  pendingObservers_ = interestedObservers();
  pendingRegion_ = region;
  pending_ = End::Commit;
  deliverPendingEnd();
  return true;
}

bool ConnectionObservation::takeVeto(Error& error) noexcept {
  if (!hasVeto_) return false;
  hasVeto_ = false;
  try {
    error = veto_;
  } catch (...) {
    error = Error{veto_.code, veto_.extendedCode, std::string(), std::string()};
  }
  return true;
}

// MARK: Telling observers

void ConnectionObservation::deliverPendingEnd() noexcept {
  if (pending_ == End::None && notified_ && connection_.db != nullptr && sqlite3_get_autocommit(connection_.db) != 0) {
    // The transaction that notifyChanges named committed without writing
    // (SQLite calls no commit hook then; a rollback would have cleared it).
    notified_ = false;
    pendingObservers_ = interestedObservers();
    try {
      pendingRegion_ = changedRegion();
    } catch (...) {
      pendingRegion_ = DatabaseRegion::fullDatabase();
    }
    pending_ = End::Commit;
  }
  if (pending_ == End::None) return;
  const End end = pending_;
  pending_ = End::None;
  std::vector<std::shared_ptr<TransactionObserver>> observers;
  observers.swap(pendingObservers_);
  DatabaseRegion region = std::move(pendingRegion_);
  pendingRegion_ = DatabaseRegion();
  if (connection_.db == nullptr) return;
  // A COMMIT that failed after the commit hook (SQLITE_BUSY) leaves the
  // transaction open: nothing ended.
  if (end == End::Commit && sqlite3_get_autocommit(connection_.db) == 0) return;
  if (end == End::Commit) resetTransaction();
  const std::size_t before = observers_.size();
  observers_.erase(
      std::remove_if(observers_.begin(), observers_.end(),
                     [](const Observer& entry) { return entry.extent == ObserverExtent::NextTransaction; }),
      observers_.end());
  const bool removed = observers_.size() != before;
  if (observers.empty()) {
    if (removed) refreshSQLiteHooks(connection_);
    return;
  }
  std::shared_ptr<Connection> self;
  try {
    self = connection_.shared_from_this();
  } catch (...) {
    return;
  }
  // The observers' own statements must not change what the call that
  // ended the transaction reports.
  Error savedError = std::move(connection_.error);
  const std::uint64_t savedCount = connection_.failureCount;
  const std::uint64_t savedMark = connection_.failureMark;
  Error savedFirst = std::move(connection_.firstFailureSinceMark);
  DatabaseRegion outer = std::move(committedRegion_);
  committedRegion_ = std::move(region);
  {
    Database database(self);
    for (const std::shared_ptr<TransactionObserver>& observer : observers) {
      try {
        if (end == End::Commit) {
          observer->databaseDidCommit(database);
        } else {
          observer->databaseDidRollback(database);
        }
      } catch (...) {
      }
    }
  }
  committedRegion_ = std::move(outer);
  connection_.error = std::move(savedError);
  connection_.failureCount = savedCount;
  connection_.failureMark = savedMark;
  connection_.firstFailureSinceMark = std::move(savedFirst);
  if (removed) refreshSQLiteHooks(connection_);
}

}  // namespace sqlitebridge
