// A database as files: fileSize (main file plus WAL, growth, 0 in memory)
// and removeDatabase by name and by path (refusing a database this process
// or another one uses, leaving nothing behind when it succeeds, never
// touching anything but the database and its companions).
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::Error;
using sqlitebridge::Location;
using sqlitebridge::ResultCode;
using namespace sqlitebridge_test;

namespace {

constexpr const char* kCreate = "CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT)";

// A child process that opens `path` with the raw C API, runs `sql` (say,
// BEGIN EXCLUSIVE and a write) and holds on until the parent releases it.
// The child gives up by itself after 30 s, so a failing test never leaves it.
class OtherProcess {
 public:
  OtherProcess(const std::string& path, const std::string& sql) {
    int ready[2];
    int release[2];
    if (::pipe(ready) != 0 || ::pipe(release) != 0) {
      ADD_FAILURE() << "pipe failed";
      return;
    }
    pid_ = ::fork();
    if (pid_ == 0) {
      ::alarm(30);
      ::close(ready[0]);
      ::close(release[1]);
      sqlite3* db = nullptr;
      char ok = sqlite3_open(path.c_str(), &db) == SQLITE_OK &&
                        sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK
                    ? 'y'
                    : 'n';
      if (::write(ready[1], &ok, 1) != 1) ::_exit(2);
      char byte = 0;
      (void)::read(release[0], &byte, 1);  // returns when the parent closes its end
      ::_exit(0);
    }
    ::close(ready[1]);
    ::close(release[0]);
    ready_ = ready[0];
    release_ = release[1];
  }
  /// Waits (at most 10 s) until the child holds the database as asked.
  bool waitUntilHolding() {
    pollfd readable{ready_, POLLIN, 0};
    if (::poll(&readable, 1, 10000) != 1) return false;
    char ok = 0;
    return ::read(ready_, &ok, 1) == 1 && ok == 'y';
  }
  /// Lets the child go and reaps it.
  void release() {
    if (pid_ <= 0) return;
    ::close(release_);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    ::close(ready_);
    pid_ = 0;
  }
  ~OtherProcess() {
    if (pid_ > 0) ::kill(pid_, SIGKILL);
    release();
  }

 private:
  pid_t pid_ = -1;
  int ready_ = -1;
  int release_ = -1;
};

class DatabaseFiles : public DocumentsAndBundle {};

}  // namespace

TEST_F(DatabaseFiles, FileSizeCountsTheFileAndItsWalAndGrows) {
  Database db = Database::open(docs("size.db"));
  std::int64_t empty = -1;
  ASSERT_TRUE(db.fileSize(empty)) << db.error();
  ASSERT_TRUE(db.executeScript(std::string(kCreate) +
                               ";WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)"
                               " INSERT INTO notes(body) SELECT randomblob(2000) FROM n;"))
      << db.error();
  std::int64_t filled = 0;
  ASSERT_TRUE(db.fileSize(filled)) << db.error();
  EXPECT_GT(filled, empty + 400000);
  EXPECT_EQ(filled, static_cast<std::int64_t>(readFile(docs("size.db")).size()));

  ASSERT_NO_FATAL_FAILURE(switchToWal(db));
  ASSERT_TRUE(db.execute("PRAGMA wal_autocheckpoint = 0"));
  ASSERT_TRUE(db.execute("UPDATE notes SET body = randomblob(2000)")) << db.error();
  const std::int64_t mainFile = static_cast<std::int64_t>(readFile(docs("size.db")).size());
  const std::int64_t wal = static_cast<std::int64_t>(readFile(docs("size.db-wal")).size());
  ASSERT_GT(wal, 400000);
  std::int64_t withWal = 0;
  ASSERT_TRUE(db.fileSize(withWal)) << db.error();
  EXPECT_EQ(withWal, mainFile + wal);
}

