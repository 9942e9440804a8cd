// Observation on one connection: the footprints of its statements, the
// changes of its open transaction (savepoints included), its transaction
// observers, and the region its reads cover while a fetch is recorded.
// Made on first use (an observer added, a region asked for, a fetch
// recorded); a connection nobody observes has none and pays nothing but
// one branch per prepare. Every member is used by the thread that holds
// the connection. Internal.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "StatementFootprint.hpp"
#include "sqlitebridge/DatabaseRegion.hpp"
#include "sqlitebridge/Error.hpp"
#include "sqlitebridge/TransactionObserver.hpp"

namespace sqlitebridge {

class Connection;
class Database;

/// Gives the open `connection` the authorizer observation relies on (it
/// does nothing while the connection is not observed).
void installAuthorizer(Connection& connection) noexcept;

/// What a connection's observation hears from a transaction: a kind of
/// change to a table (and the columns of an update; none: every column).
struct ChangeKey {
  ChangeKind kind = ChangeKind::Insert;
  std::string table;
  std::vector<std::string> columns;
};

class ConnectionObservation {
 public:
  explicit ConnectionObservation(Connection& connection) noexcept;
  /// The observation of `database`'s connection, made on first use; null
  /// when closed or out of memory.
  static ConnectionObservation* of(Database& database) noexcept;
  /// While `database`'s observers are told of a commit: the region it
  /// changed; null otherwise.
  static const DatabaseRegion* committedRegionOf(Database& database) noexcept;
  /// Tells SQLite which hooks `database`'s connection needs now.
  static void refreshHooks(Database& database) noexcept;
  ConnectionObservation(const ConnectionObservation&) = delete;
  ConnectionObservation& operator=(const ConnectionObservation&) = delete;

  // MARK: Footprints (Connection::prepare and finalize call these)

  /// A statement is about to be prepared through the core: collect what the
  /// authorizer reports.
  void willPrepare() noexcept;
  /// The statement prepared (null when preparing failed): keep its footprint.
  void didPrepare(sqlite3_stmt* stmt) noexcept;
  /// The statement is being finalized.
  void forget(sqlite3_stmt* stmt) noexcept;
  /// SQLite's authorizer, while this connection prepares a statement. May
  /// answer SQLITE_IGNORE to a DELETE, so that it runs row by row.
  int authorize(int code, const char* first, const char* second, const char* database, const char* inner) noexcept;
  /// The footprint of a statement prepared through the core, or null.
  const StatementFootprint* footprint(sqlite3_stmt* stmt) const noexcept;
  /// Whether a footprint is being made: the statements SQLite runs now are
  /// the core's own lookups, not the caller's (tracing leaves them out).
  bool isMakingFootprint() const noexcept { return preparing_ == Preparing::Building; }
  /// Between these, the statements that run are the core's own schema
  /// lookups (Schema/Query.hpp: the primary key, foreign keys and columns a
  /// query request's rendering asks for): like a footprint's lookups, they
  /// neither read for a recorded fetch nor end the running statement.
  void beginOwnLookup() noexcept { ++ownLookups_; }
  void endOwnLookup() noexcept {
    if (ownLookups_ > 0) --ownLookups_;
  }

  // MARK: Observers

  /// Adds `observer` for `extent` (a weak hold for ObserverLifetime).
  void add(const std::shared_ptr<TransactionObserver>& observer, ObserverExtent extent);
  /// Adds an observer known by `identity` (a Swift object) that lives while
  /// `alive(aliveContext)` says so, held strongly meanwhile.
  void addForeign(const std::shared_ptr<TransactionObserver>& observer, ObserverExtent extent, const void* identity,
                  bool (*alive)(void*), void* aliveContext);
  /// Forgets `observer` (every time it was added).
  void remove(const TransactionObserver* observer) noexcept;
  /// Forgets the observers added with `identity`.
  void removeForeign(const void* identity) noexcept;
  /// Whether observers are registered (SQLite's hooks are needed).
  bool hasObservers() const noexcept { return !observers_.empty(); }
  /// Whether SQLite should report each statement as it starts.
  bool needsStatementEvents() const noexcept { return !observers_.empty() || recordingDepth_ > 0; }

  // MARK: Recording what fetches read

  /// From now until `endRecording`, the regions of the statements that run
  /// are gathered.
  void beginRecording() noexcept;
  /// What ran since `beginRecording` read.
  DatabaseRegion endRecording() noexcept;

