// A DatabasePool writing numbered transactions while a reader on another
// thread holds a snapshot across each commit, and checkpoints of all four
// modes run between commits (RESTART and TRUNCATE meet the reader and fail
// busy, as they must; PASSIVE and FULL copy what they can). Latches force
// the one interleaving, so every run has the same writes and syncs and a cut
// at point N is the same cut each time. The reader checks that each
// snapshot is whole; after a cut the database must hold a prefix of the
// commits, with every acknowledged one at synchronous=FULL.
#include <sqlitebridge/sqlitebridge.hpp>

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "DatabaseState.hpp"
#include "Harness.hpp"

namespace powerloss {

namespace {

using sqlitebridge::CheckpointMode;
using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::DatabasePool;
using sqlitebridge::Error;
using sqlitebridge::Row;
using sqlitebridge::Synchronous;
using sqlitebridge::Value;

constexpr int kTransactions = 8;
constexpr int kRowsPerTransaction = 4;
const char kFile[] = "pool.db";
const CheckpointMode kCheckpoints[] = {CheckpointMode::Passive, CheckpointMode::Full, CheckpointMode::Restart,
                                       CheckpointMode::Truncate};

// A one-shot signal with a bounded wait.
class Latch {
 public:
  void open() {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }
  bool wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(30), [this] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool open_ = false;
};

Configuration configurationFor(Synchronous synchronous, bool throughFaults) {
  Configuration configuration;
  if (throughFaults) configuration.vfs = FaultVfs::name();
  configuration.synchronous = synchronous;
  configuration.autoCheckpointPages = 0;  // only the scenario's own checkpoints
  configuration.busyTimeoutMilliseconds = 1;
  return configuration;
}

bool writeTransaction(DatabasePool& pool, std::int64_t txn, Failure& failure) {
  Error error;
  const bool ok = pool.write(
      [txn](Database& db) {
        for (int k = 0; k < kRowsPerTransaction; ++k) {
          if (!db.execute("INSERT INTO items(txn, k, payload) VALUES (?, ?, hex(zeroblob(150)) || ?)",
                          std::vector<Value>{Value(txn), Value(k), Value(txn * 100 + k)})) {
            return false;
          }
        }
        return db.execute("UPDATE totals SET commits = commits + 1 WHERE id = 1") &&
               db.execute("INSERT INTO commits(txn) VALUES (?)", std::vector<Value>{Value(txn)});
      },
      &error);
  if (!ok && failure.code == 0) failure = Failure{error.extendedCode, error.message};
  return ok;
}

// What the reader saw: empty when its snapshot was whole.
std::string readSnapshot(DatabasePool& pool, Latch& inSnapshot, Latch& release) {
  return pool.read([&](Database& db) -> std::string {
    bool ok = true;
    const std::int64_t commits = scalar(db, "SELECT count(*) FROM commits", ok);
    const std::int64_t total = scalar(db, "SELECT commits FROM totals", ok);
    const std::int64_t rows = scalar(db, "SELECT count(*) FROM items", ok);
    inSnapshot.open();
    if (!release.wait()) return "the writer never released the reader";
    // The same snapshot after the writer's commit and checkpoint.
    const std::int64_t again = scalar(db, "SELECT count(*) FROM items", ok);
    if (!ok) return std::string();  // a read the fault failed: nothing to judge
    if (commits != total || rows != commits * kRowsPerTransaction || again != rows) {
      return "a reader saw " + std::to_string(commits) + " commits, totals " + std::to_string(total) + ", " +
             std::to_string(rows) + " rows, then " + std::to_string(again);
    }
    return std::string();
  });
}

std::int64_t run(Synchronous synchronous, const std::string& directory, Failure& failure, bool& workedAfter,
                 std::string& readerProblem) {
  DatabasePool pool(directory + "/" + kFile, configurationFor(synchronous, true));
  if (!pool.isOpen()) {
    // An app reports the failed open and tries again.
    failure = Failure{pool.openError().extendedCode, pool.openError().message};
    if (FaultVfs::shared().counts().cut) return 0;
    pool = DatabasePool(directory + "/" + kFile, configurationFor(synchronous, true));
    if (!pool.isOpen()) {
      workedAfter = false;
      return 0;
    }
  }
  std::int64_t acknowledged = 0;
  bool failedBefore = failure.code != 0;
  for (std::int64_t txn = 1; txn <= kTransactions; ++txn) {
    Latch inSnapshot;
    Latch release;
    std::string seen;
    std::thread reader([&] { seen = readSnapshot(pool, inSnapshot, release); });
    const bool readerIn = inSnapshot.wait();
    bool ok = readerIn && writeTransaction(pool, txn, failure);
    if (ok) {
      Error error;
      // RESTART and TRUNCATE fail busy while the reader reads: not a failure.
      if (!pool.checkpoint(kCheckpoints[txn % 4], &error) && error.code != SQLITE_BUSY) {
        if (failure.code == 0) failure = Failure{error.extendedCode, error.message};
      }
    }
    release.open();
    reader.join();
    if (!readerIn) readerProblem = "the reader never took its snapshot";
    if (!seen.empty() && readerProblem.empty()) readerProblem = seen;
    if (ok) {
      acknowledged = txn;
      continue;
    }
    if (FaultVfs::shared().counts().cut) return acknowledged;
    if (failedBefore) {
      workedAfter = false;
      return acknowledged;
    }
    failedBefore = true;
    // Did it commit all the same? Ask, then retry it if not.
    bool present = false;
    const bool asked = pool.read([&](Database& db) {
      bool readOk = true;
      present = scalar(db, "SELECT count(*) FROM commits WHERE txn = " + std::to_string(txn), readOk) > 0;
      return readOk;
    });
    if (!asked || (!present && !writeTransaction(pool, txn, failure))) {
      workedAfter = false;
      return acknowledged;
    }
    acknowledged = txn;
  }
  return acknowledged;
}

std::string check(const std::string& directory, std::int64_t acknowledged, std::int64_t& lost) {
  Database db = Database::open(directory + "/" + kFile);
  std::string problem = notIntact(db);
  std::int64_t present = 0;
  if (problem.empty()) problem = committedPrefix(db, present);
  if (!problem.empty()) return problem;
  bool ok = true;
  const std::int64_t items = scalar(db, "SELECT count(*) FROM items", ok);
  const std::int64_t total = scalar(db, "SELECT commits FROM totals", ok);
  const std::int64_t stray = scalar(db, "SELECT count(*) FROM items WHERE txn NOT IN (SELECT txn FROM commits)", ok);
  if (!ok || items != present * kRowsPerTransaction || total != present || stray != 0) {
    return "a partial transaction: " + std::to_string(present) + " commits, " + std::to_string(items) + " rows";
  }
  problem = judgeCommits(present, acknowledged, lost);
  if (!problem.empty()) return problem;
  if (!db.execute("INSERT INTO commits(txn) VALUES (" + std::to_string(present + 1) + ")")) {
    return "the next write fails: " + db.error();
  }
  return std::string();
}

Scenario poolScenario(const char* name, Synchronous synchronous, bool measuredLoss) {
  Scenario scenario;
  scenario.name = name;
  scenario.lossMeasuredOnly = measuredLoss;
  // The reader's findings from the latest run, checked with the rest.
  auto readerProblem = std::make_shared<std::string>();
  scenario.prepare = [synchronous](const std::string& directory) {
    const std::string path = directory + "/" + kFile;
    DatabasePool pool(path, configurationFor(synchronous, false));
    Error error;
    pool.write(
        [](Database& db) {
          return db.executeScript(
              "CREATE TABLE items(id INTEGER PRIMARY KEY, txn INTEGER NOT NULL, k INTEGER NOT NULL, payload TEXT);"
              "CREATE INDEX items_txn ON items(txn, k);"
              "CREATE TABLE commits(txn INTEGER PRIMARY KEY);"
              "CREATE TABLE totals(id INTEGER PRIMARY KEY CHECK (id = 1), commits INTEGER NOT NULL);"
              "INSERT INTO totals VALUES (1, 0);");
        },
        &error);
    pool.checkpoint(CheckpointMode::Truncate);
    syncPath(path);
    syncPath(directory);
  };
  scenario.run = [synchronous, readerProblem](const std::string& directory, Failure& failure, bool& workedAfter) {
    readerProblem->clear();
    return run(synchronous, directory, failure, workedAfter, *readerProblem);
  };
  scenario.check = [readerProblem](const std::string& directory, std::int64_t acknowledged, bool,
                                   std::int64_t& lost) -> std::string {
    if (!readerProblem->empty()) return *readerProblem;
    return check(directory, acknowledged, lost);
  };
  return scenario;
}

}  // namespace

std::vector<Scenario> poolScenarios() {
  return {poolScenario("pool-wal-full", Synchronous::Full, false),
          poolScenario("pool-wal-normal", Synchronous::Normal, true)};
}

}  // namespace powerloss
