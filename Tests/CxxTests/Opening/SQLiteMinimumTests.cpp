// The oldest SQLite the library runs on, 3.37.0: an older sqlite3.h fails
// the build (Opening/SQLiteMinimum.cpp), an older loaded library fails every
// open. The library this suite runs on is what it is, so the refusal is
// tested on version numbers, through the check every open makes
// (interop::OpeningTesting); SQLiteMinimumTests.swift does the same from
// Swift.
#include <sqlitebridge/interop/Testing.hpp>
#include <string>

#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::interop::OpeningTesting;

namespace {

std::string problemOf(int versionNumber) {
  std::string message = "unset";
  EXPECT_TRUE(OpeningTesting::sqliteVersionProblem(versionNumber, message));
  return message;
}

}  // namespace

TEST(SQLiteMinimum, AnOlderSQLiteIsRefusedNamingBothVersions) {
  const std::string message = problemOf(3036000);
  EXPECT_EQ(message.rfind("SQLiteBridge needs SQLite 3.37.0 or newer, but the SQLite library loaded is 3.36.0 ", 0), 0u)
      << message;
  EXPECT_NE(message.find(std::string("(compiled with sqlite3.h ") + SQLITE_VERSION + ")"), std::string::npos)
      << message;
  EXPECT_EQ(problemOf(3015002).rfind("SQLiteBridge needs SQLite 3.37.0 or newer, but the SQLite library loaded is "
                                     "3.15.2 ",
                                     0),
            0u);
}

TEST(SQLiteMinimum, TheMinimumAndNewerAreAccepted) {
  EXPECT_EQ(problemOf(3037000), "");
  EXPECT_EQ(problemOf(3053004), "");
  EXPECT_EQ(problemOf(sqlite3_libversion_number()), "");
}

TEST(SQLiteMinimum, TheSQLiteThisSuiteRunsOnIsNewEnoughAndOpens) {
  EXPECT_GE(SQLITE_VERSION_NUMBER, 3037000);
  EXPECT_GE(sqlite3_libversion_number(), 3037000);
  Database db = Database::open(":memory:");
  EXPECT_TRUE(db.isOpen()) << db.error();
}
