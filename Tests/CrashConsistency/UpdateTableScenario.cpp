// updateTable scenario: a child rebuilds a populated table with
// Database::updateTable again and again, alternating between two schemas so
// that every call really renames, creates, copies, drops and recreates; the
// parent kills it at a random moment. Afterwards the table has exactly the
// schema of the last call that returned (or of the one under way), never
// `notes_old`, never both or neither; every row with its data; its indexes,
// trigger, the view over it and the table referencing it unchanged; foreign
// keys hold. Rounds alternate between rollback-journal and WAL mode.
#include <sqlitebridge/sqlitebridge.hpp>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>

#include "Harness.hpp"

namespace crash {

namespace {

constexpr std::int64_t kNotes = 3000;
constexpr std::int64_t kTags = 500;

const char* const kSchemas[2] = {
    "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT)",
    "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, extra INTEGER NOT NULL DEFAULT 7)",
};
// Schema 1 -> 0 copies with an explicit insert, 0 -> 1 with the default
// (the columns both tables share).
const char* const kInserts[2] = {"INSERT INTO notes(id, title, body) SELECT id, title, body FROM notes_old", ""};

// Everything else in the schema, which must come through every rebuild
// unchanged: name -> (type, SQL).
const std::map<std::string, std::pair<std::string, std::string>>& otherObjects() {
  static const std::map<std::string, std::pair<std::string, std::string>> objects{
      {"notes_title", {"index", "CREATE INDEX notes_title ON notes(title)"}},
      {"notes_body", {"index", "CREATE UNIQUE INDEX notes_body ON notes(body)"}},
      {"notes_log",
       {"trigger",
        "CREATE TRIGGER notes_log AFTER UPDATE ON notes BEGIN "
        "INSERT INTO log(note_id, what) VALUES (new.id, 'update'); END"}},
      {"note_titles", {"view", "CREATE VIEW note_titles AS SELECT id, title FROM notes"}},
      {"tags",
       {"table",
        "CREATE TABLE tags(id INTEGER PRIMARY KEY, note_id INTEGER NOT NULL REFERENCES notes(id), "
        "tag TEXT NOT NULL)"}},
      {"log", {"table", "CREATE TABLE log(id INTEGER PRIMARY KEY, note_id INTEGER, what TEXT)"}},
  };
  return objects;
}

std::string title(std::int64_t id) { return "title " + std::to_string(id % 97); }

bool createNotesDatabase(const std::string& path, std::string& error) {
  removeDatabase(path);
  RawDb db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (!db.ok()) {
    error = db.openError();
    return false;
  }
  if (!db.exec(std::string("BEGIN; ") + kSchemas[0], error)) return false;
  // Tables first (the view, index and trigger refer to them).
  for (const char* type : {"table", "index", "trigger", "view"}) {
    for (const auto& [name, object] : otherObjects()) {
      if (object.first == type && !db.exec(object.second, error)) return false;
    }
  }
  return fillNotesAndTagsAndCommit(db, kNotes, kTags, title, error);
}

// The schema index the table has (0/1), or -1 with the problem in `problem`.
int inspect(const std::string& path, Tally& tally, const std::string& where) {
  RawDb db(path);
  if (!checkOpenedAndSound(db, tally, where)) return -1;
  std::vector<std::vector<std::string>> rows;
  std::string error;
  if (!db.rows("SELECT name, type, sql FROM sqlite_master", rows, error)) {
    tally.fail(tally.integrityFailures, where + ": reading the schema: " + error);
    return -1;
  }
  int schema = -1;
  std::map<std::string, bool> seen;
  for (const auto& row : rows) {
    const std::string& name = row[0];
    seen[name] = true;
    if (name == "notes") {
      schema = row[2] == kSchemas[0] ? 0 : row[2] == kSchemas[1] ? 1 : -1;
      if (schema < 0) tally.fail(tally.partial, where + ": notes has an unexpected schema: " + row[2]);
    } else if (otherObjects().count(name) != 0) {
      const auto& expected = otherObjects().at(name);
      if (row[1] != expected.first || row[2] != expected.second) {
        tally.fail(tally.partial, where + ": " + name + " changed: " + row[2]);
      }
    } else {
      tally.fail(tally.partial, where + ": unexpected schema object " + row[1] + " " + name);
    }
  }
  if (seen.count("notes") == 0) tally.fail(tally.partial, where + ": the table notes is gone");
  for (const auto& [name, object] : otherObjects()) {
    if (seen.count(name) == 0) tally.fail(tally.partial, where + ": " + object.first + " " + name + " is missing");
  }
  if (schema < 0) return -1;

  // Every row with its data (and the new column's default).
  sqlite3_stmt* stmt = nullptr;
  const std::string select = schema == 0 ? "SELECT id, title, body, 7 FROM notes ORDER BY id"
                                         : "SELECT id, title, body, extra FROM notes ORDER BY id";
  sqlite3_prepare_v2(db.get(), select.c_str(), -1, &stmt, nullptr);
  std::int64_t expectedId = 1, wrong = 0;
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    const std::int64_t id = sqlite3_column_int64(stmt, 0);
    const char* t = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1));
    const char* body = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 2));
    if (id != expectedId || t == nullptr || body == nullptr || title(id) != t || payload(id) != body ||
        sqlite3_column_int64(stmt, 3) != 7) {
      ++wrong;
    }
    ++expectedId;
  }
  sqlite3_finalize(stmt);
  if (rc != SQLITE_DONE || wrong != 0 || expectedId - 1 != kNotes) {
    tally.fail(tally.partial, where + ": notes holds " + std::to_string(expectedId - 1) + " rows, " +
                                  std::to_string(wrong) + " wrong (" + sqlite3_errmsg(db.get()) + ")");
  }
  const std::string tags = db.scalar("SELECT count(*) || '/' || sum(note_id) FROM tags");
  if (tags != std::to_string(kTags) + "/" + std::to_string(5 * kTags * (kTags + 1) / 2)) {
    tally.fail(tally.partial, where + ": tags changed: " + tags);
  }
  if (db.scalar("SELECT count(*) FROM log") != "0") tally.fail(tally.partial, where + ": the trigger fired");
  if (db.scalar("SELECT count(*) FROM note_titles") != std::to_string(kNotes)) {
    tally.fail(tally.partial, where + ": the view note_titles no longer reads notes");
  }
  return schema;
}

}  // namespace

