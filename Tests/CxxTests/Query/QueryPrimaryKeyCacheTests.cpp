// The primary keys requests render with are cached per connection while
// the schema is unchanged (Query/PrimaryKeyCache.hpp): a change of the
// schema, by this connection or another, a temp table that hides the
// table, or an attached database, never leaves a request on a stale key.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "QueryTestSupport.hpp"

using namespace sqlitebridge;
using namespace sqlitebridge_test;

namespace {

std::string keyFilter(Database& db, const std::string& table) {
  return sqlOf(db, QueryRequest::table(table).filterKey(Value(std::int64_t{1})));
}

}  // namespace

TEST(QueryPrimaryKeyCache, ASchemaChangeOfThisConnectionIsSeen) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.executeScript("CREATE TABLE t (id INTEGER PRIMARY KEY, code TEXT)")) << db.error();
  EXPECT_EQ(keyFilter(db, "t"), "SELECT * FROM \"t\" WHERE \"id\" = ?");
  EXPECT_EQ(keyFilter(db, "T"), "SELECT * FROM \"T\" WHERE \"id\" = ?");
  ASSERT_TRUE(db.executeScript("DROP TABLE t; CREATE TABLE t (id INTEGER, code TEXT PRIMARY KEY) WITHOUT ROWID"))
      << db.error();
  EXPECT_EQ(keyFilter(db, "t"), "SELECT * FROM \"t\" WHERE \"code\" = ?");
  ASSERT_TRUE(db.executeScript("ALTER TABLE t RENAME COLUMN code TO label")) << db.error();
  EXPECT_EQ(keyFilter(db, "t"), "SELECT * FROM \"t\" WHERE \"label\" = ?");
}

TEST(QueryPrimaryKeyCache, ASchemaChangeOfAnotherConnectionIsSeen) {
  TempDir dir;
  const std::string path = dir / "keys.db";
  Database db = Database::open(path);
  ASSERT_TRUE(db.executeScript("CREATE TABLE t (id INTEGER PRIMARY KEY, code TEXT)")) << db.error();
  EXPECT_EQ(keyFilter(db, "t"), "SELECT * FROM \"t\" WHERE \"id\" = ?");
  Database other = Database::open(path);
  ASSERT_TRUE(other.executeScript("DROP TABLE t; CREATE TABLE t (id INTEGER, code TEXT PRIMARY KEY) WITHOUT ROWID"))
      << other.error();
  EXPECT_EQ(keyFilter(db, "t"), "SELECT * FROM \"t\" WHERE \"code\" = ?");
  ASSERT_TRUE(other.executeScript("INSERT INTO t VALUES (1, 'one')")) << other.error();
  std::vector<Row> rows;
  ASSERT_TRUE(db.fetch(QueryRequest::table("t").filterKey(Value("one")), &rows)) << db.error();
  EXPECT_EQ(rows.size(), 1u);
}

TEST(QueryPrimaryKeyCache, ATempTableAndAnAttachedDatabaseAreSeen) {
  TempDir dir;
  Database db = Database::open(dir / "main.db");
  ASSERT_TRUE(db.executeScript("CREATE TABLE t (id INTEGER PRIMARY KEY, code TEXT)")) << db.error();
  EXPECT_EQ(keyFilter(db, "t"), "SELECT * FROM \"t\" WHERE \"id\" = ?");
  // A temp table of the same name hides the main one.
  ASSERT_TRUE(db.executeScript("CREATE TEMP TABLE t (code TEXT PRIMARY KEY, id INTEGER)")) << db.error();
  EXPECT_EQ(keyFilter(db, "t"), "SELECT * FROM \"t\" WHERE \"code\" = ?");
  ASSERT_TRUE(db.executeScript("DROP TABLE temp.t")) << db.error();
  EXPECT_EQ(keyFilter(db, "t"), "SELECT * FROM \"t\" WHERE \"id\" = ?");
  // A table only an attached database has, changed by another connection.
  const std::string auxPath = dir / "aux.db";
  ASSERT_TRUE(db.executeScript("ATTACH '" + auxPath + "' AS aux; CREATE TABLE aux.a (id INTEGER PRIMARY KEY)"))
      << db.error();
  EXPECT_EQ(keyFilter(db, "a"), "SELECT * FROM \"a\" WHERE \"id\" = ?");
  Database other = Database::open(auxPath);
  ASSERT_TRUE(other.executeScript("DROP TABLE a; CREATE TABLE a (k TEXT PRIMARY KEY) WITHOUT ROWID")) << other.error();
  EXPECT_EQ(keyFilter(db, "a"), "SELECT * FROM \"a\" WHERE \"k\" = ?");
}