TEST_F(DatabaseFiles, FileSizeIsZeroInMemoryAndFailsWhenClosedOrRemoved) {
  for (const char* path : {":memory:", ""}) {
    Database db = Database::open(path);
    ASSERT_TRUE(db.executeScript(std::string(kCreate) + "; INSERT INTO notes(body) VALUES (randomblob(10000))"));
    std::int64_t bytes = -1;
    ASSERT_TRUE(db.fileSize(bytes)) << db.error();
    EXPECT_EQ(bytes, 0) << '"' << path << '"';
  }
  Database closed = Database::open(":memory:");
  closed.close();
  std::int64_t bytes = -1;
  EXPECT_FALSE(closed.fileSize(bytes));
  EXPECT_EQ(closed.lastError().resultCode(), ResultCode::Misuse);

  Database db = Database::open(docs("gone.db"));
  ASSERT_TRUE(db.execute(kCreate));
  ASSERT_EQ(::unlink(docs("gone.db").c_str()), 0);
  EXPECT_FALSE(db.fileSize(bytes));
  EXPECT_EQ(db.lastError().resultCode(), ResultCode::IOErr);
  EXPECT_NE(db.error().find("gone.db"), std::string::npos) << db.error();
}

TEST_F(DatabaseFiles, RemoveByNameRefusesWhileOpenThenLeavesNothingBehind) {
  ASSERT_TRUE(makeDatabaseFile(docs("keep.db"), kCreate));
  writeFile(docs("notes.db-other"), "not a companion");
  {
    Database db("notes.db", kCreate, location());
    ASSERT_TRUE(db.isOpen()) << db.error();
    ASSERT_NO_FATAL_FAILURE(switchToWal(db));
    ASSERT_TRUE(db.execute("INSERT INTO notes(body) VALUES ('x')"));
    Error error;
    EXPECT_FALSE(Database::removeDatabase("notes.db", location(), &error));
    EXPECT_EQ(error.resultCode(), ResultCode::Busy);
    EXPECT_NE(error.message.find("open in this process"), std::string::npos) << error.message;
    EXPECT_TRUE(fileExists(docs("notes.db")));
    EXPECT_TRUE(fileExists(docs("notes.db-wal")));

    // A statement keeps the connection (and the file) open after close().
    sqlitebridge::Statement statement = db.prepare("SELECT count(*) FROM notes");
    db.close();
    EXPECT_FALSE(Database::removeDatabase(docs("notes.db"), &error));
    EXPECT_EQ(error.resultCode(), ResultCode::Busy);
  }
  Error error;
  error.code = 99;
  ASSERT_TRUE(Database::removeDatabase("notes.db", location(), &error)) << error.message;
  EXPECT_FALSE(error.isError());
  EXPECT_EQ(listDirectory(docs_), (std::vector<std::string>{"keep.db", "notes.db-other"}));
  // Nothing there: nothing to do.
  EXPECT_TRUE(Database::removeDatabase("notes.db", location(), &error)) << error.message;
  // A later open by name creates a fresh database.
  Database fresh("notes.db", kCreate, location());
  ASSERT_TRUE(fresh.isOpen()) << fresh.error();
  EXPECT_EQ(scalarInteger(fresh, "SELECT count(*) FROM notes"), 0);
}

TEST_F(DatabaseFiles, RemoveByPathRemovesTheCompanionsAndAcceptsAnotherPathToTheFile) {
  ASSERT_TRUE(makeDatabaseFile(docs("a.db"), kCreate));
  writeFile(docs("a.db-journal"), "left by a crash");
  writeFile(docs("a.db-shm"), std::string(32768, '\0'));
  {
    Database db = Database::open(docs("a.db"));
    ASSERT_TRUE(db.isOpen());
    WorkingDirectory inDocs(docs_);
    Error error;
    EXPECT_FALSE(Database::removeDatabase("a.db", &error)) << "the same file by a relative path";
    EXPECT_EQ(error.resultCode(), ResultCode::Busy);
    ASSERT_EQ(::symlink(docs("a.db").c_str(), (root_ / "link.db").c_str()), 0);
    EXPECT_FALSE(Database::removeDatabase(root_ / "link.db", &error)) << "the same file through a link";
    EXPECT_EQ(error.resultCode(), ResultCode::Busy);
    ::unlink((root_ / "link.db").c_str());
  }
  ASSERT_TRUE(makeDatabaseFile(docs("a.db"), "SELECT 1")) << "still a database";
  writeFile(docs("a.db-journal"), "left by a crash");
  Error error;
  ASSERT_TRUE(Database::removeDatabase(docs("a.db"), &error)) << error.message;
  EXPECT_TRUE(listDirectory(docs_).empty());
}

