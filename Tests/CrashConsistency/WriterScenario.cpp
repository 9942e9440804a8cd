// Writer scenario: a child commits numbered transactions through
// sqlitebridge::Database and reports each one after COMMIT returned; the
// parent kills it with SIGKILL and checks that every reported transaction is
// whole and present, that nothing partial is, and that at most the one
// transaction whose COMMIT was under way when the kill came is present
// unreported. The database carries over from round to round, so each child
// also starts on a database a killed process left behind (hot journal or
// WAL to recover).
#include <sqlitebridge/sqlitebridge.hpp>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

#include "Harness.hpp"

namespace crash {

namespace {

// Rows per transaction: with an index and ~120-byte rows a transaction
// touches several pages, so a torn one would show.
constexpr std::int64_t kRowsPerTransaction = 16;

std::int64_t firstRowId(std::int64_t transaction) { return (transaction - 1) * kRowsPerTransaction + 1; }

[[noreturn]] void die(const char* what, const sqlitebridge::Database& db) {
  std::fprintf(stderr, "crash-consistency writer child: %s failed: %s\n", what, db.error().c_str());
  std::fflush(stderr);
  ::_exit(3);
}

// Creates the database the writer children share.
bool createWriterDatabase(const std::string& path, bool wal, std::string& error) {
  removeDatabase(path);
  RawDb db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (!db.ok()) {
    error = db.openError();
    return false;
  }
  return (!wal || db.exec("PRAGMA journal_mode = WAL", error)) &&
         db.exec(
             "CREATE TABLE items(id INTEGER PRIMARY KEY, txn INTEGER NOT NULL, payload TEXT NOT NULL);"
             "CREATE INDEX items_txn ON items(txn);"
             "CREATE TABLE commits(txn INTEGER PRIMARY KEY, rows INTEGER NOT NULL);"
             "CREATE TABLE totals(id INTEGER PRIMARY KEY CHECK (id = 1), rows INTEGER NOT NULL);"
             "INSERT INTO totals VALUES (1, 0);",
             error);
}

// What the parent found in the database after a kill.
struct WriterState {
  bool readable = false;
  std::int64_t present = 0;  // highest transaction number with a commits row
  std::int64_t missing = 0;  // numbers 1..present without a commits row
  std::int64_t partial = 0;  // transactions with some but not all of their rows, or wrong rows
  std::string problem;
};

WriterState inspect(const std::string& path, Tally& tally, int round) {
  WriterState state;
  RawDb db(path);
  if (!db.ok()) {
    tally.fail(tally.integrityFailures, "round " + std::to_string(round) + ": cannot open: " + db.openError());
    return state;
  }
  const std::string integrity = db.integrity();
  if (integrity != "ok") {
    tally.fail(tally.integrityFailures, "round " + std::to_string(round) + ": integrity_check: " + integrity);
  }
  std::vector<std::vector<std::string>> rows;
  std::string error;
  if (!db.rows("SELECT txn, rows FROM commits ORDER BY txn", rows, error)) {
    tally.fail(tally.integrityFailures, "round " + std::to_string(round) + ": reading commits: " + error);
    return state;
  }
  std::map<std::int64_t, std::int64_t> committed;  // txn -> rows it claims
  for (const auto& row : rows) committed[std::atoll(row[0].c_str())] = std::atoll(row[1].c_str());
  state.present = committed.empty() ? 0 : committed.rbegin()->first;
  state.missing = state.present - static_cast<std::int64_t>(committed.size());

  // Every item row: the right transaction for its id, the right payload.
  std::map<std::int64_t, std::int64_t> good;  // txn -> correct rows
  std::map<std::int64_t, std::int64_t> bad;   // txn -> wrong rows
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(db.get(), "SELECT id, txn, payload FROM items ORDER BY id", -1, &stmt, nullptr);
  int rc;
  std::int64_t itemCount = 0;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    const std::int64_t id = sqlite3_column_int64(stmt, 0);
    const std::int64_t txn = sqlite3_column_int64(stmt, 1);
    const char* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 2));
    ++itemCount;
    const bool right = txn >= 1 && id >= firstRowId(txn) && id < firstRowId(txn + 1) && text != nullptr &&
                       payload(id) == std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(stmt, 2)));
    ++(right ? good : bad)[txn];
  }
  sqlite3_finalize(stmt);
  if (rc != SQLITE_DONE) {
    tally.fail(tally.integrityFailures,
               "round " + std::to_string(round) + ": reading items: " + sqlite3_errmsg(db.get()));
    return state;
  }
  for (const auto& [txn, claimed] : committed) {
    if (claimed != kRowsPerTransaction || good[txn] != kRowsPerTransaction || bad[txn] != 0) {
      ++state.partial;
      if (state.problem.empty()) {
        state.problem = "transaction " + std::to_string(txn) + " has " + std::to_string(good[txn]) + " of its rows (" +
                        std::to_string(bad[txn]) + " wrong)";
      }
    }
  }
  std::map<std::int64_t, bool> orphans;  // rows of a transaction without a commits row
  for (const auto& [txn, count] : good) {
    if (count > 0 && committed.count(txn) == 0) orphans[txn] = true;
  }
  for (const auto& [txn, count] : bad) {
    if (count > 0 && committed.count(txn) == 0) orphans[txn] = true;
  }
  state.partial += static_cast<std::int64_t>(orphans.size());
  if (!orphans.empty() && state.problem.empty()) {
    state.problem = "rows of uncommitted transaction " + std::to_string(orphans.begin()->first) + " are present";
  }
  const std::string total = db.scalar("SELECT rows FROM totals WHERE id = 1");
  if (std::atoll(total.c_str()) != itemCount) {
    ++state.partial;
    if (state.problem.empty()) {
      state.problem = "totals says " + total + " rows, items holds " + std::to_string(itemCount);
    }
  }
  state.readable = true;
  return state;
}

}  // namespace

