// The round's rewriting of the device's copy (see SyncRewrite.hpp).
#include "SyncRewrite.hpp"

#include <new>
#include <optional>
#include <string>
#include <utility>

#include "ChangesetAccess.hpp"
#include "ChangesetFormat.hpp"
#include "SqlText.hpp"
#include "SyncState.hpp"
#include "TableShape.hpp"
#include "sqlitebridge/Database.hpp"
#include "sqlitebridge/Session.hpp"

namespace sqlitebridge {

namespace {

constexpr const char* kPendingSavepoint = "sqlitebridge_sync_pending_change";

// The names of `table`'s columns, in order (PRAGMA table_info: the columns
// a changeset holds).
bool columnNames(Database& db, const std::string& table, std::vector<std::string>& out) noexcept {
  std::vector<Row> rows;
  if (!db.execute("SELECT name FROM pragma_table_info(?)", std::vector<Value>{Value(table)}, &rows)) return false;
  try {
    out.clear();
    for (const Row& row : rows) out.push_back(row.value(0).asText());
  } catch (const std::bad_alloc&) {
    return false;
  }
  return true;
}

std::string entryName(const SyncEntry& entry) {
  return "the hub's entry at position " + std::to_string(entry.position) + " (device '" + entry.device +
         "', sequence " + std::to_string(entry.sequence) + ")";
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

// Whether `conflict` only says that the change is made already: a delete
// of a row that is gone (a cascade of a delete the same changeset applied
// before it: SQLite applies a changeset table by table, so a tag deleted
// before its note is applied after the note's cascade took it; or another
// device deleted it too), or an indirect change (made by a foreign key
// action or a trigger where it was recorded) that the same action made
// here again: a row inserted or updated to the same values. Omitted
// without asking the policy or reporting it.
bool alreadyApplied(const ChangesetConflict& conflict) noexcept {
  if (!conflict.operation) return false;
  const ChangesetOperation& operation = *conflict.operation;
  if (conflict.kind == ChangesetConflictKind::NotFound) return operation.kind == ChangeKind::Delete;
  if (!operation.isIndirect) return false;
  switch (conflict.kind) {
    case ChangesetConflictKind::NotFound:
      return false;
    case ChangesetConflictKind::Conflict:
    case ChangesetConflictKind::Data: {
      if (operation.kind == ChangeKind::Delete || !conflict.conflictingValues) return false;
      const std::vector<Value>& current = *conflict.conflictingValues;
      for (std::size_t i = 0; i < operation.newValues.size(); ++i) {
        if (!operation.newValues[i]) continue;
        if (i >= current.size() || !(*operation.newValues[i] == current[i])) return false;
      }
      return true;
    }
    case ChangesetConflictKind::Constraint:
    case ChangesetConflictKind::ForeignKey:
      break;
  }
  return false;
}

// Asks the policy, and keeps what it settled for the report. A foreign key
// conflict is not the policy's: the round drops what breaks a key after
// each pending change (pulled entries never break one).
ChangesetConflictHandler policyHandler(const SyncState& state, bool isLocal, SyncReport& report) {
  return [&state, isLocal, &report](const ChangesetConflict& conflict) {
    if (conflict.kind == ChangesetConflictKind::ForeignKey || alreadyApplied(conflict)) {
      return ChangesetConflictResolution::Omit;
    }
    const ChangesetConflictResolution resolution = state.policy.handler
                                                       ? state.policy.handler(conflict, isLocal)
                                                       : SyncConflictPolicy::hubOrderWinsResolution(conflict, isLocal);
    report.conflicts.push_back(conflict);
    return resolution;
  };
}

// The values of `table`'s primary key columns of the row `rowID`, one per
// column (nullopt for the others), into `out`.
bool primaryKeyOfRow(Database& db, const std::string& table, std::int64_t rowID,
                     std::vector<std::optional<Value>>& out) noexcept {
  std::vector<Row> rows;
  if (!db.execute("SELECT * FROM " + quoteIdentifier(table) + " WHERE rowid = ?", std::vector<Value>{Value(rowID)},
                  &rows) ||
      rows.empty()) {
    return false;
  }
  try {
    out.clear();
    for (std::size_t i = 0; i < rows[0].size(); ++i) out.emplace_back(rows[0].value(i));
  } catch (const std::bad_alloc&) {
    return false;
  }
  return true;
}

// Whether `operation` made the row whose values are `row` (its primary
// key, after the change).
bool madeRow(const ChangesetOperation& operation, const std::vector<std::optional<Value>>& row) noexcept {
  if (operation.kind == ChangeKind::Delete || operation.primaryKey.size() > row.size()) return false;
  for (std::size_t i = 0; i < operation.primaryKey.size(); ++i) {
    if (!operation.primaryKey[i]) continue;
    const std::optional<Value>& after = i < operation.newValues.size() && operation.newValues[i]
                                            ? operation.newValues[i]
                                            : (i < operation.oldValues.size() ? operation.oldValues[i] : std::nullopt);
    if (!after || !row[i] || !(*after == *row[i])) return false;
  }
  return true;
}

// Takes back `operation` (which made row `rowID` of its table): deletes
// what it inserted, restores what it updated.
bool takeBack(Database& db, const ChangesetOperation& operation, std::int64_t rowID) noexcept {
  try {
    const std::string table = quoteIdentifier(operation.table);
    if (operation.kind == ChangeKind::Insert) {
      return db.execute("DELETE FROM " + table + " WHERE rowid = ?", rowID);
    }
    std::vector<std::string> names;
    if (!columnNames(db, operation.table, names)) return false;
    std::string assignments;
    std::vector<Value> arguments;
    for (std::size_t i = 0; i < operation.newValues.size() && i < names.size(); ++i) {
      if (!operation.newValues[i] || i >= operation.oldValues.size() || !operation.oldValues[i]) continue;
      assignments += (assignments.empty() ? "" : ", ") + quoteIdentifier(names[i]) + " = ?";
      arguments.push_back(*operation.oldValues[i]);
    }
    if (assignments.empty()) return true;
    arguments.emplace_back(rowID);
    return db.execute("UPDATE " + table + " SET " + assignments + " WHERE rowid = ?", arguments);
  } catch (const std::bad_alloc&) {
    return false;
  }
}

// After pending change `session` recorded: takes back each of its
// operations that made a row breaking a foreign key (a child added or
// moved under a parent the log deleted), reported as `ForeignKey`
// conflicts. `keysHold` tells whether every foreign key holds after.
bool dropKeyBreakers(Database& db, Session& session, SyncReport& report, bool& keysHold, Error* error) noexcept {
  keysHold = false;
  std::vector<Row> violations;
  if (!db.execute("PRAGMA foreign_key_check", &violations)) return syncDatabaseFailure(db, error);
  if (violations.empty()) {
    keysHold = true;
    return true;
  }
  Changeset recorded;
  std::vector<ChangesetOperation> operations;
  if (!session.changeset(recorded, error) || !recorded.operations(operations, error)) return false;
  try {
    for (const Row& violation : violations) {
      const Value rowID = violation.value(1);
      if (rowID.isNull()) continue;  // a WITHOUT ROWID child: the whole change is dropped
      const std::string table = violation.value(0).asText();
      std::vector<std::optional<Value>> row;
      if (!primaryKeyOfRow(db, table, rowID.asInteger(), row)) continue;
      for (const ChangesetOperation& operation : operations) {
        if (!sameTableName(operation.table, table.c_str()) || !madeRow(operation, row)) continue;
        if (!takeBack(db, operation, rowID.asInteger())) return syncDatabaseFailure(db, error);
        ChangesetConflict dropped;
        dropped.kind = ChangesetConflictKind::ForeignKey;
        dropped.operation = operation;
        dropped.foreignKeyViolations = 1;
        report.conflicts.push_back(std::move(dropped));
        break;
      }
    }
  } catch (const std::bad_alloc&) {
    return changesetFailure(error, SQLITE_NOMEM, "out of memory");
  }
  violations.clear();
  if (!db.execute("PRAGMA foreign_key_check", &violations)) return syncDatabaseFailure(db, error);
  keysHold = violations.empty();
  return true;
}

// Applies pending change `change` again on top of what was pulled, in a
// savepoint, and replaces it by what it changed now. When foreign keys
// still break after its breakers were taken back, the whole change is
// dropped (reported operation by operation).
bool reapplyPending(Database& db, const SyncState& state, PendingChange& change, SyncReport& report,
                    Error* error) noexcept {
  if (!db.execute(std::string("SAVEPOINT ") + kPendingSavepoint)) return syncDatabaseFailure(db, error);
  Session session(db, "main");
  if (session.error().isError()) {
    if (error != nullptr) *error = session.error();
    return false;
  }
  for (const std::string& table : state.tables) {
    if (!session.attach(table, error)) return false;
  }
  bool keysHold = false;
  Changeset rebased;
  if (!change.changeset.isEmpty()) {
    if (!db.apply(change.changeset, std::nullopt, policyHandler(state, true, report)))
      return syncDatabaseFailure(db, error);
    if (!dropKeyBreakers(db, session, report, keysHold, error)) return false;
    if (keysHold && !session.changeset(rebased, error)) return false;
  } else {
    keysHold = true;
  }
  if (!keysHold) {
    std::vector<ChangesetOperation> operations;
    if (!change.changeset.operations(operations, error)) return false;
    if (!db.execute(std::string("ROLLBACK TO ") + kPendingSavepoint)) return syncDatabaseFailure(db, error);
    try {
      for (ChangesetOperation& operation : operations) {
        ChangesetConflict dropped;
        dropped.kind = ChangesetConflictKind::ForeignKey;
        dropped.operation = std::move(operation);
        report.conflicts.push_back(std::move(dropped));
      }
    } catch (const std::bad_alloc&) {
      return changesetFailure(error, SQLITE_NOMEM, "out of memory");
    }
    rebased = Changeset();
  }
  if (!db.execute(std::string("RELEASE ") + kPendingSavepoint)) return syncDatabaseFailure(db, error);
  if (!replacePendingChange(db, change.sequence, rebased, error)) return false;
  change.changeset = std::move(rebased);
  return true;
}

}  // namespace

bool checkEntryFits(Database& db, const SyncState& state, const SyncEntry& entry, Error* error) noexcept {
  const std::string& bytes = entry.changeset.bytes();
  std::vector<ChangesetTableHeader> headers;
  std::string why;
  if (!readChangesetTables(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), headers, &why)) {
    return changesetFailure(error, why.empty() ? SQLITE_NOMEM : SQLITE_CORRUPT, why.empty() ? "out of memory" : why);
  }
  std::shared_ptr<Connection> connection = ChangesetAccess::connection(db);
  try {
    for (const ChangesetTableHeader& header : headers) {
      if (!state.recorder->syncs(header.name)) {
        return changesetFailure(error, SQLITE_SCHEMA,
                                entryName(entry) + " changes table " + header.name +
                                    ", which this device does not sync: every device syncs the same tables");
      }
      TableShape shape;
      if (!readTableShape(*connection, "main", header.name, shape, error)) return false;
      std::vector<std::string> names;
      if (!columnNames(db, header.name, names)) return syncDatabaseFailure(db, error);
      const std::string advice =
          ": every device needs the same columns in the synced tables (run the same additive migrations on every "
          "device before writing to new columns)";
      if (header.primaryKey.size() > names.size()) {
        return changesetFailure(error, SQLITE_SCHEMA,
                                entryName(entry) + " has " + std::to_string(header.primaryKey.size()) +
                                    " columns of table " + header.name + ", this database has " +
                                    std::to_string(names.size()) + " (" + joined(names) + "): a column after " +
                                    (names.empty() ? std::string("none") : names.back()) + " is missing here" + advice);
      }
      for (std::size_t i = 0; i < shape.keyPositions.size(); ++i) {
        const unsigned char key = i < header.primaryKey.size() ? header.primaryKey[i] : 0;
        if (key == shape.keyPositions[i]) continue;
        return changesetFailure(error, SQLITE_SCHEMA,
                                entryName(entry) + " and this database disagree on the primary key of table " +
                                    header.name + " at column " + names[i] + advice);
      }
    }
  } catch (const std::bad_alloc&) {
    return changesetFailure(error, SQLITE_NOMEM, "out of memory");
  }
  return true;
}

bool rewriteForPulledEntries(Database& db, const SyncState& state, std::vector<PendingChange>& pending,
                             const std::vector<SyncEntry>& pulled, SyncReport& report, Error* error) noexcept {
  for (const SyncEntry& entry : pulled) {
    if (!checkEntryFits(db, state, entry, error)) return false;
  }
  // Until the commit: a step may break a key that a later one mends.
  if (!db.execute("PRAGMA defer_foreign_keys = ON")) return syncDatabaseFailure(db, error);
  // Back to the log's prefix: this device's pending changes, newest first.
  for (auto change = pending.rbegin(); change != pending.rend(); ++change) {
    if (change->changeset.isEmpty()) continue;
    Changeset inverse;
    if (!change->changeset.inverted(inverse, error)) return false;
    if (!db.apply(inverse, std::nullopt, policyHandler(state, false, report))) return syncDatabaseFailure(db, error);
  }
  for (const SyncEntry& entry : pulled) {
    if (entry.changeset.isEmpty()) continue;
    if (!db.apply(entry.changeset, std::nullopt, policyHandler(state, false, report))) {
      Error failure = db.lastError();
      try {
        failure.message = entryName(entry) + ": " + failure.message;
      } catch (const std::bad_alloc&) {
      }
      if (error != nullptr) *error = failure;
      return false;
    }
  }
  for (PendingChange& change : pending) {
    if (!reapplyPending(db, state, change, report, error)) return false;
  }
  return true;
}

}  // namespace sqlitebridge