TEST_F(DatabaseFiles, RemoveRefusesBadNamesPathsAndDirectories) {
  writeFile(root_ / "outside.db", "outside");
  for (const std::string& name : {std::string("../outside.db"), std::string(""), std::string(".."),
                                  std::string("a/b.db"), std::string("x.db-wal"), std::string("a\0b", 3)}) {
    Error error;
    EXPECT_FALSE(Database::removeDatabase(name, location(), &error)) << name;
    EXPECT_EQ(error.resultCode(), ResultCode::Misuse) << name;
    EXPECT_NE(error.message.find("invalid database name"), std::string::npos) << error.message;
  }
  EXPECT_TRUE(fileExists(root_ / "outside.db"));
  Error error;
  EXPECT_FALSE(Database::removeDatabase("a.db", Location{"", ""}, &error));
  EXPECT_EQ(error.resultCode(), ResultCode::Misuse);
  for (const std::string& path :
       {std::string(""), std::string(":memory:"), std::string("file:a.db?mode=rwc"), docs(std::string("a\0b", 3))}) {
    EXPECT_FALSE(Database::removeDatabase(path, &error)) << path;
    EXPECT_EQ(error.resultCode(), ResultCode::Misuse) << path;
  }
  root_.makeSubdirectory("docs/dir.db");
  EXPECT_FALSE(Database::removeDatabase("dir.db", location(), &error));
  EXPECT_EQ(error.extendedCode, SQLITE_IOERR_DELETE) << error.message;
  EXPECT_TRUE(fileExists(docs("dir.db")));
  EXPECT_FALSE(Database::removeDatabase("dir.db", location())) << "the error is optional";
}

TEST_F(DatabaseFiles, RemoveRefusesADatabaseAnotherProcessHoldsALockOn) {
  ASSERT_TRUE(makeDatabaseFile(docs("shared.db"), kCreate));
  {
    OtherProcess writer(docs("shared.db"), "BEGIN EXCLUSIVE; INSERT INTO notes(body) VALUES ('x')");
    ASSERT_TRUE(writer.waitUntilHolding());
    Error error;
    EXPECT_FALSE(Database::removeDatabase("shared.db", location(), &error));
    EXPECT_EQ(error.resultCode(), ResultCode::Busy);
    EXPECT_NE(error.message.find("another process"), std::string::npos) << error.message;
    EXPECT_TRUE(fileExists(docs("shared.db")));
    EXPECT_TRUE(fileExists(docs("shared.db-journal")));
    writer.release();
  }
  makeWalDatabase(docs("wal.db"), kCreate);
  {
    // In WAL mode an idle connection that has read the database is seen too.
    OtherProcess reader(docs("wal.db"), "SELECT count(*) FROM notes");
    ASSERT_TRUE(reader.waitUntilHolding());
    Error error;
    EXPECT_FALSE(Database::removeDatabase(docs("wal.db"), &error));
    EXPECT_EQ(error.resultCode(), ResultCode::Busy) << error.message;
    EXPECT_TRUE(fileExists(docs("wal.db")));
    reader.release();
  }
  Error error;
  EXPECT_TRUE(Database::removeDatabase("shared.db", location(), &error)) << error.message;
  EXPECT_TRUE(Database::removeDatabase("wal.db", location(), &error)) << error.message;
  EXPECT_TRUE(listDirectory(docs_).empty());
}
