// What one prepared statement reads and writes, as SQLite's authorizer
// reported it while the statement was prepared. Internal.
#pragma once

#include <string>
#include <vector>

#include "sqlitebridge/DatabaseRegion.hpp"
#include "sqlitebridge/SQLite.hpp"
#include "sqlitebridge/Tracing.hpp"

namespace sqlitebridge {

/// One authorizer call, copied (SQLite's strings live only for the call).
struct AuthorizerRecord {
  int code = 0;
  std::string first, second, database, inner;
  /// For a DELETE: the authorizer answered SQLITE_IGNORE, so SQLite deletes
  /// row by row (the update hook tells of each) instead of truncating.
  bool truncationOff = false;
};

/// A table a statement (or a trigger or foreign-key action it sets off)
/// may change.
struct WriteTarget {
  ChangeKind kind = ChangeKind::Insert;
  std::string table;
  /// The columns an UPDATE sets (empty for inserts and deletes, and for an
  /// update of unknown columns: then every column).
  std::vector<std::string> columns;
  /// Whether SQLite's update hook may not tell of these changes (a WITHOUT
  /// ROWID table, a DELETE SQLite may run by truncating, a schema change):
  /// such a target counts as changed as soon as the statement runs.
  bool hidden = false;
};

/// How a statement controls transactions.
enum class TransactionControl { None, Begin, Commit, Rollback, Savepoint, Release, RollbackTo };

/// A prepared statement's reads and writes.
struct StatementFootprint {
  /// The region the statement reads.
  DatabaseRegion reads;
  /// The tables it may change, merged by kind and table.
  std::vector<WriteTarget> writes;
  /// BEGIN, COMMIT, SAVEPOINT, ... and the savepoint's name.
  TransactionControl control = TransactionControl::None;
  std::string savepoint;
  /// Whether the authorizer records were lost (out of memory): the
  /// statement then reads and may change the whole database.
  bool unknown = false;

  /// The write target of `kind` on `table`, or null.
  const WriteTarget* target(ChangeKind kind, const char* table) const noexcept;
};

/// The footprint of a statement prepared while `records` were reported;
/// `db` tells which tables are WITHOUT ROWID. Never throws: out of memory
/// gives an unknown footprint.
StatementFootprint makeFootprint(sqlite3* db, const std::vector<AuthorizerRecord>& records) noexcept;

/// Whether `table` is one of SQLite's own tables (`sqlite_*`) or a
/// table-valued pragma (`pragma_*`), which regions leave out.
bool isInternalTable(const std::string& table) noexcept;

}  // namespace sqlitebridge
