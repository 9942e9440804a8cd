// The sync engine's rules, each forced deterministically: recording in the
// committing transaction, convergence of two devices, the conditional push
// (a log that moved, an answer lost), conflicts under both policies,
// delete against update, integer keys that collide, foreign keys kept,
// schema mismatches and tables without a key refused, one commit per round.
#include <gtest/gtest.h>

#include <sqlitebridge/DatabaseSyncHub.hpp>
#include <sqlitebridge/Sync.hpp>
#include <sqlitebridge/TransactionObserver.hpp>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "SyncTestSupport.hpp"

using namespace sqlitebridge;
using namespace sqlitebridge_test;

namespace {

class SyncEngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!sessionExtensionAvailable()) GTEST_SKIP() << "this SQLite has no session extension";
    hub = std::make_shared<DatabaseSyncHub>(dir / "hub.sqlite");
    ASSERT_FALSE(hub->error().isError()) << hub->error();
  }
  std::unique_ptr<SyncDevice> device(const std::string& name,
                                     SyncConflictPolicy policy = SyncConflictPolicy::hubOrderWins()) {
    auto made = std::make_unique<SyncDevice>(dir / (name + ".sqlite"), name, hub, std::move(policy));
    EXPECT_FALSE(made->engine.error().isError()) << made->engine.error();
    return made;
  }
  /// Both devices start from note n1 ('first', 'body'), then edit
  /// offline: `phoneEdits` on the phone, `laptopEdits` on the laptop; the
  /// phone syncs first, then the laptop (its edits later in the log):
  /// returns the laptop's report. A laptop sync that fails is a test
  /// failure unless `laptopMayFail`.
  SyncReport editBothThenSync(SyncDevice& phone, SyncDevice& laptop, const std::vector<std::string>& phoneEdits,
                              const std::vector<std::string>& laptopEdits, bool laptopMayFail = false) {
    phone.write("INSERT INTO notes(id, title, body) VALUES ('n1', 'first', 'body')");
    phone.sync();
    laptop.sync();
    for (const std::string& sql : phoneEdits) phone.write(sql);
    for (const std::string& sql : laptopEdits) laptop.write(sql);
    phone.sync();
    if (laptopMayFail) return SyncReport();
    return laptop.sync();
  }
  /// After `editBothThenSync`: the phone syncs again, and both copies must
  /// be equal; the phone's rows.
  std::vector<std::string> converged(SyncDevice& phone, SyncDevice& laptop) {
    phone.sync();
    EXPECT_EQ(phone.rows(), laptop.rows());
    return phone.rows();
  }
  std::vector<SyncEntry> log() {
    std::vector<SyncEntry> entries;
    Error error;
    EXPECT_TRUE(hub->entries(0, 100000, entries, &error)) << error;
    return entries;
  }

  /// Makes `name`'s database (the shared schema) and runs `statements` on
  /// it before any engine records.
  void prefill(const std::string& name, const std::vector<std::string>& statements) {
    const std::string path = dir / (name + ".sqlite");
    SyncDevice::prepare(path);
    Database db = Database::open(path);
    for (const std::string& sql : statements) EXPECT_TRUE(db.execute(sql)) << sql << ": " << db.error();
  }
  /// How many schemas the writer of `device` has attached (1: main only).
  static std::int64_t writerSchemas(SyncDevice& device) {
    Row row;
    EXPECT_TRUE(
        device.queue.write([&](Database& db) { return db.execute("SELECT count(*) FROM pragma_database_list", row); }));
    return row.size() == 0 ? -1 : row.value(0).asInteger();
  }

  TempDir dir;
  std::shared_ptr<DatabaseSyncHub> hub;
};

std::vector<ChangesetConflictKind> kinds(const SyncReport& report) {
  std::vector<ChangesetConflictKind> out;
  for (const ChangesetConflict& conflict : report.conflicts) out.push_back(conflict.kind);
  return out;
}

TEST_F(SyncEngineTest, EachCommittedTransactionOfSyncedTablesIsOnePendingChange) {
  auto phone = device("phone");
  phone->write("INSERT INTO notes(id, title) VALUES ('n1', 'one')");
  phone->write("UPDATE notes SET title = 'uno' WHERE id = 'n1'");
  phone->write("INSERT INTO local_settings(key, value) VALUES ('theme', 'dark')");  // not synced
  EXPECT_EQ(phone->pending(), 2);
  const std::vector<std::string> sequences = phone->queue.read(
      [](Database& db) { return dump(db, "SELECT sequence FROM sqlitebridge_sync_pending ORDER BY sequence"); });
  EXPECT_EQ(sequences, (std::vector<std::string>{"sequence=int:1", "sequence=int:2"}));
}

