// Migrations: the steps of a run (plan, begin one, finish one), which the
// C++ Migrator and the Swift facade's DatabaseMigrator both take, and the
// Migrator that drives them with C++ bodies.
#include "sqlitebridge/Migrator.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "Connection.hpp"
#include "Query.hpp"
#include "SchemaPragmas.hpp"
#include "Script.hpp"
#include "SqlText.hpp"
#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

namespace {

const char* const kTable = "sqlitebridge_migrations";

// main."sqlitebridge_migrations" (a temporary table of the same name never
// stands in for it).
std::string migrationsTable() { return "main." + quoteIdentifier(kTable); }

bool outOfMemory(Connection& connection) { return connection.fail(SQLITE_NOMEM, "out of memory", std::string()); }

bool refuseInsideTransaction(Connection& connection) {
  return connection.fail(SQLITE_MISUSE, "cannot migrate inside a transaction: commit or roll it back first",
                         std::string());
}

// Every identifier is non-empty and registered once.
bool checkRegistered(Connection& connection, const std::vector<std::string>& registered) {
  std::set<std::string> seen;
  for (const std::string& identifier : registered) {
    if (identifier.empty()) {
      return connection.fail(SQLITE_MISUSE, "a migration needs a non-empty identifier", std::string());
    }
    if (!seen.insert(identifier).second) {
      return connection.fail(SQLITE_MISUSE, "migration " + identifier + " registered twice", std::string());
    }
  }
  return true;
}

// The identifiers the database records, in the order applied (none when the
// table is missing: nothing was ever applied).
bool readApplied(Connection& connection, std::vector<std::string>& applied) {
  applied.clear();
  bool exists = false;
  if (!query(connection, "SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ?1 COLLATE NOCASE", {kTable},
             [&](sqlite3_stmt*) { exists = true; })) {
    return false;
  }
  if (!exists) return true;
  return query(connection, "SELECT identifier FROM " + migrationsTable() + " ORDER BY rowid", {},
               [&](sqlite3_stmt* stmt) { applied.push_back(columnText(stmt, 0)); });
}

// The migrations of `registered` (up to and including `upTo` when `hasUpTo`)
// not applied yet, in registration order. Fails on a duplicate identifier,
// an unknown `upTo`, or an applied migration `registered` does not hold.
bool pendingMigrations(Connection& connection, const std::vector<std::string>& registered, bool hasUpTo,
                       const std::string& upTo, std::vector<std::string>& pending) {
  pending.clear();
  if (!checkRegistered(connection, registered)) return false;
  std::size_t end = registered.size();
  if (hasUpTo) {
    const auto target = std::find(registered.begin(), registered.end(), upTo);
    if (target == registered.end()) {
      return connection.fail(SQLITE_MISUSE, "no migration named " + upTo + " is registered", std::string());
    }
    end = static_cast<std::size_t>(target - registered.begin()) + 1;
  }
  std::vector<std::string> applied;
  if (!readApplied(connection, applied)) return false;
  const std::set<std::string> known(registered.begin(), registered.end());
  for (const std::string& identifier : applied) {
    if (known.count(identifier) == 0) {
      return connection.fail(SQLITE_ERROR,
                             "the database was migrated by a newer version of the app: unknown migration " + identifier,
                             std::string());
    }
  }
  const std::set<std::string> done(applied.begin(), applied.end());
  for (std::size_t i = 0; i < end; ++i) {
    if (done.count(registered[i]) == 0) pending.push_back(registered[i]);
  }
  return true;
}

// Fails naming the first row `PRAGMA foreign_key_check` reports.
bool foreignKeysHold(Connection& connection) {
  std::string violation;
  if (!firstForeignKeyViolation(connection, std::string(), violation)) return false;
  if (violation.empty()) return true;
  return connection.fail(SQLITE_CONSTRAINT_FOREIGNKEY, "it would break a foreign key: " + violation, std::string());
}

// Records `identifier` and sets user_version to how many are applied.
bool record(Connection& connection, const std::string& identifier) {
  if (!query(connection, "INSERT INTO " + migrationsTable() + "(identifier) VALUES (?1)", {identifier},
             [](sqlite3_stmt*) {})) {
    return false;
  }
  std::int64_t count = 0;
  if (!query(connection, "SELECT count(*) FROM " + migrationsTable(), {},
             [&](sqlite3_stmt* stmt) { count = sqlite3_column_int64(stmt, 0); })) {
    return false;
  }
  if (count > INT32_MAX) {
    return connection.fail(SQLITE_RANGE, "user_version cannot count " + std::to_string(count) + " migrations",
                           std::string());
  }
  return runScript(connection, "PRAGMA main.user_version = " + std::to_string(count));
}

// Housekeeping whose failure must not replace the error being reported.
void quietly(Connection& connection, const char* sql) { sqlite3_exec(connection.db, sql, nullptr, nullptr, nullptr); }

void restoreForeignKeys(Connection& connection, bool foreignKeysWereOn) {
  if (foreignKeysWereOn) quietly(connection, "PRAGMA foreign_keys = ON");
}

// Prefixes the recorded error with the migration it stopped.
// Memory ran out midway through a step: roll the migration's transaction
// back (when open), restore foreign keys, report SQLITE_NOMEM.
bool abandonOutOfMemory(Connection& connection, bool foreignKeysWereOn) {
  if (sqlite3_get_autocommit(connection.db) == 0) quietly(connection, "ROLLBACK");
  restoreForeignKeys(connection, foreignKeysWereOn);
  return outOfMemory(connection);
}

bool failMigration(Connection& connection, const std::string& identifier, Error reason) {
  connection.error = std::move(reason);
  try {
    connection.error.message = "migration " + identifier + " failed: " + connection.error.message;
  } catch (...) {
  }
  return false;
}

}  // namespace

