// Database::sqliteVersion and compileOptions: the library's own answers.
#include <sqlite3.h>

#include <algorithm>
#include <string>
#include <vector>

#include "TestSupport.hpp"

using sqlitebridge::Database;
using namespace sqlitebridge_test;

TEST(LibraryInfo, SqliteVersionIsTheLibrarys) {
  EXPECT_EQ(Database::sqliteVersion(), std::string(sqlite3_libversion()));
  Database db = Database::open(":memory:");
  EXPECT_EQ(Database::sqliteVersion(), scalarText(db, "SELECT sqlite_version()"));
}

TEST(LibraryInfo, CompileOptionsAreThoseThePragmaLists) {
  const std::vector<std::string> options = Database::compileOptions();
  ASSERT_FALSE(options.empty());
  Database db = Database::open(":memory:");
  std::vector<sqlitebridge::Row> rows;
  ASSERT_TRUE(db.execute("PRAGMA compile_options", &rows)) << db.error();
  std::vector<std::string> listed;
  for (const sqlitebridge::Row& row : rows) listed.push_back(row.value(0).asText());
  EXPECT_EQ(options, listed);
  EXPECT_TRUE(std::any_of(options.begin(), options.end(),
                          [](const std::string& option) { return option.rfind("THREADSAFE=", 0) == 0; }));
}

TEST(LibraryInfo, HandleIsTheOpenConnectionsAndNullOnceClosed) {
  Database db = Database::open(":memory:");
  ASSERT_NE(db.handle(), nullptr);
  EXPECT_STREQ(sqlite3_db_filename(db.handle(), "main"), "");
  db.close();
  EXPECT_EQ(db.handle(), nullptr);
}