TEST_F(SyncEngineTest, AChangeCommittedWithoutTheLibraryIsRefusedNotLost) {
  auto phone = device("phone");
  const Error error = phone->queue.writeWithoutTransaction([](Database& db) {
    db.execute("INSERT INTO notes(id, title) VALUES ('n1', 'one')");
    return db.lastError();
  });
  EXPECT_EQ(error.code, SQLITE_MISUSE) << error;
  EXPECT_TRUE(contains(error.message, "committed without the library")) << error;
  EXPECT_EQ(phone->pending(), 0);
  EXPECT_EQ(phone->rows(), (std::vector<std::string>{"-- notes", "-- tags", "-- counters"}));
}

TEST_F(SyncEngineTest, TwoDevicesConvergeThroughTheHub) {
  auto phone = device("phone");
  auto laptop = device("laptop");
  phone->write("INSERT INTO notes(id, title) VALUES ('p1', 'from phone')");
  laptop->write("INSERT INTO notes(id, title) VALUES ('l1', 'from laptop')");
  laptop->write("INSERT INTO tags(id, note_id, name) VALUES ('t1', 'l1', 'work')");

  SyncReport first = phone->sync();
  EXPECT_EQ(first.pushed, 1);
  EXPECT_EQ(first.pulled, 0);
  EXPECT_EQ(first.rounds, 1);
  SyncReport second = laptop->sync();
  EXPECT_EQ(second.pulled, 1);
  EXPECT_EQ(second.pushed, 2);
  EXPECT_TRUE(second.conflicts.empty());
  SyncReport third = phone->sync();
  EXPECT_EQ(third.pulled, 2);
  EXPECT_EQ(third.pushed, 0);

  EXPECT_EQ(phone->rows(), laptop->rows());
  EXPECT_EQ(phone->rows(), (std::vector<std::string>{"-- notes", "l1|from laptop|", "p1|from phone|", "-- tags",
                                                     "t1|l1|work", "-- counters"}));
  EXPECT_EQ(phone->pending(), 0);
  EXPECT_EQ(laptop->pending(), 0);
  const std::vector<SyncEntry> entries = log();
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].device, "phone");
  EXPECT_EQ(entries[0].sequence, 1);
  EXPECT_EQ(entries[1].device, "laptop");
  EXPECT_EQ(entries[1].sequence, 1);
  EXPECT_EQ(entries[2].sequence, 2);
}

TEST_F(SyncEngineTest, APushRefusedBecauseTheLogMovedPullsAgainAndRebases) {
  auto phone = device("phone");
  auto laptop = device("laptop");
  auto hooked = std::make_shared<HookedHub>(hub);
  SyncDevice tablet(dir / "tablet.sqlite", "tablet", hooked);
  ASSERT_FALSE(tablet.engine.error().isError()) << tablet.engine.error();
  tablet.write("INSERT INTO notes(id, title) VALUES ('n1', 'tablet')");
  phone->write("INSERT INTO notes(id, title) VALUES ('n2', 'phone')");
  // Between the tablet's pull and its push, the phone pushes: the tablet's
  // conditional append must be refused, and it pulls again.
  bool moved = false;
  hooked->beforeAppend = [&] {
    if (!moved) {
      moved = true;
      phone->sync();
    }
    return true;
  };
  SyncReport report = tablet.sync();
  EXPECT_EQ(report.rounds, 2);
  EXPECT_EQ(report.pulled, 1);
  EXPECT_EQ(report.pushed, 1);
  EXPECT_EQ(hooked->appends, 2);
  laptop->sync();
  phone->sync();
  EXPECT_EQ(tablet.rows(), phone->rows());
  EXPECT_EQ(laptop->rows(), phone->rows());
  EXPECT_EQ(log().size(), 2u);
}

