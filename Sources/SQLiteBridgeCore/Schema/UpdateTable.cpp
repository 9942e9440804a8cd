// updateTable: changing a table's schema by rebuilding it in one transaction.
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "Connection.hpp"
#include "Query.hpp"
#include "SchemaPragmas.hpp"
#include "Script.hpp"
#include "SqlText.hpp"
#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

namespace {

const char* const kSavepoint = "sqlitebridge_update_table";

// One run of updateTable on an open connection.
class TableRebuild {
 public:
  TableRebuild(Connection& connection, const std::string& create, const std::string& insert, const std::string& name)
      : connection_(connection), create_(create), insert_(insert), name_(name), old_(name + "_old") {}

  bool run() {
    if (name_.empty()) return connection_.fail(SQLITE_MISUSE, "updateTable needs the name of a table", std::string());
    // A failed lookup (an I/O error reading the schema) is reported as
    // itself, never taken for an answer.
    bool found = false;
    if (!exists("table", name_, found)) return false;
    if (!found) return connection_.fail(SQLITE_ERROR, "no such table: " + name_, std::string());
    if (!exists("table", old_, found)) return false;
    if (found) {
      return connection_.fail(
          SQLITE_ERROR, "cannot update table " + name_ + ": a table named " + old_ + " already exists", std::string());
    }
    int foreignKeys = 0;
    int legacyAlter = 0;
    if (!pragma("foreign_keys", foreignKeys) || !pragma("legacy_alter_table", legacyAlter)) return false;
    const bool foreignKeysOn = foreignKeys == 1;
    const bool inTransaction = sqlite3_get_autocommit(connection_.db) == 0;
    std::vector<std::string> referencing;
    if (foreignKeysOn && inTransaction && !tablesReferencing(connection_, name_, referencing)) return false;
    if (!referencing.empty()) {
      return connection_.fail(SQLITE_MISUSE,
                              "cannot update table " + name_ +
                                  " inside a transaction while foreign keys are enforced and other tables "
                                  "reference it; call updateTable outside the transaction",
                              std::string());
    }
    // Outside a transaction, foreign keys are paused so that renaming and
    // dropping the old table neither rewrites nor cascades into the tables
    // that reference it; they are checked explicitly before committing.
    const bool pauseForeignKeys = foreignKeysOn && !inTransaction;
    const bool setLegacyAlter = legacyAlter == 0;
    if (pauseForeignKeys) quietly("PRAGMA foreign_keys = OFF");
    // Legacy rename leaves references in views and triggers naming `name`,
    // which is the new table once rebuilt.
    if (setLegacyAlter) quietly("PRAGMA legacy_alter_table = ON");
    const bool ok = inSavepoint([&] { return rebuild(foreignKeysOn, pauseForeignKeys); });
    if (setLegacyAlter) quietly("PRAGMA legacy_alter_table = OFF");
    if (pauseForeignKeys) quietly("PRAGMA foreign_keys = ON");
    return ok;
  }

 private:
  struct SchemaObject {
    std::string type;
    std::string name;
    std::string sql;
  };

