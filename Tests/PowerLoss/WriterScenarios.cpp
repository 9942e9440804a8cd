// Numbered transactions through one Database, in each of the 16 journal
// modes (DELETE, TRUNCATE, PERSIST, WAL) and synchronous levels (OFF,
// NORMAL, FULL, EXTRA), each held to what SQLite promises for it
// (docs/RELIABILITY.md, promise 15). Each transaction inserts
// several rows (with an index, so a torn one shows), adds to a running
// total and records its number; the checks read it all back.
#include <sqlitebridge/sqlitebridge.hpp>

#include <map>
#include <string>

#include "DatabaseState.hpp"
#include "Harness.hpp"

namespace powerloss {

namespace {

using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::JournalMode;
using sqlitebridge::Row;
using sqlitebridge::Synchronous;
using sqlitebridge::Value;

constexpr int kTransactions = 10;
constexpr int kRowsPerTransaction = 6;
const char kFile[] = "ledger.db";

std::string payload(std::int64_t txn, std::int64_t k) {
  std::string text;
  for (int i = 0; text.size() < 200; ++i) text += std::to_string(txn * 1000 + k * 7 + i) + ":";
  return text.substr(0, 200);
}

// One transaction; false, with the error in `failure` unless it holds one
// already, when any statement failed (the transaction is then rolled back).
bool writeTransaction(Database& db, std::int64_t txn, Failure& failure) {
  bool ok = db.execute("BEGIN IMMEDIATE");
  for (int k = 0; ok && k < kRowsPerTransaction; ++k) {
    ok = db.execute("INSERT INTO items(txn, k, payload) VALUES (?, ?, ?)",
                    std::vector<Value>{Value(txn), Value(k), Value(payload(txn, k))});
  }
  ok = ok && db.execute("UPDATE totals SET rows = rows + " + std::to_string(kRowsPerTransaction) +
                        ", commits = commits + 1 WHERE id = 1");
  ok = ok && db.execute("INSERT INTO commits(txn) VALUES (?)", std::vector<Value>{Value(txn)});
  ok = ok && db.execute("COMMIT");
  if (!ok) {
    if (failure.code == 0) failure = Failure{db.lastError().extendedCode, db.lastError().message};
    db.execute("ROLLBACK");  // SQLite may have rolled back already
  }
  return ok;
}

struct Mode {
  const char* name;
  JournalMode journal;
  Synchronous synchronous;
  std::int64_t lossAllowed;  // acknowledged commits a cut may lose
  bool measuredLoss;         // a cut may lose acknowledged commits (reported, not failed)
  bool mayCorrupt;           // synchronous=OFF: no promise after a cut (counted, not failed)
};

Configuration configurationFor(const Mode& mode, bool throughFaults) {
  Configuration configuration;
  if (throughFaults) configuration.vfs = FaultVfs::name();
  configuration.journalMode = mode.journal;
  configuration.synchronous = mode.synchronous;
  // Small, so that checkpoints (and WAL restarts) happen within the run.
  configuration.autoCheckpointPages = 4;
  return configuration;
}

void prepare(const Mode& mode, const std::string& directory) {
  const std::string path = directory + "/" + kFile;
  Database db = Database::open(path, configurationFor(mode, false));
  db.executeScript(
      "CREATE TABLE items(id INTEGER PRIMARY KEY, txn INTEGER NOT NULL, k INTEGER NOT NULL, payload TEXT NOT NULL);"
      "CREATE UNIQUE INDEX items_txn_k ON items(txn, k);"
      "CREATE INDEX items_payload ON items(payload);"
      "CREATE TABLE commits(txn INTEGER PRIMARY KEY);"
      "CREATE TABLE totals(id INTEGER PRIMARY KEY CHECK (id = 1), rows INTEGER NOT NULL, commits INTEGER NOT NULL);"
      "INSERT INTO totals VALUES (1, 0, 0);");
  db.close();
  syncPath(path);
  syncPath(directory);
}

std::int64_t run(const Mode& mode, const std::string& directory, Failure& failure, bool& workedAfter) {
  const std::string path = directory + "/" + kFile;
  Database db = Database::open(path, configurationFor(mode, true));
  if (!db.isOpen()) {
    // An app reports the failed open and tries again.
    failure = Failure{db.lastError().extendedCode, db.lastError().message};
    if (FaultVfs::shared().counts().cut) return 0;
    db = Database::open(path, configurationFor(mode, true));
    if (!db.isOpen()) {
      workedAfter = false;
      return 0;
    }
  }
  std::int64_t acknowledged = 0;
  bool failedBefore = failure.code != 0;
  for (std::int64_t txn = 1; txn <= kTransactions; ++txn) {
    if (writeTransaction(db, txn, failure)) {
      acknowledged = txn;
      continue;
    }
    // After a power cut the machine is off: nothing more happens.
    if (FaultVfs::shared().counts().cut) return acknowledged;
    if (failedBefore) {
      workedAfter = false;
      return acknowledged;
    }
    failedBefore = true;
    // An I/O error: did the transaction commit all the same (the error came
    // after its commit point)? Ask, as an app would, then retry it if not.
    bool ok = true;
    const std::int64_t present = scalar(db, "SELECT count(*) FROM commits WHERE txn = " + std::to_string(txn), ok);
    if (!ok || (present == 0 && !writeTransaction(db, txn, failure))) {
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
  std::vector<Row> rows;
  if (!db.execute("SELECT txn, k, payload FROM items ORDER BY txn, k", &rows)) return "reading items: " + db.error();
  std::map<std::int64_t, int> good;
  for (const Row& row : rows) {
    const std::int64_t txn = row.value(0).asInteger();
    if (txn < 1 || txn > present) return "rows of transaction " + std::to_string(txn) + ", never committed, are there";
    if (row.value(2).asText() != payload(txn, row.value(1).asInteger())) {
      return "a row of transaction " + std::to_string(txn) + " holds the wrong payload";
    }
    ++good[txn];
  }
  for (std::int64_t txn = 1; txn <= present; ++txn) {
    if (good[txn] != kRowsPerTransaction) {
      return "transaction " + std::to_string(txn) + " has " + std::to_string(good[txn]) + " of its rows";
    }
  }
  bool ok = true;
  const std::int64_t total = scalar(db, "SELECT rows FROM totals", ok);
  const std::int64_t commits = scalar(db, "SELECT commits FROM totals", ok);
  if (!ok || total != static_cast<std::int64_t>(rows.size()) || commits != present) {
    return "the totals (" + std::to_string(total) + " rows, " + std::to_string(commits) +
           " commits) disagree with the tables";
  }
  problem = judgeCommits(present, acknowledged, lost);
  if (!problem.empty()) return problem;
  // The next open works: one more transaction commits.
  Failure failure;
  if (!writeTransaction(db, present + 1, failure)) return "the next transaction fails: " + failure.message;
  return std::string();
}

Scenario scenarioFor(const Mode& mode) {
  Scenario scenario;
  scenario.name = mode.name;
  scenario.prepare = [mode](const std::string& directory) { prepare(mode, directory); };
  scenario.run = [mode](const std::string& directory, Failure& failure, bool& workedAfter) {
    return run(mode, directory, failure, workedAfter);
  };
  scenario.check = [](const std::string& directory, std::int64_t acknowledged, bool, std::int64_t& lost) {
    return check(directory, acknowledged, lost);
  };
  scenario.lossAllowed = mode.lossAllowed;
  scenario.lossMeasuredOnly = mode.measuredLoss;
  scenario.cutMayCorrupt = mode.mayCorrupt;
  scenario.inDoubtAfterFault = 1;
  return scenario;
}

}  // namespace

std::vector<Scenario> writerScenarios() {
  // What SQLite promises (pragma.html#pragma_synchronous): OFF, nothing once
  // the power goes ("the database might become corrupted"); NORMAL in WAL,
  // a consistent database that may have lost its last commits ("might roll
  // back following a power loss"); NORMAL with a rollback journal, "a very
  // small (though non-zero) chance" of corruption "on an older filesystem",
  // which the model is (a truncate or a header zeroing that was not synced
  // can be lost while later writes to the journal survive): counted, not
  // held; FULL, every commit durable, except that DELETE does not sync the
  // directory after removing the journal, so the last commit may roll back
  // (EXTRA closes that); EXTRA, every commit durable. After an I/O error at a
  // commit that the app then finds done, a cut may still undo that one
  // commit: the failed sync never made it durable.
  const Mode modes[] = {
      {"journal-delete-off", JournalMode::Delete, Synchronous::Off, 0, true, true},
      {"journal-delete-normal", JournalMode::Delete, Synchronous::Normal, 0, true, true},
      {"journal-delete-full", JournalMode::Delete, Synchronous::Full, 1, false, false},
      {"journal-delete-extra", JournalMode::Delete, Synchronous::Extra, 0, false, false},
      {"journal-truncate-off", JournalMode::Truncate, Synchronous::Off, 0, true, true},
      {"journal-truncate-normal", JournalMode::Truncate, Synchronous::Normal, 0, true, true},
      {"journal-truncate-full", JournalMode::Truncate, Synchronous::Full, 0, false, false},
      {"journal-truncate-extra", JournalMode::Truncate, Synchronous::Extra, 0, false, false},
      {"journal-persist-off", JournalMode::Persist, Synchronous::Off, 0, true, true},
      {"journal-persist-normal", JournalMode::Persist, Synchronous::Normal, 0, true, true},
      {"journal-persist-full", JournalMode::Persist, Synchronous::Full, 0, false, false},
      {"journal-persist-extra", JournalMode::Persist, Synchronous::Extra, 0, false, false},
      {"wal-off", JournalMode::Wal, Synchronous::Off, 0, true, true},
      {"wal-normal", JournalMode::Wal, Synchronous::Normal, 0, true, false},
      {"wal-full", JournalMode::Wal, Synchronous::Full, 0, false, false},
      {"wal-extra", JournalMode::Wal, Synchronous::Extra, 0, false, false},
  };
  std::vector<Scenario> scenarios;
  for (const Mode& mode : modes) scenarios.push_back(scenarioFor(mode));
  return scenarios;
}

}  // namespace powerloss