TEST_F(SyncEngineTest, AnAppendWhoseAnswerWasLostIsNotAppendedTwice) {
  auto hooked = std::make_shared<HookedHub>(hub);
  SyncDevice phone(dir / "phone.sqlite", "phone", hooked);
  phone.write("INSERT INTO notes(id, title) VALUES ('n1', 'one')");
  hooked->afterAppend = [] { return false; };  // appended, but the answer is lost
  SyncReport report;
  Error error;
  EXPECT_FALSE(phone.engine.sync(report, &error));
  EXPECT_EQ(error.code, SQLITE_IOERR);
  EXPECT_EQ(phone.pending(), 1);  // in doubt: kept
  hooked->afterAppend = nullptr;
  SyncReport retry = phone.sync();
  EXPECT_EQ(retry.pushed, 0);  // found in the log, acknowledged
  EXPECT_EQ(retry.pulled, 0);
  EXPECT_EQ(phone.pending(), 0);
  const std::vector<SyncEntry> entries = log();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].device, "phone");
  EXPECT_EQ(entries[0].sequence, 1);
  // A later change is numbered on.
  phone.write("INSERT INTO notes(id, title) VALUES ('n2', 'two')");
  phone.sync();
  ASSERT_EQ(log().size(), 2u);
  EXPECT_EQ(log()[1].sequence, 2);
}

TEST_F(SyncEngineTest, AHubThatFailsKeepsThePendingChangesForTheNextSync) {
  auto hooked = std::make_shared<HookedHub>(hub);
  SyncDevice phone(dir / "phone.sqlite", "phone", hooked);
  phone.write("INSERT INTO notes(id, title) VALUES ('n1', 'one')");
  hooked->beforeEntries = [] { return false; };
  SyncReport report;
  Error error;
  EXPECT_FALSE(phone.engine.sync(report, &error));
  EXPECT_EQ(error.message, "the hub did not answer (test)");
  EXPECT_EQ(phone.pending(), 1);
  hooked->beforeEntries = nullptr;
  EXPECT_EQ(phone.sync().pushed, 1);
}

TEST_F(SyncEngineTest, TheSameRowEditedOnTwoDevicesEndsAsTheLaterInTheHubsOrder) {
  auto phone = device("phone");
  auto laptop = device("laptop");
  SyncReport report =
      editBothThenSync(*phone, *laptop, {"UPDATE notes SET title = 'phone title' WHERE id = 'n1'"},
                       {"UPDATE notes SET title = 'laptop title', body = 'laptop body' WHERE id = 'n1'"});
  EXPECT_EQ(kinds(report), (std::vector<ChangesetConflictKind>{ChangesetConflictKind::Data}));
  ASSERT_TRUE(report.conflicts[0].operation.has_value());
  EXPECT_EQ(report.conflicts[0].operation->table, "notes");
  EXPECT_EQ(converged(*phone, *laptop)[1], "n1|laptop title|laptop body");
}

TEST_F(SyncEngineTest, EditsOfDifferentColumnsOfOneRowBothSurvive) {
  auto phone = device("phone");
  auto laptop = device("laptop");
  SyncReport report = editBothThenSync(*phone, *laptop, {"UPDATE notes SET title = 'phone title' WHERE id = 'n1'"},
                                       {"UPDATE notes SET body = 'laptop body' WHERE id = 'n1'"});
  EXPECT_TRUE(report.conflicts.empty());
  EXPECT_EQ(converged(*phone, *laptop)[1], "n1|phone title|laptop body");
}

TEST_F(SyncEngineTest, ACustomPolicyDecidesAndIsToldTheChangeIsLocal) {
  auto phone = device("phone");
  std::vector<bool> told;
  auto laptop = device("laptop", SyncConflictPolicy::custom([&](const ChangesetConflict& conflict, bool isLocal) {
                         told.push_back(isLocal);
                         // The hub's version wins over this device's edits.
                         return conflict.kind == ChangesetConflictKind::Data ? ChangesetConflictResolution::Omit
                                                                             : ChangesetConflictResolution::Abort;
                       }));
  SyncReport report = editBothThenSync(*phone, *laptop, {"UPDATE notes SET title = 'phone title' WHERE id = 'n1'"},
                                       {"UPDATE notes SET title = 'laptop title' WHERE id = 'n1'"});
  EXPECT_EQ(told, (std::vector<bool>{true}));
  EXPECT_EQ(kinds(report), (std::vector<ChangesetConflictKind>{ChangesetConflictKind::Data}));
  EXPECT_EQ(converged(*phone, *laptop)[1], "n1|phone title|body");
  EXPECT_EQ(log().size(), 3u);  // the overruled transaction is in the log, empty
  EXPECT_TRUE(log()[2].changeset.isEmpty());
}

