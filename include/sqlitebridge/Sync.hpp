// Sync between devices: each device keeps its own database and works
// offline; the changesets of its committed transactions go, in one order,
// through a hub (an append-only log), and every copy converges to that
// order. This header holds the values, the hub interface and the engine;
// the SQLite-file hub (`DatabaseSyncHub`) and the round a caller drives
// itself (`SyncRound`) have headers of their own, included at the end. The
// hub on a dqlite cluster is in the cluster module (`ClusterSyncHub`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "Changeset.hpp"
#include "Error.hpp"
#include "Export.hpp"

namespace sqlitebridge {

class ConnectionPool;
class DatabasePool;
class DatabaseQueue;
struct SyncState;

/// One entry of a hub's log: a device's transaction, as a changeset, at
/// its place in the one order every copy applies.
struct SyncEntry {
  /// The entry's place in the log: 1, 2, 3, ... with no gap. Ignored by
  /// `SyncHub::append`, which gives the places.
  std::int64_t position = 0;
  /// The device that committed the transaction (`SyncEngine`'s `device`).
  std::string device;
  /// The transaction's number on its device: 1, 2, 3, ... with no gap.
  std::int64_t sequence = 0;
  /// What the transaction changed in the synced tables (empty when every
  /// change it made was overruled before it reached the log).
  Changeset changeset;

  /// Whether every field is equal.
  friend bool operator==(const SyncEntry& a, const SyncEntry& b) noexcept {
    return a.position == b.position && a.device == b.device && a.sequence == b.sequence && a.changeset == b.changeset;
  }
  /// Whether any field differs.
  friend bool operator!=(const SyncEntry& a, const SyncEntry& b) noexcept { return !(a == b); }
};

/// An append-only log of `SyncEntry`s that keeps one order for every
/// device: a SQLite file (`DatabaseSyncHub`), a table on a dqlite cluster
/// (`ClusterSyncHub`), or a caller's own. Every call may come from any
/// thread; each reports failure by return value, never by exception.
class SQLITEBRIDGE_API SyncHub {
 public:
  /// Destroys the hub.
  virtual ~SyncHub();
  /// Appends `entries` (in order, at the places after `after`) when `after`
  /// is still the log's last position (0 for an empty log), in one
  /// transaction: `appended` true. When the log's last position is another,
  /// appends nothing: `appended` false, and the call still succeeds. Fails
  /// (false, `*error` set, nothing appended) when an entry's (device,
  /// sequence) is in the log already (SQLITE_CONSTRAINT), and for whatever
  /// keeps the hub from answering; a failure may leave the outcome unknown
  /// (the cluster's "in doubt"): the engine then pulls before it pushes
  /// again, so nothing is appended twice.
  virtual bool append(const std::vector<SyncEntry>& entries, std::int64_t after, bool& appended,
                      Error* error) noexcept = 0;
  /// The entries after position `after`, in order, at most `limit` of them,
  /// into `out`. Fails (false, `*error` set) for whatever keeps the hub
  /// from answering, and with SQLITE_CORRUPT for an entry whose changeset
  /// does not parse.
  virtual bool entries(std::int64_t after, std::size_t limit, std::vector<SyncEntry>& out, Error* error) noexcept = 0;
  /// The log's last position (0 when empty), into `position`. This default
  /// reads every entry through `entries`; the library's hubs ask their
  /// table. Fails as `entries` does.
  virtual bool lastPosition(std::int64_t& position, Error* error) noexcept;
};

/// Who decides a conflict met while a device rewrites its copy, and how:
/// told the conflict and whether the change is one of this device's own
/// (pending changes re-applied on top of the pulled ones: `isLocal` true)
/// or the hub's. Called on the syncing thread, inside the round's
/// transaction: it must not use the database. An exception counts as
/// `Abort` (the round fails, the copy as it was).
using SyncConflictHandler = std::function<ChangesetConflictResolution(const ChangesetConflict&, bool isLocal)>;

/// How a sync round settles conflicts: `.hubOrderWins` (the default) or a
/// caller's handler.
struct SQLITEBRIDGE_API SyncConflictPolicy {
  /// Later in the log wins: a device's pending changes come after the
  /// entries it pulls, so they overwrite a row the hub changed (Data) or
  /// inserted with the same key (Conflict); an update or delete of a row the
  /// hub deleted is dropped (NotFound); a change that breaks a UNIQUE,
  /// CHECK or NOT NULL constraint is dropped (Constraint). Every settled
  /// conflict is in the round's `SyncReport`. Never asked, whatever the
  /// policy: a delete of a row that is gone already (deleted on two
  /// devices, or taken by a cascade the same changeset fired first), and a
  /// change a foreign key action or trigger recorded that the same action
  /// made here again: the change is made already.
  static SyncConflictPolicy hubOrderWins() noexcept;
  /// The caller's `handler` decides (empty: `hubOrderWins`).
  static SyncConflictPolicy custom(SyncConflictHandler handler) noexcept;
  /// What `hubOrderWins` answers to `conflict` (for a handler that decides
  /// some conflicts and leaves the rest to the default).
  static ChangesetConflictResolution hubOrderWinsResolution(const ChangesetConflict& conflict, bool isLocal) noexcept;
  /// The handler (empty for `hubOrderWins`).
  SyncConflictHandler handler;
};

/// What one `SyncEngine::sync` did.
struct SyncReport {
  /// Entries this device appended to the hub.
  std::int64_t pushed = 0;
  /// Entries of other devices applied to this copy.
  std::int64_t pulled = 0;
  /// Every conflict the round settled (by the policy), and every pending
  /// operation dropped because it would break a foreign key (kind
  /// `ForeignKey`, with the operation), in the order met.
  std::vector<ChangesetConflict> conflicts;
  /// How many times the round pulled (1 when the log did not move between
  /// its pull and its push).
  int rounds = 0;
};

/// Syncs the given tables of a queue's or pool's database through a hub.
///
///     DatabaseQueue queue("/path/device.sqlite");
///     auto hub = std::make_shared<DatabaseSyncHub>("/path/hub.sqlite");
///     SyncEngine engine(queue, {"notes", "tags"}, "phone", hub);
///     SyncReport report;
///     Error error;
///     if (!engine.sync(report, &error)) std::cerr << error.message << "\n";
///
/// - From its creation on, every transaction the writer commits through the
///   library (`write`, `Transaction`, `inTransaction`, `apply`, migrations)
///   that changes a synced table is recorded, inside that transaction, as
///   a pending changeset numbered for this device (tables
///   `sqlitebridge_sync_state` and `sqlitebridge_sync_pending` of the same
///   database): a crash loses nothing committed. A commit of such changes
///   by other means (an autocommit statement, `COMMIT` run as SQL) is
///   refused (SQLITE_MISUSE) instead of going unrecorded.
/// - `sync` pulls the log's new entries; when there are any from other
///   devices, it undoes the pending changes, applies the pulled ones in log
///   order, re-applies the pending ones on top (the policy settles
///   conflicts; a pending operation that would break a foreign key is
///   dropped) and keeps what they changed as the new pending changesets,
///   all in one transaction; then pushes the pending ones conditionally,
///   and pulls again when the log moved meanwhile (10 times at most).
/// - Every device must have the same columns in the synced tables: an entry
///   that does not fit fails the round with SQLITE_SCHEMA naming the table
///   and the columns.
///
/// Thread-safe: every call may come from any thread (not from inside one
/// of the writer's blocks: SQLITE_MISUSE); rounds run one at a time. The
/// queue or pool must outlive the engine. Move-only.
class SQLITEBRIDGE_API SyncEngine {
 public:
  /// Syncs `tables` of `queue`'s database as `device` through `hub`.
  /// A null `hub` makes an engine whose rounds the caller drives with
  /// `SyncRound` (doing the hub's calls itself). `error()` tells how it
  /// went: the queue's open error; SQLITE_MISUSE for no table, an empty
  /// device name, or a database that syncs as another device; SQLITE_ERROR for a table that does not exist or has
  /// no PRIMARY KEY (naming it); the session extension's absence.
  SyncEngine(DatabaseQueue& queue, const std::vector<std::string>& tables, const std::string& device,
             std::shared_ptr<SyncHub> hub, SyncConflictPolicy policy = SyncConflictPolicy::hubOrderWins()) noexcept;
  /// Syncs `tables` of `pool`'s database (as for a queue).
  SyncEngine(DatabasePool& pool, const std::vector<std::string>& tables, const std::string& device,
             std::shared_ptr<SyncHub> hub, SyncConflictPolicy policy = SyncConflictPolicy::hubOrderWins()) noexcept;
  /// Takes over the other engine (which then fails every call with
  /// SQLITE_MISUSE).
  SyncEngine(SyncEngine&&) noexcept;
  /// Stops this engine's recording, then takes over the other one.
  SyncEngine& operator=(SyncEngine&&) noexcept;
  SyncEngine(const SyncEngine&) = delete;
  SyncEngine& operator=(const SyncEngine&) = delete;
  /// Stops recording (waits for the writer to do so). Pending changes stay
  /// in the database for the next engine.
  ~SyncEngine();

