#include "TableShape.hpp"

#include <algorithm>
#include <new>

#include "Connection.hpp"
#include "SessionAPI.hpp"

namespace sqlitebridge {

bool TableShape::hasPrimaryKey() const noexcept {
  return std::any_of(primaryKey.begin(), primaryKey.end(), [](bool key) { return key; });
}

bool readTableShape(Connection& connection, const std::string& schema, const std::string& table, TableShape& out,
                    Error* error) noexcept {
  static const char sql[] = "SELECT pk FROM pragma_table_info(?1, ?2) ORDER BY cid";
  sqlite3_stmt* statement = nullptr;
  int rc = connection.prepare(sql, -1, &statement, nullptr);
  TableShape shape;
  try {
    if (rc == SQLITE_OK)
      rc = sqlite3_bind_text(statement, 1, table.data(), static_cast<int>(table.size()), SQLITE_STATIC);
    if (rc == SQLITE_OK) {
      rc = sqlite3_bind_text(statement, 2, schema.data(), static_cast<int>(schema.size()), SQLITE_STATIC);
    }
    while (rc == SQLITE_OK && (rc = sqlite3_step(statement)) == SQLITE_ROW) {
      const int position = sqlite3_column_int(statement, 0);
      shape.primaryKey.push_back(position > 0);
      // A byte, as SQLite's session extension keeps it.
      shape.keyPositions.push_back(static_cast<unsigned char>(position));
      rc = SQLITE_OK;
    }
  } catch (const std::bad_alloc&) {
    rc = SQLITE_NOMEM;
  }
  std::string message = rc == SQLITE_DONE ? std::string() : std::string(sqlite3_errmsg(connection.db));
  if (statement != nullptr) connection.finalize(statement);
  if (rc != SQLITE_DONE) return changesetFailure(error, rc, "reading the columns of " + table + ": " + message);
  shape.exists = !shape.primaryKey.empty();
  out = std::move(shape);
  return true;
}

bool changesetFitsTable(const std::string& table, const std::vector<unsigned char>& changesetKey,
                        const TableShape& shape, Error* error) noexcept {
  try {
    if (!shape.exists) {
      return changesetFailure(error, SQLITE_SCHEMA,
                              "the changeset changes table \"" + table +
                                  "\", which this database lacks (pass the tables to apply to skip it)");
    }
    if (!shape.hasPrimaryKey()) {
      // SQLite would try, and fail preparing a statement ("SQL logic error").
      return changesetFailure(error, SQLITE_SCHEMA,
                              "the changeset changes table \"" + table +
                                  "\", which has no PRIMARY KEY here: a changeset applies only to tables with one");
    }
    // Key places, not only key flags: SQLite compares the bytes, and skips
    // a table whose key columns are the same but numbered otherwise.
    bool fits = changesetKey.size() <= shape.keyPositions.size();
    for (std::size_t i = 0; fits && i < shape.keyPositions.size(); ++i) {
      const unsigned char key = i < changesetKey.size() ? changesetKey[i] : 0;
      fits = key == shape.keyPositions[i];
    }
    if (fits) return true;
    return changesetFailure(error, SQLITE_SCHEMA,
                            "the changeset's table \"" + table + "\" (" + std::to_string(changesetKey.size()) +
                                " columns) does not fit the table here (" + std::to_string(shape.primaryKey.size()) +
                                " columns): the columns or the primary key differ");
  } catch (const std::bad_alloc&) {
    return changesetFailure(error, SQLITE_NOMEM, "out of memory");
  }
}

}  // namespace sqlitebridge
