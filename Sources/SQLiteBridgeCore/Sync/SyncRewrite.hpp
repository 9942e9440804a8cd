// A sync round's rewriting of the device's copy, inside one transaction:
// the pending changes undone, the pulled entries applied in log order, the
// pending changes applied again on top (rebased), foreign keys kept.
// Internal.
#pragma once

#include <vector>

#include "SyncBookkeeping.hpp"
#include "sqlitebridge/Sync.hpp"

namespace sqlitebridge {

class Database;
struct SyncState;

/// Fails with SQLITE_SCHEMA, naming the table and its columns, when an
/// entry changes a table this device does not sync, or holds more columns
/// than the table here (or another primary key). An entry with fewer
/// columns applies (a device that migrated additively reads older entries).
bool checkEntryFits(Database& db, const SyncState& state, const SyncEntry& entry, Error* error) noexcept;

/// Rewrites the copy for `pulled` (other devices' entries, in log order)
/// inside the caller's write transaction: `pending` are undone (newest
/// first), `pulled` applied, then `pending` applied again with the
/// engine's policy, each replaced (in `pending` and in the pending table)
/// by what its application changed. Conflicts and dropped operations are
/// added to `report`. False with `*error` set when a step fails (the caller
/// rolls back).
bool rewriteForPulledEntries(Database& db, const SyncState& state, std::vector<PendingChange>& pending,
                             const std::vector<SyncEntry>& pulled, SyncReport& report, Error* error) noexcept;

}  // namespace sqlitebridge
