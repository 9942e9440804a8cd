// DatabaseRegion: the value type (union, emptiness, the full database,
// description, equality as SQLite compares names) and Database::region, the
// region a statement reads as SQLite's authorizer reports it while the
// statement is prepared: views resolved, SQLite's own tables and pragma
// tables dropped, COUNT(*) and rowid meaning the whole table, computed once
// per cached statement.
#include <string>

#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::DatabaseRegion;
using sqlitebridge::ResultCode;
using namespace sqlitebridge_test;

namespace {

class Regions : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.executeScript(
        "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT, body TEXT);"
        "CREATE TABLE tags(noteId INTEGER REFERENCES notes(id), name TEXT);"
        "CREATE TABLE plain(a, b);"
        "CREATE TABLE keyed(k TEXT PRIMARY KEY, v) WITHOUT ROWID;"
        "CREATE VIEW tagged AS SELECT notes.title, tags.name FROM notes JOIN tags ON tags.noteId = notes.id;"
        "CREATE VIEW titles AS SELECT title FROM tagged;"
        "CREATE VIEW plain_view AS SELECT a, b FROM plain;"))
        << db_.error();
  }

  std::string regionOf(const std::string& sql) {
    DatabaseRegion region;
    EXPECT_TRUE(db_.region(sql, region)) << db_.error();
    return region.description();
  }

  TempDir dir_;
  Database db_ = Database::open(dir_ / "regions.db");
};

}  // namespace

TEST(DatabaseRegionValue, EmptyFullTablesAndColumnsDescribeThemselves) {
  EXPECT_EQ(DatabaseRegion().description(), "empty");
  EXPECT_TRUE(DatabaseRegion().isEmpty());
  EXPECT_FALSE(DatabaseRegion().isFullDatabase());
  EXPECT_EQ(DatabaseRegion::fullDatabase().description(), "full database");
  EXPECT_TRUE(DatabaseRegion::fullDatabase().isFullDatabase());
  EXPECT_FALSE(DatabaseRegion::fullDatabase().isEmpty());
  EXPECT_EQ(DatabaseRegion::table("u").description(), "u(*)");
  EXPECT_EQ(DatabaseRegion::columns("t", {"b", "a", "B"}).description(), "t(a,b)");
  EXPECT_TRUE(DatabaseRegion::columns("t", {}).isEmpty());
  DatabaseRegion region = DatabaseRegion::columns("t", {"a", "b"});
  region.formUnion(DatabaseRegion::table("u"));
  EXPECT_EQ(region.description(), "t(a,b),u(*)");
}

TEST(DatabaseRegionValue, UnionWidensColumnsToTheTableAndAnythingToTheFullDatabase) {
  DatabaseRegion region = DatabaseRegion::columns("t", {"a"});
  region.formUnion(DatabaseRegion::columns("T", {"c"}));
  EXPECT_EQ(region.description(), "t(a,c)");
  region.formUnion(DatabaseRegion::table("t"));
  EXPECT_EQ(region.description(), "t(*)");
  region.formUnion(DatabaseRegion::columns("t", {"z"}));
  EXPECT_EQ(region.description(), "t(*)");
  region.formUnion(DatabaseRegion());
  EXPECT_EQ(region.description(), "t(*)");
  region.formUnion(DatabaseRegion::fullDatabase());
  EXPECT_TRUE(region.isFullDatabase());
  region.formUnion(DatabaseRegion::table("x"));
  EXPECT_EQ(region.description(), "full database");
}

TEST(DatabaseRegionValue, NamesCompareAsSQLiteComparesIdentifiers) {
  EXPECT_EQ(DatabaseRegion::table("Notes"), DatabaseRegion::table("NOTES"));
  EXPECT_EQ(DatabaseRegion::columns("Notes", {"Title"}), DatabaseRegion::columns("notes", {"title"}));
  EXPECT_EQ(DatabaseRegion::table("Notes").hashValue(), DatabaseRegion::table("notes").hashValue());
  // ASCII only, as SQLite: "É" and "é" are different names.
  EXPECT_NE(DatabaseRegion::table("\xc3\x89t\xc3\xa9"), DatabaseRegion::table("\xc3\xa9t\xc3\xa9"));
  EXPECT_NE(DatabaseRegion::table("t"), DatabaseRegion::columns("t", {"a"}));
  EXPECT_NE(DatabaseRegion(), DatabaseRegion::fullDatabase());
  // The first spelling is kept for the description.
  DatabaseRegion region = DatabaseRegion::table("Notes");
  region.formUnion(DatabaseRegion::table("notes"));
  EXPECT_EQ(region.description(), "Notes(*)");
}

TEST(DatabaseRegionValue, IntersectionFollowsTablesColumnsAndTheFullDatabase) {
  const DatabaseRegion ab = DatabaseRegion::columns("t", {"a", "b"});
  EXPECT_TRUE(ab.intersects(DatabaseRegion::columns("T", {"B"})));
  EXPECT_FALSE(ab.intersects(DatabaseRegion::columns("t", {"c"})));
  EXPECT_TRUE(ab.intersects(DatabaseRegion::table("t")));
  EXPECT_FALSE(ab.intersects(DatabaseRegion::table("u")));
  EXPECT_TRUE(ab.intersects(DatabaseRegion::fullDatabase()));
  EXPECT_FALSE(DatabaseRegion().intersects(DatabaseRegion::fullDatabase()));
  EXPECT_FALSE(DatabaseRegion::fullDatabase().intersects(DatabaseRegion()));
}

TEST_F(Regions, ColumnsReadAreTheRegion) {
  EXPECT_EQ(regionOf("SELECT title, body FROM notes WHERE title = 'x'"), "notes(body,title)");
  EXPECT_EQ(regionOf("SELECT a FROM plain WHERE b > 1"), "plain(a,b)");
}

