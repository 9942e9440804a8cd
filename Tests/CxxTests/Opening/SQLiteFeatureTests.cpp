// What the library does on a SQLite older than the features it uses: the
// encrypted build runs on SQLCipher's SQLite 3.15.2 (Debian 12). A feature
// with a fallback works there (schema introspection without the pragma
// functions, table_xinfo and table_list); one without fails with the
// documented "… needs SQLite ≥ x.y.z; this build runs on SQLite …" error.
// Each test asserts the branch of the SQLite it runs on, so both builds
// test something real.
#include <unistd.h>

#include <string>
#include <vector>

#include "SQLiteVersionSupport.hpp"
#include "TestSupport.hpp"

using sqlitebridge::ColumnInfo;
using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::ResultCode;
using namespace sqlitebridge_test;

TEST(SQLiteFeatures, NoFollowSymlinksOpensOnNewSQLiteAndFailsNamingTheVersionOnOld) {
  TempDir dir;
  const std::string path = dir / "plain.db";
  Configuration configuration;
  configuration.noFollowSymlinks = true;
  Database db = Database::open(path, configuration);
  if (sqliteIsAtLeast(3031000)) {
    ASSERT_TRUE(db.isOpen()) << db.error();
    EXPECT_TRUE(db.execute("CREATE TABLE t(x)")) << db.error();
    return;
  }
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().resultCode(), ResultCode::Error);
  EXPECT_EQ(db.error().rfind("Configuration.noFollowSymlinks needs SQLite \u2265 3.31.0; this build runs on SQLite " +
                                 std::string(sqlite3_libversion()),
                             0),
            0u)
      << db.error();
  EXPECT_NE(::access(path.c_str(), F_OK), 0) << "no file is made";
}

TEST(SQLiteFeatures, SchemaIntrospectionWorksWithoutThePragmaFunctions) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.executeScript(
      "CREATE TABLE parent(id INTEGER PRIMARY KEY, code TEXT UNIQUE);"
      "CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parent(id) ON DELETE CASCADE, "
      "note TEXT DEFAULT 'n');"
      "CREATE INDEX child_parent ON child(parent_id);"
      "CREATE TEMP TABLE scratch(s);"
      "ATTACH ':memory:' AS aux; CREATE TABLE aux.elsewhere(e);"))
      << db.error();
  std::vector<ColumnInfo> columns;
  ASSERT_TRUE(db.columns("child", columns)) << db.error();
  ASSERT_EQ(columns.size(), 3u);
  EXPECT_EQ(columns[1].name, "parent_id");
  EXPECT_TRUE(columns[1].isNotNull);
  EXPECT_EQ(columns[2].defaultValueSQL.value_or(""), "'n'");
  EXPECT_FALSE(columns[2].isHidden);
  std::vector<std::string> names;
  ASSERT_TRUE(db.tableNames(names)) << db.error();
  EXPECT_EQ(names, (std::vector<std::string>{"child", "parent"}));
  EXPECT_TRUE(db.tableExists("sqlite_master"));
  EXPECT_TRUE(db.tableExists("SCRATCH"));
  EXPECT_TRUE(db.tableExists("aux.elsewhere"));
  EXPECT_TRUE(db.hasTableColumn("scratch", "s")) << db.error();
  EXPECT_TRUE(db.indexExists("child_parent"));
  std::vector<sqlitebridge::IndexInfo> indexes;
  ASSERT_TRUE(db.indexes("child", indexes)) << db.error();
  ASSERT_EQ(indexes.size(), 1u);
  EXPECT_EQ(indexes[0].columns, (std::vector<std::string>{"parent_id"}));
  std::vector<sqlitebridge::ForeignKeyInfo> keys;
  ASSERT_TRUE(db.foreignKeys("child", keys)) << db.error();
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(keys[0].destinationTable, "parent");
  EXPECT_EQ(keys[0].onDelete, "CASCADE");
  // updateTable reads the columns and the references the same way.
  ASSERT_TRUE(db.executeScript("INSERT INTO parent VALUES (1, 'a'); INSERT INTO child(parent_id) VALUES (1);"))
      << db.error();
  ASSERT_TRUE(
      db.updateTable("CREATE TABLE parent(id INTEGER PRIMARY KEY, code TEXT UNIQUE, rank INTEGER)", "", "parent"))
      << db.error();
  EXPECT_TRUE(db.hasTableColumn("parent", "rank"));
  EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM child"), 1);
}
