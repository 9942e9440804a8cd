// For the Swift facade only; no stability promise. What exists only so that
// Swift can drive the core fast: named binding step by step from Swift
// strings, lending a cached statement into a statement variable Swift keeps,
// the steps of scoped transactions and of migrations, a backup with a C
// progress callback, the bundle lookups of the Swift DatabaseLocation, and
// list types Swift can make. Never included by
// <sqlitebridge/sqlitebridge.hpp>; Swift imports it as the explicit
// submodule SQLiteBridgeCore.Interop. C++ callers use Statement::bind and
// Database::execute instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../Export.hpp"
#include "../sqlitebridge.hpp"

namespace sqlitebridge {
struct AsyncJob;
class Connection;
}  // namespace sqlitebridge

namespace sqlitebridge::interop {

/// A list of strings (column names), named so that Swift can make one.
using StringList = std::vector<std::string>;
/// The lists the schema calls fill (`Database::columns`, `indexes`,
/// `foreignKeys`, `foreignKeyCheck`), named so that Swift can make them.
using ColumnInfoList = std::vector<ColumnInfo>;
using IndexInfoList = std::vector<IndexInfo>;
using ForeignKeyInfoList = std::vector<ForeignKeyInfo>;
using ForeignKeyViolationList = std::vector<ForeignKeyViolation>;

/// The parameters one named argument fills: up to three, when the same name
/// appears with different prefixes (`:id`, `@id`, `$id`). Indexes are 1-based.
struct ParameterMatch {
  /// How many parameters matched (0 means none: an error was recorded).
  int count = 0;
  int first = 0;
  int second = 0;
  int third = 0;

