// Two processes on one database file (issue 12): the test spawns a child
// process of its own binary (running only TwoProcessChild.*, told the file
// and the journal mode by an environment variable); parent and child each
// write rows and read the other's for at least 2 seconds through the default
// Configuration, in WAL mode and in rollback-journal (DELETE) mode. Each row
// is (writer, seq, payload) with a payload derived from (writer, seq) and
// longer than a page, so a torn row would show. Afterwards: no error in
// either process (the child's exit status is 0), every row of both writers
// is there exactly once with seq contiguous from 0, and every payload is
// right. The wait for the child is bounded: it is killed and the test fails.
#include <signal.h>
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "TestSupport.hpp"
#include "ThreadSupport.hpp"

extern char** environ;

using sqlitebridge::Database;
using sqlitebridge::DatabasePool;
using sqlitebridge::DatabaseQueue;
using sqlitebridge::Error;
using sqlitebridge::Row;
using sqlitebridge::Value;
using namespace sqlitebridge_test;

namespace {

/// "<journal mode>:<path>" in the child; unset in a normal run.
const char* const kChildVariable = "SQLITEBRIDGE_TWO_PROCESS_CHILD";
constexpr int kParentWriter = 1;
constexpr int kChildWriter = 2;
constexpr std::chrono::seconds kRunFor{2};
/// Longer than a 4096-byte page: the row spans overflow pages.
constexpr std::size_t kPayloadSize = 6000;
/// How many rows a writer may get ahead of the other.
constexpr std::int64_t kLead = 4;

/// The payload of row (writer, seq): the same bytes in both processes.
std::string payloadOf(int writer, std::int64_t seq) {
  std::string payload;
  payload.reserve(kPayloadSize);
  std::uint32_t state = static_cast<std::uint32_t>(writer) * 2654435761u + static_cast<std::uint32_t>(seq) * 40503u + 1;
  while (payload.size() < kPayloadSize) {
    state = state * 1664525u + 1013904223u;
    payload.push_back(static_cast<char>('a' + (state >> 24) % 26));
  }
  return payload;
}

std::int64_t rowsOf(Database& db, int writer) {
  return scalarInteger(db, "SELECT count(*) FROM rows WHERE writer = " + std::to_string(writer));
}

/// Writes row after row as `writer`, each in its own transaction, and after
/// each reads back the newest row of the other writer (checking its payload)
/// and its own count, until `runFor` has elapsed and `mayStop()` says so.
/// Returns what went wrong ("" when nothing did); `written` is how many rows
/// it wrote.
template <typename Store, typename MayStop>
std::string exercise(Store& store, int writer, std::chrono::steady_clock::duration runFor, MayStop mayStop,
                     std::int64_t& written) {
  const int other = writer == kParentWriter ? kChildWriter : kParentWriter;
  const std::string who = "writer " + std::to_string(writer);
  const auto started = std::chrono::steady_clock::now();
  const auto deadline = started + kThreadWaitLimit;
  written = 0;
  // However the loop ends, the other writer stops waiting for this one.
  struct MarkFinished {
    Store& store;
    int writer;
    ~MarkFinished() {
      store.write([this](Database& db) { return db.execute("INSERT INTO finished VALUES (?)", {Value(writer)}); });
    }
  } markFinished{store, writer};
  for (std::int64_t seq = 0;; ++seq) {
    const auto now = std::chrono::steady_clock::now();
    if (now - started >= runFor && mayStop()) return std::string();
    if (now > deadline) return who + ": the other process never showed up";
    // Keep within kLead rows of the other writer until it finishes: with
    // SQLite's polling busy handler, a process that writes back to back can
    // keep the lock (in rollback-journal mode especially) until the other
    // one's busy timeout runs out. A pause between polls, not a timing
    // assertion; bounded by the deadline.
    for (;;) {
      const bool mayWrite = store.read([&](Database& db) {
        return rowsOf(db, other) >= seq - kLead ||
               scalarInteger(db, "SELECT count(*) FROM finished WHERE writer = " + std::to_string(other)) > 0;
      });
      if (mayWrite) break;
      if (std::chrono::steady_clock::now() > deadline) return who + ": the other writer stopped writing";
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    Error error;
    const std::string payload = payloadOf(writer, seq);
    const bool committed = store.write(
        [&](Database& db) {
          return db.execute("INSERT INTO rows(writer, seq, payload) VALUES (?, ?, ?)",
                            {Value(writer), Value(seq), Value(payload)});
        },
        &error);
    if (!committed) return who + ": write " + std::to_string(seq) + " failed: " + error.message;
    written = seq + 1;
    const std::string problem = store.read([&](Database& db) -> std::string {
      std::vector<Row> rows;
      if (!db.execute("SELECT seq, payload FROM rows WHERE writer = ? ORDER BY seq DESC LIMIT 1", {Value(other)},
                      &rows)) {
        return who + ": reading the other writer failed: " + db.error();
      }
      if (!rows.empty() && rows[0].value(1).asText() != payloadOf(other, rows[0].value(0).asInteger())) {
        return who + ": torn payload in row " + std::to_string(rows[0].value(0).asInteger()) + " of the other writer";
      }
      Row own;
      if (!db.execute("SELECT count(*), max(seq) FROM rows WHERE writer = " + std::to_string(writer), own)) {
        return who + ": counting its own rows failed: " + db.error();
      }
      if (own.value(0).asInteger() != seq + 1 || own.value(1).asInteger() != seq) {
        return who + ": sees " + std::to_string(own.value(0).asInteger()) + " own rows after writing " +
               std::to_string(seq + 1);
      }
      return std::string();
    });
    if (!problem.empty()) return problem;
  }
}

/// Spawns this binary running only the child test, with the variable set.
pid_t spawnChild(const std::string& mode, const std::string& path) {
  std::vector<std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    if (std::string(*entry).rfind(std::string(kChildVariable) + "=", 0) != 0) environment.emplace_back(*entry);
  }
  environment.push_back(std::string(kChildVariable) + "=" + mode + ":" + path);
  std::vector<char*> envp;
  for (std::string& entry : environment) envp.push_back(entry.data());
  envp.push_back(nullptr);
  std::string program = "/proc/self/exe";
  std::string filter = "--gtest_filter=TwoProcessChild.*";
  std::vector<char*> argv{program.data(), filter.data(), nullptr};
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, program.c_str(), nullptr, nullptr, argv.data(), envp.data());
  if (rc != 0) {
    ADD_FAILURE() << "posix_spawn failed: " << rc;
    return -1;
  }
  return pid;
}

