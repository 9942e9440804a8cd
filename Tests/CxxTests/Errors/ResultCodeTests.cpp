// ResultCode: every primary code SQLite defines, typed, with SQLite's numbers
// and names; names of extended codes; Error::resultCode() and Error::is()
// match a primary code for every extended code of it.
#include <string>

#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::Error;
using sqlitebridge::ResultCode;
using sqlitebridge::resultCodeName;
using namespace sqlitebridge_test;

// The enum's values are SQLite's, checked against sqlite3.h at compile time.
#define SQLITEBRIDGE_SAME_AS_SQLITE(name, macro) \
  static_assert(static_cast<int>(ResultCode::name) == (macro), #name " is not " #macro)
SQLITEBRIDGE_SAME_AS_SQLITE(OK, SQLITE_OK);
SQLITEBRIDGE_SAME_AS_SQLITE(Error, SQLITE_ERROR);
SQLITEBRIDGE_SAME_AS_SQLITE(Internal, SQLITE_INTERNAL);
SQLITEBRIDGE_SAME_AS_SQLITE(Perm, SQLITE_PERM);
SQLITEBRIDGE_SAME_AS_SQLITE(Abort, SQLITE_ABORT);
SQLITEBRIDGE_SAME_AS_SQLITE(Busy, SQLITE_BUSY);
SQLITEBRIDGE_SAME_AS_SQLITE(Locked, SQLITE_LOCKED);
SQLITEBRIDGE_SAME_AS_SQLITE(NoMem, SQLITE_NOMEM);
SQLITEBRIDGE_SAME_AS_SQLITE(ReadOnly, SQLITE_READONLY);
SQLITEBRIDGE_SAME_AS_SQLITE(Interrupt, SQLITE_INTERRUPT);
SQLITEBRIDGE_SAME_AS_SQLITE(IOErr, SQLITE_IOERR);
SQLITEBRIDGE_SAME_AS_SQLITE(Corrupt, SQLITE_CORRUPT);
SQLITEBRIDGE_SAME_AS_SQLITE(NotFound, SQLITE_NOTFOUND);
SQLITEBRIDGE_SAME_AS_SQLITE(Full, SQLITE_FULL);
SQLITEBRIDGE_SAME_AS_SQLITE(CantOpen, SQLITE_CANTOPEN);
SQLITEBRIDGE_SAME_AS_SQLITE(Protocol, SQLITE_PROTOCOL);
SQLITEBRIDGE_SAME_AS_SQLITE(Empty, SQLITE_EMPTY);
SQLITEBRIDGE_SAME_AS_SQLITE(Schema, SQLITE_SCHEMA);
SQLITEBRIDGE_SAME_AS_SQLITE(TooBig, SQLITE_TOOBIG);
SQLITEBRIDGE_SAME_AS_SQLITE(Constraint, SQLITE_CONSTRAINT);
SQLITEBRIDGE_SAME_AS_SQLITE(Mismatch, SQLITE_MISMATCH);
SQLITEBRIDGE_SAME_AS_SQLITE(Misuse, SQLITE_MISUSE);
SQLITEBRIDGE_SAME_AS_SQLITE(NoLFS, SQLITE_NOLFS);
SQLITEBRIDGE_SAME_AS_SQLITE(Auth, SQLITE_AUTH);
SQLITEBRIDGE_SAME_AS_SQLITE(Format, SQLITE_FORMAT);
SQLITEBRIDGE_SAME_AS_SQLITE(Range, SQLITE_RANGE);
SQLITEBRIDGE_SAME_AS_SQLITE(NotADB, SQLITE_NOTADB);
SQLITEBRIDGE_SAME_AS_SQLITE(Notice, SQLITE_NOTICE);
SQLITEBRIDGE_SAME_AS_SQLITE(Warning, SQLITE_WARNING);
SQLITEBRIDGE_SAME_AS_SQLITE(Row, SQLITE_ROW);
SQLITEBRIDGE_SAME_AS_SQLITE(Done, SQLITE_DONE);

TEST(ResultCodes, DescribeGivesSQLitesNameOfEveryPrimaryCode) {
  const std::pair<ResultCode, const char*> expected[] = {
      {ResultCode::OK, "SQLITE_OK"},
      {ResultCode::Busy, "SQLITE_BUSY"},
      {ResultCode::NoMem, "SQLITE_NOMEM"},
      {ResultCode::IOErr, "SQLITE_IOERR"},
      {ResultCode::Constraint, "SQLITE_CONSTRAINT"},
      {ResultCode::NoLFS, "SQLITE_NOLFS"},
      {ResultCode::NotADB, "SQLITE_NOTADB"},
      {ResultCode::Warning, "SQLITE_WARNING"},
      {ResultCode::Row, "SQLITE_ROW"},
      {ResultCode::Done, "SQLITE_DONE"},
  };
  for (const auto& [code, name] : expected) EXPECT_STREQ(sqlitebridge::describe(code), name);
  for (int value : {0, 1, 5, 14, 19, 21, 25, 26, 28, 100, 101}) {
    // Every primary code's name agrees with the one resultCodeName gives.
    EXPECT_STREQ(sqlitebridge::describe(static_cast<ResultCode>(value)), resultCodeName(value)) << value;
  }
  EXPECT_STREQ(sqlitebridge::describe(static_cast<ResultCode>(57)), "SQLITE_UNKNOWN");
  EXPECT_STREQ(sqlitebridge::describe(static_cast<ResultCode>(2067)), "SQLITE_UNKNOWN") << "not a primary code";
}

TEST(ResultCodes, ExtendedCodesHaveSQLitesNames) {
  EXPECT_STREQ(resultCodeName(SQLITE_CONSTRAINT_UNIQUE), "SQLITE_CONSTRAINT_UNIQUE");
  EXPECT_STREQ(resultCodeName(SQLITE_CONSTRAINT_PRIMARYKEY), "SQLITE_CONSTRAINT_PRIMARYKEY");
  EXPECT_STREQ(resultCodeName(SQLITE_CONSTRAINT_FOREIGNKEY), "SQLITE_CONSTRAINT_FOREIGNKEY");
  EXPECT_STREQ(resultCodeName(SQLITE_BUSY_SNAPSHOT), "SQLITE_BUSY_SNAPSHOT");
  EXPECT_STREQ(resultCodeName(SQLITE_READONLY_DBMOVED), "SQLITE_READONLY_DBMOVED");
  EXPECT_STREQ(resultCodeName(SQLITE_IOERR_READ), "SQLITE_IOERR_READ");
  EXPECT_STREQ(resultCodeName(512 /* SQLITE_OK_SYMLINK, SQLite 3.31 */), "SQLITE_OK_SYMLINK");
  // dqlite's two codes, which a ClusterDatabase reports.
  EXPECT_STREQ(resultCodeName(10250), "SQLITE_IOERR_NOT_LEADER");
  EXPECT_STREQ(resultCodeName(10506), "SQLITE_IOERR_LEADERSHIP_LOST");
  EXPECT_EQ(resultCodeName(12345), nullptr);
  EXPECT_EQ(resultCodeName(-1), nullptr);
  EXPECT_EQ(sqlitebridge::primaryResultCode(SQLITE_CONSTRAINT_UNIQUE), SQLITE_CONSTRAINT);
}

TEST(ResultCodes, AnErrorMatchesItsPrimaryCodeWhateverItsExtendedCode) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL)")) << db.error();
  ASSERT_TRUE(db.execute("INSERT INTO t VALUES (1, 'one')")) << db.error();
  ASSERT_FALSE(db.execute("INSERT INTO t VALUES (2, 'one')"));
  const Error unique = db.lastError();
  EXPECT_EQ(unique.resultCode(), ResultCode::Constraint);
  EXPECT_EQ(unique.extendedCode, SQLITE_CONSTRAINT_UNIQUE);
  EXPECT_TRUE(unique.is(ResultCode::Constraint));
  EXPECT_FALSE(unique.is(ResultCode::Busy));
  EXPECT_TRUE(sqlitebridge::resultCodeMatches(SQLITE_CONSTRAINT_UNIQUE, unique.extendedCode));
  EXPECT_FALSE(sqlitebridge::resultCodeMatches(SQLITE_CONSTRAINT_NOTNULL, unique.extendedCode));

  ASSERT_FALSE(db.execute("SELECT ?", std::vector<sqlitebridge::Value>{}));
  EXPECT_EQ(db.lastError().resultCode(), ResultCode::Range);
  EXPECT_TRUE(db.lastError().is(ResultCode::Range));

  ASSERT_TRUE(db.execute("SELECT 1")) << db.error();
  EXPECT_EQ(db.lastError().resultCode(), ResultCode::OK);
  EXPECT_TRUE(db.lastError().is(ResultCode::OK));
  EXPECT_FALSE(db.lastError().is(ResultCode::Error));
}
