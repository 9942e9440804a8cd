// A backup onto an existing file, cut mid-way: the destination is the old
// file or the complete copy, never a mix, and it opens.
#include <sqlitebridge/sqlitebridge.hpp>

#include <memory>
#include <string>

#include "AppRetry.hpp"
#include "DatabaseState.hpp"
#include "Harness.hpp"

namespace powerloss {

namespace {

using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::JournalMode;
using sqlitebridge::Synchronous;

const char kSource[] = "source.db";
const char kDestination[] = "copy.db";

struct Mode {
  const char* suffix;
  JournalMode journal;
  std::int64_t lossAllowed;  // DELETE at FULL may roll the last commit back (WriterScenarios.cpp)
};

Configuration destinationConfiguration(const Mode& mode, bool throughFaults) {
  Configuration configuration;
  if (throughFaults) configuration.vfs = FaultVfs::name();
  configuration.journalMode = mode.journal;
  configuration.synchronous = Synchronous::Full;
  return configuration;
}

void makeFile(const std::string& path, const Configuration& configuration, const std::string& script) {
  Database db = Database::open(path, configuration);
  db.executeScript(script);
  db.close();
  syncPath(path);
}

const char kOld[] =
    "CREATE TABLE old_notes(id INTEGER PRIMARY KEY, body TEXT);"
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 25)"
    "  INSERT INTO old_notes(body) SELECT 'old ' || i || hex(zeroblob(100)) FROM n;";
const char kNew[] =
    "CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT);"
    "CREATE INDEX notes_body ON notes(body);"
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60)"
    "  INSERT INTO notes(body) SELECT 'new ' || i || hex(zeroblob(120)) FROM n;";

Scenario backupScenario(const Mode& mode, const std::string& work) {
  Scenario scenario;
  scenario.name = std::string("backup-") + mode.suffix;
  scenario.lossAllowed = mode.lossAllowed;
  auto states = std::make_shared<std::vector<std::string>>();
  scenario.prepare = [mode, states, work](const std::string& directory) {
    if (states->empty()) {
      const std::string reference = work + "/reference-backup-" + mode.suffix;
      freshDirectory(reference);
      for (const char* script : {kOld, kNew}) {
        makeFile(reference + "/state.db", destinationConfiguration(mode, false), script);
        Database db = Database::open(reference + "/state.db");
        states->push_back(stateOf(db));
        db.close();
        Database::removeDatabase(reference + "/state.db");
      }
    }
    makeFile(directory + "/" + kSource, Configuration(), kNew);
    makeFile(directory + "/" + kDestination, destinationConfiguration(mode, false), kOld);
    syncPath(directory);
  };
  scenario.run = [mode](const std::string& directory, Failure& failure, bool& workedAfter) {
    Database source = Database::open(directory + "/" + kSource);
    return tryTwice(
        [&] { return Database::open(directory + "/" + kDestination, destinationConfiguration(mode, true)); },
        [&](Database& destination) {
          // Two pages a step, so that a cut can fall between steps. A failed
          // backup's error is the source's: noted here, before tryTwice would
          // note the destination's.
          if (source.backup(destination, 2)) return true;
          failure = failure.code != 0 ? failure : Failure{source.lastError().extendedCode, source.lastError().message};
          return false;
        },
        1, failure, workedAfter);
  };
  scenario.check = [states](const std::string& directory, std::int64_t acknowledged, bool,
                            std::int64_t& lost) -> std::string {
    Database db = Database::open(directory + "/" + kDestination);
    const std::string damaged = notIntact(db);
    if (!damaged.empty()) return damaged;
    const std::string state = stateOf(db);
    if (state != (*states)[0] && state != (*states)[1]) return "the destination is neither the old file nor the copy";
    lost = acknowledged == 1 && state == (*states)[0] ? 1 : 0;
    if (!db.execute("CREATE TABLE after(x)")) return "the destination takes no write: " + db.error();
    return std::string();
  };
  return scenario;
}

}  // namespace

std::vector<Scenario> backupScenarios(const std::string& work) {
  const Mode modes[] = {{"journal-delete-full", JournalMode::Delete, 1}, {"wal-full", JournalMode::Wal, 0}};
  std::vector<Scenario> scenarios;
  for (const Mode& mode : modes) scenarios.push_back(backupScenario(mode, work));
  return scenarios;
}

}  // namespace powerloss
