// For the Swift facade only; no stability promise. The schema concern as
// Swift drives it: the table helpers' SQL (which the core writes and Swift
// binds), the steps of scoped transactions and of migrations, and the lists
// the schema calls fill. Never included by <sqlitebridge/sqlitebridge.hpp>;
// Swift imports it with the explicit submodule SQLiteBridgeCore.Interop.
// Definitions: Sources/SQLiteBridgeCore/Schema/TableHelpers.cpp (the rest
// is inline).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../Export.hpp"
#include "../sqlitebridge.hpp"
#include "Values.hpp"

namespace sqlitebridge::interop {

/// The list `Database::columns` fills, named so that Swift can make one.
using ColumnInfoList = std::vector<ColumnInfo>;
/// The list `Database::indexes` fills.
using IndexInfoList = std::vector<IndexInfo>;
/// The list `Database::foreignKeys` fills.
using ForeignKeyInfoList = std::vector<ForeignKeyInfo>;
/// The list `Database::foreignKeyCheck` fills.
using ForeignKeyViolationList = std::vector<ForeignKeyViolation>;
/// A list of column definitions (`Database::createTable`), named so that
/// Swift can make one.
using ColumnDefinitionList = std::vector<ColumnDefinition>;

/// What `TableHelperAccess::selectSQL` selects: `columns` of `table` (all
/// when empty), rows matching `whereSQL` (all when empty), ordered by
/// `orderBy`, at most `limit` when `hasLimit`.
struct SelectParts {
  /// The columns to select, in order; empty selects `*`.
  StringList columns;
  /// The table (quoted by the core).
  std::string table;
  /// The WHERE condition as SQL, its arguments bound by the caller; empty
  /// for none.
  std::string whereSQL;
  /// The columns to order by, in order; empty for none.
  StringList orderBy;
  /// Whether a LIMIT is added (bound as the last argument).
  bool hasLimit = false;
  /// The limit, when `hasLimit`; negative is refused.
  std::int64_t limit = 0;
};

/// The table helpers' SQL, written by the core (`Database::insert`,
/// `update`, `remove`, `select` and `addColumn` run the same text), for the
/// Swift facade, which binds its own values: every identifier quoted, and
/// the same refusals (SQLITE_MISUSE for a name holding NUL, an update
/// without columns, an update or delete without a WHERE condition, a
/// negative limit, a column definition that is not valid). Each starts a
/// call (clearing `lastError()`) and returns false with the reason there.
struct SQLITEBRIDGE_API TableHelperAccess {
  /// `INSERT OR <onConflict> INTO "table" ("c", ...) VALUES (?, ...)`
  /// (`DEFAULT VALUES` for no columns); the values bind in column order.
  static bool insertSQL(Database& database, const std::string& table, const StringList& columns,
                        ConflictResolution onConflict, std::string& sql) noexcept;
  /// `UPDATE "table" SET "c" = ?, ... WHERE (whereSQL)`; the set values
  /// bind first, then the WHERE arguments.
  static bool updateSQL(Database& database, const std::string& table, const StringList& columns,
                        const std::string& whereSQL, std::string& sql) noexcept;
  /// `DELETE FROM "table" WHERE (whereSQL)`.
  static bool deleteSQL(Database& database, const std::string& table, const std::string& whereSQL,
                        std::string& sql) noexcept;
  /// `SELECT "table"."c" AS "c", ... | * FROM "table" [WHERE (whereSQL)]
  /// [ORDER BY "table"."c", ...] [LIMIT ?]` for `parts`; the WHERE
  /// arguments bind first, then the limit.
  static bool selectSQL(Database& database, const SelectParts& parts, std::string& sql) noexcept;
  /// `ALTER TABLE "table" ADD COLUMN <column>`.
  static bool addColumnSQL(Database& database, const ColumnDefinition& column, const std::string& table,
                           std::string& sql) noexcept;
  /// The rowid `Database::insert` reports after an insert ran: the new
  /// row's, or 0 when nothing was inserted (`ConflictResolution::Ignore`).
  static std::int64_t insertedRowID(const Database& database) noexcept;
  /// Sets `column.defaultValue` to an integer.
  static void setDefaultInteger(ColumnDefinition& column, std::int64_t integer) noexcept;
  /// Sets `column.defaultValue` to a real.
  static void setDefaultReal(ColumnDefinition& column, double real) noexcept;
  /// Sets `column.defaultValue` to text; false only when memory runs out.
  static bool setDefaultText(ColumnDefinition& column, const std::string& text) noexcept;
  /// Sets `column.defaultValue` to a blob of `size` bytes copied from
  /// `bytes`; false only when memory runs out.
  static bool setDefaultBlob(ColumnDefinition& column, const void* bytes, std::size_t size) noexcept;
  /// Sets `column.defaultValue` to NULL (DEFAULT NULL).
  static void setDefaultNull(ColumnDefinition& column) noexcept;
};

/// The two steps of a scoped transaction (the core is the one owner of their
/// sequencing, as `Database::inTransaction` uses them), for the Swift
/// facade's `inTransaction` and `inSavepoint`, which run a throwing body
/// between them.
struct TransactionAccess {
  /// Begins a transaction of `kind`, or a savepoint (named in
  /// `savepointName`) when one is open or `asSavepoint`. False with the
  /// reason in `lastError()`.
  static bool beginScope(Database& database, TransactionKind kind, bool asSavepoint,
                         std::string& savepointName) noexcept {
    return database.beginScope(kind, asSavepoint, savepointName);
  }
  /// Commits (releases) when `commit`, else rolls back. A failed commit
  /// rolls back and keeps its error; a rollback asked for leaves the error
  /// clear.
  static bool finishScope(Database& database, bool commit, const std::string& savepointName) noexcept {
    return database.finishScope(commit, savepointName);
  }
};

/// The steps of a migration run, which `Migrator::migrate` takes with C++
/// bodies, for the Swift facade's `DatabaseMigrator` to take with Swift
/// ones: plan, then for each pending migration begin, run the body, finish.
/// Every rule (the migrations table, user_version, the paused foreign keys
/// and their check, the wording of a failure) is the core's.
struct MigrationAccess {
  /// Sets `pending` to the migrations of `registered` (in order, up to and
  /// including `upTo` when `hasUpTo`) the database has not applied. Fails
  /// with SQLITE_MISUSE on a duplicate or empty identifier, an unknown
  /// `upTo`, inside a transaction or when closed; with SQLITE_ERROR when
  /// the database records a migration `registered` does not hold (a newer
  /// version of the app migrated it).
  static bool planMigrations(Database& database, const StringList& registered, bool hasUpTo, const std::string& upTo,
                             StringList& pending) noexcept {
    return Migrator::planMigrations(database, registered, hasUpTo, upTo, pending);
  }
  /// Pauses foreign-key enforcement (remembered in `foreignKeysWereOn` for
  /// `finishMigration`) and begins the IMMEDIATE transaction `identifier`
  /// runs in. Sets `alreadyApplied` (and begins nothing) when another
  /// connection applied it since the plan. False with the reason in
  /// `lastError()`, naming the migration.
  static bool beginMigration(Database& database, const std::string& identifier, bool& foreignKeysWereOn,
                             bool& alreadyApplied) noexcept {
    return Migrator::beginMigration(database, identifier, foreignKeysWereOn, alreadyApplied);
  }
  /// When `succeeded`, checks foreign keys, records `identifier`, sets
  /// user_version and commits; otherwise rolls back with `failure` (what
  /// the body failed with) as the reason. Restores foreign-key enforcement.
  /// False with "migration <identifier> failed: <reason>" in `lastError()`.
  static bool finishMigration(Database& database, const std::string& identifier, bool succeeded, const Error& failure,
                              bool foreignKeysWereOn) noexcept {
    return Migrator::finishMigration(database, identifier, succeeded, failure, foreignKeysWereOn);
  }
  /// Sets `identifiers` to the migrations the database records as applied,
  /// in the order applied.
  static bool appliedMigrations(Database& database, StringList& identifiers) noexcept {
    return Migrator::readAppliedMigrations(database, identifiers);
  }
  /// Sets `completed` to whether every migration of `registered` is
  /// applied; fails as `planMigrations` does, except inside a transaction.
  static bool hasCompletedMigrations(Database& database, const StringList& registered, bool& completed) noexcept {
    return Migrator::completedMigrations(database, registered, completed);
  }
};

}  // namespace sqlitebridge::interop
