// The rows already in the synced tables as one pending change (see
// SyncExistingRows.hpp).
#include "SyncExistingRows.hpp"

#include <algorithm>
#include <new>
#include <utility>

#include "ChangesetAccess.hpp"
#include "SqlText.hpp"
#include "SyncBookkeeping.hpp"
#include "sqlitebridge/Database.hpp"
#include "sqlitebridge/Session.hpp"

namespace sqlitebridge {

namespace {

// The in-memory schema holding the empty copies while the call runs.
constexpr const char* kEmptySchema = "sqlitebridge_sync_empty";

// `CREATE TABLE` of an empty copy of `table` in the empty schema: the same
// columns, the same PRIMARY KEY (what the session's diff compares).
bool emptyCopySQL(Database& db, const std::string& table, std::string& sql, Error* error) {
  std::vector<Row> columns;
  if (!db.execute("SELECT name, pk FROM pragma_table_info(?, 'main') ORDER BY cid", std::vector<Value>{Value(table)},
                  &columns)) {
    return syncDatabaseFailure(db, error);
  }
  if (columns.empty()) return changesetFailure(error, SQLITE_ERROR, "no such table: " + table);
  std::vector<std::pair<std::int64_t, std::string>> key;
  sql = "CREATE TABLE " + quoteIdentifier(kEmptySchema) + "." + quoteIdentifier(table) + "(";
  for (const Row& column : columns) {
    const std::string name = column.value(0).asText();
    sql += quoteIdentifier(name) + ", ";
    if (column.value(1).asInteger() > 0) key.emplace_back(column.value(1).asInteger(), name);
  }
  std::sort(key.begin(), key.end());
  sql += "PRIMARY KEY(";
  for (std::size_t i = 0; i < key.size(); ++i) sql += (i == 0 ? "" : ", ") + quoteIdentifier(key[i].second);
  sql += "))";
  return true;
}

// Inside the transaction: the diff of every table against its empty copy,
// recorded as the next pending change when there is a row.
bool recordDiff(Database& db, const std::vector<std::string>& tables, std::int64_t& rows, Error* error) {
  rows = 0;
  for (const std::string& table : tables) {
    Row count;
    if (!db.execute("SELECT count(*) FROM main." + quoteIdentifier(table), count))
      return syncDatabaseFailure(db, error);
    rows += count.value(0).asInteger();
  }
  if (rows == 0) return true;
  Session session(db, "main");
  for (const std::string& table : tables) {
    if (!session.diff(kEmptySchema, table, error)) return false;
  }
  Changeset inserts;
  std::int64_t sequence = 0;
  return session.changeset(inserts, error) && appendPendingChange(db, inserts, sequence, error);
}

}  // namespace

bool recordExistingSyncedRows(Database& db, const std::vector<std::string>& tables, std::int64_t& rows,
                              Error* error) noexcept {
  rows = 0;
  try {
    if (!db.execute("ATTACH ':memory:' AS " + quoteIdentifier(kEmptySchema))) return syncDatabaseFailure(db, error);
    bool ok = true;
    for (const std::string& table : tables) {
      std::string sql;
      ok = emptyCopySQL(db, table, sql, error) && (db.execute(sql) || syncDatabaseFailure(db, error));
      if (!ok) break;
    }
    std::int64_t counted = 0;
    if (ok) ok = db.begin(TransactionKind::Immediate) || syncDatabaseFailure(db, error);
    if (ok) {
      ok = recordDiff(db, tables, counted, error) && (db.commit() || syncDatabaseFailure(db, error));
      if (!ok && db.isInTransaction()) db.rollback();
    }
    // The empty copies go, whatever happened.
    db.execute("DETACH " + quoteIdentifier(kEmptySchema));
    if (ok) rows = counted;
    return ok;
  } catch (const std::bad_alloc&) {
    if (db.isInTransaction()) db.rollback();
    db.execute("DETACH " + quoteIdentifier(kEmptySchema));
    return changesetFailure(error, SQLITE_NOMEM, "out of memory");
  }
}

}  // namespace sqlitebridge