Tally runUpdateTableScenario(const Options& options) {
  Tally tally;
  tally.scenario = "update-table";
  auto random = scenarioRandom(options.seed, tally.scenario);
  const std::string directory = makeDirectory(options.workDirectory, tally.scenario);
  const std::string path = directory + "/notes.db";
  std::string error;
  if (!createNotesDatabase(path, error)) {
    tally.fail(tally.otherFailures, "cannot create the database: " + error);
    return tally;
  }
  int schema = 0;
  int killsInCall = 0, unreported = 0;
  std::int64_t callMicros = 20000;  // refined from the reports
  for (int round = 1; round <= options.rounds; ++round) {
    ++tally.rounds;
    const bool wal = round % 2 == 0;
    {
      RawDb db(path);
      if (!db.ok() ||
          db.scalar(std::string("PRAGMA journal_mode = ") + (wal ? "WAL" : "DELETE")) != (wal ? "wal" : "delete")) {
        tally.fail(tally.otherFailures, "round " + std::to_string(round) + ": cannot switch the journal mode");
      }
    }
    KillPlan plan;
    if (uniform(random, 0, 1) == 0) {
      plan.delayMicros = uniform(random, 0, 250000);
    } else {
      // During a call (its median length so far, and a little after).
      plan.anchorKind = 'u';
      plan.anchorCount = static_cast<int>(uniform(random, 1, 4));
      plan.delayMicros = uniform(random, 0, callMicros + callMicros / 4);
    }
    const ChildRun run = runAndKill({"update-table", path, std::to_string(schema)}, plan);
    const std::string where =
        "round " + std::to_string(round) + (wal ? " wal" : " delete") + " (" + plan.describe() + ")";
    const std::int64_t failuresBefore = tally.lost + tally.partial + tally.integrityFailures + tally.otherFailures;
    if (!run.problem.empty()) tally.fail(tally.otherFailures, where + ": " + run.problem);
    const std::int64_t returned = run.last('U', 0);  // calls that returned in this round
    const std::int64_t gap = run.medianGap('u', 'U');
    if (gap > 0) callMicros = gap;
    const bool inCall = run.lastKind() == 'u';
    if (inCall) ++killsInCall;
    const int expected = static_cast<int>((schema + returned) % 2);
    const int found = inspect(path, tally, where);
    if (found >= 0) {
      if (found != expected) {
        if (inCall) {
          ++unreported;  // the call under way committed before the kill
        } else {
          tally.fail(tally.lost, where + ": the table has schema " + std::to_string(found) + " but call " +
                                     std::to_string(returned) + " returned schema " + std::to_string(expected));
        }
      }
      tally.checked += returned;
      schema = found;
    }
    const bool clean = tally.lost + tally.partial + tally.integrityFailures + tally.otherFailures == failuresBefore;
    if (clean) ++tally.survived;
    if (options.verbose || !clean) {
      std::printf("  %s %s: calls returned %lld, schema %d%s%s\n", tally.scenario.c_str(), where.c_str(),
                  static_cast<long long>(returned), found, inCall ? ", killed inside updateTable" : "",
                  clean ? "" : "  FAILED");
    }
    if (found < 0) break;  // nothing sensible to continue from
  }
  tally.notes.push_back("kills inside updateTable " + std::to_string(killsInCall));
  tally.notes.push_back("committed but unreported " + std::to_string(unreported));
  tally.notes.push_back("median call " + std::to_string(callMicros / 1000) + " ms");
  return tally;
}

void updateTableChild(const std::vector<std::string>& args) {
  if (args.size() != 2) {
    std::fprintf(stderr, "usage: child update-table DB SCHEMA\n");
    ::_exit(2);
  }
  const Reporter reporter(kReportFd);
  sqlitebridge::Database db = sqlitebridge::Database::open(args[0], sqlitebridge::OpenMode::ReadWrite);
  sqlitebridge::Row row;
  if (!db.isOpen() || !db.execute("PRAGMA foreign_keys = ON")) {
    std::fprintf(stderr, "crash-consistency update-table child: open failed: %s\n", db.error().c_str());
    ::_exit(3);
  }
  reporter.send('R', 0);
  int schema = std::atoi(args[1].c_str());
  for (std::int64_t call = 1;; ++call) {
    const int next = 1 - schema;
    reporter.send('u', call);  // the call is about to start (not a claim)
    if (!db.updateTable(kSchemas[next], kInserts[next], "notes")) {
      std::fprintf(stderr, "crash-consistency update-table child: updateTable failed: %s\n", db.error().c_str());
      ::_exit(3);
    }
    reporter.send('U', call);  // the call returned: the new schema is committed
    schema = next;
  }
}

}  // namespace crash