TEST_F(SyncEngineTest, ACustomPolicyLeavesWhatItDoesNotDecideToTheHubOrderRule) {
  using Kind = ChangesetConflictKind;
  using Resolution = ChangesetConflictResolution;
  ChangesetConflict conflict;
  const std::vector<std::pair<Kind, Resolution>> rule = {{Kind::Data, Resolution::Replace},
                                                         {Kind::Conflict, Resolution::Replace},
                                                         {Kind::NotFound, Resolution::Omit},
                                                         {Kind::Constraint, Resolution::Omit},
                                                         {Kind::ForeignKey, Resolution::Omit}};
  for (const auto& [kind, answer] : rule) {
    conflict.kind = kind;
    EXPECT_EQ(SyncConflictPolicy::hubOrderWinsResolution(conflict, true), answer) << static_cast<int>(kind);
    EXPECT_EQ(SyncConflictPolicy::hubOrderWinsResolution(conflict, false), answer) << static_cast<int>(kind);
  }
  // Keeps the hub's version of an edited row; a key inserted on both
  // devices goes by the default (this device's insert, later in the log).
  auto phone = device("phone");
  auto laptop = device("laptop", SyncConflictPolicy::custom([](const ChangesetConflict& conflict, bool isLocal) {
                         return conflict.kind == Kind::Data
                                    ? Resolution::Omit
                                    : SyncConflictPolicy::hubOrderWinsResolution(conflict, isLocal);
                       }));
  SyncReport report = editBothThenSync(
      *phone, *laptop,
      {"UPDATE notes SET title = 'phone title' WHERE id = 'n1'", "INSERT INTO notes VALUES ('n9', 'phone n9', '')"},
      {"UPDATE notes SET title = 'laptop title' WHERE id = 'n1'", "INSERT INTO notes VALUES ('n9', 'laptop n9', '')"});
  EXPECT_EQ(kinds(report), (std::vector<Kind>{Kind::Data, Kind::Conflict}));
  const std::vector<std::string> rows = converged(*phone, *laptop);
  EXPECT_EQ(rows[1], "n1|phone title|body");
  EXPECT_EQ(rows[2], "n9|laptop n9|");
}

TEST_F(SyncEngineTest, ACustomPolicyThatAbortsLeavesTheCopyAsItWas) {
  auto phone = device("phone");
  auto laptop = device("laptop", SyncConflictPolicy::custom([](const ChangesetConflict&, bool) {
                         return ChangesetConflictResolution::Abort;
                       }));
  editBothThenSync(*phone, *laptop, {"UPDATE notes SET title = 'phone title' WHERE id = 'n1'"},
                   {"UPDATE notes SET title = 'laptop title' WHERE id = 'n1'"}, true);
  const std::vector<std::string> before = laptop->rows();
  SyncReport report;
  Error error;
  EXPECT_FALSE(laptop->engine.sync(report, &error));
  EXPECT_EQ(error.code, SQLITE_ABORT) << error;
  EXPECT_EQ(laptop->rows(), before);
  EXPECT_EQ(laptop->pending(), 1);
}

TEST_F(SyncEngineTest, AnUpdateOfARowDeletedEarlierInTheLogIsDropped) {
  auto phone = device("phone");
  auto laptop = device("laptop");
  SyncReport report = editBothThenSync(*phone, *laptop, {"DELETE FROM notes WHERE id = 'n1'"},
                                       {"UPDATE notes SET title = 'edited' WHERE id = 'n1'"});
  EXPECT_EQ(kinds(report), (std::vector<ChangesetConflictKind>{ChangesetConflictKind::NotFound}));
  EXPECT_EQ(converged(*phone, *laptop), (std::vector<std::string>{"-- notes", "-- tags", "-- counters"}));
}

TEST_F(SyncEngineTest, ADeleteLaterInTheLogThanAnUpdateStaysDeleted) {
  auto phone = device("phone");
  auto laptop = device("laptop");
  SyncReport report = editBothThenSync(*phone, *laptop, {"UPDATE notes SET title = 'edited' WHERE id = 'n1'"},
                                       {"DELETE FROM notes WHERE id = 'n1'"});
  EXPECT_EQ(kinds(report), (std::vector<ChangesetConflictKind>{ChangesetConflictKind::Data}));
  EXPECT_EQ(converged(*phone, *laptop), (std::vector<std::string>{"-- notes", "-- tags", "-- counters"}));
}

