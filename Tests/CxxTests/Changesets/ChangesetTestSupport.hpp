// Shared by the changeset tests: a schema with every value type, composite
// and text primary keys and a WITHOUT ROWID table; random transactions over
// it; and whole-database comparisons.
#pragma once

#include <gtest/gtest.h>

#include <sqlitebridge/sqlitebridge.hpp>

#include <cstdint>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "../TestSupport.hpp"

namespace sqlitebridge {
/// An error as gtest prints it: the code and the message.
inline std::ostream& operator<<(std::ostream& stream, const Error& error) {
  return stream << "code " << error.extendedCode << ": " << error.message;
}
}  // namespace sqlitebridge

/// Skips the test, saying why, where this process's SQLite has no session
/// extension (every changeset call would fail: ChangesetValue's
/// availability test checks that this follows the engine's compile options).
#define SKIP_WITHOUT_SESSION_EXTENSION()                  \
  if (!sqlitebridge::sessionExtensionAvailable())         \
  GTEST_SKIP() << "this SQLite (" << sqlite3_libversion() \
               << ") was built without the session extension (SQLITE_ENABLE_SESSION, SQLITE_ENABLE_PREUPDATE_HOOK)"

namespace sqlitebridge_test {

/// The tables the changeset tests change (each with a primary key), and one
/// without a key (which sessions cannot record).
inline const char* const kChangesetSchema =
    "CREATE TABLE items (id INTEGER PRIMARY KEY, i INTEGER, r REAL, t TEXT, b BLOB, n);"
    "CREATE TABLE pairs (a TEXT, b INTEGER, v, PRIMARY KEY (a, b));"
    "CREATE TABLE tags (name TEXT PRIMARY KEY, weight REAL NOT NULL DEFAULT 0, note TEXT) WITHOUT ROWID;"
    "CREATE TABLE plain (x, y);";

/// The keyed tables, each with the ORDER BY that lists its rows stably.
inline const std::vector<std::pair<std::string, std::string>>& keyedTables() {
  static const std::vector<std::pair<std::string, std::string>> tables = {
      {"items", "id"}, {"pairs", "a, b"}, {"tags", "name"}};
  return tables;
}

/// Every row of every keyed table, rendered with storage classes.
inline std::vector<std::string> keyedRows(sqlitebridge::Database& db) {
  std::vector<std::string> lines;
  for (const auto& [table, order] : keyedTables()) {
    lines.push_back("-- " + table);
    for (std::string& line : dump(db, "SELECT * FROM " + table + " ORDER BY " + order)) lines.push_back(line);
  }
  return lines;
}

/// A new database at `path` (file) or in memory (empty path) holding the
/// schema; a fatal failure when it cannot be made.
inline sqlitebridge::Database openChangesetDatabase(const std::string& path = ":memory:") {
  sqlitebridge::Database db = sqlitebridge::Database::open(path);
  EXPECT_TRUE(db.isOpen()) << db.error();
  EXPECT_TRUE(db.executeScript(kChangesetSchema)) << db.error();
  return db;
}

/// A random value of any storage class (NULL, integers at the limits,
/// reals, text with a NUL inside, empty and non-empty blobs).
inline sqlitebridge::Value randomValue(std::mt19937& random) {
  switch (random() % 9) {
    case 0:
      return sqlitebridge::Value();
    case 1:
      return sqlitebridge::Value(static_cast<std::int64_t>(random() % 1000) - 500);
    case 2:
      return sqlitebridge::Value(random() % 2 ? INT64_MAX : INT64_MIN);
    case 3:
      return sqlitebridge::Value(static_cast<double>(random() % 100000) / 7.0);
    case 4:
      return sqlitebridge::Value(std::string("text ") + std::to_string(random() % 50));
    case 5:
      return sqlitebridge::Value(std::string("nul\0inside", 10));
    case 6:
      return sqlitebridge::Value::fromBlob(nullptr, 0);
    case 7: {
      std::vector<std::uint8_t> bytes(1 + random() % 16);
      for (std::uint8_t& byte : bytes) byte = static_cast<std::uint8_t>(random());
      return sqlitebridge::Value::fromBlob(std::move(bytes));
    }
    default:
      return sqlitebridge::Value(std::string("é ") + std::to_string(random() % 7));
  }
}

/// Runs one random write on `db` (an insert or replace, an update or a
/// delete in one of the keyed tables, keys from small ranges so that rows
/// collide): true when it ran.
inline bool randomWrite(sqlitebridge::Database& db, std::mt19937& random) {
  using sqlitebridge::Value;
  const int table = static_cast<int>(random() % 3);
  const int action = static_cast<int>(random() % 4);
  const Value key = Value(static_cast<std::int64_t>(random() % 20));
  const Value textKey = Value(std::string("k") + std::to_string(random() % 8));
  switch (table * 4 + action) {
    case 0:
    case 1:
      return db.execute("INSERT OR REPLACE INTO items VALUES (?, ?, ?, ?, ?, ?)",
                        {key, Value(static_cast<std::int64_t>(random() % 100)), Value(random() % 1000 / 3.0),
                         randomValue(random), randomValue(random), randomValue(random)});
    case 2:
      return db.execute("UPDATE items SET t = ?, n = ? WHERE id = ?", {randomValue(random), randomValue(random), key});
    case 3:
      return db.execute("DELETE FROM items WHERE id = ?", {key});
    case 4:
    case 5:
      return db.execute("INSERT OR REPLACE INTO pairs VALUES (?, ?, ?)",
                        {textKey, Value(static_cast<std::int64_t>(random() % 3)), randomValue(random)});
    case 6:
      return db.execute("UPDATE pairs SET v = ? WHERE a = ?", {randomValue(random), textKey});
    case 7:
      return db.execute("DELETE FROM pairs WHERE a = ? AND b = ?",
                        {textKey, Value(static_cast<std::int64_t>(random() % 3))});
    case 8:
    case 9:
      return db.execute("INSERT OR REPLACE INTO tags VALUES (?, ?, ?)",
                        {textKey, Value(random() % 100 / 4.0), randomValue(random)});
    case 10:
      return db.execute("UPDATE tags SET weight = weight + 1 WHERE name = ?", {textKey});
    default:
      return db.execute("DELETE FROM tags WHERE name = ?", {textKey});
  }
}

/// `count` random writes in one transaction.
inline bool randomTransaction(sqlitebridge::Database& db, std::mt19937& random, int count) {
  if (!db.execute("BEGIN")) return false;
  for (int i = 0; i < count; ++i) {
    if (!randomWrite(db, random)) {
      db.execute("ROLLBACK");
      return false;
    }
  }
  return db.execute("COMMIT");
}

/// A copy of `db` (a file at `path`), made with VACUUM INTO.
inline sqlitebridge::Database copyOf(sqlitebridge::Database& db, const std::string& path) {
  EXPECT_TRUE(db.execute("VACUUM INTO ?", {sqlitebridge::Value(path)})) << db.error();
  sqlitebridge::Database copy = sqlitebridge::Database::open(path);
  EXPECT_TRUE(copy.isOpen()) << copy.error();
  return copy;
}

}  // namespace sqlitebridge_test
