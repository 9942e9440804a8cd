// What a statement sent to a dqlite cluster is, from its text: dqlite 1.11
// runs reads (QUERY) and writes (EXEC) by different requests, replicates
// only what EXEC wrote, and tells the client nothing about transactions,
// so the client decides from the statement's keywords. Internal.
#pragma once

#include <string>
#include <string_view>

namespace sqlitebridge {

enum class ClusterStatementKind {
  /// Returns rows and writes nothing: SELECT, VALUES, EXPLAIN, WITH … SELECT,
  /// PRAGMA without `=`.
  Read,
  /// Changes rows: INSERT, UPDATE, DELETE, REPLACE, WITH … INSERT, PRAGMA
  /// with `=`, ANALYZE, REINDEX, and anything not listed here.
  Write,
  /// Changes the schema: CREATE, DROP, ALTER.
  Schema,
  Begin,
  /// COMMIT or END.
  Commit,
  /// ROLLBACK (of the whole transaction).
  Rollback,
  Savepoint,
  Release,
  /// ROLLBACK TO a savepoint.
  RollbackTo,
};

struct ClusterStatement {
  ClusterStatementKind kind = ClusterStatementKind::Write;
  /// The savepoint a SAVEPOINT, RELEASE or ROLLBACK TO names (unquoted).
  std::string savepoint;
};

/// Classifies the one statement of `sql`.
ClusterStatement classifyClusterStatement(std::string_view sql);

}  // namespace sqlitebridge
