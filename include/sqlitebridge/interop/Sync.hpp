// For the Swift facade only; no stability promise. Sync as Swift drives it:
// the library's hubs behind a copyable handle, entry lists read and made
// by index, a `SyncEngine` made from a queue or pool Swift holds as a
// constant with a C conflict callback, and a `SyncRound` whose hub calls
// Swift makes itself (its `SyncHub` is async). Never included by
// <sqlitebridge/sqlitebridge.hpp>; Swift imports it with the explicit
// submodule SQLiteBridgeCore.Interop. Definitions:
// Sources/SQLiteBridgeCore/Sync/SyncInterop.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../DatabaseSyncHub.hpp"
#include "../Export.hpp"
#include "../Sync.hpp"
#include "../sqlitebridge.hpp"
#include "SwiftBox.hpp"
#include "Values.hpp"

namespace sqlitebridge::interop {

/// Entries, named so that Swift can make and read a list.
using SyncEntryList = std::vector<SyncEntry>;

/// One of the library's hubs (a `DatabaseSyncHub`, a `ClusterSyncHub`) as
/// Swift holds it: copies share it. `hub` is null when it could not be
/// made.
struct SQLITEBRIDGE_API SyncHubHandle {
  /// The hub.
  std::shared_ptr<SyncHub> hub;
};

/// The sync API with C callbacks and by-index accessors. Every rule (what a
/// round pulls, rewrites and pushes, the conflict policy's answers, the
/// error wording) is the core's: these only carry Swift's arguments.
struct SQLITEBRIDGE_API SyncInterop {
  /// The conflict policy's handler: `box` is the facade's (never read by
  /// the core, given to the engine's `ReleaseBox` once the engine is gone),
  /// `conflict` the core's, for the call only. Called on the syncing
  /// thread, inside the round's transaction: it must not use the database.
  using ConflictCallback = ChangesetConflictResolution (*)(SwiftBox box, const ChangesetConflict* conflict,
                                                           bool isLocal);

  // MARK: Hubs

  /// Opens (or creates) the SQLite-file hub at `path`; a null hub, with
  /// `error` set (its `error()`, or SQLITE_NOMEM), when it did not open.
  static SyncHubHandle openHub(const std::string& path, Error& error) noexcept;
  /// `hub.append(entries, after, appended, &error)`.
  static bool append(const SyncHubHandle& handle, const SyncEntryList& entries, std::int64_t after, bool& appended,
                     Error& error) noexcept;
  /// `hub.entries(after, limit, out, &error)`.
  static bool entries(const SyncHubHandle& handle, std::int64_t after, std::size_t limit, SyncEntryList& out,
                      Error& error) noexcept;
  /// `hub.lastPosition(position, &error)`.
  static bool lastPosition(const SyncHubHandle& handle, std::int64_t& position, Error& error) noexcept;

  // MARK: Entries

  /// How many entries `list` holds.
  static std::size_t count(const SyncEntryList& list) noexcept { return list.size(); }
  /// Entry `index` (below `count`), read in place.
  static const SyncEntry* entry(const SyncEntryList& list, std::size_t index) noexcept { return &list[index]; }
  /// Appends an entry made of the parts to `list`; false only when memory
  /// runs out.
  static bool add(SyncEntryList& list, std::int64_t position, const std::string& device, std::int64_t sequence,
                  const Changeset& changeset) noexcept;

  // MARK: The engine

  /// `SyncEngine(queue, tables, device, nullptr, policy)`: an engine whose
  /// rounds Swift drives; the policy calls `onConflict(box, …)`, or is
  /// `hubOrderWins` for a null callback. `release(box)` runs once the
  /// engine no longer needs the box (also when it did not start). The queue
  /// itself is not changed (the engine records on its writer).
  static SyncEngine makeEngine(const DatabaseQueue& queue, const StringList& tables, const std::string& device,
                               ConflictCallback onConflict, SwiftBox box, ReleaseBox release) noexcept;
  /// The same over the writer of `pool`.
  static SyncEngine makeEngine(const DatabasePool& pool, const StringList& tables, const std::string& device,
                               ConflictCallback onConflict, SwiftBox box, ReleaseBox release) noexcept;
  /// `SyncConflictPolicy::hubOrderWinsResolution` for a conflict of
  /// `kind` (the rule reads nothing else of it).
  static ChangesetConflictResolution hubOrderWinsResolution(ChangesetConflictKind kind, bool isLocal) noexcept;
  /// `engine.pendingCount(count, &error)`.
  static bool pendingCount(const SyncEngine& engine, std::int64_t& count, Error& error) noexcept;
  /// `engine.recordExistingRows(rows, &error)`.
  static bool recordExistingRows(const SyncEngine& engine, std::int64_t& rows, Error& error) noexcept;

  // MARK: Rounds

  /// Starts a round of `engine` (`SyncRound(engine)`).
  static SyncRound startRound(const SyncEngine& engine) noexcept;
  /// How many entries the round's `Push` step appends.
  static std::size_t pushCount(const SyncRound& round) noexcept { return round.entriesToPush().size(); }
  /// Entry `index` (below `pushCount`) to append, read in place.
  static const SyncEntry* pushEntry(const SyncRound& round, std::size_t index) noexcept {
    return &round.entriesToPush()[index];
  }
  /// The round's report (`round.report()`), read in place: what it did so
  /// far, complete once `Finished`.
  static const SyncReport* report(const SyncRound& round) noexcept { return &round.report(); }
  /// How many conflicts the round's report holds.
  static std::size_t conflictCount(const SyncRound& round) noexcept { return round.report().conflicts.size(); }
  /// Conflict `index` (below `conflictCount`) of the report, read in place.
  static const ChangesetConflict* conflict(const SyncRound& round, std::size_t index) noexcept {
    return &round.report().conflicts[index];
  }
};

}  // namespace sqlitebridge::interop
