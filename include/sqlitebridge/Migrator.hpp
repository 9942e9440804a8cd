#pragma once

#include <functional>
#include <string>
#include <vector>

#include "Export.hpp"
#include "Error.hpp"

namespace sqlitebridge {

class Database;
namespace interop {
struct MigrationAccess;
}  // namespace interop

/// Migrations: named steps that bring a database's schema and data up to
/// date, each applied once, in the order registered.
///
/// The identifiers of applied migrations are recorded in the table
/// `sqlitebridge_migrations(identifier TEXT PRIMARY KEY NOT NULL)` (in the
/// order applied), and `PRAGMA user_version` is set to how many are applied,
/// so that `sqlite3` and other tools see the version. Each pending migration
/// runs in its own IMMEDIATE transaction with foreign-key enforcement paused
/// (so that a migration may rebuild a table others reference, with
/// `Database::updateTable` say); before it commits, `PRAGMA
/// foreign_key_check` must find nothing, its identifier is recorded and
/// `user_version` set, all in that transaction. A failure stops the run
/// there: earlier migrations stay committed, the failed one is rolled back
/// entirely, later ones do not run. Running again applies what is still
/// pending, so a second run is a no-op. The Swift `DatabaseMigrator` takes
/// the same steps.
///
/// Not for use by two threads at once; the `Database` rules apply.
class SQLITEBRIDGE_API Migrator {
 public:
  /// Adds a migration after those registered so far. `migrate(Database&)`
  /// returns true to commit, false to fail the migration (with the reason
  /// it left in `lastError()`). Identifiers are unique: registering one
  /// twice is a programming error that `migrate` reports (SQLITE_MISUSE)
  /// without running anything.
  void registerMigration(const std::string& identifier, std::function<bool(Database&)> migrate) noexcept;

  /// Runs every pending migration, in the order registered. False when one
  /// fails: `db.lastError()` then says "migration <identifier> failed:
  /// <reason>" with the reason's codes (SQLITE_CONSTRAINT_FOREIGNKEY, 787,
  /// when the migration leaves a foreign key broken; SQLITE_ABORT when its
  /// body returned false without an error), and the migrations before it
  /// stay applied. Fails before running anything with SQLITE_MISUSE when an
  /// identifier was registered twice, when the database is closed or inside
  /// an open transaction ("cannot migrate inside a transaction"); with
  /// SQLITE_ERROR ("the database was migrated by a newer version of the
  /// app: unknown migration <identifier>") when the database records a
  /// migration this migrator does not know; with SQLite's error when the
  /// migrations table cannot be read, or SQLITE_BUSY when another
  /// connection holds the write lock past the busy timeout. A C++ exception
  /// thrown by a migration rolls that migration back and propagates.
  bool migrate(Database& db);
  /// Runs the pending migrations registered up to and including `upTo`, as
  /// `migrate(db)` does (later ones stay pending). Fails with SQLITE_MISUSE
  /// ("no migration named <upTo> is registered") when `upTo` is unknown.
  bool migrate(Database& db, const std::string& upTo);
  /// Replaces `identifiers` with the migrations the database records as
  /// applied, in the order applied (including any this migrator does not
  /// know); empty when none was. Fails with SQLITE_MISUSE when closed, or
  /// with SQLite's error when the table cannot be read.
  bool appliedMigrations(Database& db, std::vector<std::string>& identifiers) noexcept;
  /// Sets `completed` to whether every registered migration is applied.
  /// Fails as `migrate` does before running anything (a duplicate
  /// identifier, an unknown applied migration), but not inside a
  /// transaction.
  bool hasCompletedMigrations(Database& db, bool& completed) noexcept;

 private:
  friend struct interop::MigrationAccess;

  struct Migration {
    std::string identifier;
    std::function<bool(Database&)> body;
  };

  bool run(Database& db, bool hasUpTo, const std::string& upTo);
  bool registeredIdentifiers(Database& db, std::vector<std::string>& identifiers) noexcept;

  // The steps of a run, the one owner of their rules (C++'s migrate above
  // and the Swift facade through interop take them):
  // 1. The migrations of `registered` (in order, up to and including `upTo`
  //    when `hasUpTo`) that the database has not applied; fails on a
  //    duplicate identifier, an unknown `upTo`, an applied migration not in
  //    `registered`, inside a transaction.
  static bool planMigrations(Database& db, const std::vector<std::string>& registered, bool hasUpTo,
                             const std::string& upTo, std::vector<std::string>& pending) noexcept;
  // 2. Pauses foreign-key enforcement (`foreignKeysWereOn` remembers it) and
  //    begins an IMMEDIATE transaction. When another connection applied
  //    `identifier` meanwhile, ends it again, sets `alreadyApplied`, and
  //    step 3 is skipped.
  static bool beginMigration(Database& db, const std::string& identifier, bool& foreignKeysWereOn,
                             bool& alreadyApplied) noexcept;
  // 3. When `succeeded`, checks foreign keys, records `identifier`, sets
  //    user_version and commits; otherwise (or when any of that fails) rolls
  //    back, leaving the error "migration <identifier> failed: <reason>"
  //    with `failure` (the body's error) as the reason. Restores foreign-key
  //    enforcement either way.
  static bool finishMigration(Database& db, const std::string& identifier, bool succeeded, const Error& failure,
                              bool foreignKeysWereOn) noexcept;
  // What the database records as applied, in order (none when the table is
  // missing).
  static bool readAppliedMigrations(Database& db, std::vector<std::string>& applied) noexcept;
  // Whether every migration of `registered` is applied; fails as step 1
  // does, except inside a transaction.
  static bool completedMigrations(Database& db, const std::vector<std::string>& registered, bool& completed) noexcept;

  std::vector<Migration> migrations_;
  bool outOfMemory_ = false;  // a registration that could not be stored
};

}  // namespace sqlitebridge