TEST_F(SyncEngineTest, IntegerKeysThatCollideAreAConflictInTheReportNeverACrash) {
  auto phone = device("phone");
  auto laptop = device("laptop");
  phone->write("INSERT INTO counters(label, value) VALUES ('phone steps', 10)");
  laptop->write("INSERT INTO counters(label, value) VALUES ('laptop steps', 20)");
  phone->sync();
  SyncReport report = laptop->sync();
  EXPECT_EQ(kinds(report), (std::vector<ChangesetConflictKind>{ChangesetConflictKind::Conflict}));
  ASSERT_TRUE(report.conflicts[0].conflictingValues.has_value());
  EXPECT_EQ((*report.conflicts[0].conflictingValues)[1].asText(), "phone steps");
  phone->sync();
  EXPECT_EQ(phone->rows(), laptop->rows());
  EXPECT_EQ(phone->rows()[3], "1|laptop steps|20");
}

TEST_F(SyncEngineTest, AChildAddedUnderAParentDeletedEarlierInTheLogIsDroppedAndReported) {
  auto phone = device("phone");
  auto laptop = device("laptop");
  SyncReport report = editBothThenSync(*phone, *laptop, {"DELETE FROM notes WHERE id = 'n1'"},
                                       {"INSERT INTO notes(id, title) VALUES ('n2', 'kept')",
                                        "INSERT INTO tags(id, note_id, name) VALUES ('t1', 'n1', 'orphan')"});
  ASSERT_EQ(kinds(report), (std::vector<ChangesetConflictKind>{ChangesetConflictKind::ForeignKey}));
  ASSERT_TRUE(report.conflicts[0].operation.has_value());
  EXPECT_EQ(report.conflicts[0].operation->table, "tags");
  EXPECT_EQ(report.conflicts[0].operation->kind, ChangeKind::Insert);
  EXPECT_EQ(converged(*phone, *laptop), (std::vector<std::string>{"-- notes", "n2|kept|", "-- tags", "-- counters"}));
  const std::vector<std::string> broken =
      laptop->queue.read([](Database& db) { return dump(db, "PRAGMA foreign_key_check"); });
  EXPECT_TRUE(broken.empty());
}

TEST_F(SyncEngineTest, AnEntryWithMoreColumnsThanATableHereFailsNamingTheTableAndColumn) {
  auto laptop = device("laptop");
  laptop->write("INSERT INTO notes(id, title) VALUES ('n1', 'old shape')");
  laptop->sync();
  // The phone migrated: notes has one more column.
  const std::string phonePath = dir / "phone.sqlite";
  SyncDevice::prepare(phonePath);
  {
    Database db = Database::open(phonePath);
    ASSERT_TRUE(db.execute("ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0")) << db.error();
  }
  SyncDevice phone(phonePath, "phone", hub);
  phone.write("INSERT INTO notes(id, title, pinned) VALUES ('n2', 'pinned', 1)");
  // The migrated device reads entries made before its migration.
  SyncReport migrated = phone.sync();
  EXPECT_EQ(migrated.pulled, 1);
  EXPECT_EQ(migrated.pushed, 1);
  EXPECT_EQ(phone.rows()[1], "n1|old shape||0");
  // The device that did not migrate cannot read the new entry.
  const std::vector<std::string> before = laptop->rows();
  SyncReport report;
  Error error;
  EXPECT_FALSE(laptop->engine.sync(report, &error));
  EXPECT_EQ(error.code, SQLITE_SCHEMA) << error;
  EXPECT_TRUE(contains(error.message, "table notes")) << error;
  EXPECT_TRUE(contains(error.message, "a column after body is missing here")) << error;
  EXPECT_EQ(laptop->rows(), before);
}

TEST_F(SyncEngineTest, ATableWithoutAPrimaryKeyIsRefusedNamingIt) {
  const std::string path = dir / "device.sqlite";
  SyncDevice::prepare(path);
  {
    Database db = Database::open(path);
    ASSERT_TRUE(db.execute("CREATE TABLE events(at TEXT, what TEXT)")) << db.error();
  }
  DatabaseQueue queue(path);
  SyncEngine engine(queue, {"notes", "events"}, "phone", hub);
  EXPECT_EQ(engine.error().code, SQLITE_ERROR);
  EXPECT_TRUE(contains(engine.error().message, "table events has no PRIMARY KEY")) << engine.error();
  SyncEngine missing(queue, {"nope"}, "phone", hub);
  EXPECT_TRUE(contains(missing.error().message, "no such table: nope")) << missing.error();
  SyncReport report;
  Error error;
  EXPECT_FALSE(engine.sync(report, &error));
  EXPECT_EQ(error.code, SQLITE_ERROR);
}

