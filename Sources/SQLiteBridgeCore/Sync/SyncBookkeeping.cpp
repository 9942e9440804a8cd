// The device's sync tables (see SyncBookkeeping.hpp).
#include "SyncBookkeeping.hpp"

#include <new>

#include "ChangesetAccess.hpp"
#include "sqlitebridge/Database.hpp"
#include "sqlitebridge/RowView.hpp"

namespace sqlitebridge {

const char* const kSyncStateTable = "sqlitebridge_sync_state";
const char* const kSyncPendingTable = "sqlitebridge_sync_pending";

bool syncDatabaseFailure(Database& db, Error* error) noexcept {
  if (error != nullptr) *error = db.lastError();
  return false;
}

bool isSyncBookkeepingTable(const std::string& table) noexcept {
  return sameTableName(table, kSyncStateTable) || sameTableName(table, kSyncPendingTable);
}

bool prepareSyncBookkeeping(Database& db, const std::string& device, Error* error) noexcept {
  if (!db.execute("CREATE TABLE IF NOT EXISTS sqlitebridge_sync_state(device TEXT NOT NULL PRIMARY KEY, "
                  "hub_position INTEGER NOT NULL, next_sequence INTEGER NOT NULL)") ||
      !db.execute("CREATE TABLE IF NOT EXISTS sqlitebridge_sync_pending(sequence INTEGER PRIMARY KEY, "
                  "changeset BLOB NOT NULL)")) {
    return syncDatabaseFailure(db, error);
  }
  try {
    std::vector<Row> rows;
    if (!db.execute("SELECT device FROM sqlitebridge_sync_state", &rows)) return syncDatabaseFailure(db, error);
    if (rows.empty()) {
      if (!db.execute("INSERT INTO sqlitebridge_sync_state(device, hub_position, next_sequence) VALUES (?, 0, 1)",
                      std::vector<Value>{Value(device)})) {
        return syncDatabaseFailure(db, error);
      }
      return true;
    }
    const std::string recorded = rows[0].value(0).asText();
    if (rows.size() == 1 && recorded == device) return true;
    return changesetFailure(error, SQLITE_MISUSE,
                            "this database syncs as device '" + recorded + "', not '" + device +
                                "' (each database is one device; its pending changes are numbered for that name)");
  } catch (const std::bad_alloc&) {
    return changesetFailure(error, SQLITE_NOMEM, "out of memory");
  }
}

bool readSyncPosition(Database& db, std::int64_t& position, Error* error) noexcept {
  Row row;
  if (!db.execute("SELECT hub_position FROM sqlitebridge_sync_state", row)) return syncDatabaseFailure(db, error);
  if (row.size() == 0) return changesetFailure(error, SQLITE_CORRUPT, "sqlitebridge_sync_state has no row");
  position = row.value(0).asInteger();
  return true;
}

bool writeSyncPosition(Database& db, std::int64_t position, Error* error) noexcept {
  if (!db.execute("UPDATE sqlitebridge_sync_state SET hub_position = ?", position))
    return syncDatabaseFailure(db, error);
  return true;
}

bool readPendingChanges(Database& db, std::vector<PendingChange>& out, Error* error) noexcept {
  std::vector<PendingChange> read;
  Error failure;
  const bool ok = db.forEachRow(
      "SELECT sequence, changeset FROM sqlitebridge_sync_pending ORDER BY sequence", [&](const RowView& row) {
        PendingChange change;
        change.sequence = row.column(0).integer;
        const ColumnView bytes = row.column(1);
        if (!Changeset::fromBytes(bytes.bytes, bytes.size, change.changeset, &failure)) {
          failure.message = "pending change " + std::to_string(change.sequence) + ": " + failure.message;
          return false;
        }
        read.push_back(std::move(change));
        return true;
      });
  if (failure.isError()) {
    if (error != nullptr) *error = failure;
    return false;
  }
  if (!ok) return syncDatabaseFailure(db, error);
  out = std::move(read);
  return true;
}

bool countPendingChanges(Database& db, std::int64_t& count, Error* error) noexcept {
  Row row;
  if (!db.execute("SELECT count(*) FROM sqlitebridge_sync_pending", row)) return syncDatabaseFailure(db, error);
  count = row.value(0).asInteger();
  return true;
}

bool appendPendingChange(Database& db, const Changeset& changeset, std::int64_t& sequence, Error* error) noexcept {
  Row row;
  if (!db.execute("SELECT next_sequence FROM sqlitebridge_sync_state", row)) return syncDatabaseFailure(db, error);
  if (row.size() == 0) return changesetFailure(error, SQLITE_CORRUPT, "sqlitebridge_sync_state has no row");
  const std::int64_t next = row.value(0).asInteger();
  try {
    const std::string& bytes = changeset.bytes();
    if (!db.execute("INSERT INTO sqlitebridge_sync_pending(sequence, changeset) VALUES (?, ?)",
                    std::vector<Value>{Value(next), Value::fromBlob(bytes.data(), bytes.size())}) ||
        !db.execute("UPDATE sqlitebridge_sync_state SET next_sequence = ?", next + 1)) {
      return syncDatabaseFailure(db, error);
    }
  } catch (const std::bad_alloc&) {
    return changesetFailure(error, SQLITE_NOMEM, "out of memory");
  }
  sequence = next;
  return true;
}

bool replacePendingChange(Database& db, std::int64_t sequence, const Changeset& changeset, Error* error) noexcept {
  try {
    const std::string& bytes = changeset.bytes();
    if (!db.execute("UPDATE sqlitebridge_sync_pending SET changeset = ? WHERE sequence = ?",
                    std::vector<Value>{Value::fromBlob(bytes.data(), bytes.size()), Value(sequence)})) {
      return syncDatabaseFailure(db, error);
    }
  } catch (const std::bad_alloc&) {
    return changesetFailure(error, SQLITE_NOMEM, "out of memory");
  }
  return true;
}

bool forgetPendingChanges(Database& db, std::int64_t throughSequence, Error* error) noexcept {
  if (!db.execute("DELETE FROM sqlitebridge_sync_pending WHERE sequence <= ?", throughSequence)) {
    return syncDatabaseFailure(db, error);
  }
  return true;
}

}  // namespace sqlitebridge
