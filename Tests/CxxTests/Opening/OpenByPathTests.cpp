// Database::open(path, mode): in-memory, the three open modes, files that are
// not databases, and closed / moved-from databases.
#include <utility>

#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::OpenMode;
using sqlitebridge::Row;
using sqlitebridge::Value;
using namespace sqlitebridge_test;

namespace {

const std::string kGarbage = std::string("this is not an SQLite database, just some text\n") + std::string(5000, 'z');

// Every call on a closed database fails with SQLITE_MISUSE and no crash.
void expectClosedAndMisused(Database& db) {
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.path(), "");
  EXPECT_EQ(db.handle(), nullptr);
  std::vector<Row> rows;
  Row row;
  std::vector<std::string> columns{"stale"};
  EXPECT_FALSE(db.execute("SELECT 1", &rows));
  EXPECT_EQ(db.lastError().code, SQLITE_MISUSE);
  EXPECT_FALSE(db.error().empty());
  EXPECT_FALSE(db.execute("SELECT 1", row));
  EXPECT_EQ(db.lastError().code, SQLITE_MISUSE);
  EXPECT_FALSE(db.execute("SELECT ?", {Value(1)}));
  EXPECT_EQ(db.lastError().code, SQLITE_MISUSE);
  EXPECT_FALSE(db.executeScript("SELECT 1"));
  EXPECT_EQ(db.lastError().code, SQLITE_MISUSE);
  EXPECT_FALSE(db.prepare("SELECT 1").isValid());
  EXPECT_EQ(db.lastError().code, SQLITE_MISUSE);
  EXPECT_FALSE(db.hasTableColumn("t", "x"));
  EXPECT_EQ(db.lastError().code, SQLITE_MISUSE);
  EXPECT_FALSE(db.tableColumns("t", columns));
  EXPECT_TRUE(columns.empty());
  EXPECT_EQ(db.lastError().code, SQLITE_MISUSE);
  EXPECT_FALSE(db.updateTable("CREATE TABLE t(x)", "", "t"));
  EXPECT_EQ(db.lastError().code, SQLITE_MISUSE);
  EXPECT_FALSE(db.setBusyTimeout(5));
  EXPECT_EQ(db.lastError().code, SQLITE_MISUSE);
  EXPECT_EQ(db.lastInsertRowId(), 0);
  EXPECT_EQ(db.changes(), 0);
  EXPECT_FALSE(db.isInTransaction());
  EXPECT_TRUE(rows.empty());
}

}  // namespace

TEST(OpenByPath, InMemoryDatabaseOpensAndWorks) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_NE(db.handle(), nullptr);
  EXPECT_EQ(db.path(), "");  // documented: empty for in-memory
  ASSERT_TRUE(db.execute("CREATE TABLE t(x)"));
  ASSERT_TRUE(db.execute("INSERT INTO t VALUES (1)"));
  EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM t"), 1);
}

TEST(OpenByPath, InMemoryUriHasAnEmptyPathToo) {
  Database db = Database::open("file:scratch?mode=memory");
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(db.path(), "");
  ASSERT_TRUE(db.execute("CREATE TABLE t(x)")) << db.error();
}

TEST(OpenByPath, EachInMemoryDatabaseIsSeparate) {
  Database a = Database::open(":memory:");
  Database b = Database::open(":memory:");
  ASSERT_TRUE(a.execute("CREATE TABLE only_in_a(x)"));
  EXPECT_FALSE(b.execute("SELECT * FROM only_in_a"));
  EXPECT_EQ(b.lastError().code, SQLITE_ERROR);
}

TEST(OpenByPath, EmptyPathOpensAPrivateTemporaryDatabase) {
  Database db = Database::open("");
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(db.path(), "");
  ASSERT_TRUE(db.execute("CREATE TABLE t(x)"));
  EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM t"), 0);
}

TEST(OpenByPath, ReadWriteCreateCreatesTheFile) {
  TempDir dir;
  const std::string path = dir / "new.db";
  Database db = Database::open(path, OpenMode::ReadWriteCreate);
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(db.path(), path);
  EXPECT_TRUE(fileExists(path));
  ASSERT_TRUE(db.execute("CREATE TABLE t(x)"));
  ASSERT_TRUE(db.execute("INSERT INTO t VALUES ('persisted')"));
  Database again = Database::open(path, OpenMode::ReadWrite);
  ASSERT_TRUE(again.isOpen()) << again.error();
  EXPECT_EQ(scalarText(again, "SELECT x FROM t"), "persisted");
}

TEST(OpenByPath, DefaultModeIsReadWriteCreate) {
  TempDir dir;
  Database db = Database::open(dir / "default.db");
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_TRUE(fileExists(dir / "default.db"));
  EXPECT_TRUE(db.execute("CREATE TABLE t(x)")) << db.error();
}

TEST(OpenByPath, ReadWriteOnAMissingFileFailsWithCantOpenAndCreatesNothing) {
  TempDir dir;
  const std::string path = dir / "missing.db";
  Database db = Database::open(path, OpenMode::ReadWrite);
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_CANTOPEN);
  EXPECT_EQ(db.lastError().extendedCode & 0xff, SQLITE_CANTOPEN);
  EXPECT_NE(db.error().find(path), std::string::npos) << db.error();
  EXPECT_FALSE(fileExists(path));
  EXPECT_TRUE(listDirectory(dir.path()).empty());
}

TEST(OpenByPath, ReadOnlyOnAMissingFileFailsWithCantOpen) {
  TempDir dir;
  Database db = Database::open(dir / "missing.db", OpenMode::ReadOnly);
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_CANTOPEN);
  EXPECT_TRUE(listDirectory(dir.path()).empty());
}