TEST_F(SyncEngineTest, ADatabaseSyncsAsOneDeviceOnly) {
  const std::string path = dir / "device.sqlite";
  {
    SyncDevice phone(path, "phone", hub);
  }
  DatabaseQueue queue(path);
  SyncEngine other(queue, syncedTables(), "laptop", hub);
  EXPECT_EQ(other.error().code, SQLITE_MISUSE);
  EXPECT_TRUE(contains(other.error().message, "syncs as device 'phone'")) << other.error();
}

/// Counts the commits that changed the notes table.
class CommitCounter : public TransactionObserver {
 public:
  bool observes(ChangeKind, const std::string& table, const std::vector<std::string>&) override {
    return table == "notes";
  }
  void databaseDidCommit(Database&) override { ++commits; }
  std::atomic<int> commits{0};
};

TEST_F(SyncEngineTest, ObserversSeeOneCommitPerRound) {
  auto phone = device("phone");
  auto laptop = device("laptop");
  for (int i = 0; i < 3; ++i) phone->write("INSERT INTO notes(id, title) VALUES ('p" + std::to_string(i) + "', 'x')");
  laptop->write("INSERT INTO notes(id, title) VALUES ('l1', 'y')");
  laptop->write("INSERT INTO notes(id, title) VALUES ('l2', 'z')");
  phone->sync();
  auto counter = std::make_shared<CommitCounter>();
  laptop->queue.writeWithoutTransaction([&](Database& db) {
    db.add(counter, ObserverExtent::DatabaseLifetime);
    return true;
  });
  SyncReport report = laptop->sync();
  EXPECT_EQ(report.pulled, 3);
  EXPECT_EQ(report.pushed, 2);
  laptop->queue.read([](Database&) { return 0; });  // a safe point: observers told
  laptop->queue.writeWithoutTransaction([](Database&) { return true; });
  EXPECT_EQ(counter->commits.load(), 1);
}

TEST_F(SyncEngineTest, AnEngineOnAPoolSyncsToo) {
  auto phone = device("phone");
  const std::string path = dir / "pool.sqlite";
  SyncDevice::prepare(path);
  DatabasePool pool(path);
  SyncEngine engine(pool, syncedTables(), "desktop", hub);
  ASSERT_FALSE(engine.error().isError()) << engine.error();
  Error error;
  ASSERT_TRUE(
      pool.write([](Database& db) { return db.execute("INSERT INTO notes(id, title) VALUES ('d1', 'x')"); }, &error))
      << error;
  SyncReport report;
  ASSERT_TRUE(engine.sync(report, &error)) << error;
  EXPECT_EQ(report.pushed, 1);
  EXPECT_EQ(phone->sync().pulled, 1);
  EXPECT_EQ(phone->rows()[1], "d1|x|");
}

}  // namespace

/// A hub that answers every read with more entries than asked for.
class OverflowingHub final : public SyncHub {
 public:
  bool append(const std::vector<SyncEntry>&, std::int64_t, bool& appended, Error*) noexcept override {
    appended = false;
    return true;
  }
  bool entries(std::int64_t after, std::size_t limit, std::vector<SyncEntry>& out, Error*) noexcept override {
    out.clear();
    for (std::size_t i = 0; i <= limit; ++i) {
      SyncEntry entry;
      entry.position = after + 1 + static_cast<std::int64_t>(i);
      entry.device = "other";
      entry.sequence = entry.position;
      out.push_back(std::move(entry));
    }
    return true;
  }
};

TEST_F(SyncEngineTest, AHubAnsweringMoreEntriesThanAskedForFailsTheSync) {
  SyncDevice phone(dir / "phone.sqlite", "phone", std::make_shared<OverflowingHub>());
  ASSERT_FALSE(phone.engine.error().isError()) << phone.engine.error();
  phone.write("INSERT INTO notes(id, title) VALUES ('n1', 'one')");
  const std::vector<std::string> before = phone.rows();
  SyncReport report;
  Error error;
  EXPECT_FALSE(phone.engine.sync(report, &error));
  EXPECT_EQ(error.code, SQLITE_ERROR) << error;
  EXPECT_TRUE(contains(error.message, "501 entries where at most 500")) << error;
  EXPECT_EQ(phone.rows(), before);
  EXPECT_EQ(phone.pending(), 1);
}