  /// The `i`-th matching parameter index, for `i` below `count`.
  int index(int i) const noexcept { return i == 0 ? first : i == 1 ? second : third; }
};

/// Named binding driven by the caller, as `Statement::bind(const
/// NamedValues&)` does it in three steps: begin, then match each argument's
/// name and bind the indexes it returns, then end.
struct StatementAccess {
  /// Starts named binding; fails with SQLITE_RANGE when a parameter is
  /// positional (`?` or `?NNN`).
  SQLITEBRIDGE_INLINE static bool beginNamedArguments(Statement& statement) noexcept {
    return statement.beginNamedArguments();
  }
  /// The parameters the argument called `key` (`size` bytes of UTF-8, with
  /// or without its `:`/`@`/`$` prefix) fills. A key that matches no
  /// parameter, or one already filled, fails with SQLITE_RANGE (count 0).
  SQLITEBRIDGE_INLINE static ParameterMatch matchNamedArgument(Statement& statement, const void* key,
                                                               std::size_t size) noexcept {
    return statement.matchNamedArgument(key, size);
  }
  /// Finishes named binding; fails with SQLITE_RANGE naming the first
  /// parameter no argument filled.
  SQLITEBRIDGE_INLINE static bool endNamedArguments(Statement& statement) noexcept {
    return statement.endNamedArguments();
  }
};

/// Lending from the statement cache into a statement variable the caller
/// keeps (each move of a C++ statement costs Swift a call).
struct DatabaseAccess {
  /// `Database::cachedStatement` for `size` bytes of UTF-8 SQL, for a caller
  /// that binds every parameter before stepping (checking the count with
  /// `expectArgumentCount`, or naming them all between
  /// `beginNamedArguments` and `endNamedArguments`): the values an earlier
  /// use bound are not cleared first. Replaces what `statement` held; false
  /// on failure, with the reason in the database's `lastError()`.
  SQLITEBRIDGE_INLINE static bool lendForArguments(Database& database, const void* utf8, std::size_t size,
                                                   Statement& statement) noexcept {
    return database.cachedStatementForArguments(utf8, size, statement);
  }
  /// The first step of a scoped transaction (the one owner of their
  /// sequencing, as `Database::inTransaction` uses it): begins a transaction
  /// of `kind`, or a savepoint (named in `savepointName`) when one is open
  /// or `asSavepoint`. False with the reason in `lastError()`.
  static bool beginScope(Database& database, TransactionKind kind, bool asSavepoint,
                         std::string& savepointName) noexcept {
    return database.beginScope(kind, asSavepoint, savepointName);
  }
  /// The last step: commits (releases) when `commit`, else rolls back. A
  /// failed commit rolls back and keeps its error; a rollback asked for
  /// leaves the error clear.
  static bool finishScope(Database& database, bool commit, const std::string& savepointName) noexcept {
    return database.finishScope(commit, savepointName);
  }
  /// The same, returning the lent statement (invalid on failure).
  static Statement cachedStatementForArguments(Database& database, const void* utf8, std::size_t size) noexcept {
    return database.cachedStatementForArguments(utf8, size);
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

/// `Database::backup` with a C callback, so that a Swift closure reaches the
/// core's backup loop through a context pointer.
struct BackupAccess {
  /// Called after each step with the pages left and the pages in all;
  /// returning false stops the copy (it fails with SQLITE_ABORT).
  using Progress = bool (*)(void* context, int remaining, int total);
  /// `source.backup(destination, pagesPerStep, …)` calling `progress(context,
  /// remaining, total)` (when not null) after each step; same failures.
  static bool backup(Database& source, Database& destination, int pagesPerStep, Progress progress,
                     void* context) noexcept {
    return source.backupInto(destination, pagesPerStep, progress, context);
  }
};

/// The arguments a custom function receives, named so that Swift can read
/// them.
using ValueList = std::vector<Value>;

/// Custom functions, aggregates and collations with C callbacks, so that a
/// Swift closure reaches SQLite through the core: each takes a `context`
/// pointer the core passes back to every call and a `release` the core
/// calls exactly once when it is done with `context` (when SQLite destroys
/// the function: replaced, removed or at close; and at once when
/// registering fails). Every rule (value conversions, how a failure fails
/// the query, the name checks) is `Database::createFunction`'s and
/// `createCollation`'s.
struct SQLITEBRIDGE_API FunctionAccess {
  /// Called for each call of the function with its `arguments`; sets
  /// `*result` (NULL when left alone) and returns true, or sets `*error`
  /// and returns false to fail the query with SQLITE_ERROR and that message.
  using Call = bool (*)(void* context, const ValueList* arguments, Value* result, std::string* error);
  /// Gives up `context`: the core's last use of it.
  using Release = void (*)(void* context);
  /// Makes one group's aggregate object (a context of its own, given to
  /// `Step` and `Finalize` and then to `ReleaseAggregate`); null fails the
  /// query.
  using MakeAggregate = void* (*)(void* context);
  /// One row of a group; false with `*error` set fails the query.
  using Step = bool (*)(void* aggregate, const ValueList* arguments, std::string* error);
  /// The group's result into `*result`; false with `*error` set fails the
  /// query.
  using Finalize = bool (*)(void* aggregate, Value* result, std::string* error);
  /// Compares two UTF-8 texts (`aSize` and `bSize` bytes): negative, 0 or
  /// positive.
  using Compare = int (*)(void* context, const void* a, std::size_t aSize, const void* b, std::size_t bSize);

  /// `Database::createFunction` calling `call(context, …)`; `release(context)`
  /// is called once, when SQLite destroys the function or at once when this
  /// fails (same failures).
  static bool createFunction(Database& database, const std::string& name, int argumentCount, bool deterministic,
                             Call call, Release release, void* context) noexcept;
  /// `Database::createAggregate`: `makeAggregate(context)` per group, then
  /// `step(aggregate, …)` per row and `finalize(aggregate, …)`, then
  /// `releaseAggregate(aggregate)` (always, also when the query fails or is
  /// abandoned); `release(context)` as for `createFunction`.
  static bool createAggregate(Database& database, const std::string& name, int argumentCount, bool deterministic,
                              MakeAggregate makeAggregate, Step step, Finalize finalize, Release releaseAggregate,
                              Release release, void* context) noexcept;
  /// `Database::createCollation` calling `compare(context, …)`; `release`
  /// as for `createFunction`.
  static bool createCollation(Database& database, const std::string& name, Compare compare, Release release,
                              void* context) noexcept;

  // The helpers below take pointers, as the callbacks do, so that Swift
  // reaches the core's own objects (never a copy).

  /// How many arguments `arguments` holds.
  static std::size_t count(const ValueList* arguments) noexcept { return arguments->size(); }
  /// Argument `index` (below `count`), read in place: its bytes live as
  /// long as the call.
  static ColumnView argument(const ValueList* arguments, std::size_t index) noexcept {
    return (*arguments)[index].view();
  }
  /// Sets `*result` to NULL, an integer or a real.
  static void setNull(Value* result) noexcept { *result = Value(); }
  static void setInteger(Value* result, std::int64_t integer) noexcept { *result = Value(integer); }
  static void setReal(Value* result, double real) noexcept { *result = Value(real); }
  /// Sets `*result` to text or a blob of `size` bytes copied from `bytes`
  /// (NUL bytes kept; a zero-length blob stays a blob); false only when
  /// memory runs out.
  static bool setText(Value* result, const void* bytes, std::size_t size) noexcept;
  static bool setBlob(Value* result, const void* bytes, std::size_t size) noexcept;
  /// Sets `*error` to `size` bytes of UTF-8 at `bytes`; false only when
  /// memory runs out.
  static bool setError(std::string* error, const void* bytes, std::size_t size) noexcept;

 private:
  /// Records SQLITE_NOMEM on `database`; returns false.
  static bool outOfMemory(Database& database) noexcept;
};

/// A list of column definitions, named so that Swift can make one.
using ColumnDefinitionList = std::vector<ColumnDefinition>;

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
  /// [ORDER BY "table"."c", ...] [LIMIT ?]`; the WHERE arguments bind
  /// first, then the limit.
  static bool selectSQL(Database& database, const StringList& columns, const std::string& table,
                        const std::string& whereSQL, const StringList& orderBy, bool hasLimit, std::int64_t limit,
                        std::string& sql) noexcept;
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

/// Records for the Swift facade: the core writes every record statement and
/// runs every record rule (`Database::planRecord`, `runRecord`); Swift binds
/// the values through a C callback.
struct RecordAccess {
  /// `Database::planRecord`.
  static bool plan(Database& database, RecordOperation operation, const std::string& table, const StringList& columns,
                   const StringList& primaryKey, ConflictResolution onConflict, RecordPlan& plan) noexcept {
    return database.planRecord(operation, table, columns, primaryKey, onConflict, plan);
  }
  /// `Database::runRecord`, its outputs by reference.
  static bool run(Database& database, const RecordPlan& plan, RecordBinder bind, void* context, std::int64_t& rowID,
                  bool& changed) noexcept {
    return database.runRecord(plan, bind, context, &rowID, &changed);
  }
};

/// What `Database::interrupt` reaches, held apart from the `Database` so that
/// another thread can interrupt without touching the Swift `Database`'s
/// stored C++ value (which its owner thread uses meanwhile). It does not
/// keep the connection open: once the connection closed, `interrupt` does
/// nothing.
struct SQLITEBRIDGE_API InterruptHandle {
  std::weak_ptr<Connection> connection;

  /// Interrupts the statement running on the connection, if it is open.
  void interrupt() const noexcept;
  /// The handle of `database`'s connection.
  static InterruptHandle of(const Database& database) noexcept {
    InterruptHandle handle;
    handle.connection = database.connection_;
    return handle;
  }
};

/// A job for a queue's or pool's own threads (its state is the core's);
/// copies share it.
struct AsyncJobHandle {
  std::shared_ptr<AsyncJob> job;
};

/// The leases of `DatabaseQueue` and `DatabasePool`, which their C++
/// templates take with C++ blocks, for the Swift facade to take with Swift
/// ones: acquire (which connection, the locks, the transaction, retries and
/// reentrancy are the core's), run the block, finish, release. And the
/// pool's threads, which run async blocks so that no caller's thread waits.
struct SQLITEBRIDGE_API ConcurrencyAccess {
  /// A block's callback: `lease` is null when the job was cancelled before
  /// it started (nothing touched the database); its `database` is null when
  /// acquiring failed (the reason in `lease->error`). Otherwise the block
  /// runs and calls `finish`; the core releases the lease afterwards.
  using Run = void (*)(void* context, ConnectionLease* lease);
  /// Called once after `run` and after the lease went back: the job's last
  /// use of `context` (resume the caller here, then `context` may be freed).
  using Complete = void (*)(void* context);

  static bool acquireQueue(const DatabaseQueue& queue, LeaseKind kind, ConnectionLease& lease) noexcept {
    return detail::acquireLease(queue.pool_.get(), kind, lease);
  }
  static bool acquirePool(const DatabasePool& pool, LeaseKind kind, ConnectionLease& lease) noexcept {
    return detail::acquireLease(pool.pool_.get(), kind, lease);
  }
  /// Ends the lease's transaction: commits when `commit` (a statement that
  /// failed inside the block does not prevent it: Swift reports failures by
  /// throwing, and a block that caught one meant to go on), else rolls back.
  /// False, with the reason in `lease.error`, when the commit failed.
  static bool finish(ConnectionLease& lease, bool commit) noexcept { return detail::finishLease(lease, commit, false); }
  /// Gives the connection back; once, after `finish` (or instead of it, to
  /// roll back).
  static void release(ConnectionLease& lease) noexcept { detail::releaseLease(lease); }
  /// Whether the lease holds a connection (acquiring succeeded).
  static bool holdsConnection(const ConnectionLease& lease) noexcept { return lease.database != nullptr; }
  /// A `Database` sharing the lease's connection, for the Swift `Database`
  /// a block is given (which closes it when the block returns, so that a
  /// copy that escaped the block fails with SQLITE_MISUSE).
  static Database share(const ConnectionLease& lease) noexcept {
    return lease.database != nullptr ? Database(lease.database->connection_) : detail::unusableDatabase(lease.error);
  }
  /// A job of `kind` that calls `run(context, lease)` once, then
  /// `complete(context)` once. An invalid handle (see `isValid`) when out of
  /// memory.
  static AsyncJobHandle makeJob(LeaseKind kind, Run run, Complete complete, void* context) noexcept;
  static bool isValid(const AsyncJobHandle& job) noexcept { return job.job != nullptr; }
  /// Queues `job` for the queue's (pool's) threads; false when it could not
  /// be queued (out of memory, or the queue is being destroyed): `run` is
  /// then never called.
  static bool submitToQueue(const DatabaseQueue& queue, const AsyncJobHandle& job) noexcept;
  static bool submitToPool(const DatabasePool& pool, const AsyncJobHandle& job) noexcept;
  /// Cancels `job`: one not started never starts (`run` gets a null lease),
  /// a running statement fails with SQLITE_INTERRUPT, and so does every
  /// later statement of the block.
  static void cancel(const AsyncJobHandle& job) noexcept;
  static bool isCancelled(const AsyncJobHandle& job) noexcept;

  /// For tests: the next `count` transaction begins of the queue (pool)
  /// answer `code` first, as SQLite can under contention; they are retried.
  /// `DatabaseQueue::interrupt` and `DatabasePool::interrupt`, for a queue
  /// (pool) Swift holds as a constant.
  static void interruptQueue(const DatabaseQueue& queue) noexcept;
  static void interruptPool(const DatabasePool& pool) noexcept;
  /// `DatabasePool::checkpoint`, likewise.
  static bool checkpoint(const DatabasePool& pool, CheckpointMode mode, Error& error) noexcept;

  static void injectTransientFailures(const DatabaseQueue& queue, int count, int code) noexcept;
  static void injectTransientFailures(const DatabasePool& pool, int count, int code) noexcept;
  /// How many blocks wait for a connection of the queue (pool) now (for
  /// tests that must know a job waits before they cancel it).
  static int waitingCount(const DatabaseQueue& queue) noexcept;
  static int waitingCount(const DatabasePool& pool) noexcept;
  /// Transient answers the queue (pool) absorbed by retrying.
  static std::int64_t transientRetryCount(const DatabaseQueue& queue) noexcept;
  static std::int64_t transientRetryCount(const DatabasePool& pool) noexcept;
  /// How many checks for other connections' commits the observations of
  /// the queue (pool) finished (`Configuration::externalChangeCheckMilliseconds`;
  /// 0 before the first observation), for tests that must know a check ran.
  static std::uint64_t externalCheckCount(const DatabaseQueue& queue) noexcept;
  static std::uint64_t externalCheckCount(const DatabasePool& pool) noexcept;
};

/// `Database::trace`, `onCommit`, `onRollback` and `onChange` with C
/// callbacks, so that a Swift closure reaches SQLite through the core: each
/// takes a function the core calls with `context`, and `release`, which the
/// core calls once with `context` when the callback is replaced or removed
/// or the connection closes (SQLite has forgotten the callback by then, so
/// it is never called after). A null function removes the hook (and
/// releases `context`, when `release` is not null). On a closed database
/// nothing is installed, `context` is released at once and SQLITE_MISUSE is
/// recorded in `lastError()`. The rules of the `Database` methods apply:
/// called on the statement's thread, while it runs; the callback must not
/// use the connection.
struct SQLITEBRIDGE_API HookAccess {
  /// Frees a context; the core calls it once per installed callback.
  using Release = void (*)(void* context);
  /// A trace event: `kind` 0 for a statement starting, 1 for one finished
  /// (`TraceEvent::Kind`); `sql` the statement's SQL as written;
  /// `expandedSQL` null unless asked for (`TraceOptions::ExpandedSQL`) and
  /// made; `nanoseconds` how long a finished statement ran, -1 for a start.
  /// The strings are the core's for the call only.
  using Trace = void (*)(void* context, int kind, const char* sql, const char* expandedSQL, std::int64_t nanoseconds);
  /// A commit or a rollback.
  using TransactionEnd = void (*)(void* context);
  /// A changed row: `kind` 0 insert, 1 update, 2 delete (`ChangeKind`).
  using Change = void (*)(void* context, int kind, const char* table, std::int64_t rowID);

  /// `Database::trace`: `options` are `TraceOptions` bits.
  static void trace(Database& database, unsigned options, Trace function, void* context, Release release) noexcept;
  /// `Database::onCommit`.
  static void onCommit(Database& database, TransactionEnd function, void* context, Release release) noexcept;
  /// `Database::onRollback`.
  static void onRollback(Database& database, TransactionEnd function, void* context, Release release) noexcept;
  /// `Database::onChange`.
  static void onChange(Database& database, Change function, void* context, Release release) noexcept;
  /// `Database::sqliteVersion`; false (empty) only when memory runs out.
  static bool sqliteVersion(std::string& version) noexcept;
  /// `Database::compileOptions`; false (empty) only when memory runs out.
  static bool compileOptions(StringList& options) noexcept;
  /// `Database::handle` (Swift does not import a member function returning
  /// a pointer): null when closed; the `Database` still owns it.
  static sqlite3* handle(const Database& database) noexcept { return database.handle(); }
};

/// SQL identifiers as the core compares and quotes them.
struct SQLITEBRIDGE_API Identifiers {
  /// Whether two identifiers (`aSize` and `bSize` bytes of UTF-8) are the
  /// same to SQLite: equal but for ASCII case.
  static bool same(const void* a, std::size_t aSize, const void* b, std::size_t bSize) noexcept;
  /// Sets `quoted` to `name` as a double-quoted SQL identifier (`"a""b"` for
  /// `a"b`), so that any name stays a name. False when `name` holds NUL
  /// (SQLite's text would end there), with `problem` saying so, or when
  /// memory runs out (`problem` empty).
  static bool quote(const std::string& name, std::string& quoted, std::string& problem) noexcept;
};

/// The wording of a failed typed read, which the core owns (`RowView::get`
/// and `Row::get` say the same), for the Swift facade's own typed reads.
struct SQLITEBRIDGE_API Conversions {
  /// Sets `message` to `column "v" holds <value>[ <note>], which does not
  /// convert to <typeName>`, the value shown as the core shows it (reals as
  /// SQLite prints them, text cut after 40 bytes on a character boundary,
  /// text that is not valid UTF-8 by its size). False, with `message`
  /// empty, only when memory runs out.
  static bool failureMessage(const std::string& column, const ColumnView& value, const std::string& typeName,
                             const std::string& note, std::string& message) noexcept;
  /// How the same message shows `value` alone (`integer 42`, `real 2.5`,
  /// ...), for messages of the facade's own (such as text that is not
  /// JSON); false, with `shown` empty, only when memory runs out.
  static bool describeValue(const ColumnView& value, std::string& shown) noexcept;
  /// `no column named "x" in the row`; false only when memory runs out.
  static bool missingColumnMessage(const std::string& name, std::string& message) noexcept;
  /// `column index 7 is out of range: the row has 2 column(s)`; false only
  /// when memory runs out.
  static bool columnIndexOutOfRangeMessage(long long index, long long count, std::string& message) noexcept;
  /// Whether `size` bytes at `bytes` are well-formed UTF-8 (what the core
  /// shows as text, and not as "text that is not valid UTF-8").
  static bool isValidUTF8(const void* bytes, std::size_t size) noexcept;
};

/// Sets the open options of a `Configuration` that are `std::optional`,
/// which Swift can read but not assign a value to. A name that cannot be
/// copied (out of memory) ends the process, as running out of memory does in
/// Swift.
struct ConfigurationAccess {
  static void setJournalMode(Configuration& configuration, JournalMode mode) noexcept {
    configuration.journalMode = mode;
  }
  static void setSynchronous(Configuration& configuration, Synchronous level) noexcept {
    configuration.synchronous = level;
  }
  static void setSharedCacheName(Configuration& configuration, const std::string& name) noexcept {
    configuration.sharedCacheName = name;
  }
  /// The key's bytes are copied whole (a NUL is part of the key).
  static void setKey(Configuration& configuration, const std::string& key) noexcept { configuration.key = key; }
  static void setVfs(Configuration& configuration, const std::string& vfs) noexcept { configuration.vfs = vfs; }
  /// Appends to `extensions` (the order is the loading order).
  static void addExtension(Configuration& configuration, const std::string& path,
                           const std::string& entryPoint) noexcept {
    configuration.extensions.push_back(Extension{path, entryPoint});
  }
};

/// Where the Swift `DatabaseLocation`'s bundle initializers find a seed
/// directory: the rules (a bundle's usable directory; where SwiftPM puts a
/// resource bundle) and their SQLITE_CANTOPEN errors, which the core owns
/// since it owns the file system and the wording of errors. The Swift
/// facade hands over what only Foundation knows (a `Bundle`'s paths, the
/// main bundle's and executable's directories).
struct SQLITEBRIDGE_API BundleLookup {
  /// Sets `directory` to where a bundle's seeds are read from:
  /// `resourcePath` when it is a directory, else `bundlePath` when it is
  /// one. Otherwise (both empty, missing, or not directories) returns false
  /// with `directory` empty and `error` set to SQLITE_CANTOPEN naming the
  /// bundle and both paths; the same when a path holds NUL. `error` is
  /// cleared on success.
  static bool bundleDirectory(const std::string& bundlePath, const std::string& resourcePath, std::string& directory,
                              Error& error) noexcept;
  /// Sets `directory` to the resource directory of SwiftPM's resource bundle
  /// `name` (`<package>_<target>`) in the first of `searchDirectories` that
  /// holds one, trying in each `<name>.resources` (Linux),
  /// `<name>.bundle/Contents/Resources` (macOS) and `<name>.bundle` (iOS,
  /// tvOS, watchOS, visionOS), each only when it is a directory. Empty
  /// entries are skipped and a repeated one is looked at once. Otherwise
  /// returns false with `directory` empty and `error` set to SQLITE_CANTOPEN
  /// naming the bundle and every directory looked in (or saying that there
  /// was none); also when `name` is empty or holds `/` or NUL, or a search
  /// directory holds NUL. `error` is cleared on success.
  static bool findResourceBundle(const std::string& name, const StringList& searchDirectories, std::string& directory,
                                 Error& error) noexcept;
};

/// `isCompleteStatement` and `splitStatements` with the types Swift passes
/// and makes (std::string in, a StringList out).
struct StatementTextAccess {
  /// `isCompleteStatement(text)`.
  static bool isComplete(const std::string& text) noexcept { return isCompleteStatement(text); }
  /// `splitStatements(text, …)`, its two parts in `statements` and `rest`;
  /// false (both cleared) only when memory runs out.
  static bool split(const std::string& text, StringList& statements, std::string& rest) noexcept {
    StatementSplit split;
    if (!splitStatements(text, split)) return false;
    statements.swap(split.statements);
    rest.swap(split.rest);
    return true;
  }
};

/// Transaction observers written in Swift: the core calls them through C
/// functions with the context the facade gives (a retained box the core
/// releases once it forgets the observer). Every rule (when each is called,
/// savepoints, vetoes, extents) is the core's, as for a C++
/// `TransactionObserver`.
struct SQLITEBRIDGE_API ObservationAccess {
  /// `observes(kind, table, updatedColumns)`; the columns are read with
  /// `columnCount` and `column`. `kind` is a `ChangeKind`.
  using Observes = bool (*)(void* context, int kind, const char* table, const void* columns);
  using DidChange = void (*)(void* context, int kind, const char* table, std::int64_t rowID);
  /// False vetoes the commit; call `setVeto(veto, …)` first to say why.
  using WillCommit = bool (*)(void* context, void* veto);
  /// The transaction ended (`committed`, or rolled back): `database` is read
  /// with `share`, and only during the call.
  using DidEnd = void (*)(void* context, const void* database, bool committed);
  /// Whether the Swift observer still exists (held weakly); once false the
  /// core forgets it.
  using Alive = bool (*)(void* context);
  using Release = void (*)(void* context);

  /// Adds a Swift observer, known by `identity` (for `removeObserver`), for
  /// `extent` (the core holds the box strongly; ObserverLifetime is told by
  /// `alive`). On a closed database `release(context)` is called at once.
  static void addObserver(Database& database, const void* identity, ObserverExtent extent, Observes observes,
                          DidChange didChange, WillCommit willCommit, DidEnd didEnd, Alive alive, Release release,
                          void* context) noexcept;
  /// Forgets every observer added with `identity`.
  static void removeObserver(Database& database, const void* identity) noexcept;
  static int columnCount(const void* columns) noexcept;
  /// Column `index` of `columns`; empty when out of range or out of memory.
  static std::string column(const void* columns, int index) noexcept;
  /// Says why a commit is vetoed (`code` 0: SQLITE_CONSTRAINT_COMMITHOOK).
  static void setVeto(void* veto, int code, int extendedCode, const std::string& message) noexcept;
  /// A `Database` sharing the connection of a `DidEnd` call's `database`
  /// (the Swift `Database` the observer is given, closed after the call).
  static Database share(const void* database) noexcept;
  /// A region of `table`'s `columns` (Swift builds the list).
  static DatabaseRegion columns(const std::string& table, const StringList& columns) noexcept;
};

/// A running value or region observation the Swift facade holds (its state
/// is the core's `ObservationHandle`); copies share it, and the last copy
/// gone cancels the observation.
struct ObservationToken {
  std::shared_ptr<ObservationHandle> handle;
};

/// Value and region observations (`observeValue`, `observeRegion`) whose
/// fetch and callbacks are Swift's: the core calls C functions with the
/// context the facade gives (a retained box the core releases with `release`
/// once the observation forgets it). When each is called, on which thread,
/// and what is coalesced is the core's, as for the C++ templates.
struct SQLITEBRIDGE_API ObservationStartAccess {
  /// What a fetch gave: `Changed` (the box keeps the value for `Deliver`),
  /// `Same` (equal to the last one delivered, duplicates removed) or
  /// `Failed` (the box keeps Swift's error; `Fail` is called next).
  enum class Fetched : int { Changed = 0, Same = 1, Failed = 2 };
  /// Runs the fetch on `database` (read with `ObservationAccess::share`,
  /// and only during the call).
  using Fetch = Fetched (*)(void* context, const void* database);
  /// Hands the value the last `Changed` fetch kept to the observer.
  using Deliver = void (*)(void* context);
  /// The observation ended (or could not start) with `error`, read with
  /// `error`.
  using Fail = void (*)(void* context, const void* error);
  /// A region observation's commit: `database` is the writer (read with
  /// `ObservationAccess::share`, only during the call).
  using Changed = void (*)(void* context, const void* database);
  using Release = void (*)(void* context);

  /// `observeValue` on the queue (pool); when it cannot start, `fail` is
  /// called at once, on the calling thread, and the token is inactive.
  static ObservationToken startValueInQueue(const DatabaseQueue& queue, Fetch fetch, Deliver deliver, Fail fail,
                                            Release release, void* context) noexcept;
  static ObservationToken startValueInPool(const DatabasePool& pool, Fetch fetch, Deliver deliver, Fail fail,
                                           Release release, void* context) noexcept;
  /// `observeRegion` on the queue (pool); when it cannot start, the token is
  /// inactive and `error` says why (`release` is called at once).
  static ObservationToken startRegionInQueue(const DatabaseQueue& queue, const DatabaseRegion& region, Changed changed,
                                             Fail fail, Release release, void* context, Error& error) noexcept;
  static ObservationToken startRegionInPool(const DatabasePool& pool, const DatabaseRegion& region, Changed changed,
                                            Fail fail, Release release, void* context, Error& error) noexcept;
  /// `ObservationHandle::cancel` (waits for a callback running elsewhere).
  static void cancel(const ObservationToken& token) noexcept;
  static bool isActive(const ObservationToken& token) noexcept;
  /// The error a `Fail` call passes.
  static Error error(const void* error) noexcept;
};
}  // namespace sqlitebridge::interop
