// Crash safety of opening by name: a first open killed midway never leaves
// a half-made database under the real name, and the temporary files it does
// leave are swept by a later first open once they are abandoned (their
// process gone and idle for a minute, or idle for a day) — never those of a
// copy or creation still running. scripts/crash-consistency kills real
// writers, copies, creations and updateTable calls at random moments.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::Location;
using namespace sqlitebridge_test;

namespace {

const char* const kSeedScript =
    "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT);"
    "INSERT INTO notes(title) VALUES ('from the bundle');";

// The id of a process that has exited (and been reaped).
pid_t goneProcessId() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return pid;
}

// Sets a file's modification time `seconds` into the past.
void makeIdle(const std::string& path, long seconds) {
  struct timespec times[2];
  ::clock_gettime(CLOCK_REALTIME, &times[0]);
  times[0].tv_sec -= seconds;
  times[1] = times[0];
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0) << path;
}

class CrashSafety : public DocumentsAndBundle {
 protected:
  // Leaves the files a first open killed midway leaves: a temporary file
  // named as the library names them (owner `pid`) and the given companions,
  // last written `idleSeconds` ago. Returns their names.
  std::vector<std::string> leaveTemporaryFiles(pid_t pid, long idleSeconds,
                                               const std::vector<std::string>& suffixes = {"", "-journal"}) {
    static int counter = 0;
    const std::string base =
        ".sqlitebridge-" + std::to_string(pid) + "-" + std::to_string(++counter) + "-123456789.tmp";
    std::vector<std::string> names;
    for (const std::string& suffix : suffixes) {
      names.push_back(base + suffix);
      writeFile(docs(base + suffix), std::string(4096, 'x'));  // a half-written copy
      makeIdle(docs(base + suffix), idleSeconds);
    }
    return names;
  }
};

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

TEST_F(CrashSafety, FirstOpenCopyRemovesTemporaryFilesOfAKilledProcess) {
  ASSERT_TRUE(makeDatabaseFile(bundle_ + "/notes.db", kSeedScript));
  const pid_t gone = goneProcessId();
  leaveTemporaryFiles(gone, 120);
  leaveTemporaryFiles(gone, 120, {"-journal"});  // its database file already removed
  leaveTemporaryFiles(gone, 120, {"", "-wal", "-shm"});

  Database db("notes.db", "", location());
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(listDirectory(docs_), std::vector<std::string>{"notes.db"});
  EXPECT_EQ(scalarText(db, "SELECT title FROM notes"), "from the bundle");
}

TEST_F(CrashSafety, FirstOpenCreationRemovesTemporaryFilesOfAKilledProcess) {
  leaveTemporaryFiles(goneProcessId(), 120);

  Database db("made.db", "CREATE TABLE t(x)", Location{docs_, ""});
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(listDirectory(docs_), std::vector<std::string>{"made.db"});
  EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM sqlite_master WHERE name = 't'"), 1);
}

TEST_F(CrashSafety, RecentlyWrittenTemporaryFilesOfAGoneProcessAreKept) {
  // Its owner might live in another pid namespace sharing the directory.
  const std::vector<std::string> recent = leaveTemporaryFiles(goneProcessId(), 5);

  Database db("made.db", "CREATE TABLE t(x)", Location{docs_, ""});
  ASSERT_TRUE(db.isOpen()) << db.error();
  const std::vector<std::string> names = listDirectory(docs_);
  for (const std::string& name : recent) EXPECT_TRUE(contains(names, name)) << name;
}

TEST_F(CrashSafety, TemporaryFilesOfALiveProcessAreKept) {
  // Ours (another thread may be copying) and our parent's, idle for hours.
  const std::vector<std::string> ours = leaveTemporaryFiles(::getpid(), 2 * 3600);
  const std::vector<std::string> parents = leaveTemporaryFiles(::getppid(), 2 * 3600);

  Database db("made.db", "CREATE TABLE t(x)", Location{docs_, ""});
  ASSERT_TRUE(db.isOpen()) << db.error();
  const std::vector<std::string> names = listDirectory(docs_);
  for (const std::string& name : ours) EXPECT_TRUE(contains(names, name)) << name;
  for (const std::string& name : parents) EXPECT_TRUE(contains(names, name)) << name;
}

