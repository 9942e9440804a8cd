// The primary keys requests render with are cached per connection while
// the schema is unchanged (Query/PrimaryKeyCache.hpp): a change of the
// schema, by this connection or another, a temp table that hides the
// table, or an attached database, never leaves a request on a stale key.
// A fetch's key lookup opens the read transaction the fetch then runs in
// (FetchHold): it ends with the fetch, whichever way the fetch ends.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "QueryTestSupport.hpp"

using namespace sqlitebridge;
using namespace sqlitebridge_test;

namespace {

std::string keyFilter(Database& db, const std::string& table) {
  return sqlOf(db, QueryRequest::table(table).filterKey(Value(std::int64_t{1})));
}

struct Keyed {
  std::int64_t id = 0;
  std::string code;
};

// A connection that fails at once on a lock (no busy wait).
Database openImpatient(const std::string& path) {
  Configuration configuration;
  configuration.busyTimeoutMilliseconds = 0;
  return Database::open(path, configuration);
}

// Whether `other` can write to the database now: on a rollback-journal
// database, a read transaction `db` left open makes the commit fail.
bool canWrite(Database& other) { return other.execute("UPDATE t SET code = code || ''"); }

}  // namespace

template <>
struct sqlitebridge::RecordTraits<Keyed> {
  static constexpr const char* table = "t";
  static std::vector<std::string> primaryKey() { return {"id"}; }
  static bool read(const RowView& row, Keyed& out) { return row.get("id", out.id) && row.get("code", out.code); }
  static void write(const Keyed& in, NamedValues& out) {
    out.add("id", in.id);
    out.add("code", in.code);
  }
};

namespace {}  // namespace

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

TEST(QueryPrimaryKeyCache, ATempDatabaseReopenedByTempStoreIsSeen) {
  // PRAGMA temp_store closes the temp database with its objects; the one it
  // opens next counts its schema versions from 0 again, so a version alone
  // could match the one the keys were read under.
  TempDir dir;
  Database db = Database::open(dir / "main.db");
  ASSERT_TRUE(db.executeScript("CREATE TABLE t (id INTEGER PRIMARY KEY, code TEXT, label TEXT)")) << db.error();
  ASSERT_TRUE(db.executeScript("CREATE TEMP TABLE t (code TEXT PRIMARY KEY, id INTEGER, label TEXT)")) << db.error();
  EXPECT_EQ(keyFilter(db, "t"), "SELECT * FROM \"t\" WHERE \"code\" = ?");
  ASSERT_TRUE(db.executeScript("PRAGMA temp_store = MEMORY")) << db.error();
  ASSERT_TRUE(db.executeScript("CREATE TEMP TABLE t (label TEXT PRIMARY KEY, id INTEGER, code TEXT)")) << db.error();
  EXPECT_EQ(keyFilter(db, "t"), "SELECT * FROM \"t\" WHERE \"label\" = ?");
  ASSERT_TRUE(db.executeScript("PRAGMA temp_store = FILE")) << db.error();
  EXPECT_EQ(keyFilter(db, "t"), "SELECT * FROM \"t\" WHERE \"id\" = ?");
}

TEST(QueryPrimaryKeyCache, AFetchByKeyLeavesNoTransactionOpen) {
  TempDir dir;
  const std::string path = dir / "keys.db";
  Database db = openImpatient(path);
  ASSERT_TRUE(db.executeScript("CREATE TABLE t (id INTEGER PRIMARY KEY, code TEXT); INSERT INTO t VALUES (1, 'one')"))
      << db.error();
  Database other = openImpatient(path);
  const QueryRequest byKey = QueryRequest::table("t").filterKey(Value(std::int64_t{1}));
  const QueryRequest missing = QueryRequest::table("t").filterKey(Value(std::int64_t{2}));
  for (const QueryRequest& request : {byKey, missing, QueryRequest::table("t").reversed()}) {
    std::vector<Row> rows;
    ASSERT_TRUE(db.fetch(request, &rows)) << db.error();
    EXPECT_TRUE(canWrite(other)) << other.error();
    Row row;
    bool found = false;
    ASSERT_TRUE(db.fetchOne(request, row, found)) << db.error();
    EXPECT_TRUE(canWrite(other)) << other.error();
    std::int64_t count = 0;
    ASSERT_TRUE(db.fetchCount(request, count)) << db.error();
    EXPECT_EQ(count, static_cast<std::int64_t>(rows.size()));
    EXPECT_TRUE(canWrite(other)) << other.error();
    std::vector<Keyed> records;
    ASSERT_TRUE(db.fetchAll(request, records)) << db.error();
    EXPECT_EQ(records.size(), rows.size());
    EXPECT_TRUE(canWrite(other)) << other.error();
    std::int64_t changed = 0;
    ASSERT_TRUE(db.updateAll(request, {assign("code", value(Value("uno")))}, &changed)) << db.error();
    EXPECT_EQ(changed, static_cast<std::int64_t>(rows.size()));
    EXPECT_TRUE(canWrite(other)) << other.error();
  }
  // Inside a transaction the fetch is the transaction's: it stays open.
  ASSERT_TRUE(db.execute("BEGIN")) << db.error();
  std::vector<Row> rows;
  ASSERT_TRUE(db.fetch(byKey, &rows)) << db.error();
  EXPECT_FALSE(canWrite(other));
  EXPECT_EQ(other.lastError().code, SQLITE_BUSY);
  ASSERT_TRUE(db.execute("COMMIT")) << db.error();
  EXPECT_TRUE(canWrite(other)) << other.error();
}

TEST(QueryPrimaryKeyCache, AFetchByKeyOnALockedDatabaseFailsAndHoldsNothing) {
  TempDir dir;
  const std::string path = dir / "keys.db";
  Database db = openImpatient(path);
  ASSERT_TRUE(db.executeScript("CREATE TABLE t (id INTEGER PRIMARY KEY, code TEXT); INSERT INTO t VALUES (1, 'one')"))
      << db.error();
  const QueryRequest byKey = QueryRequest::table("t").filterKey(Value(std::int64_t{1}));
  std::vector<Row> rows;
  ASSERT_TRUE(db.fetch(byKey, &rows)) << db.error();  // the key is cached
  Database other = openImpatient(path);
  ASSERT_TRUE(other.execute("BEGIN EXCLUSIVE")) << other.error();
  rows.clear();
  EXPECT_FALSE(db.fetch(byKey, &rows));
  EXPECT_EQ(db.lastError().code, SQLITE_BUSY) << db.error();
  EXPECT_TRUE(rows.empty());
  ASSERT_TRUE(other.execute("COMMIT")) << other.error();
  ASSERT_TRUE(db.fetch(byKey, &rows)) << db.error();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(canWrite(other)) << other.error();
}