  // MARK: SQLite's hooks (Hooks.cpp and Tracing.cpp call these)

  void statementStarts(sqlite3_stmt* stmt) noexcept;
  void rowChanged(ChangeKind kind, const char* table, std::int64_t rowID) noexcept;
  /// The commit hook: nonzero vetoes the commit.
  int willCommit() noexcept;
  void didRollback() noexcept;

  /// Records changes the library cannot see as made by the open transaction
  /// (or, outside one, as a transaction of their own that committed).
  bool notifyChanges(const DatabaseRegion& region);

  // MARK: Telling observers how transactions ended

  /// Whether a transaction ended and its observers are not told yet.
  bool hasPendingEnd() const noexcept { return pending_ != End::None || notified_; }
  /// Tells the observers of the transaction that ended, outside SQLite's
  /// callbacks, with the connection; the connection's error is kept.
  void deliverPendingEnd() noexcept;
  /// The error of the observer that vetoed the commit now failing; false
  /// when no observer vetoed. Taken once.
  bool takeVeto(Error& error) noexcept;
  /// While observers are told of a commit: the region it changed.
  const DatabaseRegion& committedRegion() const noexcept { return committedRegion_; }

 private:
  enum class Preparing { No, Collecting, Building };
  enum class End { None, Commit, Rollback };
  struct Observer {
    std::weak_ptr<TransactionObserver> weak;
    std::shared_ptr<TransactionObserver> strong;
    ObserverExtent extent = ObserverExtent::ObserverLifetime;
    TransactionObserver* identity = nullptr;
    const void* foreignIdentity = nullptr;
    bool (*alive)(void*) = nullptr;
    void* aliveContext = nullptr;
    bool gone() const noexcept { return alive != nullptr ? !alive(aliveContext) : !strong && weak.expired(); }
    std::shared_ptr<TransactionObserver> lock() const {
      if (alive != nullptr && !alive(aliveContext)) return nullptr;
      return strong ? strong : weak.lock();
    }
  };
  struct BufferedEvent {
    DatabaseEvent event;
    std::vector<std::string> columns;
  };
  /// The open transaction (level 0) and each savepoint in it.
  struct Level {
    std::string savepoint;
    std::vector<ChangeKey> keys;
    bool everything = false;
    std::vector<BufferedEvent> events;
  };
  struct Interest {
    ChangeKind kind;
    const char* table;
    std::vector<std::shared_ptr<TransactionObserver>> observers;
  };

  bool observes(TransactionObserver& observer, const ChangeKey& key) noexcept;
  std::vector<std::shared_ptr<TransactionObserver>> interestedObservers() noexcept;
  void addKey(ChangeKind kind, const std::string& table, const std::vector<std::string>& columns) noexcept;
  void applyControl(const StatementFootprint& footprint) noexcept;
  void flushEvents(std::vector<BufferedEvent>& events) noexcept;
  void mergeLevelsFrom(std::size_t index) noexcept;
  void resetTransaction() noexcept;
  DatabaseRegion changedRegion() const;
  void pruneObservers() noexcept;

  Connection& connection_;
  Preparing preparing_ = Preparing::No;
  std::vector<AuthorizerRecord> log_;
  /// What the authorizer reported outside the core's prepares: SQLite
  /// preparing a statement again after a schema change (claimed by the
  /// statement that starts next), or a prepare through `handle()`.
  std::vector<AuthorizerRecord> unclaimed_;
  std::unordered_map<sqlite3_stmt*, StatementFootprint> footprints_;
  std::vector<Observer> observers_;
  int recordingDepth_ = 0;
  /// Nesting of beginOwnLookup.
  int ownLookups_ = 0;
  DatabaseRegion recorded_;
  std::vector<Level> levels_;
  const StatementFootprint* running_ = nullptr;
  std::vector<Interest> interests_;
  End pending_ = End::None;
  std::vector<std::shared_ptr<TransactionObserver>> pendingObservers_;
  DatabaseRegion pendingRegion_;
  DatabaseRegion committedRegion_;
  /// notifyChanges ran in the open transaction, which may end without
  /// SQLite's commit hook (it wrote nothing itself).
  bool notified_ = false;
  bool hasVeto_ = false;
  Error veto_;
};

}  // namespace sqlitebridge