Tally runWriterScenario(const Options& options, bool wal) {
  Tally tally;
  tally.scenario = wal ? "writer-wal" : "writer-delete";
  auto random = scenarioRandom(options.seed, tally.scenario);
  const std::string directory = makeDirectory(options.workDirectory, tally.scenario);
  const std::string path = directory + "/writer.db";
  std::string error;
  if (!createWriterDatabase(path, wal, error)) {
    tally.fail(tally.otherFailures, "cannot create the database: " + error);
    return tally;
  }
  std::int64_t present = 0;  // transactions in the database after the last check
  int killsInCommit = 0;
  int unreportedCommits = 0;
  std::int64_t synchronous = -1;
  std::int64_t commitMicros = wal ? 1000 : 3000;  // refined from the reports
  for (int round = 1; round <= options.rounds; ++round) {
    ++tally.rounds;
    KillPlan plan;
    if (uniform(random, 0, 1) == 0) {
      // Anywhere: while opening (recovering the last round's crash), writing
      // rows, or committing.
      plan.delayMicros = uniform(random, 0, 250000);
    } else {
      // Right after the child announced a COMMIT: inside the commit's writes
      // and fsyncs, or just after it returned and before the report.
      // The window is twice the median COMMIT seen so far, so that about
      // half of these kills land inside the commit.
      plan.anchorKind = 'c';
      plan.anchorCount = static_cast<int>(uniform(random, 1, 12));
      plan.delayMicros = uniform(random, 0, 2 * commitMicros);
    }
    const ChildRun run = runAndKill({"writer", path, std::to_string(present + 1), wal ? "wal" : "delete"}, plan);
    const std::string where = "round " + std::to_string(round) + " (" + plan.describe() + ")";
    const std::int64_t failuresBefore = tally.lost + tally.partial + tally.integrityFailures + tally.otherFailures;
    if (!run.problem.empty()) tally.fail(tally.otherFailures, where + ": " + run.problem);
    synchronous = run.last('S', synchronous);
    const std::int64_t gap = run.medianGap('c', 'C');
    if (gap > 0) commitMicros = std::max<std::int64_t>(100, gap);

    const std::int64_t lastReported = run.last('C', present);
    const std::int64_t lastStarted = run.last('c', present);
    const bool inCommit = run.lastKind() == 'c';
    if (inCommit) ++killsInCommit;

    const WriterState state = inspect(path, tally, round);
    if (state.readable) {
      if (state.partial > 0) {
        tally.partial += state.partial;
        if (tally.failures.size() < 12) tally.failures.push_back(where + ": " + state.problem);
      }
      if (state.missing > 0) {
        tally.fail(tally.lost, where + ": " + std::to_string(state.missing) + " transactions below " +
                                   std::to_string(state.present) + " are missing");
      }
      if (state.present < lastReported) {
        tally.lost += lastReported - state.present - 1;
        tally.fail(tally.lost, where + ": the child reported transaction " + std::to_string(lastReported) +
                                   " committed, the database ends at " + std::to_string(state.present));
      } else if (state.present > lastReported) {
        // Committed but killed before reporting: only the transaction whose
        // COMMIT had been called may be there.
        if (state.present == lastReported + 1 && lastStarted == state.present) {
          ++unreportedCommits;
        } else {
          tally.fail(tally.partial, where + ": the database holds transaction " + std::to_string(state.present) +
                                        " but the last reported is " + std::to_string(lastReported) +
                                        " and the last COMMIT called " + std::to_string(lastStarted));
        }
      }
      tally.checked += std::max<std::int64_t>(0, std::min(lastReported, state.present) - present);
      present = state.present;
    }
    const bool clean = tally.lost + tally.partial + tally.integrityFailures + tally.otherFailures == failuresBefore;
    if (clean) ++tally.survived;
    if (options.verbose || !clean) {
      std::printf("  %s %s: reported %lld, present %lld%s%s\n", tally.scenario.c_str(), where.c_str(),
                  static_cast<long long>(lastReported), static_cast<long long>(state.present),
                  inCommit ? ", killed inside COMMIT" : "", clean ? "" : "  FAILED");
    }
  }
  tally.notes.push_back("kills inside COMMIT " + std::to_string(killsInCommit));
  tally.notes.push_back("committed but unreported " + std::to_string(unreportedCommits));
  tally.notes.push_back("median COMMIT " + std::to_string(commitMicros) + " us");
  tally.notes.push_back("PRAGMA synchronous " + std::to_string(synchronous));
  return tally;
}

