// The cluster database's schema (its main and temp tables and views), kept
// by the client in a local in-memory SQLite database: the columns the
// guards protect come from it, and a read is prepared there first, so that
// the declared types of its result columns are known before it is sent.
//
// Why: a dqlite 1.11 node aborts when a result column declared BOOLEAN
// (DATETIME, DATE, TIMESTAMP) carries a value of another kind. The guards
// keep such values out of the stored columns; what they cannot see is a
// value computed by the query itself in such a column, which takes its
// declared type from the first SELECT of a compound (`SELECT b FROM t UNION
// ALL SELECT 'x'`), directly or through a view. Such reads are refused.
// Internal.
#pragma once

#include <string>
#include <vector>

#include "sqlitebridge/Row.hpp"
#include "sqlitebridge/SQLite.hpp"

namespace sqlitebridge {

class ClusterShadowSchema {
 public:
  ClusterShadowSchema() noexcept = default;
  ~ClusterShadowSchema();
  ClusterShadowSchema(const ClusterShadowSchema&) = delete;
  ClusterShadowSchema& operator=(const ClusterShadowSchema&) = delete;

  /// What the client asks the leader: schema, type, name and SQL of every
  /// table and view of main and temp (its columns have no declared types).
  static const char* query() noexcept;

  /// Makes the local copy anew from the rows `query()` returned. An object
  /// SQLite here cannot make (a virtual table of an unknown module) is left
  /// out: reads of it are not checked and its columns get no guards.
  void rebuild(const std::vector<Row>& rows);

  /// The guarded columns: schema, table, column, declared type (upper
  /// case), the SQL of its DEFAULT ("" for none), and "generated" for a
  /// generated column ("" otherwise), as `PRAGMA table_xinfo` tells.
  std::vector<std::vector<std::string>> guardedColumns() const;

  /// Whether the schema change `sql` is safe for dqlite 1.11 nodes, judged
  /// by running it on the copy (then undone): an `ALTER TABLE … ADD
  /// COLUMN` whose new guarded column has a DEFAULT of a kind the nodes
  /// abort on would hand that value to every row the table already has,
  /// where no guard sees it. False (with `problem`) for such a change; true
  /// otherwise, and when the copy cannot run it (the node will say why).
  bool checkSchemaChange(const std::string& sql, std::string& problem);

  enum class Verdict {
    /// Nothing in it can make a node abort (as far as the schema tells).
    Safe,
    /// It cannot be prepared here (the copy may be stale).
    Unknown,
    /// A guarded result column may carry a computed value: `problem` says
    /// which.
    Refused,
  };
  /// Judges the read `sql` (one statement).
  Verdict check(const std::string& sql, std::string& problem) const;

  /// Whether the PRAGMA `sql` writes to the database, as SQLite says when
  /// it prepares it against the copy: `sqlite3_stmt_readonly` false and no
  /// result columns (`PRAGMA user_version(7)`, `PRAGMA incremental_vacuum`).
  /// One that returns rows (`PRAGMA journal_mode`, `wal_checkpoint`) is the
  /// node's own business, not a replicated write: false. `known` is false
  /// when it cannot be prepared here. Some PRAGMAs act when prepared: the
  /// copy is made again afterwards from the rows it was made from.
  bool pragmaWrites(const std::string& sql, bool& known);

 private:
  void build();

  sqlite3* db_ = nullptr;
  /// What `rebuild` was given.
  std::vector<Row> rows_;
  bool anyGuarded_ = false;
  /// Views (folded names) whose SQL holds a compound operator.
  std::vector<std::string> compoundViews_;
};

}  // namespace sqlitebridge
