// Schema changes cut mid-way: `updateTable` (a table with an index, a
// trigger and rows, rebuilt with a new column) and a Migrator run (four
// migrations). After any cut the database is in a state it was in before or
// after a whole change, never between: compared, object by object and row
// by row, with reference databases built without the VFS.
#include <sqlitebridge/sqlitebridge.hpp>

#include <string>
#include <vector>

#include "AppRetry.hpp"
#include "DatabaseState.hpp"
#include "Harness.hpp"

namespace powerloss {

namespace {

using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::JournalMode;
using sqlitebridge::Migrator;
using sqlitebridge::Synchronous;

const char kFile[] = "schema.db";

struct Mode {
  const char* suffix;
  JournalMode journal;
  std::int64_t lossAllowed;  // DELETE at FULL may roll the last commit back (WriterScenarios.cpp)
};

const Mode kModes[] = {{"journal-delete-full", JournalMode::Delete, 1}, {"wal-full", JournalMode::Wal, 0}};

Configuration configurationFor(const Mode& mode, bool throughFaults) {
  Configuration configuration;
  if (throughFaults) configuration.vfs = FaultVfs::name();
  configuration.journalMode = mode.journal;
  configuration.synchronous = Synchronous::Full;
  configuration.autoCheckpointPages = 4;
  return configuration;
}

// The table updateTable rebuilds, with what must survive the rebuild.
const char kItems[] =
    "CREATE TABLE items(id INTEGER PRIMARY KEY, title TEXT NOT NULL, qty INTEGER);"
    "CREATE INDEX items_title ON items(title);"
    "CREATE TABLE audit(item INTEGER, at TEXT);"
    "CREATE TRIGGER items_audit AFTER INSERT ON items BEGIN INSERT INTO audit VALUES (new.id, 'insert'); END;"
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)"
    "  INSERT INTO items(title, qty) SELECT 'item ' || i || ' ' || hex(zeroblob(60)), i FROM n;";
const char kNewItems[] =
    "CREATE TABLE items(id INTEGER PRIMARY KEY, title TEXT NOT NULL, qty INTEGER NOT NULL DEFAULT 0, note TEXT)";

// The migrations, each several writes.
const char* const kMigrations[][2] = {
    {"1-tags",
     "CREATE TABLE tags(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);"
     "INSERT INTO tags(name) VALUES ('red'), ('green'), ('blue');"},
    {"2-notes",
     "CREATE TABLE notes(id INTEGER PRIMARY KEY, tag INTEGER REFERENCES tags(id), body TEXT);"
     "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30)"
     "  INSERT INTO notes(tag, body) SELECT 1 + i % 3, hex(zeroblob(80)) || i FROM n;"},
    {"3-index",
     "CREATE INDEX notes_tag ON notes(tag); ALTER TABLE notes ADD COLUMN pinned INTEGER DEFAULT 0;"
     "UPDATE notes SET pinned = id % 2;"},
    {"4-archive", "CREATE TABLE archive AS SELECT * FROM notes WHERE pinned = 1; DELETE FROM notes WHERE id > 20;"},
};

void registerMigrations(Migrator& migrator, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    const std::string script = kMigrations[i][1];
    migrator.registerMigration(kMigrations[i][0], [script](Database& db) { return db.executeScript(script); });
  }
}

void makeFile(const Mode& mode, const std::string& path, const std::string& script) {
  Database db = Database::open(path, configurationFor(mode, false));
  db.executeScript(script);
  db.close();
  syncPath(path);
}

// --- updateTable

std::vector<std::string> updateTableStates(const Mode& mode, const std::string& directory) {
  // Before and after, built the same way without the VFS.
  const std::string path = directory + "/reference.db";
  makeFile(mode, path, kItems);
  Database db = Database::open(path, configurationFor(mode, false));
  std::vector<std::string> states{stateOf(db)};
  db.updateTable(kNewItems, "", "items");
  states.push_back(stateOf(db));
  db.close();
  Database::removeDatabase(path);
  return states;
}