// MARK: The steps

bool Migrator::planMigrations(Database& db, const std::vector<std::string>& registered, bool hasUpTo,
                              const std::string& upTo, std::vector<std::string>& pending) noexcept {
  pending.clear();
  if (!db.beginCall()) return false;
  Connection& connection = *db.connection_;
  if (db.isInTransaction()) return refuseInsideTransaction(connection);
  try {
    return pendingMigrations(connection, registered, hasUpTo, upTo, pending);
  } catch (...) {
    pending.clear();
    return outOfMemory(connection);
  }
}

bool Migrator::beginMigration(Database& db, const std::string& identifier, bool& foreignKeysWereOn,
                              bool& alreadyApplied) noexcept {
  foreignKeysWereOn = false;
  alreadyApplied = false;
  if (!db.beginCall()) return false;
  Connection& connection = *db.connection_;
  if (db.isInTransaction()) return refuseInsideTransaction(connection);
  try {
    int foreignKeys = 0;
    if (!query(connection, "PRAGMA foreign_keys", {},
               [&](sqlite3_stmt* stmt) { foreignKeys = sqlite3_column_int(stmt, 0); })) {
      return failMigration(connection, identifier, connection.error);
    }
    // Enforcement can only be paused outside a transaction.
    foreignKeysWereOn = foreignKeys != 0;
    if (foreignKeysWereOn && !runScript(connection, "PRAGMA foreign_keys = OFF")) {
      return failMigration(connection, identifier, connection.error);
    }
    // The migrations table is made in the first migration's transaction, so
    // that it appears with that migration or not at all. Another connection
    // may have applied this migration since the plan: then it is skipped.
    bool found = false;
    const bool begun = runScript(connection, "BEGIN IMMEDIATE");
    if (!begun ||
        !runScript(connection,
                   "CREATE TABLE IF NOT EXISTS " + migrationsTable() + "(identifier TEXT PRIMARY KEY NOT NULL)") ||
        !query(connection, "SELECT 1 FROM " + migrationsTable() + " WHERE identifier = ?1", {identifier},
               [&](sqlite3_stmt*) { found = true; })) {
      const Error reason = connection.error;
      if (begun) quietly(connection, "ROLLBACK");
      restoreForeignKeys(connection, foreignKeysWereOn);
      return failMigration(connection, identifier, reason);
    }
    if (found) {
      quietly(connection, "ROLLBACK");
      restoreForeignKeys(connection, foreignKeysWereOn);
      alreadyApplied = true;
    }
    connection.clearError();
    return true;
  } catch (...) {
    return abandonOutOfMemory(connection, foreignKeysWereOn);
  }
}

