// A syncing device's own tables, in its database: where it stands in the
// hub's log, and the changesets of its committed transactions not yet in
// the log. Kept in the same database as the synced tables, so that the
// transaction that changes them also records them (a crash loses nothing
// committed). Internal.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sqlitebridge/Changeset.hpp"
#include "sqlitebridge/Error.hpp"

namespace sqlitebridge {

class Database;

/// The table holding the device's name, its place in the hub's log and the
/// next transaction number (one row). Both tables are named `sqlitebridge_…`:
/// library tables, which a session attached to every table leaves out
/// (`isLibraryTable`).
extern const char* const kSyncStateTable;
/// The table holding the pending changesets, by transaction number.
extern const char* const kSyncPendingTable;

/// `db`'s last error into `*error` (when not null); false. What the sync
/// code returns when a statement it ran failed.
bool syncDatabaseFailure(Database& db, Error* error) noexcept;

/// Whether `table` is one of the sync engine's own tables (never synced).
bool isSyncBookkeepingTable(const std::string& table) noexcept;

/// One committed transaction not yet in the hub's log.
struct PendingChange {
  std::int64_t sequence = 0;
  Changeset changeset;
};

/// Makes the tables when missing and records `device` as this database's
/// name; fails with SQLITE_MISUSE when the database syncs as another
/// device. Inside the caller's write transaction.
bool prepareSyncBookkeeping(Database& db, const std::string& device, Error* error) noexcept;
/// The last hub position this copy holds, into `position`.
bool readSyncPosition(Database& db, std::int64_t& position, Error* error) noexcept;
/// Records `position` as the last hub position this copy holds.
bool writeSyncPosition(Database& db, std::int64_t position, Error* error) noexcept;
/// The pending changes, oldest first, into `out`.
bool readPendingChanges(Database& db, std::vector<PendingChange>& out, Error* error) noexcept;
/// How many pending changes there are, into `count`.
bool countPendingChanges(Database& db, std::int64_t& count, Error* error) noexcept;
/// Records `changeset` as the next pending change; its number into
/// `sequence`.
bool appendPendingChange(Database& db, const Changeset& changeset, std::int64_t& sequence, Error* error) noexcept;
/// Replaces the changeset of pending change `sequence`.
bool replacePendingChange(Database& db, std::int64_t sequence, const Changeset& changeset, Error* error) noexcept;
/// Forgets the pending changes numbered up to `sequence` (they are in the
/// log).
bool forgetPendingChanges(Database& db, std::int64_t throughSequence, Error* error) noexcept;

}  // namespace sqlitebridge
