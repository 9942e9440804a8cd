// Devices for the sync tests: each a DatabaseQueue on a file of its own,
// with the shared schema (Tests/Fixtures/sync/schema.sql) and a SyncEngine
// over its three synced tables; hubs that misbehave on purpose.
#pragma once

#include <gtest/gtest.h>

#include <sqlitebridge/DatabaseQueue.hpp>
#include <sqlitebridge/Sync.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../Changesets/ChangesetTestSupport.hpp"
#include "../FixtureSupport.hpp"

namespace sqlitebridge_test {

/// The synced tables of the shared schema.
inline const std::vector<std::string>& syncedTables() {
  static const std::vector<std::string> tables{"notes", "tags", "counters"};
  return tables;
}

/// One device: its database (made with the shared schema) and its engine.
struct SyncDevice {
  SyncDevice(const std::string& path, const std::string& name, std::shared_ptr<sqlitebridge::SyncHub> hub,
             sqlitebridge::SyncConflictPolicy policy = sqlitebridge::SyncConflictPolicy::hubOrderWins())
      : queue((prepare(path), path)), engine(queue, syncedTables(), name, std::move(hub), std::move(policy)) {}

  /// Makes the database with the shared schema when it is not there.
  static void prepare(const std::string& path) {
    if (fileExists(path)) return;
    sqlitebridge::Database db = sqlitebridge::Database::open(path);
    EXPECT_TRUE(db.executeScript(readFile(fixturePath("sync/schema.sql")))) << db.error();
  }

  /// Runs `sql` with `arguments` in a write transaction (a test failure when
  /// it fails).
  void write(const std::string& sql, const std::vector<sqlitebridge::Value>& arguments = {}) {
    sqlitebridge::Error error;
    EXPECT_TRUE(queue.write([&](sqlitebridge::Database& db) { return db.execute(sql, arguments); }, &error))
        << sql << ": " << error;
  }

  /// One sync that must succeed; its report.
  sqlitebridge::SyncReport sync() {
    sqlitebridge::SyncReport report;
    sqlitebridge::Error error;
    EXPECT_TRUE(engine.sync(report, &error)) << error;
    return report;
  }

  /// How many transactions wait to be pushed.
  std::int64_t pending() {
    std::int64_t count = -1;
    sqlitebridge::Error error;
    EXPECT_TRUE(engine.pendingCount(count, &error)) << error;
    return count;
  }

  /// Every row of the synced tables, in key order: "-- table", then one
  /// line per row, its values as text joined by "|".
  std::vector<std::string> rows() {
    return queue.read([](sqlitebridge::Database& db) {
      std::vector<std::string> lines;
      for (const std::string& table : syncedTables()) {
        lines.push_back("-- " + table);
        std::vector<sqlitebridge::Row> rows;
        EXPECT_TRUE(db.execute("SELECT * FROM " + table + " ORDER BY id", &rows)) << db.error();
        for (const sqlitebridge::Row& row : rows) {
          std::string line;
          for (std::size_t i = 0; i < row.size(); ++i) line += (i == 0 ? "" : "|") + row.value(i).asText();
          lines.push_back(line);
        }
      }
      return lines;
    });
  }

  sqlitebridge::DatabaseQueue queue;
  sqlitebridge::SyncEngine engine;
};

/// A hub that forwards to a real one, with a hook before each call (to move
/// the log meanwhile, or to fail).
class HookedHub final : public sqlitebridge::SyncHub {
 public:
  explicit HookedHub(std::shared_ptr<sqlitebridge::SyncHub> inner) : inner_(std::move(inner)) {}

  /// Called before each append; returning false fails the append with
  /// `failure` without forwarding it.
  std::function<bool()> beforeAppend;
  /// Called after an append was forwarded and succeeded; returning false
  /// reports `failure` although the entries are in the log (an answer lost).
  std::function<bool()> afterAppend;
  /// Called before each read of entries; returning false fails it.
  std::function<bool()> beforeEntries;
  sqlitebridge::Error failure{SQLITE_IOERR, SQLITE_IOERR, "the hub did not answer (test)", ""};
  int appends = 0;

  bool append(const std::vector<sqlitebridge::SyncEntry>& entries, std::int64_t after, bool& appended,
              sqlitebridge::Error* error) noexcept override {
    ++appends;
    if (beforeAppend && !beforeAppend()) return fail(error);
    if (!inner_->append(entries, after, appended, error)) return false;
    if (afterAppend && !afterAppend()) return fail(error);
    return true;
  }
  bool entries(std::int64_t after, std::size_t limit, std::vector<sqlitebridge::SyncEntry>& out,
               sqlitebridge::Error* error) noexcept override {
    if (beforeEntries && !beforeEntries()) return fail(error);
    return inner_->entries(after, limit, out, error);
  }

 private:
  bool fail(sqlitebridge::Error* error) {
    if (error != nullptr) *error = failure;
    return false;
  }
  std::shared_ptr<sqlitebridge::SyncHub> inner_;
};

}  // namespace sqlitebridge_test
