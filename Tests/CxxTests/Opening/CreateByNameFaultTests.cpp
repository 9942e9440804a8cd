// The first open by name that creates the database (issue 36): whatever the
// configured journal mode and whatever the creation script does, a database
// is published under its name only once everything the script wrote is in
// its main file; a failure anywhere publishes nothing, and the next open
// creates it. Shown with the power-loss harness's fault VFS failing each lock
// call in turn: before the fix, a WAL-mode creation whose checkpoint at close
// could not take its lock published a database without tables, and every
// later open used it. The Swift suite holds the same cases
// (Tests/SQLiteBridgeTests/Opening/CreateByNameFaultTests.swift).
#include <string>

#include "FaultVfs.hpp"
#include "TestSupport.hpp"

using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::JournalMode;
using sqlitebridge::Location;
using sqlitebridge::Synchronous;
using namespace sqlitebridge_test;

namespace {

const char kName[] = "notes.db";

// A creation as an app writes it: a table, an index and rows.
const char kCreate[] =
    "CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT NOT NULL);"
    "CREATE INDEX notes_body ON notes(body);"
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)"
    "  INSERT INTO notes(body) SELECT 'note ' || i FROM n;";

// A script that commits, switches to WAL and writes more: SQLite ignores
// journal_mode inside a transaction, so it commits first.
const char kCreateSwitchingToWal[] =
    "CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT NOT NULL);"
    "CREATE INDEX notes_body ON notes(body);"
    "COMMIT;"
    "PRAGMA journal_mode = WAL;"
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)"
    "  INSERT INTO notes(body) SELECT 'note ' || i FROM n;";

struct Creation {
  const char* label;
  const char* script;
  std::optional<JournalMode> journalMode;
  std::optional<Synchronous> synchronous;
};

const Creation kCreations[] = {
    {"configured WAL", kCreate, JournalMode::Wal, std::nullopt},
    {"configured WAL, synchronous off", kCreate, JournalMode::Wal, Synchronous::Off},
    {"a script that switches to WAL", kCreateSwitchingToWal, std::nullopt, std::nullopt},
    {"the default journal", kCreate, std::nullopt, std::nullopt},
    {"synchronous off", kCreate, std::nullopt, Synchronous::Off},
};

Location in(const std::string& directory) {
  Location location;
  location.documentsDirectory = directory;
  return location;
}

Configuration configured(const Creation& setup, bool throughFaults) {
  Configuration configuration;
  configuration.journalMode = setup.journalMode;
  configuration.synchronous = setup.synchronous;
  if (throughFaults) configuration.vfs = powerloss::FaultVfs::name();
  return configuration;
}

// What a complete creation holds: the table, its index and its 50 rows.
void expectComplete(Database& db, const std::string& context) {
  ASSERT_TRUE(db.isOpen()) << context << ": " << db.error();
  EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM sqlite_master WHERE name IN ('notes', 'notes_body')"), 2)
      << context;
  EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM notes"), 50) << context;
  EXPECT_EQ(scalarText(db, "PRAGMA integrity_check"), "ok") << context;
}

class CreateByNameFaults : public ::testing::Test {
 protected:
  void TearDown() override { powerloss::FaultVfs::shared().disarm(); }
};

}  // namespace

// Each lock call of the creation fails in turn (once, then from that call
// on): whether the open fails (with a code and a message) or succeeds, a
// file under the name holds everything the script wrote; and the next open,
// with the fault gone, finds or makes the complete database.
TEST_F(CreateByNameFaults, ALockThatFailsAnywhereNeverPublishesAnIncompleteDatabase) {
  for (const Creation& setup : kCreations) {
    for (bool persistent : {false, true}) {
      int faultsHit = 0;
      for (int at = 1; at < 200; ++at) {
        const std::string context = std::string(setup.label) + (persistent ? ", every lock from call " : ", lock call ") +
                                    std::to_string(at);
        TempDir dir;
        powerloss::Plan plan;
        plan.mode = powerloss::Plan::Mode::Fault;
        plan.kind = powerloss::CallKind::Lock;
        plan.at = at;
        plan.persistent = persistent;
        powerloss::FaultVfs::shared().arm(plan);
        bool opened = false;
        {
          Database db(kName, setup.script, in(dir.path()), configured(setup, true));
          opened = db.isOpen();
          if (!opened) {
            EXPECT_NE(db.lastError().code, 0) << context;
            EXPECT_FALSE(db.lastError().message.empty()) << context;
          }
        }
        const std::int64_t faults = powerloss::FaultVfs::shared().counts().faults;
        powerloss::FaultVfs::shared().disarm();
        if (faults == 0) break;  // past the creation's last lock call
        ++faultsHit;
        // A fault after the publish (in the open that follows it) may fail
        // the open with the complete database in place; a database opened
        // must be there.
        EXPECT_TRUE(!opened || fs::exists(dir / kName)) << context;
        if (fs::exists(dir / kName)) {
          Database published = Database::open(dir / kName);
          expectComplete(published, context + ", the published file");
        }
        Database next(kName, setup.script, in(dir.path()), configured(setup, false));
        expectComplete(next, context + ", the next open");
        if (::testing::Test::HasFailure()) return;
      }
      EXPECT_GT(faultsHit, 3) << setup.label << ": the fault never reached the creation";
    }
  }
}

// The journal mode a creation ends in is the one asked for: the configured
// one, or WAL when the script switched to it (the only mode a file keeps).
TEST_F(CreateByNameFaults, TheCreatedDatabaseKeepsTheJournalModeAskedFor) {
  TempDir dir;
  {
    Database db("configured.db", kCreate, in(dir.path()), configured(kCreations[0], false));
    expectComplete(db, "configured WAL");
    EXPECT_EQ(scalarText(db, "PRAGMA journal_mode"), "wal");
  }
  {
    Database db("switched.db", kCreateSwitchingToWal, in(dir.path()), Configuration());
    expectComplete(db, "a script that switches to WAL");
    EXPECT_EQ(scalarText(db, "PRAGMA journal_mode"), "wal");
  }
  {
    Database db("plain.db", kCreate, in(dir.path()), Configuration());
    expectComplete(db, "no journal mode");
    EXPECT_EQ(scalarText(db, "PRAGMA journal_mode"), "delete");
  }
  // The file a WAL creation published holds everything by itself.
  for (const char* name : {"configured.db", "switched.db"}) {
    EXPECT_FALSE(fs::exists(dir / (std::string(name) + "-wal")) && fs::file_size(dir / (std::string(name) + "-wal")) > 0)
        << name;
  }
}
