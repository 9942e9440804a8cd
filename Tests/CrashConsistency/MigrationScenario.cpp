// migration scenario: a child runs a Migrator over a populated database
// (six migrations, each of several writes, three of them rebuilding a table
// with updateTable while other tables reference it and foreign keys are on)
// and is killed at a random moment. Afterwards the database is exactly
// "migrations 1..k applied" for some k: user_version is k, the migrations
// table holds the first k identifiers in order, and the schema and every
// row equal those of a reference database migrated in-process up to k —
// never a state in between. Integrity and foreign keys hold, and a fresh
// migrate then finishes the job (the state equals the fully migrated
// reference). Rounds alternate between rollback-journal and WAL mode.
#include <sqlitebridge/sqlitebridge.hpp>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "Harness.hpp"

namespace crash {

namespace {

constexpr std::int64_t kNotes = 2000;
constexpr std::int64_t kTags = 400;

struct MigrationStep {
  const char* identifier;
  const char* script;       // run with executeScript, after the rebuild when there is one
  const char* rebuildName;  // the table updateTable rebuilds (nullptr: none)
  const char* rebuildCreate;
  const char* rebuildInsert;
};

const MigrationStep kMigrations[] = {
    {"1-authors",
     "CREATE TABLE authors(id INTEGER PRIMARY KEY, name TEXT NOT NULL);"
     "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40) "
     "INSERT INTO authors(id, name) SELECT i, 'author ' || i FROM n;"
     "UPDATE tags SET tag = tag || ' (1)'",
     nullptr, nullptr, nullptr},
    {"2-notes-author",
     "INSERT INTO authors(id, name) VALUES (41, 'nobody'); UPDATE notes SET author_id = 41 WHERE id % 97 = 0", "notes",
     "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, "
     "author_id INTEGER NOT NULL REFERENCES authors(id))",
     "INSERT INTO notes(id, title, body, author_id) SELECT id, title, body, id % 40 + 1 FROM notes_old"},
    {"3-word-counts",
     "ALTER TABLE notes ADD COLUMN words INTEGER NOT NULL DEFAULT 0;"
     "UPDATE notes SET words = length(body) - length(replace(body, ' ', '')) + 1;"
     "CREATE INDEX notes_words ON notes(words)",
     nullptr, nullptr, nullptr},
    {"4-tags-weight",
     "UPDATE tags SET weight = (note_id % 7) / 7.0;"
     "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400) "
     "INSERT INTO tags(note_id, tag, weight) SELECT i * 3, 'more ' || i, 0.5 FROM n",
     "tags",
     "CREATE TABLE tags(id INTEGER PRIMARY KEY, note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE, "
     "tag TEXT NOT NULL, weight REAL NOT NULL DEFAULT 1.0)",
     ""},
    {"5-archive",
     "CREATE TABLE archive(id INTEGER PRIMARY KEY, note_id INTEGER NOT NULL, title TEXT NOT NULL);"
     "INSERT INTO archive(note_id, title) SELECT id, title FROM notes WHERE id % 10 = 0;"
     "DELETE FROM tags WHERE note_id % 10 = 0;"
     "DELETE FROM notes WHERE id % 10 = 0",
     nullptr, nullptr, nullptr},
    {"6-notes-summary", "UPDATE notes SET summary = upper(summary) WHERE words > 20", "notes",
     "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, author_id INTEGER NOT NULL "
     "REFERENCES authors(id), words INTEGER NOT NULL DEFAULT 0, summary TEXT)",
     "INSERT INTO notes(id, title, author_id, words, summary) "
     "SELECT id, title, author_id, words, substr(body, 1, 24) FROM notes_old"},
};
constexpr int kCount = static_cast<int>(sizeof kMigrations / sizeof kMigrations[0]);

// Registers every migration; each reports 'm' k as its body starts (inside
// its transaction, so 'm' k+1 means k committed) when `reporter` is given,
// and stores when it started in `started` when that is given.
void registerMigrations(sqlitebridge::Migrator& migrator, const Reporter* reporter,
                        std::vector<std::chrono::steady_clock::time_point>* started) {
  for (int k = 1; k <= kCount; ++k) {
    const MigrationStep& step = kMigrations[k - 1];
    migrator.registerMigration(step.identifier, [k, &step, reporter, started](sqlitebridge::Database& db) {
      if (reporter != nullptr) reporter->send('m', k);
      if (started != nullptr) started->push_back(std::chrono::steady_clock::now());
      if (step.rebuildName != nullptr && !db.updateTable(step.rebuildCreate, step.rebuildInsert, step.rebuildName)) {
        return false;
      }
      return db.executeScript(step.script);
    });
  }
}

std::string title(std::int64_t id) { return "title " + std::to_string(id % 89); }

bool createBaseDatabase(const std::string& path, std::string& error) {
  removeDatabase(path);
  RawDb db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (!db.ok()) {
    error = db.openError();
    return false;
  }
  if (!db.exec("BEGIN;"
               "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT);"
               "CREATE INDEX notes_title ON notes(title);"
               "CREATE TABLE tags(id INTEGER PRIMARY KEY, note_id INTEGER NOT NULL REFERENCES notes(id), "
               "tag TEXT NOT NULL)",
               error)) {
    return false;
  }
  return fillNotesAndTagsAndCommit(db, kNotes, kTags, title, error);
}

// The schema and every row of every table, as text: equal for equal states.
std::string fingerprint(RawDb& db, std::string& error) {
  std::vector<std::vector<std::string>> schema;
  if (!db.rows("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name", schema, error)) return "";
  std::string text;
  for (const auto& object : schema) {
    for (const std::string& field : object) text += field + "\x1f";
    text += "\n";
  }
  for (const auto& object : schema) {
    if (object[0] != "table") continue;
    std::vector<std::vector<std::string>> rows;
    if (!db.rows("SELECT * FROM \"" + object[1] + "\" ORDER BY rowid", rows, error)) return "";
    text += "-- " + object[1] + "\n";
    for (const auto& row : rows) {
      for (const std::string& field : row) text += field + "\x1f";
      text += "\n";
    }
  }
  return text;
}

// Runs the migrator (through SQLiteBridge) on the database at `path` with
// foreign keys on, as an app would.
bool migrateInProcess(const std::string& path, int upTo, std::string& error,
                      std::vector<std::chrono::steady_clock::time_point>* started = nullptr) {
  sqlitebridge::Database db = sqlitebridge::Database::open(path, sqlitebridge::OpenMode::ReadWrite);
  sqlitebridge::Migrator migrator;
  registerMigrations(migrator, nullptr, started);
  const bool ok = db.isOpen() && db.execute("PRAGMA foreign_keys = ON") &&
                  (upTo >= kCount ? migrator.migrate(db) : migrator.migrate(db, kMigrations[upTo - 1].identifier));
  if (!ok) error = db.error();
  return ok;
}

struct References {
  std::string base;                  // the unmigrated database's bytes
  std::vector<std::string> states;   // fingerprint after migrations 1..k, k = 0..kCount
  std::vector<std::int64_t> micros;  // how long migration k took (index k - 1)
};

bool buildReferences(const std::string& directory, References& references, std::string& error) {
  const std::string base = directory + "/base.db";
  if (!createBaseDatabase(base, error) || !readFile(base, references.base)) return false;
  const std::string path = directory + "/reference.db";
  for (int k = 0; k <= kCount; ++k) {
    removeDatabase(path);
    if (!writeFile(path, references.base)) {
      error = "cannot write " + path;
      return false;
    }
    std::vector<std::chrono::steady_clock::time_point> started;
    if (k > 0 && !migrateInProcess(path, k, error, &started)) return false;
    const auto finished = std::chrono::steady_clock::now();
    if (k == kCount) {
      for (std::size_t i = 0; i < started.size(); ++i) {
        const auto end = i + 1 < started.size() ? started[i + 1] : finished;
        references.micros.push_back(std::chrono::duration_cast<std::chrono::microseconds>(end - started[i]).count());
      }
    }
    RawDb db(path);
    if (!db.ok()) {
      error = db.openError();
      return false;
    }
    references.states.push_back(fingerprint(db, error));
    if (!error.empty()) return false;
    if (db.scalar("PRAGMA user_version") != std::to_string(k)) {
      error = "the reference for " + std::to_string(k) + " has user_version " + db.scalar("PRAGMA user_version");
      return false;
    }
  }
  removeDatabase(path);
  return true;
}

// The k whose state the database is in, or -1 (with the failure tallied).
int inspect(const std::string& path, const References& references, Tally& tally, const std::string& where) {
  RawDb db(path);
  if (!checkOpenedAndSound(db, tally, where)) return -1;
  std::vector<std::vector<std::string>> rows;
  std::string error;
  const std::string version = db.scalar("PRAGMA user_version");
  const int k = std::atoi(version.c_str());
  if (version != std::to_string(k) || k < 0 || k > kCount) {
    tally.fail(tally.partial, where + ": user_version is " + version);
    return -1;
  }
  const std::string recorded = k == 0 ? "0" : db.scalar("SELECT count(*) FROM sqlitebridge_migrations");
  if (recorded != std::to_string(k)) {
    tally.fail(tally.partial, where + ": user_version " + version + " but " + recorded + " migrations recorded");
    return -1;
  }
  const std::string state = fingerprint(db, error);
  if (!error.empty()) {
    tally.fail(tally.integrityFailures, where + ": reading the database: " + error);
    return -1;
  }
  if (state != references.states[k]) {
    std::string like;
    for (int other = 0; other <= kCount; ++other) {
      if (state == references.states[other]) like = " (it is the state after " + std::to_string(other) + ")";
    }
    tally.fail(tally.partial, where + ": user_version " + version +
                                  " but the schema or rows differ from the state "
                                  "after migration " +
                                  version + like);
    return -1;
  }
  return k;
}

std::int64_t median(std::vector<std::int64_t> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

Tally runMigrationScenario(const Options& options) {
  Tally tally;
  tally.scenario = "migration";
  auto random = scenarioRandom(options.seed, tally.scenario);
  const std::string directory = makeDirectory(options.workDirectory, tally.scenario);
  const std::string path = directory + "/app.db";
  References references;
  std::string error;
  if (!buildReferences(directory, references, error)) {
    tally.fail(tally.otherFailures, "cannot build the reference databases: " + error);
    return tally;
  }
  std::int64_t totalMicros = 0;
  for (std::int64_t micros : references.micros) totalMicros += micros;
  std::vector<int> seen(kCount + 1, 0);
  int killsDuringRun = 0;
  for (int round = 1; round <= options.rounds; ++round) {
    ++tally.rounds;
    const bool wal = round % 2 == 0;
    removeDatabase(path);
    if (!writeFile(path, references.base)) {
      tally.fail(tally.otherFailures, "round " + std::to_string(round) + ": cannot write the database");
      continue;
    }
    if (wal) {
      RawDb db(path);
      if (!db.ok() || db.scalar("PRAGMA journal_mode = WAL") != "wal") {
        tally.fail(tally.otherFailures, "round " + std::to_string(round) + ": cannot switch to WAL");
      }
    }
    KillPlan plan;
    if (uniform(random, 0, 2) == 0) {
      // Anywhere from the start (opening included) to a little past the end.
      plan.delayMicros = uniform(random, 0, totalMicros + totalMicros / 4 + 5000);
    } else {
      // Inside migration k (its length in the reference run, and a little after).
      plan.anchorKind = 'm';
      plan.anchorCount = static_cast<int>(uniform(random, 1, kCount));
      const std::int64_t micros = references.micros[static_cast<std::size_t>(plan.anchorCount - 1)];
      plan.delayMicros = uniform(random, 0, micros + micros / 4);
    }
    const ChildRun run = runAndKill({"migration", path}, plan);
    const std::string where =
        "round " + std::to_string(round) + (wal ? " wal" : " delete") + " (" + plan.describe() + ")";
    const std::int64_t failuresBefore = tally.lost + tally.partial + tally.integrityFailures + tally.otherFailures;
    if (!run.problem.empty()) tally.fail(tally.otherFailures, where + ": " + run.problem);
    const std::int64_t started = run.last('m', 0);  // the migration under way (or last begun)
    const bool done = run.last('D', 0) == kCount;
    if (!done && started > 0) ++killsDuringRun;
    const int found = inspect(path, references, tally, where);
    if (found >= 0) {
      ++seen[static_cast<std::size_t>(found)];
      // 'm' k+1 came only after k committed; 'D' after all did.
      const std::int64_t atLeast = done ? kCount : std::max<std::int64_t>(started - 1, 0);
      const std::int64_t atMost = done ? kCount : started;
      if (found < atLeast) {
        tally.fail(tally.lost, where + ": " + std::to_string(found) + " migrations applied, but migration " +
                                   std::to_string(started) + " had started");
      } else if (found > atMost) {
        tally.fail(tally.otherFailures, where + ": " + std::to_string(found) +
                                            " migrations applied, more than had started (" + std::to_string(started) +
                                            ")");
      }
      tally.checked += found;
      // A fresh migrate finishes the job.
      if (!migrateInProcess(path, kCount, error)) {
        tally.fail(tally.otherFailures, where + ": migrating again failed: " + error);
      } else if (inspect(path, references, tally, where + " after migrating again") != kCount) {
        tally.fail(tally.partial, where + ": migrating again did not reach the final state");
      }
    }
    const bool clean = tally.lost + tally.partial + tally.integrityFailures + tally.otherFailures == failuresBefore;
    if (clean) ++tally.survived;
    if (options.verbose || !clean) {
      std::printf("  %s %s: migration %lld under way%s, state after %d%s\n", tally.scenario.c_str(), where.c_str(),
                  static_cast<long long>(started), done ? " (all done)" : "", found, clean ? "" : "  FAILED");
    }
  }
  std::string states;
  for (int k = 0; k <= kCount; ++k) states += (k == 0 ? "" : " ") + std::to_string(k) + ":" + std::to_string(seen[k]);
  tally.notes.push_back("kills during the run " + std::to_string(killsDuringRun));
  tally.notes.push_back("states after the kill (migrations applied: rounds) " + states);
  tally.notes.push_back("median migration " + std::to_string(median(references.micros) / 1000) + " ms");
  return tally;
}

void migrationChild(const std::vector<std::string>& args) {
  if (args.size() != 1) {
    std::fprintf(stderr, "usage: child migration DB\n");
    ::_exit(2);
  }
  const Reporter reporter(kReportFd);
  sqlitebridge::Database db = sqlitebridge::Database::open(args[0], sqlitebridge::OpenMode::ReadWrite);
  if (!db.isOpen() || !db.execute("PRAGMA foreign_keys = ON")) {
    std::fprintf(stderr, "crash-consistency migration child: open failed: %s\n", db.error().c_str());
    ::_exit(3);
  }
  sqlitebridge::Migrator migrator;
  registerMigrations(migrator, &reporter, nullptr);
  if (!migrator.migrate(db)) {
    std::fprintf(stderr, "crash-consistency migration child: migrate failed: %s\n", db.error().c_str());
    ::_exit(3);
  }
  reporter.send('D', kCount);
  // Wait for the kill: exiting by itself would count as a problem.
  for (;;) ::pause();
}

}  // namespace crash