  bool rebuild(bool checkForeignKeys, bool foreignKeysPaused) {
    std::vector<SchemaObject> dependents;
    if (!query(connection_,
               "SELECT type, name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL "
               "AND tbl_name = ?1 COLLATE NOCASE ORDER BY rowid",
               {name_}, [&](sqlite3_stmt* stmt) {
                 dependents.push_back({columnText(stmt, 0), columnText(stmt, 1), columnText(stmt, 2)});
               })) {
      return false;
    }
    bool hadSequence = false;
    std::int64_t sequence = 0;
    bool sequences = false;
    if (!exists("table", "sqlite_sequence", sequences)) return false;
    if (sequences && !query(connection_, "SELECT seq FROM sqlite_sequence WHERE name = ?1 COLLATE NOCASE", {name_},
                            [&](sqlite3_stmt* stmt) {
                              hadSequence = true;
                              sequence = sqlite3_column_int64(stmt, 0);
                            })) {
      return false;
    }
    if (!script("ALTER TABLE " + quoteIdentifier(name_) + " RENAME TO " + quoteIdentifier(old_))) return false;
    // Index and trigger names are schema-wide: while the old ones hang off
    // <name>_old, `create` could not make its own of the same name. Drop them
    // now (the savepoint restores them on failure); they are recreated below
    // unless `create` made them itself.
    for (const SchemaObject& object : dependents) {
      if (!script("DROP " + object.type + " IF EXISTS " + quoteIdentifier(object.name))) return false;
    }
    if (!callerScript(create_)) return false;
    bool created = false;
    if (!exists("table", name_, created)) return false;
    if (!created) return connection_.fail(SQLITE_ERROR, "the create SQL did not create table " + name_, create_);
    if (!(insert_.empty() ? copySharedColumns() : callerScript(insert_))) return false;
    if (!script("DROP TABLE " + quoteIdentifier(old_))) return false;
    for (const SchemaObject& object : dependents) {
      // The create script may have made some of them itself.
      bool made = false;
      if (!exists(object.type, object.name, made) || (!made && !script(object.sql))) return false;
    }
    if (hadSequence && !exists("table", "sqlite_sequence", sequences)) return false;
    if (hadSequence && sequences &&
        // The sequence is bound as text: compared as text it would beat any
        // integer in max() and be stored as text, lowering the sequence.
        !query(connection_,
               "UPDATE sqlite_sequence SET seq = max(seq, CAST(?2 AS INTEGER)) WHERE name = ?1 COLLATE NOCASE",
               {name_, std::to_string(sequence)}, [](sqlite3_stmt*) {})) {
      return false;
    }
    return !checkForeignKeys || foreignKeysHold(foreignKeysPaused);
  }

  // Runs the caller's create or insert SQL. A statement that begins, commits,
  // rolls back or releases a transaction or savepoint would end the
  // savepoint the rebuild runs in (COMMIT, or RELEASE of it, publishes the
  // half-done rebuild), after which a failure could no longer undo the
  // rename: it fails with SQLITE_MISUSE before it runs.
  bool callerScript(const std::string& sql) {
    std::size_t offset = 0;
    for (;;) {
      sqlite3_stmt* stmt = nullptr;
      if (!prepareNextStatement(connection_, sql, offset, &stmt)) return false;
      if (stmt == nullptr) return true;
      // The statement's text starts at its first keyword (prepareNextStatement
      // skips whitespace and comments).
      const char* sqlText = sqlite3_sql(stmt);
      const std::string text = sqlText != nullptr ? sqlText : "";
      std::size_t length = 0;
      while (length < text.size() &&
             ((text[length] >= 'A' && text[length] <= 'Z') || (text[length] >= 'a' && text[length] <= 'z'))) {
        ++length;
      }
      const std::string_view keyword(text.data(), length);
      for (const char* control : {"BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE"}) {
        if (sameIdentifier(keyword, control)) {
          connection_.finalize(stmt);
          return connection_.fail(SQLITE_MISUSE,
                                  "updateTable runs in a transaction of its own; its create and insert SQL must not "
                                  "begin, commit, roll back or release a transaction or savepoint: \"" +
                                      excerpt(text, 0) + "\"",
                                  text);
        }
      }
      int rc;
      do {
        rc = sqlite3_step(stmt);
      } while (rc == SQLITE_ROW);
      if (rc != SQLITE_DONE) connection_.failFromSQLite(rc, text);
      connection_.finalize(stmt);
      if (rc != SQLITE_DONE) return false;
    }
  }

