// What a statement sent to a dqlite cluster is, from its text: dqlite 1.11
// runs reads (QUERY) and writes (EXEC) by different requests, replicates
// only what EXEC wrote, and tells the client nothing about transactions,
// so the client decides from the statement's keywords (and, for a PRAGMA
// without `=`, from SQLite's own verdict on the local copy of the schema:
// ClusterShadowSchema::pragmaWrites). Internal.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sqlitebridge {

enum class ClusterStatementKind {
  /// Returns rows and writes nothing: SELECT, VALUES, EXPLAIN, WITH … SELECT,
  /// PRAGMA without `=` (unless the local copy of the schema shows that it
  /// writes: see `ClusterStatement::pragma`).
  Read,
  /// Changes rows: INSERT, UPDATE, DELETE, REPLACE, WITH … INSERT, PRAGMA
  /// with `=`, PRAGMA optimize (what it writes depends on the node's
  /// statistics), ANALYZE, REINDEX, and anything not listed here.
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
  /// A write with a RETURNING clause (dqlite 1.11 runs writes by EXEC,
  /// which cannot return rows).
  bool returnsRows = false;
  /// ATTACH or DETACH (dqlite 1.11 replicates no attached database).
  bool attaches = false;
  /// A PRAGMA classified Read from its text: it is a write when SQLite,
  /// preparing it against the local copy of the schema, says so
  /// (`PRAGMA user_version(7)`, `PRAGMA incremental_vacuum`).
  bool pragma = false;
};

/// Classifies the one statement of `sql`.
ClusterStatement classifyClusterStatement(std::string_view sql);

/// Whether `sql` holds a compound operator (UNION, INTERSECT, EXCEPT)
/// outside its literals, quoted names and comments.
bool hasCompoundOperator(std::string_view sql);

/// The words and quoted names of `sql` (outside literals and comments),
/// with ASCII letters lowered, as identifiers compare.
std::vector<std::string> foldedNamesIn(std::string_view sql);

}  // namespace sqlitebridge