void writerChild(const std::vector<std::string>& args) {
  using sqlitebridge::Database;
  using sqlitebridge::Value;
  if (args.size() != 3) {
    std::fprintf(stderr, "usage: child writer DB FIRST-TXN wal|delete\n");
    ::_exit(2);
  }
  const Reporter reporter(kReportFd);
  Database db = Database::open(args[0], sqlitebridge::OpenMode::ReadWrite);
  if (!db.isOpen()) die("open", db);
  sqlitebridge::Row row;
  if (!db.execute("PRAGMA synchronous", row)) die("PRAGMA synchronous", db);
  reporter.send('S', row.value(0).asInteger());
  // Small checkpoints, so that kills also land inside checkpoints.
  if (args[2] == "wal" && !db.execute("PRAGMA wal_autocheckpoint = 64", row)) die("wal_autocheckpoint", db);
  reporter.send('R', 0);
  for (std::int64_t txn = std::atoll(args[1].c_str());; ++txn) {
    if (!db.execute("BEGIN IMMEDIATE")) die("BEGIN", db);
    for (std::int64_t id = firstRowId(txn); id < firstRowId(txn + 1); ++id) {
      if (!db.execute("INSERT INTO items(id, txn, payload) VALUES (?, ?, ?)",
                      {Value(id), Value(txn), Value(payload(id))})) {
        die("INSERT", db);
      }
    }
    if (!db.execute("INSERT INTO commits(txn, rows) VALUES (?, ?)", {Value(txn), Value(kRowsPerTransaction)})) {
      die("INSERT INTO commits", db);
    }
    if (!db.execute("UPDATE totals SET rows = rows + ? WHERE id = 1", {Value(kRowsPerTransaction)})) {
      die("UPDATE totals", db);
    }
    reporter.send('c', txn);  // COMMIT is about to be called (not a claim)
    if (!db.execute("COMMIT")) die("COMMIT", db);
    reporter.send('C', txn);  // COMMIT returned: the transaction is committed
  }
}

}  // namespace crash