TEST_F(Regions, CountStarAndRowidMeanTheWholeTable) {
  EXPECT_EQ(regionOf("SELECT COUNT(*) FROM plain"), "plain(*)");
  EXPECT_EQ(regionOf("SELECT rowid FROM plain"), "plain(*)");
  EXPECT_EQ(regionOf("SELECT id FROM notes"), "notes(*)");
  EXPECT_EQ(regionOf("SELECT count(*) FROM keyed"), "keyed(*)");
}

TEST_F(Regions, ATableReadWithoutItsColumnsIsWhole) {
  // The authorizer reports such a table with an empty column name.
  EXPECT_EQ(regionOf("SELECT 1 FROM plain"), "plain(*)");
  EXPECT_EQ(regionOf("SELECT EXISTS (SELECT 1 FROM tags)"), "tags(*)");
  EXPECT_EQ(regionOf("SELECT title, (SELECT count(*) FROM notes) FROM notes"), "notes(*)");
  EXPECT_EQ(regionOf("SELECT count(*) FROM plain WHERE a > 1"), "plain(a)");
  EXPECT_EQ(regionOf("SELECT count(*) FROM plain_view"), "plain(*)");
  EXPECT_EQ(regionOf("INSERT INTO plain SELECT 1, 2 FROM keyed"), "keyed(*)");
  EXPECT_EQ(regionOf("UPDATE plain SET b = 1"), "empty");
  EXPECT_EQ(regionOf("DELETE FROM plain"), "empty");
  ASSERT_TRUE(db_.execute("CREATE TEMP TABLE scratch(x)")) << db_.error();
  EXPECT_EQ(regionOf("SELECT count(*) FROM scratch"), "scratch(*)");
}

TEST_F(Regions, ViewsAreResolvedToTheTablesTheyRead) {
  // notes.id is the rowid alias: the whole table.
  EXPECT_EQ(regionOf("SELECT * FROM tagged"), "notes(*),tags(name,noteId)");
  EXPECT_EQ(regionOf("SELECT title FROM titles"), "notes(*),tags(name,noteId)");
  // SQLite authorizes every column the view selects, used or not.
  EXPECT_EQ(regionOf("SELECT a FROM plain_view"), "plain(a,b)");
}

TEST_F(Regions, JoinsAndSubqueriesReadEveryTableTheyName) {
  EXPECT_EQ(regionOf("SELECT title FROM notes WHERE id IN (SELECT noteId FROM tags WHERE name = ?)"),
            "notes(*),tags(name,noteId)");
  EXPECT_EQ(regionOf("SELECT k FROM keyed JOIN plain ON plain.a = keyed.v"), "keyed(k,v),plain(a)");
}

TEST_F(Regions, SQLitesOwnTablesAreLeftOut) {
  EXPECT_EQ(regionOf("SELECT name FROM sqlite_master"), "empty");
  EXPECT_EQ(regionOf("SELECT count(*) FROM sqlite_master"), "empty");
  EXPECT_EQ(regionOf("SELECT 1"), "empty");
}

TEST_F(Regions, PragmaTablesAreLeftOut) {
  // A table-valued pragma function (pragma_table_info(...)) is no table.
  EXPECT_EQ(regionOf("SELECT name FROM pragma_table_info('notes')"), "empty");
}

TEST_F(Regions, NamesAreComparedWithoutRegardToCase) {
  DatabaseRegion upper;
  DatabaseRegion lower;
  ASSERT_TRUE(db_.region("SELECT TITLE FROM NOTES", upper)) << db_.error();
  ASSERT_TRUE(db_.region("select title from notes", lower)) << db_.error();
  EXPECT_EQ(upper, lower);
}

TEST_F(Regions, ACachedStatementKeepsItsRegion) {
  const std::string sql = "SELECT title FROM notes WHERE body = ?";
  EXPECT_EQ(regionOf(sql), "notes(body,title)");
  const auto prepared = db_.preparedStatementCount();
  EXPECT_EQ(regionOf(sql), "notes(body,title)");
  EXPECT_EQ(db_.preparedStatementCount(), prepared) << "the second call reused the cached statement and its region";
}

TEST_F(Regions, BadSQLFailsAndLeavesTheRegionAlone) {
  DatabaseRegion region = DatabaseRegion::table("kept");
  EXPECT_FALSE(db_.region("SELECT nope FROM notes", region));
  EXPECT_EQ(db_.lastError().code, static_cast<int>(ResultCode::Error));
  EXPECT_FALSE(db_.region("SELECT 1; SELECT 2", region));
  EXPECT_EQ(db_.lastError().code, static_cast<int>(ResultCode::Misuse));
  EXPECT_EQ(region.description(), "kept(*)");
  Database closed = Database::open(dir_ / "no/such/dir/x.db");
  ASSERT_FALSE(closed.isOpen());
  EXPECT_FALSE(closed.region("SELECT 1", region));
  EXPECT_EQ(closed.lastError().code, static_cast<int>(ResultCode::Misuse));
}

TEST_F(Regions, RegionDoesNotRunTheStatement) {
  DatabaseRegion region;
  ASSERT_TRUE(db_.region("DELETE FROM plain", region)) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO plain VALUES (1, 2)")) << db_.error();
  ASSERT_TRUE(db_.region("DELETE FROM plain", region)) << db_.error();
  sqlitebridge::Row row;
  ASSERT_TRUE(db_.execute("SELECT count(*) FROM plain", row)) << db_.error();
  EXPECT_EQ(row.value(0).asInteger(), 1);
}