  // INSERT INTO name(shared columns) SELECT shared columns FROM name_old.
  bool copySharedColumns() {
    std::vector<std::string> newColumns;
    std::vector<std::string> oldColumns;
    if (!insertableColumns(name_, newColumns) || !insertableColumns(old_, oldColumns)) return false;
    std::string list;
    for (const std::string& column : newColumns) {
      for (const std::string& candidate : oldColumns) {
        if (sameIdentifier(column, candidate)) {
          if (!list.empty()) list += ", ";
          list += quoteIdentifier(column);
          break;
        }
      }
    }
    if (list.empty()) {
      bool hasRows = false;
      if (!query(connection_, "SELECT 1 FROM " + quoteIdentifier(old_) + " LIMIT 1", {},
                 [&](sqlite3_stmt*) { hasRows = true; })) {
        return false;
      }
      if (!hasRows) return true;
      return connection_.fail(
          SQLITE_ERROR,
          "the new table " + name_ + " shares no column with the old one; give an insert statement to copy its rows",
          create_);
    }
    return script("INSERT INTO " + quoteIdentifier(name_) + " (" + list + ") SELECT " + list + " FROM " +
                  quoteIdentifier(old_));
  }

  // Columns a plain INSERT can fill (not generated, not hidden).
  bool insertableColumns(const std::string& table, std::vector<std::string>& columns) {
    std::vector<TableColumnRow> rows;
    if (!readTableColumns(connection_, std::string(), table, rows)) return false;
    for (TableColumnRow& row : rows) {
      if (!row.isHidden) columns.push_back(std::move(row.name));
    }
    return true;
  }

  // The rebuilt table's own references, and those of tables referencing it;
  // every table's when enforcement was paused, since the caller's SQL could
  // then have broken a foreign key anywhere.
  bool foreignKeysHold(bool everyTable) {
    if (everyTable) return noViolation(std::string());
    std::vector<std::string> tables{name_};
    if (!tablesReferencing(connection_, name_, tables)) return false;
    for (const std::string& table : tables) {
      if (!noViolation(table)) return false;
    }
    return true;
  }

  // Checks the foreign keys of `table` (every table when empty); fails
  // naming the first violation it finds.
  bool noViolation(const std::string& table) {
    std::string violation;
    if (!firstForeignKeyViolation(connection_, table, violation)) return false;
    if (violation.empty()) return true;
    return connection_.fail(SQLITE_CONSTRAINT_FOREIGNKEY,
                            "updateTable of " + name_ + " would break a foreign key: " + violation, std::string());
  }

  // Runs `body` inside a savepoint, which is a transaction when none is
  // open. Any failure rolls back to the savepoint, keeping the first error.
  template <typename Body>
  bool inSavepoint(Body body) {
    const std::string name = quoteIdentifier(kSavepoint);
    if (!script("SAVEPOINT " + name)) return false;
    if (body() && script("RELEASE " + name)) return true;
    const Error failure = connection_.error;
    quietly("ROLLBACK TO " + name);
    quietly("RELEASE " + name);
    connection_.error = failure;
    return false;
  }

  // Sets `found` to whether a schema object of `type` is called `name`;
  // false (the error is the connection's) when the lookup itself failed.
  bool exists(const std::string& type, const std::string& name, bool& found) {
    found = false;
    return query(connection_, "SELECT 1 FROM sqlite_master WHERE type = ?1 AND name = ?2 COLLATE NOCASE", {type, name},
                 [&](sqlite3_stmt*) { found = true; });
  }

  // Reads an integer pragma into `value`; false when that failed.
  bool pragma(const std::string& name, int& value) {
    value = 0;
    return query(connection_, "PRAGMA " + name, {}, [&](sqlite3_stmt* stmt) { value = sqlite3_column_int(stmt, 0); });
  }

  bool script(const std::string& sql) { return runScript(connection_, sql); }

  // Housekeeping whose failure must not replace the error being reported.
  void quietly(const std::string& sql) { sqlite3_exec(connection_.db, sql.c_str(), nullptr, nullptr, nullptr); }

  Connection& connection_;
  const std::string& create_;
  const std::string& insert_;
  const std::string& name_;
  const std::string old_;
};

}  // namespace

bool Database::updateTable(const std::string& create, const std::string& insert, const std::string& name) noexcept {
  if (!beginCall()) return false;
  try {
    const bool ok = TableRebuild(*connection_, create, insert, name).run();
    if (ok) connection_->clearError();
    return ok;
  } catch (...) {
    return connection_->fail(SQLITE_NOMEM, "out of memory while updating table " + name, std::string());
  }
}

}  // namespace sqlitebridge
