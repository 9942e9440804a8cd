// The first open by name, cut mid-way: the bundle copy (the core's own
// writes, fsyncs, link and directory sync, reported through its file
// operation observer) and the creation with a script (SQLite's writes to a
// temporary file, then the core's sync and publish), each with the default
// journal and synchronous level, in WAL, with synchronous = OFF, and both
// (the configuration the open is given). After any cut or fault (the fault
// sweep fails every lock, so the checkpoint at close too) the documents
// directory holds no database under the name, or the complete one, never a
// half-made file; and the next open works.
#include <sqlitebridge/sqlitebridge.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "DatabaseState.hpp"
#include "Harness.hpp"

namespace powerloss {

namespace {

using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::Location;

const char kName[] = "notes.db";
const char kCreate[] =
    "CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT NOT NULL);"
    "CREATE INDEX notes_body ON notes(body);"
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)"
    "  INSERT INTO notes(body) SELECT 'note ' || i || ' ' || hex(zeroblob(90)) FROM n;";

std::string readFile(const std::string& path, bool& exists) {
  std::ifstream in(path, std::ios::binary);
  exists = static_cast<bool>(in);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

Location locationIn(const std::string& directory, bool withBundle) {
  Location location;
  location.documentsDirectory = directory + "/documents";
  if (withBundle) location.bundleDirectory = directory + "/bundle";
  return location;
}

// The journal mode and synchronous level an open is configured with.
struct Journal {
  const char* name;  // scenario name suffix: "<journal>-<synchronous>"
  std::optional<sqlitebridge::JournalMode> mode;
  std::optional<sqlitebridge::Synchronous> synchronous;
};

const Journal kJournals[] = {
    {"journal-delete-full", std::nullopt, std::nullopt},
    {"wal-full", sqlitebridge::JournalMode::Wal, sqlitebridge::Synchronous::Full},
    {"journal-delete-off", std::nullopt, sqlitebridge::Synchronous::Off},
    {"wal-off", sqlitebridge::JournalMode::Wal, sqlitebridge::Synchronous::Off},
};

Configuration configured(const Journal& journal) {
  Configuration configuration;
  configuration.journalMode = journal.mode;
  configuration.synchronous = journal.synchronous;
  return configuration;
}

Configuration throughFaults(const Journal& journal) {
  Configuration configuration = configured(journal);
  configuration.vfs = FaultVfs::name();
  return configuration;
}

// The open an app makes, retried once after a failure.
std::int64_t openByName(const std::string& directory, bool withBundle, const Journal& journal, Failure& failure,
                        bool& workedAfter) {
  const std::string createSQL = withBundle ? std::string() : std::string(kCreate);
  for (int attempt = 0; attempt < 2; ++attempt) {
    Database db(kName, createSQL, locationIn(directory, withBundle), throughFaults(journal));
    bool ok = db.isOpen();
    if (ok) scalar(db, "SELECT count(*) FROM notes", ok);
    if (ok) return 1;
    if (failure.code == 0) failure = Failure{db.lastError().extendedCode, db.lastError().message};
    if (FaultVfs::shared().counts().cut) return 0;
  }
  workedAfter = false;
  return 0;
}

Scenario openByNameScenario(bool withBundle, const Journal& journal, const std::string& work) {
  Scenario scenario;
  scenario.name = std::string(withBundle ? "open-by-name-copy-" : "open-by-name-create-") + journal.name;
  // The complete database: the bundle's bytes (copy), and the state a
  // creation without faults makes (create; the bundle holds the same).
  auto bundleBytes = std::make_shared<std::string>();
  auto createdState = std::make_shared<std::string>();
  const std::string reference = work + "/reference-" + scenario.name;
  scenario.prepare = [withBundle, bundleBytes, createdState, reference](const std::string& directory) {
    if (createdState->empty()) {
      freshDirectory(reference);
      freshDirectory(reference + "/documents");
      Database db(kName, kCreate, locationIn(reference, false));
      *createdState = stateOf(db);
    }
    freshDirectory(directory + "/documents");
    syncPath(directory + "/documents");
    if (withBundle) {
      freshDirectory(directory + "/bundle");
      {
        Database seed = Database::open(directory + "/bundle/" + kName);
        seed.executeScript(kCreate);
      }
      bool exists = false;
      *bundleBytes = readFile(directory + "/bundle/" + kName, exists);
    }
    syncPath(directory);
  };
  scenario.run = [withBundle, journal](const std::string& directory, Failure& failure, bool& workedAfter) {
    return openByName(directory, withBundle, journal, failure, workedAfter);
  };
  scenario.check = [withBundle, journal, bundleBytes, createdState](const std::string& directory,
                                                                    std::int64_t acknowledged, bool,
                                                                    std::int64_t& lost) -> std::string {
    const std::string target = directory + "/documents/" + kName;
    bool exists = false;
    const std::string bytes = readFile(target, exists);
    if (!exists) {
      lost = acknowledged;
    } else if (!withBundle || bytes != *bundleBytes) {
      // A copy is the bundle's bytes until the open after it switches the
      // file to WAL (its header changes); from then on it must hold the same.
      if (withBundle && !journal.mode)
        return "the database under its name is not the bundle's bytes (" + std::to_string(bytes.size()) + " of " +
               std::to_string(bundleBytes->size()) + ")";
      Database db = Database::open(target);
      if (!db.isOpen()) return "the database under its name does not open: " + db.error();
      const std::string damaged = integrityProblem(db);
      if (!damaged.empty()) return damaged;
      if (stateOf(db) != *createdState)
        return withBundle ? "the database under its name is not the bundle's"
                          : "the database under its name is not the created one";
    }
    // The next open works (and makes the database when it is not there).
    Database next(kName, withBundle ? std::string() : std::string(kCreate), locationIn(directory, withBundle),
                  configured(journal));
    bool ok = next.isOpen();
    const std::int64_t notes = ok ? scalar(next, "SELECT count(*) FROM notes", ok) : 0;
    if (!ok || notes != 40) return "the next open fails: " + next.error();
    return std::string();
  };
  return scenario;
}

}  // namespace

std::vector<Scenario> openByNameScenarios(const std::string& work) {
  std::vector<Scenario> scenarios;
  for (bool withBundle : {true, false}) {
    for (const Journal& journal : kJournals) scenarios.push_back(openByNameScenario(withBundle, journal, work));
  }
  return scenarios;
}

}  // namespace powerloss