TEST(OpenByPath, FileInAMissingDirectoryFailsWithCantOpen) {
  TempDir dir;
  Database db = Database::open(dir / "no/such/dir.db", OpenMode::ReadWriteCreate);
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_CANTOPEN);
}

TEST(OpenByPath, DirectoryIsNotADatabaseFile) {
  TempDir dir;
  Database db = Database::open(dir.path(), OpenMode::ReadWrite);
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_CANTOPEN);
}

TEST(OpenByPath, ReadOnlyRefusesWritesAndLeavesDataIntact) {
  TempDir dir;
  const std::string path = dir / "ro.db";
  ASSERT_TRUE(makeDatabaseFile(path, "CREATE TABLE t(x); INSERT INTO t VALUES (1), (2);"));
  const std::string before = readFile(path);

  Database db = Database::open(path, OpenMode::ReadOnly);
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(scalarInteger(db, "SELECT sum(x) FROM t"), 3);
  for (const char* write :
       {"INSERT INTO t VALUES (3)", "UPDATE t SET x = 0", "DELETE FROM t", "CREATE TABLE u(y)", "DROP TABLE t"}) {
    EXPECT_FALSE(db.execute(write)) << write;
    EXPECT_EQ(db.lastError().code, SQLITE_READONLY) << write;
    EXPECT_EQ(db.lastError().extendedCode & 0xff, SQLITE_READONLY) << write;
    EXPECT_NE(db.error().find("readonly"), std::string::npos) << db.error();
    EXPECT_EQ(db.lastError().sql, write);
  }
  EXPECT_EQ(scalarInteger(db, "SELECT sum(x) FROM t"), 3);
  Database check = Database::open(path, OpenMode::ReadWrite);
  EXPECT_EQ(dump(check, "SELECT x FROM t ORDER BY x"), (std::vector<std::string>{"x=int:1", "x=int:2"}));
  EXPECT_EQ(readFile(path), before);
}

TEST(OpenByPath, ReadWriteOpensAnExistingFile) {
  TempDir dir;
  const std::string path = dir / "rw.db";
  ASSERT_TRUE(makeDatabaseFile(path, "CREATE TABLE t(x);"));
  Database db = Database::open(path, OpenMode::ReadWrite);
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_TRUE(db.execute("INSERT INTO t VALUES (1)")) << db.error();
  EXPECT_EQ(db.path(), path);
}

TEST(OpenByPath, FileThatIsNotADatabaseFailsWithNotADbAndIsUntouched) {
  TempDir dir;
  const std::string path = dir / "text.db";
  writeFile(path, kGarbage);
  for (OpenMode mode : {OpenMode::ReadOnly, OpenMode::ReadWrite, OpenMode::ReadWriteCreate}) {
    Database db = Database::open(path, mode);
    EXPECT_FALSE(db.isOpen());
    EXPECT_EQ(db.lastError().code, SQLITE_NOTADB);
    EXPECT_NE(db.error().find(path), std::string::npos) << db.error();
    expectClosedAndMisused(db);
  }
  EXPECT_EQ(readFile(path), kGarbage);
  EXPECT_EQ(listDirectory(dir.path()), (std::vector<std::string>{"text.db"}));
}

TEST(OpenByPath, FailedOpenGivesAClosedDatabaseThatFailsWithMisuse) {
  TempDir dir;
  Database db = Database::open(dir / "missing.db", OpenMode::ReadWrite);
  ASSERT_FALSE(db.isOpen());
  expectClosedAndMisused(db);
}

TEST(OpenByPath, MovedFromDatabaseIsClosedAndFailsWithMisuse) {
  Database source = Database::open(":memory:");
  ASSERT_TRUE(source.execute("CREATE TABLE t(x)"));
  ASSERT_TRUE(source.execute("INSERT INTO t VALUES (7)"));
  Database target(std::move(source));
  ASSERT_TRUE(target.isOpen());
  EXPECT_EQ(scalarInteger(target, "SELECT x FROM t"), 7);
  expectClosedAndMisused(source);  // NOLINT(bugprone-use-after-move): documented state
  // The target is unaffected by calls on the moved-from object.
  EXPECT_EQ(scalarInteger(target, "SELECT x FROM t"), 7);
}

TEST(OpenByPath, MoveAssignmentTakesTheConnectionAndClosesTheSource) {
  TempDir dir;
  Database a = Database::open(dir / "a.db");
  Database b = Database::open(dir / "b.db");
  ASSERT_TRUE(a.execute("CREATE TABLE in_a(x)"));
  ASSERT_TRUE(b.execute("CREATE TABLE in_b(x)"));
  a = std::move(b);
  ASSERT_TRUE(a.isOpen());
  EXPECT_EQ(a.path(), dir / "b.db");
  EXPECT_TRUE(a.hasTableColumn("in_b", "x")) << a.error();
  EXPECT_FALSE(a.hasTableColumn("in_a", "x"));
  expectClosedAndMisused(b);  // NOLINT(bugprone-use-after-move): documented state

  // Self-move leaves the database open.
  Database& alias = a;
  a = std::move(alias);
  EXPECT_TRUE(a.isOpen());
  EXPECT_TRUE(a.execute("SELECT 1"));
}

TEST(OpenByPath, RelativePathOpensRelativeToTheWorkingDirectory) {
  TempDir dir;
  WorkingDirectory cd(dir.path());
  Database db = Database::open("relative.db");
  ASSERT_TRUE(db.isOpen()) << db.error();
  ASSERT_TRUE(db.execute("CREATE TABLE t(x)"));
  EXPECT_TRUE(fileExists(dir / "relative.db"));
}