/// Whether the child has exited (its status in `status`), without waiting.
bool childExited(pid_t pid, int& status) { return ::waitpid(pid, &status, WNOHANG) == pid; }

/// Waits (bounded) for the child to exit; kills it and fails the test when it
/// does not in time. True when it exited with status 0.
bool waitForChild(pid_t pid, bool& exited, int& status) {
  const auto deadline = std::chrono::steady_clock::now() + kThreadWaitLimit;
  while (!exited) {
    exited = childExited(pid, status);
    if (exited) break;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      ADD_FAILURE() << "the child process did not finish within " << kThreadWaitLimit.count() << " s; killed";
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    ADD_FAILURE() << "the child process failed: "
                  << (WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                        : "signal " + std::to_string(WIFSIGNALED(status) ? WTERMSIG(status) : -1));
    return false;
  }
  return true;
}

/// The parent's half of a run: spawns the child, exercises `store` as the
/// parent writer (going on past 2 s until the child has written a row or
/// exited, so that the two overlap), waits for the child, then checks every
/// row of both writers through `check`.
template <typename Store>
void runParent(Store& store, const std::string& mode, const std::string& path) {
  Error error;
  ASSERT_TRUE(store.write(
      [](Database& db) {
        return db.execute(
                   "CREATE TABLE rows(writer INTEGER NOT NULL, seq INTEGER NOT NULL, payload TEXT NOT NULL, "
                   "PRIMARY KEY(writer, seq))") &&
               db.execute("CREATE TABLE finished(writer INTEGER PRIMARY KEY)");
      },
      &error))
      << error.message;
  ASSERT_EQ(store.read([](Database& db) { return scalarText(db, "PRAGMA journal_mode"); }), mode);

  const pid_t pid = spawnChild(mode, path);
  ASSERT_GT(pid, 0);
  bool exited = false;
  int status = 0;
  std::int64_t written = 0;
  const std::string problem = exercise(
      store, kParentWriter, kRunFor,
      [&] {
        if (!exited) exited = childExited(pid, status);
        return exited || store.read([](Database& db) { return rowsOf(db, kChildWriter); }) > 0;
      },
      written);
  EXPECT_EQ(problem, "");
  const bool childOk = waitForChild(pid, exited, status);
  EXPECT_TRUE(childOk);

  store.read([&](Database& db) {
    EXPECT_EQ(scalarText(db, "PRAGMA journal_mode"), mode);
    std::vector<std::string> problems;
    EXPECT_TRUE(db.integrityCheck(problems)) << db.error();
    EXPECT_EQ(problems, std::vector<std::string>());
    EXPECT_EQ(rowsOf(db, kParentWriter), written);
    for (int writer : {kParentWriter, kChildWriter}) {
      const std::int64_t count = rowsOf(db, writer);
      EXPECT_GT(count, 0) << "writer " << writer << " wrote nothing";
      // Contiguous from 0, each once (the primary key makes "once" hold).
      EXPECT_EQ(scalarInteger(db, "SELECT count(DISTINCT seq) FROM rows WHERE writer = " + std::to_string(writer)),
                count);
      EXPECT_EQ(scalarInteger(db, "SELECT min(seq) FROM rows WHERE writer = " + std::to_string(writer)), 0);
      EXPECT_EQ(scalarInteger(db, "SELECT max(seq) FROM rows WHERE writer = " + std::to_string(writer)), count - 1);
    }
    EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM rows WHERE writer NOT IN (1, 2)"), 0);
    std::int64_t checked = 0;
    std::int64_t torn = 0;
    EXPECT_TRUE(db.forEachRow("SELECT writer, seq, payload FROM rows", [&](const sqlitebridge::RowView& row) {
      ++checked;
      if (row.value(2).asText() != payloadOf(static_cast<int>(row.value(0).asInteger()), row.value(1).asInteger())) {
        ++torn;
      }
      return true;
    })) << db.error();
    EXPECT_EQ(torn, 0);
    EXPECT_EQ(checked, scalarInteger(db, "SELECT count(*) FROM rows"));
    ::testing::Test::RecordProperty("parentRows", std::to_string(rowsOf(db, kParentWriter)));
    ::testing::Test::RecordProperty("childRows", std::to_string(rowsOf(db, kChildWriter)));
    return 0;
  });
}

}  // namespace