TEST_F(CrashSafety, TemporaryFilesIdleForADayAreRemovedWhateverTheirOwner) {
  // Process ids are reused: a restarted app may even get the killed one's.
  leaveTemporaryFiles(::getpid(), 25 * 3600);
  leaveTemporaryFiles(::getppid(), 25 * 3600);

  Database db("made.db", "CREATE TABLE t(x)", Location{docs_, ""});
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(listDirectory(docs_), std::vector<std::string>{"made.db"});
}

TEST_F(CrashSafety, OnlyTheLibrarysTemporaryNamesAreSwept) {
  const std::string gone = std::to_string(goneProcessId());
  const std::vector<std::string> others{
      ".sqlitebridge-" + gone + ".tmp",
      ".sqlitebridge-" + gone + "-1-2.tmp.bak",
      ".sqlitebridge-" + gone + "-1-2.tmp-backup",
      ".sqlitebridge-" + gone + "-1-2.tmpx",
      ".sqlitebridge-x-1-2.tmp",
      "sqlitebridge-" + gone + "-1-2.tmp",
      "notes.db.tmp",
      "keep.db",
  };
  for (const std::string& name : others) {
    writeFile(docs(name), "user data");
    makeIdle(docs(name), 2 * 24 * 3600);
  }
  const std::string directory = ".sqlitebridge-" + gone + "-1-3.tmp";
  ASSERT_EQ(::mkdir(docs(directory).c_str(), 0755), 0);
  makeIdle(docs(directory), 2 * 24 * 3600);

  Database db("made.db", "CREATE TABLE t(x)", Location{docs_, ""});
  ASSERT_TRUE(db.isOpen()) << db.error();
  const std::vector<std::string> names = listDirectory(docs_);
  for (const std::string& name : others) {
    EXPECT_TRUE(contains(names, name)) << name;
    EXPECT_EQ(readFile(docs(name)), "user data") << name;
  }
  EXPECT_TRUE(contains(names, directory));
}

TEST_F(CrashSafety, ACopyKilledMidwayIsNeverOpenedAsTheDatabase) {
  // A seed of a few MB, so that the kills land inside the copy.
  ASSERT_TRUE(makeDatabaseFile(bundle_ + "/big.db",
                               "CREATE TABLE blobs(id INTEGER PRIMARY KEY, data BLOB);"
                               "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 800) "
                               "INSERT INTO blobs(data) SELECT randomblob(4000) FROM n;"));
  const std::string seed = readFile(bundle_ + "/big.db");
  ASSERT_GT(seed.size(), 3000000u);
  for (int attempt = 0; attempt < 8; ++attempt) {
    ::unlink(docs("big.db").c_str());
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      Database db("big.db", "", location());
      ::_exit(db.isOpen() ? 0 : 1);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(1500 * attempt));
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    // Absent, or the whole seed: never a prefix of it.
    if (fileExists(docs("big.db"))) EXPECT_EQ(readFile(docs("big.db")), seed) << "attempt " << attempt;
  }
  // The kills' leftovers belong to dead processes: once idle for a minute,
  // the next first open sweeps them and copies the whole seed.
  for (const std::string& name : listDirectory(docs_)) {
    if (name != "big.db") makeIdle(docs(name), 120);
  }
  ::unlink(docs("big.db").c_str());
  Database db("big.db", "", location());
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(listDirectory(docs_), std::vector<std::string>{"big.db"});
  EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM blobs"), 800);
  EXPECT_EQ(scalarText(db, "PRAGMA integrity_check"), "ok");
  EXPECT_EQ(readFile(docs("big.db")), seed);
}