Scenario updateTableScenario(const Mode& mode, const std::string& work) {
  Scenario scenario;
  scenario.name = std::string("update-table-") + mode.suffix;
  scenario.lossAllowed = mode.lossAllowed;
  auto states = std::make_shared<std::vector<std::string>>();
  const std::string reference = work + "/reference-" + scenario.name;
  scenario.prepare = [mode, states, reference](const std::string& directory) {
    if (states->empty()) {
      freshDirectory(reference);
      *states = updateTableStates(mode, reference);
    }
    makeFile(mode, directory + "/" + kFile, kItems);
    syncPath(directory);
  };
  scenario.run = [mode](const std::string& directory, Failure& failure, bool& workedAfter) {
    return tryTwice([&] { return Database::open(directory + "/" + kFile, configurationFor(mode, true)); },
                    [](Database& db) { return db.updateTable(kNewItems, "", "items"); }, 1, failure, workedAfter);
  };
  scenario.check = [states](const std::string& directory, std::int64_t acknowledged, bool,
                            std::int64_t& lost) -> std::string {
    Database db = Database::open(directory + "/" + kFile);
    const std::string damaged = notIntact(db);
    if (!damaged.empty()) return damaged;
    const std::string state = stateOf(db);
    if (state != (*states)[0] && state != (*states)[1]) return "the table is neither the old one nor the new one";
    lost = acknowledged == 1 && state == (*states)[0] ? 1 : 0;
    // The next open works: the trigger still fires.
    if (!db.execute("INSERT INTO items(title, qty) VALUES ('next', 1)")) return "the next insert fails: " + db.error();
    return std::string();
  };
  return scenario;
}

// --- migrations

std::vector<std::string> migrationStates(const Mode& mode, const std::string& directory) {
  std::vector<std::string> states;
  for (std::size_t count = 0; count <= sizeof kMigrations / sizeof kMigrations[0]; ++count) {
    const std::string path = directory + "/reference-" + std::to_string(count) + ".db";
    makeFile(mode, path, "CREATE TABLE seed(x); INSERT INTO seed VALUES (1);");
    Database db = Database::open(path, configurationFor(mode, false));
    Migrator migrator;
    registerMigrations(migrator, count);
    migrator.migrate(db);
    states.push_back(stateOf(db));
  }
  return states;
}

Scenario migrationScenario(const Mode& mode, const std::string& work) {
  Scenario scenario;
  scenario.name = std::string("migration-") + mode.suffix;
  constexpr std::int64_t all = sizeof kMigrations / sizeof kMigrations[0];
  scenario.lossAllowed = mode.lossAllowed;
  auto states = std::make_shared<std::vector<std::string>>();
  const std::string reference = work + "/reference-" + scenario.name;
  scenario.prepare = [mode, states, reference](const std::string& directory) {
    if (states->empty()) {
      freshDirectory(reference);
      *states = migrationStates(mode, reference);
    }
    makeFile(mode, directory + "/" + kFile, "CREATE TABLE seed(x); INSERT INTO seed VALUES (1);");
    syncPath(directory);
  };
  scenario.run = [mode](const std::string& directory, Failure& failure, bool& workedAfter) {
    Migrator migrator;
    registerMigrations(migrator, static_cast<std::size_t>(all));
    return tryTwice([&] { return Database::open(directory + "/" + kFile, configurationFor(mode, true)); },
                    [&](Database& db) { return migrator.migrate(db); }, all, failure, workedAfter);
  };
  scenario.check = [states](const std::string& directory, std::int64_t acknowledged, bool,
                            std::int64_t& lost) -> std::string {
    Database db = Database::open(directory + "/" + kFile);
    const std::string damaged = notIntact(db);
    if (!damaged.empty()) return damaged;
    const std::string state = stateOf(db);
    std::int64_t reached = -1;
    for (std::size_t k = 0; k < states->size(); ++k) {
      if (state == (*states)[k]) reached = static_cast<std::int64_t>(k);
    }
    if (reached < 0) return "the database is between two migrations";
    lost = acknowledged - reached > 0 ? acknowledged - reached : 0;
    // The next open works: migrating again reaches the end.
    Migrator migrator;
    registerMigrations(migrator, static_cast<std::size_t>(all));
    if (!migrator.migrate(db)) return "migrating again fails: " + db.error();
    if (stateOf(db) != states->back()) return "migrating again does not reach the last migration's state";
    return std::string();
  };
  return scenario;
}

}  // namespace

std::vector<Scenario> schemaChangeScenarios(const std::string& work) {
  std::vector<Scenario> scenarios;
  for (const Mode& mode : kModes) scenarios.push_back(updateTableScenario(mode, work));
  for (const Mode& mode : kModes) scenarios.push_back(migrationScenario(mode, work));
  return scenarios;
}

}  // namespace powerloss