// WAL: the parent through a DatabasePool, the child through a DatabaseQueue.
TEST(TwoProcess, WriteAndReadOneWalFileWithNoLostOrTornRow) {
  TempDir dir;
  const std::string path = dir / "shared-wal.db";
  DatabasePool pool(path);
  ASSERT_TRUE(pool.isOpen()) << pool.openError().message;
  runParent(pool, "wal", path);
}

// Rollback journal: both through a DatabaseQueue.
TEST(TwoProcess, WriteAndReadOneRollbackJournalFileWithNoLostOrTornRow) {
  TempDir dir;
  const std::string path = dir / "shared-delete.db";
  DatabaseQueue queue(path);
  ASSERT_TRUE(queue.isOpen()) << queue.openError().message;
  runParent(queue, "delete", path);
}

// The child's half; passes at once unless the parent spawned this process.
TEST(TwoProcessChild, WritesAndReads) {
  const char* variable = std::getenv(kChildVariable);
  if (variable == nullptr) return;
  const std::string value = variable;
  const std::size_t colon = value.find(':');
  ASSERT_NE(colon, std::string::npos) << value;
  const std::string mode = value.substr(0, colon);
  const std::string path = value.substr(colon + 1);
  DatabaseQueue queue(path);  // the default Configuration
  ASSERT_TRUE(queue.isOpen()) << queue.openError().message;
  ASSERT_EQ(queue.read([](Database& db) { return scalarText(db, "PRAGMA journal_mode"); }), mode);
  std::int64_t written = 0;
  // It stops once it has written a row, however late a loaded machine ran it.
  EXPECT_EQ(exercise(queue, kChildWriter, kRunFor, [&written] { return written > 0; }, written), "");
  EXPECT_GT(written, 0);
}