  /// Why the engine did not start; code 0 when it did.
  Error error() const noexcept;
  /// The device name.
  std::string device() const;
  /// How many committed transactions wait to be pushed, into `count`.
  bool pendingCount(std::int64_t& count, Error* error = nullptr) const noexcept;
  /// Records every row now in the synced tables as one pending change (an
  /// insert per row), pushed by the next sync; their number into `rows`.
  /// For the device whose rows are the starting point when syncing begins
  /// on a database that has data already: what was there before the
  /// engine's first start is otherwise never pushed. Call it once, on one
  /// device: copies that hold rows with the same keys (a bundled database
  /// copied everywhere) meet them as conflicts (kind `Conflict`, settled by
  /// the policy). Empty tables record nothing (`rows` 0). Fails (nothing
  /// recorded) as the writer does: SQLITE_MISUSE from inside one of its
  /// blocks, SQLITE_BUSY, the engine's start error.
  bool recordExistingRows(std::int64_t& rows, Error* error = nullptr) noexcept;
  /// One sync (pull, rewrite, push, repeated while the log moves), through
  /// the engine's hub. True with `report` filled when every pending change
  /// reached the log. False with `*error` set otherwise: the hub's failure
  /// (pending changes kept, pushed by a later sync), SQLITE_BUSY when the
  /// log kept moving for 10 rounds, SQLITE_SCHEMA for entries that do not
  /// fit, SQLITE_ABORT when the policy aborted (this copy as before the
  /// round), SQLITE_MISUSE without a hub or while another round of this
  /// engine runs.
  bool sync(SyncReport& report, Error* error = nullptr) noexcept;

 private:
  friend struct SyncAccess;
  SyncEngine(ConnectionPool* pool, const std::vector<std::string>& tables, const std::string& device,
             std::shared_ptr<SyncHub> hub, SyncConflictPolicy policy) noexcept;
  std::shared_ptr<SyncState> state_;
};

}  // namespace sqlitebridge

#include "DatabaseSyncHub.hpp"
#include "SyncRound.hpp"