TEST_F(SyncEngineTest, ACommitRefusedByADeferredKeyAndRetriedIsOnePendingChange) {
  const std::string path = dir / "deferred.sqlite";
  {
    Database db = Database::open(path);
    ASSERT_TRUE(
        db.executeScript("CREATE TABLE parents(id TEXT PRIMARY KEY);"
                         "CREATE TABLE children(id TEXT PRIMARY KEY, parent TEXT REFERENCES parents(id) "
                         "DEFERRABLE INITIALLY DEFERRED);"))
        << db.lastError();
  }
  DatabaseQueue queue(path);
  SyncEngine engine(queue, {"parents", "children"}, "phone", hub);
  ASSERT_FALSE(engine.error().isError()) << engine.error();
  // The first COMMIT fails on the deferred key and leaves the transaction
  // open; the pending change it wrote is replaced by the second's.
  const bool committed = queue.writeWithoutTransaction([](Database& db) {
    Transaction transaction(db);
    EXPECT_TRUE(db.execute("INSERT INTO children(id, parent) VALUES ('c1', 'p1')")) << db.lastError();
    EXPECT_FALSE(transaction.commit());
    EXPECT_EQ(db.lastError().code, SQLITE_CONSTRAINT) << db.lastError();
    EXPECT_TRUE(transaction.isActive());
    EXPECT_TRUE(db.execute("INSERT INTO parents(id) VALUES ('p1')")) << db.lastError();
    return transaction.commit();
  });
  EXPECT_TRUE(committed);
  std::int64_t pending = 0;
  ASSERT_TRUE(engine.pendingCount(pending));
  EXPECT_EQ(pending, 1);
  SyncReport report;
  Error error;
  ASSERT_TRUE(engine.sync(report, &error)) << error;
  const std::vector<SyncEntry> entries = log();
  ASSERT_EQ(entries.size(), 1u);
  std::vector<ChangesetOperation> operations;
  ASSERT_TRUE(entries[0].changeset.operations(operations));
  EXPECT_EQ(operations.size(), 2u);  // the child and its parent, in one entry
}

TEST_F(SyncEngineTest, AnUndoHistoryOfEveryTableLeavesTheSyncEnginesOwnTablesAlone) {
  auto phone = device("phone");
  auto laptop = device("laptop");
  UndoHistory history(phone->queue, std::nullopt, 10);
  ASSERT_FALSE(history.error().isError()) << history.error();
  phone->write("INSERT INTO notes(id, title) VALUES ('n1', 'one')");
  Error error;
  ASSERT_TRUE(history.undo(&error)) << error;
  // The insert and its undo: two transactions, both pending, both in the
  // log; the sync engine's own bookkeeping was not undone with the note.
  EXPECT_EQ(phone->pending(), 2);
  EXPECT_EQ(phone->sync().pushed, 2);
  ASSERT_EQ(log().size(), 2u);
  EXPECT_EQ(log()[0].sequence, 1);
  EXPECT_EQ(log()[1].sequence, 2);
  EXPECT_EQ(laptop->sync().pulled, 2);
  EXPECT_EQ(laptop->rows(), phone->rows());
  EXPECT_EQ(laptop->rows(), (std::vector<std::string>{"-- notes", "-- tags", "-- counters"}));
}

TEST_F(SyncEngineTest, ATagDeletedBeforeItsNoteInOneTransactionIsNoConflictWhereItApplies) {
  auto phone = device("phone");
  auto laptop = device("laptop");
  phone->write("INSERT INTO notes(id, title) VALUES ('n1', 'first')");
  phone->write("INSERT INTO tags(id, note_id, name) VALUES ('t1', 'n1', 'work')");
  phone->sync();
  laptop->sync();
  // SQLite applies the changeset table by table: the note's delete (and its
  // cascade) comes before the tag's own delete, which then finds no row.
  ASSERT_TRUE(phone->queue.write([](Database& db) {
    return db.execute("DELETE FROM tags WHERE id = 't1'") && db.execute("DELETE FROM notes WHERE id = 'n1'");
  }));
  phone->sync();
  SyncReport report = laptop->sync();
  EXPECT_EQ(report.pulled, 1);
  EXPECT_TRUE(report.conflicts.empty());
  EXPECT_EQ(laptop->rows(), phone->rows());
  EXPECT_EQ(laptop->rows(), (std::vector<std::string>{"-- notes", "-- tags", "-- counters"}));
}