bool Migrator::finishMigration(Database& db, const std::string& identifier, bool succeeded, const Error& failure,
                               bool foreignKeysWereOn) noexcept {
  if (!db.beginCall()) return false;
  Connection& connection = *db.connection_;
  try {
    Error reason;
    bool ok = false;
    if (!succeeded) {
      reason = failure;
      if (!reason.isError()) {
        reason.code = reason.extendedCode = SQLITE_ABORT;
        reason.message = "it returned false without an error";
      }
    } else if (!db.isInTransaction()) {
      // COMMIT or ROLLBACK in the body: what it did may be committed, but it
      // is not recorded as applied.
      reason.code = reason.extendedCode = SQLITE_MISUSE;
      reason.message =
          "it ended the migration's transaction itself; a migration must not commit or roll back (it runs in a "
          "transaction of its own)";
    } else {
      ok = foreignKeysHold(connection) && record(connection, identifier) && prepareToCommit(db, connection) &&
           runScript(connection, "COMMIT");
      if (!ok) reason = connection.error;
    }
    // A failed COMMIT leaves the transaction open.
    if (!ok && db.isInTransaction()) quietly(connection, "ROLLBACK");
    restoreForeignKeys(connection, foreignKeysWereOn);
    if (!ok) return failMigration(connection, identifier, std::move(reason));
    connection.clearError();
    return true;
  } catch (...) {
    return abandonOutOfMemory(connection, foreignKeysWereOn);
  }
}

bool Migrator::readAppliedMigrations(Database& db, std::vector<std::string>& applied) noexcept {
  applied.clear();
  if (!db.beginCall()) return false;
  try {
    return readApplied(*db.connection_, applied);
  } catch (...) {
    applied.clear();
    return outOfMemory(*db.connection_);
  }
}

bool Migrator::completedMigrations(Database& db, const std::vector<std::string>& registered, bool& completed) noexcept {
  completed = false;
  if (!db.beginCall()) return false;
  try {
    std::vector<std::string> pending;
    if (!pendingMigrations(*db.connection_, registered, false, std::string(), pending)) return false;
    completed = pending.empty();
    return true;
  } catch (...) {
    return outOfMemory(*db.connection_);
  }
}

// MARK: Migrator

void Migrator::registerMigration(const std::string& identifier, std::function<bool(Database&)> migrate) noexcept {
  try {
    migrations_.push_back(Migration{identifier, std::move(migrate)});
  } catch (...) {
    outOfMemory_ = true;
  }
}

bool Migrator::registeredIdentifiers(Database& db, std::vector<std::string>& identifiers) noexcept {
  identifiers.clear();
  if (!db.beginCall()) return false;
  try {
    if (outOfMemory_) return outOfMemory(*db.connection_);
    for (const Migration& migration : migrations_) identifiers.push_back(migration.identifier);
    return true;
  } catch (...) {
    return outOfMemory(*db.connection_);
  }
}

bool Migrator::migrate(Database& db) { return run(db, false, std::string()); }

bool Migrator::migrate(Database& db, const std::string& upTo) { return run(db, true, upTo); }

bool Migrator::run(Database& db, bool hasUpTo, const std::string& upTo) {
  std::vector<std::string> registered;
  std::vector<std::string> pending;
  if (!registeredIdentifiers(db, registered) || !planMigrations(db, registered, hasUpTo, upTo, pending)) return false;
  for (const std::string& identifier : pending) {
    // Identifiers are unique (the plan checked).
    const auto migration = std::find_if(migrations_.begin(), migrations_.end(),
                                        [&](const Migration& candidate) { return candidate.identifier == identifier; });
    bool foreignKeysWereOn = false;
    bool alreadyApplied = false;
    if (!beginMigration(db, identifier, foreignKeysWereOn, alreadyApplied)) return false;
    if (alreadyApplied) continue;
    Error failure;
    bool succeeded = false;
    if (!migration->body) {
      failure.code = failure.extendedCode = SQLITE_MISUSE;
      failure.message = "it was registered without a body";
    } else {
      try {
        succeeded = migration->body(db);
      } catch (...) {
        Error thrown;
        thrown.code = thrown.extendedCode = SQLITE_ABORT;
        thrown.message = "it threw a C++ exception";
        finishMigration(db, identifier, false, thrown, foreignKeysWereOn);
        throw;
      }
      if (!succeeded) failure = db.lastError();
    }
    if (!finishMigration(db, identifier, succeeded, failure, foreignKeysWereOn)) return false;
  }
  return true;
}

bool Migrator::appliedMigrations(Database& db, std::vector<std::string>& identifiers) noexcept {
  return readAppliedMigrations(db, identifiers);
}

bool Migrator::hasCompletedMigrations(Database& db, bool& completed) noexcept {
  completed = false;
  std::vector<std::string> registered;
  return registeredIdentifiers(db, registered) && completedMigrations(db, registered, completed);
}

}  // namespace sqlitebridge
