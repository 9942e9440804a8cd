// What a sync simulation checks at its end, once every device synced until
// nothing moved: every copy's synced tables identical, equal to replaying
// the hub's log on an empty database (each entry applied with no conflict),
// every transaction a device committed in the log exactly once (its
// sequences 1..n, no gap, no repeat, none pending), foreign keys and
// integrity intact.
#pragma once

#include <sqlitebridge/DatabaseQueue.hpp>
#include <sqlitebridge/DatabaseSyncHub.hpp>
#include <sqlitebridge/Sync.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "RandomEdits.hpp"

namespace sqlitebridge_simulation {

/// A device to check: its name and database file.
struct DeviceFile {
  std::string name;
  std::string path;
};

/// Every device syncs through `hub` (with an engine of its own for the
/// pass) until a whole pass moves nothing, `passes` at most: the passes
/// made, or -1 with `problem` set when a sync failed. Adds the conflicts
/// the syncs reported to `*conflicts` (when not null).
inline int syncUntilNothingMoves(const std::vector<DeviceFile>& devices,
                                 const std::shared_ptr<sqlitebridge::SyncHub>& hub, int passes, std::string& problem,
                                 long* conflicts = nullptr) {
  using namespace sqlitebridge;
  for (int pass = 1; pass <= passes; ++pass) {
    std::int64_t moved = 0;
    for (const DeviceFile& device : devices) {
      DatabaseQueue queue(device.path);
      SyncEngine engine(queue, {"notes", "tags", "counters"}, device.name, hub);
      SyncReport report;
      Error error;
      if (engine.error().isError() || !engine.sync(report, &error)) {
        problem = "the final sync of " + device.name +
                  " failed: " + (engine.error().isError() ? engine.error() : error).message;
        return -1;
      }
      moved += report.pushed + report.pulled;
      if (conflicts != nullptr) *conflicts += static_cast<long>(report.conflicts.size());
    }
    if (moved == 0) return pass;
  }
  return passes;
}

/// The problems found (empty: converged) with the log `hub` holds.
/// `schema` makes an empty copy.
inline std::vector<std::string> convergenceProblems(const std::vector<DeviceFile>& devices, sqlitebridge::SyncHub& hub,
                                                    const std::string& schema) {
  using namespace sqlitebridge;
  std::vector<std::string> problems;
  std::vector<SyncEntry> log;
  Error error;
  if (!hub.entries(0, SIZE_MAX, log, &error)) {
    problems.push_back("cannot read the hub: " + error.message);
    return problems;
  }
  // Replaying the log, strictly: no entry may conflict, except for a
  // delete of a row a cascade took already (SQLite applies a changeset
  // table by table: a note's delete takes its tags before the changeset's
  // own deletes of them come, whether recorded as the cascade's or made
  // directly before the note's).
  Database replay = Database::open(":memory:");
  if (!replay.executeScript(schema)) problems.push_back("schema: " + replay.lastError().message);
  const ChangesetConflictHandler strict = [](const ChangesetConflict& conflict) {
    const bool gone = conflict.kind == ChangesetConflictKind::NotFound && conflict.operation &&
                      conflict.operation->kind == ChangeKind::Delete;
    return gone ? ChangesetConflictResolution::Omit : ChangesetConflictResolution::Abort;
  };
  for (const SyncEntry& entry : log) {
    if (entry.changeset.isEmpty()) continue;
    if (!replay.apply(entry.changeset, std::nullopt, strict)) {
      problems.push_back("replaying position " + std::to_string(entry.position) + ": " + replay.lastError().message);
      break;
    }
  }
  const std::vector<std::string> expected = syncedRows(replay);
  std::map<std::string, std::vector<std::int64_t>> sequences;
  for (const SyncEntry& entry : log) sequences[entry.device].push_back(entry.sequence);
  for (const DeviceFile& device : devices) {
    Database db = Database::open(device.path);
    if (!db.isOpen()) {
      problems.push_back(device.name + ": cannot open: " + db.lastError().message);
      continue;
    }
    if (syncedRows(db) != expected) problems.push_back(device.name + ": its copy differs from the replayed log");
    std::vector<Row> rows;
    if (!db.execute("PRAGMA integrity_check", &rows) || rows.size() != 1 || rows[0].value(0).asText() != "ok") {
      problems.push_back(device.name + ": integrity_check fails");
    }
    rows.clear();
    if (!db.execute("PRAGMA foreign_key_check", &rows) || !rows.empty()) {
      problems.push_back(device.name + ": foreign keys broken");
    }
    Row state;
    Row pending;
    if (!db.execute("SELECT next_sequence FROM sqlitebridge_sync_state", state) || state.size() == 0 ||
        !db.execute("SELECT count(*) FROM sqlitebridge_sync_pending", pending)) {
      problems.push_back(device.name + ": no sync state");
      continue;
    }
    if (pending.value(0).asInteger() != 0) {
      problems.push_back(device.name + ": " + pending.value(0).asText() + " changes still pending");
    }
    std::vector<std::int64_t> got = sequences[device.name];
    std::sort(got.begin(), got.end());
    std::vector<std::int64_t> want;
    for (std::int64_t s = 1; s < state.value(0).asInteger(); ++s) want.push_back(s);
    if (got != want) {
      problems.push_back(device.name + ": the log holds " + std::to_string(got.size()) + " of its transactions for " +
                         std::to_string(want.size()) + " committed (each must be there exactly once)");
    }
  }
  return problems;
}

/// `convergenceProblems` with the SQLite-file hub at `hubPath`.
inline std::vector<std::string> convergenceProblems(const std::vector<DeviceFile>& devices, const std::string& hubPath,
                                                    const std::string& schema) {
  sqlitebridge::DatabaseSyncHub hub(hubPath);
  if (hub.error().isError()) return {"cannot open the hub: " + hub.error().message};
  return convergenceProblems(devices, hub, schema);
}

}  // namespace sqlitebridge_simulation