TEST_F(SyncEngineTest, ARowDeletedOnBothDevicesIsNoConflict) {
  auto phone = device("phone");
  auto laptop = device("laptop");
  SyncReport report =
      editBothThenSync(*phone, *laptop, {"DELETE FROM notes WHERE id = 'n1'"}, {"DELETE FROM notes WHERE id = 'n1'"});
  EXPECT_TRUE(report.conflicts.empty());
  EXPECT_EQ(converged(*phone, *laptop), (std::vector<std::string>{"-- notes", "-- tags", "-- counters"}));
}

TEST_F(SyncEngineTest, RowsThereBeforeTheEngineArePushedOnlyOnceRecorded) {
  prefill("phone", {"INSERT INTO notes(id, title, body) VALUES ('n1', 'first', 'b1'), ('n2', 'second', '')",
                    "INSERT INTO tags(id, note_id, name) VALUES ('t1', 'n1', 'work')",
                    "INSERT INTO counters(id, label, value) VALUES (7, 'seven', 7)",
                    "INSERT INTO local_settings(key, value) VALUES ('theme', 'dark')"});
  auto phone = device("phone");
  EXPECT_EQ(phone->sync().pushed, 0);  // what was there before is not a change
  std::int64_t rows = -1;
  Error error;
  ASSERT_TRUE(phone->engine.recordExistingRows(rows, &error)) << error;
  EXPECT_EQ(rows, 4);  // the synced tables' rows; local_settings is not synced
  EXPECT_EQ(phone->pending(), 1);
  EXPECT_EQ(writerSchemas(*phone), 1);  // the empty copies are gone
  EXPECT_EQ(phone->sync().pushed, 1);
  auto laptop = device("laptop");
  SyncReport report = laptop->sync();
  EXPECT_EQ(report.pulled, 1);
  EXPECT_TRUE(report.conflicts.empty());
  EXPECT_EQ(laptop->rows(), phone->rows());
  EXPECT_EQ(laptop->rows(), (std::vector<std::string>{"-- notes", "n1|first|b1", "n2|second|", "-- tags", "t1|n1|work",
                                                      "-- counters", "7|seven|7"}));
}

TEST_F(SyncEngineTest, EmptySyncedTablesRecordNothing) {
  prefill("phone", {"INSERT INTO local_settings(key, value) VALUES ('theme', 'dark')"});
  auto phone = device("phone");
  std::int64_t rows = -1;
  Error error;
  ASSERT_TRUE(phone->engine.recordExistingRows(rows, &error)) << error;
  EXPECT_EQ(rows, 0);
  EXPECT_EQ(phone->pending(), 0);
  EXPECT_EQ(writerSchemas(*phone), 1);
}

TEST_F(SyncEngineTest, RecordingExistingRowsFromInsideAWriterBlockIsAMisuseAndRecordsNothing) {
  prefill("phone", {"INSERT INTO notes(id, title) VALUES ('n1', 'first')"});
  auto phone = device("phone");
  std::int64_t rows = -1;
  Error error;
  phone->queue.write([&](Database&) { return phone->engine.recordExistingRows(rows, &error); });
  EXPECT_EQ(error.code, SQLITE_MISUSE) << error;
  EXPECT_EQ(rows, 0);
  EXPECT_EQ(phone->pending(), 0);
}

TEST_F(SyncEngineTest, ACopyHoldingTheSameKeysMeetsTheRecordedRowsAsConflictsThePolicySettles) {
  prefill("phone", {"INSERT INTO notes(id, title) VALUES ('n1', 'phone copy')"});
  prefill("laptop", {"INSERT INTO notes(id, title) VALUES ('n1', 'laptop copy')"});
  auto phone = device("phone");
  auto laptop = device("laptop");
  std::int64_t rows = -1;
  ASSERT_TRUE(phone->engine.recordExistingRows(rows));
  phone->sync();
  SyncReport report = laptop->sync();
  EXPECT_EQ(kinds(report), (std::vector<ChangesetConflictKind>{ChangesetConflictKind::Conflict}));
  EXPECT_EQ(laptop->rows(), phone->rows());
  EXPECT_EQ(laptop->rows()[1], "n1|phone copy|");
}
