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
  /// out: reads of it are not checked.
  void rebuild(const std::vector<Row>& rows);

  /// The guarded columns: schema, table, column, declared type (upper case).
  std::vector<std::vector<std::string>> guardedColumns() const;

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

 private:
  sqlite3* db_ = nullptr;
  bool anyGuarded_ = false;
  /// Views (folded names) whose SQL holds a compound operator.
  std::vector<std::string> compoundViews_;
};

}  // namespace sqlitebridge
