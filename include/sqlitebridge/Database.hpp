#pragma once

#include "SQLite.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "Export.hpp"
#include "NamedValues.hpp"
#include "Changeset.hpp"
#include "RowView.hpp"
#include "Configuration.hpp"
#include "DatabaseRegion.hpp"
#include "Error.hpp"
#include "Functions.hpp"
#include "FTS5.hpp"
#include "Location.hpp"
#include "SQL.hpp"
#include "Record.hpp"
#include "OpenMode.hpp"
#include "Query.hpp"
#include "Row.hpp"
#include "Schema.hpp"
#include "Statement.hpp"
#include "TableHelpers.hpp"
#include "Tracing.hpp"
#include "TransactionObserver.hpp"
#include "Transaction.hpp"
#include "Value.hpp"

namespace sqlitebridge {

class Connection;
class ConnectionObservation;
class ConnectionPool;
class Migrator;
namespace interop {
struct DatabaseAccess;
struct TransactionAccess;
struct BackupAccess;
struct TableHelperAccess;
struct ConcurrencyAccess;
struct InterruptHandle;
struct FunctionAccess;
struct RecordAccess;
struct ObservationAccess;
}  // namespace interop
namespace detail {
SQLITEBRIDGE_API Database unusableDatabase(const Error& reason) noexcept;
}  // namespace detail

/// One SQLite connection.
///
/// Every operation reports failure by returning false (or an invalid
/// `Statement`) and leaves the reason in `lastError()` / `error()`; every
/// successful one clears them. No method throws. A `Database` whose opening
/// failed, or that was moved from, is closed: `isOpen()` is false and every
/// call fails with SQLITE_MISUSE. Move-only; the connection closes when the
/// last of the `Database` and the statements it prepared is gone.
///
/// Every connection enforces foreign keys (`PRAGMA foreign_keys = ON` at
/// open) unless its `Configuration` says otherwise.
///
/// A `Database` is used by one thread at a time (it opens its connection with
/// SQLITE_OPEN_NOMUTEX); share one through a queue or pool instead.
class SQLITEBRIDGE_API Database {
 public:
  /// Opens the database called `name` in `location.documentsDirectory`.
  ///
  /// On first use (no file there yet) it copies the seed
  /// `<bundleDirectory>/<seedName>` (`location.seedName`, by default `name`)
  /// when that exists (atomically: temporary file, fsync, link into place),
  /// otherwise creates the database and runs `createSQL` (a script of any
  /// number of statements, without BEGIN/COMMIT of its own) in one
  /// transaction. Either way the file appears
  /// complete or not at all: a failing script leaves nothing behind, and a
  /// created file is published only once everything the script wrote is in
  /// its main file and synced, whatever the journal mode (the configured
  /// one, or WAL when the script switched to it, is set after publishing).
  /// Later opens use the existing file and neither copy nor run the script
  /// again; they first sync the documents directory, so that the file's
  /// name is durable before anything is written through it.
  /// A first open also removes the temporary files (`.sqlitebridge-*.tmp*`)
  /// that an earlier one left in the documents directory when its process
  /// was killed midway: those of a process that is gone, untouched for a
  /// minute, and any untouched for a day.
  ///
  /// Fails (closed database, `lastError()` set) with SQLITE_CANTOPEN when
  /// `name` is empty, `.` or `..`, holds `/`, `\` or NUL, is longer than 247
  /// bytes (so that SQLite's "<name>-journal" fits a file name), ends in
  /// `-journal`, `-wal` or `-shm` (any case: SQLite would take the file for
  /// another database's companion and overwrite it) or starts with
  /// `.sqlitebridge-` (our temporary files), when `location.seedName` is set
  /// and breaks the same rules ("invalid seed name ..."), when a directory
  /// of `location` holds NUL, or when the
  /// documents directory is missing or not writable; with SQLITE_NOTADB when
  /// the existing file is not a database; with the script's error when
  /// `createSQL` fails; with an I/O error or SQLITE_FULL naming what failed
  /// when a file or directory cannot be written or synced (nothing is then
  /// published; the next open tries again); with SQLITE_BUSY when another
  /// connection holds a lock on the existing file for longer than the busy
  /// timeout (5 s).
  Database(const std::string& name, const std::string& createSQL, const Location& location) noexcept;
  /// Like the constructor above, set up by `configuration` (see
  /// `open(path, configuration)`). With `readOnly`, a database not copied or
  /// created yet fails with SQLITE_CANTOPEN instead of being made.
  Database(const std::string& name, const std::string& createSQL, const Location& location,
           const Configuration& configuration) noexcept;
  /// Opens the database called `name` in `Location::defaults()`.
  explicit Database(const std::string& name, const std::string& createSQL = "") noexcept;
  /// Opens the file at `path` in `mode`: ":memory:" is a new in-memory
  /// database, "" a private temporary one, and a "file:" URI is read as one
  /// (SQLite's URI filenames). Fails (closed database) with SQLITE_CANTOPEN
  /// when the file cannot be opened or created or `path` holds NUL (never
  /// cut short there), SQLITE_NOTADB when it is not a database, SQLITE_BUSY
  /// when another connection holds a lock on it for longer than the busy
  /// timeout (5 s by default: every connection waits that long before its
  /// first read of the file).
  static Database open(const std::string& path, OpenMode mode = OpenMode::ReadWriteCreate) noexcept;
  /// Opens (or creates) the file at `path` for reading and writing, set up
  /// by `configuration`: its busy timeout applies to the open already,
  /// foreign keys are enforced unless `foreignKeys` is false, and with
  /// `readOnly` the file is opened read-only (never created: a missing file
  /// fails with SQLITE_CANTOPEN; writes fail with SQLITE_READONLY), then the
  /// open options (`journalMode`, `synchronous`, `noFollowSymlinks`,
  /// `uriFilenames`, `sharedCacheName`), each failing the open as
  /// `Configuration` says. Fails as `open(path, mode)` does otherwise.
  static Database open(const std::string& path, const Configuration& configuration) noexcept;

  /// Takes over `other`'s connection; `other` is left closed (every call
  /// on it fails with SQLITE_MISUSE).
  Database(Database&& other) noexcept;
  /// Lets go of this connection (it closes once no statement of it is
  /// left), then takes over `other`'s; `other` is left closed.
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  ~Database();

  /// True when the connection is open.
  bool isOpen() const noexcept;
  /// Closes this `Database`: afterwards it is closed like a moved-from one
  /// (`isOpen()` false, every call fails with SQLITE_MISUSE), and can be
  /// reopened by assigning another to it. The connection closes now, rolling
  /// back a transaction left open (SQLite's rule); while statements it
  /// prepared are still alive it stays open for them, and closes when the
  /// last of them is destroyed. Never fails; closing a closed database does
  /// nothing.
  void close() noexcept;
  /// The database file's path as opened; empty for in-memory and temporary
  /// databases and when closed.
  std::string path() const noexcept;

  // MARK: Statements

  /// Prepares exactly one statement. Fails (invalid statement) on a syntax
  /// or schema error, on SQL holding no statement, and on SQL left after the
  /// first statement other than whitespace, comments and semicolons (never
  /// silently dropped; a NUL byte, which ends SQLite's text, is never
  /// skipped, even in a comment) — both SQLITE_MISUSE.
  Statement prepare(const std::string& sql) noexcept;
  /// Prepares `literal` (see `SQL`) as `prepare` does, with its arguments
  /// bound: each run of the statement (`step` after `reset`) uses them.
  /// Fails (invalid statement) as `prepare` does, with SQLITE_RANGE when the
  /// arguments' count is not the statement's parameter count (raw text with
  /// `?` of its own), and with SQLITE_MISUSE naming the identifier when an
  /// identifier in it held a NUL byte (nothing is prepared).
  Statement prepare(const SQL& literal) noexcept;
  /// Like `prepare`, but lent by the statement cache: a statement prepared
  /// from exactly this SQL earlier is reused, and goes back to the cache
  /// (reset, bindings cleared) when the returned `Statement` is destroyed.
  /// With the cache off, or while the cached one is lent out, a fresh
  /// statement is prepared. `execute`, `forEachRow` and the Swift facade use
  /// it; SQLite re-prepares a cached statement after a schema change.
  Statement cachedStatement(const std::string& sql) noexcept;
  /// `cachedStatement` for `size` bytes of UTF-8 SQL at `utf8`.
  Statement cachedStatement(const void* utf8, std::size_t size) noexcept;
  /// Checks that `sql` is exactly one valid statement (as `prepare` does)
  /// without running it.
  bool validate(const std::string& sql) noexcept;
  /// Prepares the next statement of the script `sql` starting at byte
  /// `offset` (leading whitespace, comments and semicolons skipped) and
  /// moves `offset` past it, for running a script one statement at a time.
  /// Returns an invalid statement when the script is finished (then
  /// `lastError()` is clear) or on failure (then it says why, naming the
  /// failing statement).
  Statement prepareNext(const std::string& sql, std::size_t& offset) noexcept;

  /// Runs exactly one statement (see `prepare`) and appends every row it
  /// returns to `*results` when `results` is not null (rows are appended
  /// only when the whole statement succeeds).
  bool execute(const std::string& sql, std::vector<Row>* results = nullptr) noexcept;
  /// Runs exactly one statement and stores its first row in `result` (an
  /// empty row when it returns none). Later rows are still stepped through,
  /// so the statement runs to completion.
  bool execute(const std::string& sql, Row& result) noexcept;
  /// Runs exactly one statement with `arguments` bound to `?`, `?NNN` (and
  /// positionally to named) parameters. A count that does not match the
  /// statement's parameters fails with SQLITE_RANGE.
  bool execute(const std::string& sql, const std::vector<Value>& arguments,
               std::vector<Row>* results = nullptr) noexcept;
  /// Runs exactly one statement built as an `SQL` literal, with its
  /// arguments, appending its rows to `*results` as `execute(sql, arguments,
  /// results)` does. Fails as that does, and with SQLITE_MISUSE naming the
  /// identifier, before anything runs, when an identifier in it held a NUL
  /// byte. (`SQL` is never made from a string implicitly: `execute("…")`
  /// keeps meaning raw SQL text.)
  bool execute(const SQL& literal, std::vector<Row>* results = nullptr) noexcept;
  /// Runs exactly one statement with named `arguments` (see `NamedValues`);
  /// a parameter without an argument, an argument without a parameter, or a
  /// positional parameter fails with SQLITE_RANGE naming it.
  bool execute(const std::string& sql, const NamedValues& arguments, std::vector<Row>* results = nullptr) noexcept;
  /// Named arguments written in place: `execute(sql, {{"id", 1}})`. Without
  /// this overload a single pair would be ambiguous (it also reads as a
  /// vector of two positional values). `{}` still means no arguments.
  bool execute(const std::string& sql, std::initializer_list<NamedValues::value_type> arguments,
               std::vector<Row>* results = nullptr) {
    if (arguments.size() == 0) return execute(sql, results);
    return execute(sql, NamedValues(arguments), results);
  }
  /// Runs exactly one statement: `bind(Statement&)` binds its parameters
  /// (returning false to give up), then `onRow(const RowView&)` sees each
  /// row (returning void, or bool: false stops early). Every parameter must
  /// be bound: one the callback leaves unbound fails with
  /// `ResultCode::Range` naming it, before anything runs (SQLite would read
  /// it as NULL; we never bind a silent NULL). A callback that returns false
  /// fails with `ResultCode::Abort`, or with the error of the bind that
  /// failed.
  template <typename Bind, typename OnRow,
            typename = std::enable_if_t<std::is_invocable_r_v<bool, Bind&, Statement&> &&
                                        std::is_invocable_v<OnRow&, const RowView&>>>
  bool execute(const std::string& sql, Bind&& bind, OnRow&& onRow);
  /// Runs exactly one statement with `values` bound to parameters 1...n,
  /// each with `Statement`'s typed `bind` overload (`Statement::bindValues`):
  /// `execute(sql, id, title, std::nullopt)`. No vector is built, and the
  /// statement comes from the cache: an insert loop allocates nothing per
  /// row for integer, real and text values. Rows it returns are stepped
  /// through and dropped. Fails with SQLITE_RANGE when the count of values
  /// is not the statement's parameter count, and as a bind or step fails.
  /// Enabled only for bindable values (`areExecuteValues`), so every older
  /// `execute` keeps its meaning: `execute(sql, nullptr)` is still "no
  /// results" (bind one NULL with `std::nullopt`).
  template <typename... Values, typename = std::enable_if_t<areExecuteValues<Values...>>>
  bool execute(const std::string& sql, const Values&... values) noexcept;

  /// Runs exactly one statement with `arguments`, calling `body(const
  /// RowView&)` for each row as it is stepped, so a result of any size is
  /// read in constant memory. The body returns void, or bool: false stops
  /// early. Returns false when preparing, binding or a step fails, or when
  /// the body recorded an error (such as a failed `RowView::get`), whether
  /// it stopped or went on.
  template <typename Body>
  bool forEachRow(const std::string& sql, const std::vector<Value>& arguments, Body&& body);
  /// `forEachRow` without arguments.
  template <typename Body>
  bool forEachRow(const std::string& sql, Body&& body) {
    return forEachRow(sql, std::vector<Value>(), std::forward<Body>(body));
  }
  /// `forEachRow` over an `SQL` literal with its arguments; fails as
  /// `execute(literal)` does.
  template <typename Body>
  bool forEachRow(const SQL& literal, Body&& body) {
    if (!literal.isValid()) return failInvalidLiteral(literal);
    return forEachRow(literal.text(), literal.arguments(), std::forward<Body>(body));
  }
  /// `forEachRow` with named arguments.
  template <typename Body>
  bool forEachRow(const std::string& sql, const NamedValues& arguments, Body&& body);
  /// `forEachRow` with `values` bound as the variadic `execute` binds them
  /// (no vector built): `forEachRow(sql, body, minimum, maximum)`.
  template <typename Body, typename... Values,
            typename = std::enable_if_t<areExecuteValues<Values...> && std::is_invocable_v<Body&, const RowView&>>>
  bool forEachRow(const std::string& sql, Body&& body, const Values&... values);
  /// `forEachRow` with named arguments written in place (`{{"id", 1}}`), as
  /// for `execute`; `{}` means no arguments.
  template <typename Body>
  bool forEachRow(const std::string& sql, std::initializer_list<NamedValues::value_type> arguments, Body&& body) {
    if (arguments.size() == 0) return forEachRow(sql, std::vector<Value>(), std::forward<Body>(body));
    return forEachRow(sql, NamedValues(arguments), std::forward<Body>(body));
  }

  /// Runs a script of any number of statements (no arguments, no rows), as
  /// `createSQL` is run. Stops at the first failing statement; statements
  /// before it stay applied unless the script holds its own transaction.
  bool executeScript(const std::string& sql) noexcept;
  /// Runs a script, calling `onRow(const RowView&)` for every row any of its
  /// statements returns (FMDB's executeStatements:withResultBlock:). The
  /// callback returns void, or bool: false stops the script.
  template <typename OnRow>
  bool executeScript(const std::string& sql, OnRow&& onRow);

  // MARK: Statement cache

  /// How many prepared statements the cache keeps (default 64).
  std::size_t statementCacheCapacity() const noexcept;
  /// Sets how many prepared statements the cache keeps; 0 turns it off.
  /// Statements beyond the new capacity are finalized (lent ones when they
  /// come back).
  void setStatementCacheCapacity(std::size_t capacity) noexcept;
  /// Finalizes every cached statement (lent ones when they come back).
  void clearStatementCache() noexcept;
  /// How many statements this connection has compiled so far; a statement
  /// reused from the cache is not compiled again.
  std::int64_t preparedStatementCount() const noexcept;

  // MARK: Backup and database files

  /// Copies this database (its `main` schema) into `destination`'s, replacing
  /// what `destination` held, with SQLite's online backup API:
  /// `pagesPerStep` pages at a time (-1 or any negative number: all at once),
  /// calling `progress(remaining, total)` (in pages) after each step, and
  /// returning when the copy is complete. Between steps other connections
  /// may use this database; a write from another connection restarts the
  /// copy (SQLite's rule), one through this connection is copied as it goes.
  /// The source and destination may be files or in memory.
  ///
  /// Fails, with the error in this database's `lastError()`, with
  /// SQLITE_MISUSE when either database is closed, when `destination` is
  /// this very connection, or when `pagesPerStep` is 0 (it would never
  /// finish); with SQLite's error when the destination cannot be written
  /// (SQLITE_ERROR "destination database is in use" while it has a
  /// transaction open, SQLITE_READONLY, SQLITE_BUSY past the busy timeout,
  /// a WAL destination whose page size differs); with SQLITE_ABORT when
  /// `progress` throws (the copy stops; what the destination holds then is
  /// unspecified, but a valid database). A failed copy leaves the
  /// destination as it was (SQLite copies inside a write transaction).
  bool backup(Database& destination, int pagesPerStep = -1,
              std::function<void(int remaining, int total)> progress = {}) noexcept;
  /// The size in bytes of the database file plus its write-ahead log (the
  /// `-wal` file, when there is one); 0 for in-memory and temporary
  /// databases. Fails with SQLITE_MISUSE when closed, SQLITE_IOERR when the
  /// file's size cannot be read (it was removed, say).
  bool fileSize(std::int64_t& bytes) noexcept;
  /// Removes the database called `name` in `location.documentsDirectory`
  /// (see the by-name constructor) and its `-wal`, `-shm` and `-journal`
  /// files; never anything else, never outside the documents directory.
  /// `location.bundleDirectory` and `location.seedName` play no part (the
  /// seed is never touched). Succeeds when there was nothing to remove. On
  /// failure removes nothing and, when `error` is not null, sets `*error`
  /// (cleared on success): SQLITE_MISUSE for a name the by-name constructor
  /// refuses or an empty documents directory; otherwise as `removeDatabase(path)` (which says
  /// what it does under Litestream).
  static bool removeDatabase(const std::string& name, const Location& location, Error* error = nullptr) noexcept;
  /// Removes the database file at `path` and its `-wal`, `-shm` and
  /// `-journal` files (the companions first, so that a process killed
  /// midway never leaves a log beside a new file of the same name).
  /// Succeeds when there was nothing to remove. Fails, removing nothing,
  /// with SQLITE_BUSY while a `Database` of this process holds the file
  /// open (close every connection first) or while another process holds a
  /// lock on it (is reading or writing it, or, in WAL mode, has it open);
  /// with SQLITE_MISUSE when `path` is empty, ":memory:", a "file:" URI or
  /// holds NUL; with SQLITE_IOERR_DELETE when `path` is a directory, or
  /// when a file cannot be removed (no permission: the companions removed
  /// before it stay removed). Under Litestream: `litestream replicate` keeps
  /// a WAL database open, so this fails with SQLITE_BUSY while it runs (stop
  /// it first); the replica is never touched and still restores the file.
  static bool removeDatabase(const std::string& path, Error* error = nullptr) noexcept;

  // MARK: Schema

  /// Whether `table` (a table or a view) has a column named `column`
  /// (case-insensitive; hidden and generated columns included). `table` is
  /// found by the name rule of every schema call ("Schema introspection"
  /// below): the name as it is first, in SQLite's search order (temp, main,
  /// attached); only when nothing is called that does a leading `schema.`
  /// for one of the connection's schemas qualify it, so `main.v` is view `v`
  /// of main unless a table or view is itself called "main.v". Fails with
  /// SQLITE_ERROR ("no such table") when the table does not exist, which is
  /// not the same as false.
  bool hasTableColumn(const std::string& table, const std::string& column) noexcept;
  /// Replaces `results` with the names of `table`'s columns in declaration
  /// order (from `PRAGMA table_xinfo`). `table` (a table or a view) is found
  /// as for `hasTableColumn`: the name as it is first, then `schema.name`.
  /// Fails with SQLITE_ERROR ("no such table") when the table does not
  /// exist; `results` is then empty.
  bool tableColumns(const std::string& table, std::vector<std::string>& results) noexcept;
  /// Changes the schema of table `name` by rebuilding it, in one transaction
  /// (a savepoint when a transaction is already open):
  /// renames it to `<name>_old` (references in views and triggers are not
  /// rewritten), runs `create` (which must create `<name>`), runs `insert` to
  /// copy rows from `<name>_old` — or, when `insert` is empty, copies the
  /// columns both tables share — drops `<name>_old`, recreates the table's
  /// indexes and triggers (those `create` did not make itself), and, when
  /// foreign keys are enforced, checks them (outside a transaction, where
  /// enforcement is paused for the rebuild, in every table).
  ///
  /// Any failure rolls everything back: the old table, its rows, indexes and
  /// triggers are untouched. Fails with SQLITE_ERROR when `name` does not
  /// exist, when `<name>_old` already exists, or when `create` does not
  /// create `<name>`; with SQLITE_CONSTRAINT_FOREIGNKEY when the new rows
  /// (or anything else `create` and `insert` changed) break a foreign key;
  /// with SQLITE_MISUSE when `create` or `insert` holds a statement that
  /// begins, commits, rolls back or releases a transaction or savepoint
  /// (BEGIN, COMMIT, END, ROLLBACK, SAVEPOINT, RELEASE: the rebuild runs in a
  /// savepoint of its own), and inside an open transaction when
  /// foreign keys are enforced and other tables reference `name` (foreign
  /// key enforcement cannot be paused inside a transaction).
  bool updateTable(const std::string& create, const std::string& insert, const std::string& name) noexcept;

  // Schema introspection. How a name is found, for every call below (and for
  // hasTableColumn and tableColumns): names match as SQLite matches them,
  // ignoring ASCII case; they are bound or quoted, never spliced into SQL, so
  // any name is just a name (one holding NUL names nothing). An unqualified
  // name is looked for in SQLite's order: temp, main, then attached schemas
  // in the order they were attached. A name that nothing of the kind looked
  // for (table, view, trigger, index) has as it is, but that starts with
  // `schema.` for a schema of this connection (`main`, `temp`, or an
  // ATTACHed one), names the rest in that schema: `aux.t` is table `t` of
  // schema `aux`, unless a table is itself called "aux.t": then `aux.t` is
  // that table (the name as it is wins) and `aux.t` of `aux` is out of reach
  // by a qualified name.

  /// Whether a table (ordinary, virtual or a virtual table's shadow table;
  /// SQLite's own `sqlite_schema` and `sqlite_sequence` too) is called
  /// `name`. False with `lastError()` clear when there is none; false with
  /// `lastError()` set only on a real failure (SQLITE_MISUSE when closed).
  bool tableExists(const std::string& name) noexcept;
  /// Whether a view is called `name`; fails as `tableExists`.
  bool viewExists(const std::string& name) noexcept;
  /// Whether a trigger is called `name`; fails as `tableExists`.
  bool triggerExists(const std::string& name) noexcept;
  /// Whether an index (one CREATE INDEX made, or one of a UNIQUE or PRIMARY
  /// KEY constraint) is called `name`; fails as `tableExists`.
  bool indexExists(const std::string& name) noexcept;
  /// Replaces `out` with the names of the tables of the main schema
  /// (ordinary and virtual ones), sorted by their bytes (SQLite's BINARY
  /// order). Left out: SQLite's own tables (`sqlite_*`), the shadow tables
  /// of virtual tables, views, and the tables of temp and attached schemas.
  /// Fails (with `out` empty) with SQLITE_MISUSE when closed.
  bool tableNames(std::vector<std::string>& out) noexcept;
  /// Replaces `out` with the columns of table (or view) `table` in
  /// declaration order, hidden and generated ones included. Fails (with
  /// `out` empty) with SQLITE_ERROR "no such table: <table>" when there is
  /// none.
  bool columns(const std::string& table, std::vector<ColumnInfo>& out) noexcept;
  /// Replaces `out` with the primary key of `table`: its columns in key
  /// order (WITHOUT ROWID tables too), or `{"rowid"}` for a table without a
  /// declared primary key. Fails (with `out` empty) with SQLITE_ERROR "no
  /// such table: <table>" when no table (a view is not one) has that name.
  bool primaryKey(const std::string& table, std::vector<std::string>& out) noexcept;
  /// Replaces `out` with the indexes of `table`, sorted by name: those of
  /// CREATE INDEX and those SQLite made for UNIQUE and PRIMARY KEY
  /// constraints (not an INTEGER PRIMARY KEY, which is the rowid itself).
  /// Fails as `primaryKey`.
  bool indexes(const std::string& table, std::vector<IndexInfo>& out) noexcept;
  /// Replaces `out` with the foreign keys of `table`, one entry per key
  /// (several columns grouped), in SQLite's id order (the last declared
  /// first): `out[i]` is the key `ForeignKeyViolation::foreignKeyIndex` i
  /// names. Fails as `primaryKey`.
  bool foreignKeys(const std::string& table, std::vector<ForeignKeyInfo>& out) noexcept;
  /// Runs `PRAGMA integrity_check` (every schema of the connection) and
  /// replaces `problems` with what it finds (at most 100 lines, SQLite's
  /// default); empty when the database is sound. Fails (false) only when
  /// the check cannot run (SQLITE_MISUSE when closed, SQLITE_CORRUPT or
  /// SQLITE_NOTADB when SQLite cannot even read the schema).
  bool integrityCheck(std::vector<std::string>& problems) noexcept;
  /// Runs `PRAGMA foreign_key_check` (every table of the main schema, as
  /// SQLite does without a schema, whether or not foreign keys are
  /// enforced) and replaces `violations` with the rows that break a foreign
  /// key; empty when none does. Fails (false) only
  /// when the check cannot run (SQLITE_MISUSE when closed).
  bool foreignKeyCheck(std::vector<ForeignKeyViolation>& violations) noexcept;
  // MARK: Table helpers

  // For callers who would rather not write SQL. Every identifier (table,
  // column, ORDER BY column, referenced table and column) is quoted, so any
  // name, however hostile, is just a name; every value is bound. A name
  // holding NUL fails with SQLITE_MISUSE before anything runs. `whereSQL`
  // is caller SQL (an expression, put in parentheses) whose `?` parameters
  // take `arguments`.

  /// `INSERT OR <onConflict> INTO "table" ("column", ...) VALUES (?, ...)`,
  /// the columns and values in `values`' order; empty `values` inserts
  /// DEFAULT VALUES. Sets `*rowID` (when not null) to the new row's rowid,
  /// or to 0 when `ConflictResolution::Ignore` skipped the row. Fails with
  /// SQLite's error for a missing table or column or a broken constraint
  /// (SQLITE_CONSTRAINT_UNIQUE, ...; what the statement or transaction
  /// keeps then is `onConflict`'s rule).
  bool insert(const std::string& table, const NamedValues& values, std::int64_t* rowID = nullptr,
              ConflictResolution onConflict = ConflictResolution::Abort) noexcept;
  /// UPDATE "table" SET "column" = ?, ... WHERE (whereSQL), the `set`
  /// values bound first, then `arguments` to `whereSQL`'s parameters. Sets
  /// `*changed` (when not null) to the number of rows changed. Fails with
  /// SQLITE_MISUSE, changing nothing, when `set` is empty or `whereSQL` is
  /// empty or only whitespace (write "1" to update every row); with
  /// SQLITE_RANGE when `arguments` do not match `whereSQL`'s parameters.
  bool update(const std::string& table, const NamedValues& set, const std::string& whereSQL,
              const std::vector<Value>& arguments = {}, int* changed = nullptr) noexcept;
  /// DELETE FROM "table" WHERE (whereSQL) (`delete` is a C++ keyword). Sets
  /// `*changed` (when not null) to the number of rows deleted. Fails with
  /// SQLITE_MISUSE, deleting nothing, when `whereSQL` is empty or only
  /// whitespace (write "1" to delete every row).
  bool remove(const std::string& table, const std::string& whereSQL, const std::vector<Value>& arguments = {},
              int* changed = nullptr) noexcept;
  /// SELECT "table"."column" AS "column", ... FROM "table" [WHERE
  /// (whereSQL)] [ORDER BY "table"."column", ...] [LIMIT ?], replacing `out`
  /// with the rows, each column named as asked. No columns selects `*`; an
  /// empty `whereSQL` reads every row. `orderBy` holds column names only,
  /// each sorted ascending (write SQL with `execute` for DESC or
  /// expressions). `limit` is bound after `arguments`; a negative one fails
  /// with SQLITE_MISUSE. A column the table lacks fails with SQLITE_ERROR
  /// ("no such column"; qualified, it is never taken for a string, as
  /// SQLite takes an unknown double-quoted name). On failure `out` is empty.
  bool select(const std::vector<std::string>& columns, const std::string& table, const std::string& whereSQL,
              const std::vector<Value>& arguments, std::vector<Row>& out, const std::vector<std::string>& orderBy = {},
              std::optional<std::int64_t> limit = std::nullopt) noexcept;
  /// CREATE TABLE [IF NOT EXISTS] "name" (columns...). Fails with
  /// SQLITE_MISUSE, creating nothing, when `columns` is empty or a column
  /// is not a valid `ColumnDefinition` (see there); with SQLite's error
  /// when the table exists (without `ifNotExists`) or SQLite refuses the
  /// definition.
  bool createTable(const std::string& name, const std::vector<ColumnDefinition>& columns,
                   bool ifNotExists = false) noexcept;
  /// ALTER TABLE "table" ADD COLUMN column. Fails with SQLITE_MISUSE for a
  /// column that is not a valid `ColumnDefinition`, and with SQLite's error
  /// when ALTER TABLE cannot add it (a PRIMARY KEY or UNIQUE column, NOT
  /// NULL without a default, a missing table).
  bool addColumn(const ColumnDefinition& column, const std::string& table) noexcept;
  /// DROP TABLE [IF EXISTS] "name". Fails with SQLite's error when the
  /// table does not exist (without `ifExists`).
  bool dropTable(const std::string& name, bool ifExists = false) noexcept;

  // MARK: Full-text search (FTS5)

  /// Creates the FTS5 table `name` with `columns` (`CREATE VIRTUAL TABLE
  /// "name" USING fts5("c1", …, tokenize = …)`), its tokenizer and content as
  /// `options` say; search it with `MATCH` and an `FTS5Pattern`. With
  /// `FTS5Content::External`, also creates the triggers `<name>_ai`,
  /// `<name>_ad` and `<name>_au` on the content table that keep the index in
  /// step with its inserts, deletes and updates, and indexes the rows it
  /// already holds — all in one savepoint: on failure nothing is left.
  /// Every name is quoted, every option word quoted as FTS5 reads it.
  ///
  /// Fails with SQLITE_ERROR naming the missing fts5 module when this
  /// SQLite was built without FTS5 (no SQLITE_ENABLE_FTS5); with
  /// SQLITE_MISUSE for no columns, a name or option holding NUL, or external
  /// content without a content table; otherwise with SQLite's error (the
  /// table exists, a reserved column name such as "rank", an unknown
  /// tokenizer, a content table without one of the columns).
  bool createFTS5Table(const std::string& name, const std::vector<std::string>& columns,
                       const FTS5TableOptions& options = FTS5TableOptions()) noexcept;
  /// Rebuilds FTS5 table `name`'s index from its content (FTS5's 'rebuild'
  /// command: after changing an external content table behind the
  /// triggers' back, say). Fails as `createFTS5Table` does for a missing
  /// fts5 module or a name holding NUL, and with SQLite's error otherwise
  /// (no such table; a contentless table cannot be rebuilt).
  bool rebuildFTS5Table(const std::string& name) noexcept;
  /// Merges FTS5 table `name`'s index into one b-tree (FTS5's 'optimize'
  /// command), for faster queries after many writes. Fails as
  /// `rebuildFTS5Table`.
  bool optimizeFTS5Table(const std::string& name) noexcept;

  // MARK: Records

  // Records (see `RecordTraits` in Record.hpp): a C++ type read from a row
  // and written as columns. Every statement is written, and every rule
  // (which row an update matches, a missing row, what save does) decided,
  // by `planRecord`/`runRecord` below, which the Swift facade calls too.
  //
  // The reads (`fetch`, `fetchOne`, `forEach`, `fetchByKey`, `fetchAll`)
  // make each record with `RecordTraits<T>::read`, a default-constructed `T`
  // filled from a `RowView` whose reads by name look each name up once per
  // statement run (`ColumnLookup`). A `read` that returns false fails the
  // whole call with the error it recorded (SQLITE_RANGE naming a missing
  // column, SQLITE_MISMATCH naming a column whose value does not convert),
  // or with SQLITE_ABORT when it recorded none; so does a `read` that
  // returned true after a failed `get`. On failure `out` is left as it
  // was. A C++ exception from `read` or a body propagates (with `out` left
  // as it was); running out of memory fails with SQLITE_NOMEM.
  //
  // The writes (`insert`, `update`, `save`, `remove`) take the record's
  // columns from `RecordTraits<T>::write` and run the core's plan for them.
  // They fail with SQLITE_MISUSE when the table or a column name holds NUL,
  // and, for `update`, `save` and `remove`, when `primaryKey()` is empty or
  // names a column `write` does not give; otherwise with SQLite's error
  // (no such table or column, a broken constraint, ...).

  /// Runs exactly one statement with `arguments` (as `execute`: SQLITE_RANGE
  /// when their count is not the statement's) and appends a `T` per row to
  /// `out`; appends nothing on failure.
  template <typename T>
  bool fetch(const std::string& sql, const std::vector<Value>& arguments, std::vector<T>& out);
  /// The first row as a `T` in `out` (`std::nullopt` when there is none);
  /// later rows are not read. Fails as `fetch`, leaving `out` as it was.
  template <typename T>
  bool fetchOne(const std::string& sql, const std::vector<Value>& arguments, std::optional<T>& out);
  /// Calls `body(const T&)` with each row as a `T`, made as the statement is
  /// stepped: a result of any size is read in constant memory. The body
  /// returns void, or bool: false stops early (a success). Fails as `fetch`.
  template <typename T, typename Body>
  bool forEach(const std::string& sql, const std::vector<Value>& arguments, Body&& body);
  /// `fetch`, `fetchOne` and `forEach` over an `SQL` literal with its
  /// arguments; each fails as that call does, and with SQLITE_MISUSE naming
  /// the identifier when an identifier in the literal held a NUL byte.
  template <typename T>
  bool fetch(const SQL& literal, std::vector<T>& out) {
    if (!literal.isValid()) return failInvalidLiteral(literal);
    return fetch<T>(literal.text(), literal.arguments(), out);
  }
  /// `fetchOne` over an `SQL` literal; fails as `fetch(literal, out)`.
  template <typename T>
  bool fetchOne(const SQL& literal, std::optional<T>& out) {
    if (!literal.isValid()) return failInvalidLiteral(literal);
    return fetchOne<T>(literal.text(), literal.arguments(), out);
  }
  /// `forEach` over an `SQL` literal; fails as `fetch(literal, out)`.
  template <typename T, typename Body>
  bool forEach(const SQL& literal, Body&& body) {
    if (!literal.isValid()) return failInvalidLiteral(literal);
    return forEach<T>(literal.text(), literal.arguments(), std::forward<Body>(body));
  }
  /// The row of `T`'s table whose single-column primary key is `key`, or
  /// `std::nullopt` (`SELECT * FROM "table" WHERE "key" = ?`). Fails as
  /// the form below with `{key}` (SQLITE_RANGE when `T`'s key has several
  /// columns). (Named `fetchByKey`, not `fetchOne`, so that
  /// `fetchOne<T>(sql, ...)` is never read as a key.)
  template <typename T>
  bool fetchByKey(const Value& key, std::optional<T>& out);
  /// The row of `T`'s table whose primary key columns hold `key`, in
  /// `primaryKey()` order. Fails with SQLITE_RANGE when `key` does not have
  /// one value per key column, with SQLITE_MISUSE when `T` declares no key.
  template <typename T>
  bool fetchByKey(const std::vector<Value>& key, std::optional<T>& out);
  /// Appends every row of `T`'s table to `out` (`SELECT * FROM "table"`, in
  /// SQLite's order). Fails as `fetch`.
  template <typename T>
  bool fetchAll(std::vector<T>& out);
  // Query requests (Query.hpp): each renders the request through the core's
  // query compiler (`QueryRequest::makeSQL` and its count and delete forms)
  // and runs the statement it becomes. Each fails as rendering does (the
  // reason in `lastError()`: SQLITE_MISUSE for a malformed request, the
  // schema's error for a missing table, SQLITE_ERROR naming both tables when
  // no foreign key, or several, join them) and then as running SQL does.

  /// Runs `request` and appends its rows to `*rows` when `rows` is not null
  /// (nothing is appended on failure).
  bool fetch(const QueryRequest& request, std::vector<Row>* rows) noexcept;
  /// Sets `count` to the number of rows `request` returns (`SELECT COUNT(*)`
  /// over it); `count` is unchanged on failure.
  bool fetchCount(const QueryRequest& request, std::int64_t& count) noexcept;
  /// Deletes the rows of the request's table that `request` returns (its
  /// filters, joins, grouping and limit; its order and selection change
  /// nothing) and sets `*changed`, when not null, to how many went.
  bool deleteAll(const QueryRequest& request, std::int64_t* changed = nullptr) noexcept;
  /// Sets the `assignments` in the rows of the request's table that
  /// `request` returns (as `deleteAll` chooses them) and sets `*changed`,
  /// when not null, to how many changed. Fails as `fetch`, with
  /// SQLITE_MISUSE for no assignment, and with SQLite's error for a broken
  /// constraint (no row changes then).
  bool updateAll(const QueryRequest& request, const std::vector<ColumnAssignment>& assignments,
                 std::int64_t* changed = nullptr) noexcept;
  /// Runs `request` for its first row (`LIMIT 1` within its own limit):
  /// sets `found` and, when there is one, `row`. Fails as `fetch`.
  bool fetchOne(const QueryRequest& request, Row& row, bool& found) noexcept;
  /// Appends a `T` (`RecordTraits<T>::read`) per row `request` returns to
  /// `out`. Fails as `fetch(request, rows)`, and as the record `fetch` does
  /// when a row does not read as a `T`; appends nothing on failure.
  template <typename T>
  bool fetchAll(const QueryRequest& request, std::vector<T>& out);
  /// Inserts `record` (`INSERT INTO "table" (columns) VALUES (...)`, its
  /// columns as `write` gives them) and sets `*rowID`, when not null, to the
  /// new row's rowid. Fails with SQLite's error for a broken constraint
  /// (SQLITE_CONSTRAINT_PRIMARYKEY, ...).
  template <typename T, typename = std::enable_if_t<IsRecord<T>::value>>
  bool insert(const T& record, std::int64_t* rowID = nullptr);
  /// `insert` with `INSERT OR <onConflict>`: `Replace` replaces the row in
  /// the way, `Ignore` skips the record (then `*rowID` is 0).
  template <typename T, typename = std::enable_if_t<IsRecord<T>::value>>
  bool insert(const T& record, ConflictResolution onConflict, std::int64_t* rowID = nullptr);
  /// Updates the row with `record`'s primary key, setting its other columns.
  /// Fails with SQLITE_NOTFOUND, naming the table and the key values, when
  /// no row has that key.
  template <typename T, typename = std::enable_if_t<IsRecord<T>::value>>
  bool update(const T& record);
  /// Updates the row with `record`'s primary key, or inserts `record` when
  /// there is none (a NULL key matches no row, so an INTEGER PRIMARY KEY
  /// left NULL is assigned a new rowid).
  template <typename T, typename = std::enable_if_t<IsRecord<T>::value>>
  bool save(const T& record);
  /// Deletes the row with `record`'s primary key; sets `*removed`, when not
  /// null, to whether there was one (a missing row is not a failure).
  template <typename T, typename = std::enable_if_t<IsRecord<T>::value>>
  bool remove(const T& record, bool* removed = nullptr);

  // MARK: Custom functions and collations

  /// Registers the SQL function `name` taking `argumentCount` arguments (-1:
  /// any number), replacing one registered with the same name and count
  /// (its state is released then, as on `removeFunction` and when the
  /// connection closes: SQLite owns it). `function(arguments, result,
  /// error)` receives every value exactly (NULL, integer, real, text with
  /// embedded NUL, blob, zero-length blob) and sets `result` (NULL by
  /// default), returned to SQL exactly; returning false fails the query
  /// with SQLITE_ERROR and `error` as the message (a default naming the
  /// function when empty), and so does a C++ exception (its `what()`), which
  /// never reaches SQLite. With `deterministic` (SQLITE_DETERMINISTIC) the
  /// function may be used in an index expression (SQLite refuses a
  /// non-deterministic one there and in a partial index's WHERE, though not
  /// in a CHECK constraint) and SQLite may evaluate it once for constant
  /// arguments. Called on the thread that
  /// runs the query.
  ///
  /// Fails with SQLITE_MISUSE when `name` holds NUL or `function` is empty,
  /// with SQLite's SQLITE_MISUSE when `name` is longer than 255 bytes or
  /// `argumentCount` is below -1 or above the engine's SQLITE_MAX_FUNCTION_ARG (127
  /// in Debian 12's SQLite 3.40, 1000 in 3.53), with SQLITE_BUSY while a
  /// statement using the function being replaced is running.
  bool createFunction(
      const std::string& name, int argumentCount, bool deterministic,
      std::function<bool(const std::vector<Value>& arguments, Value& result, std::string& error)> function) noexcept;
  /// Registers the aggregate function `name` (as `createFunction`, same
  /// failures): `makeAggregate()` makes one `Aggregate` per group, whose
  /// `step` sees each row and `finalize` gives the result (see `Aggregate`).
  /// A factory that returns null or throws fails the query with
  /// SQLITE_ERROR.
  bool createAggregate(const std::string& name, int argumentCount, bool deterministic,
                       std::function<std::unique_ptr<Aggregate>()> makeAggregate) noexcept;
  /// Removes the function (scalar or aggregate) `name` registered with
  /// exactly `argumentCount` (-1: the one taking any number), releasing its
  /// state; afterwards SQL using it fails ("no such function"). Removing
  /// one that is not registered does nothing. Fails as `createFunction`
  /// does.
  bool removeFunction(const std::string& name, int argumentCount = -1) noexcept;
  /// Registers the collation `name` (`COLLATE name` in ORDER BY, comparisons,
  /// column definitions and indexes), replacing one of the same name (its
  /// state released then, on `removeCollation` and at close). `compare(a,
  /// b)` gets both texts as UTF-8 (NUL bytes kept) and returns a negative
  /// number, 0 or a positive number as `a` sorts before, with or after `b`;
  /// it must be a consistent order. A C++ exception from it never reaches
  /// SQLite: that comparison falls back to comparing the bytes (BINARY).
  /// Fails with SQLITE_MISUSE when `name` holds NUL or `compare` is empty,
  /// with SQLITE_BUSY while a statement using the collation being replaced
  /// is running.
  bool createCollation(const std::string& name,
                       std::function<int(std::string_view, std::string_view)> compare) noexcept;
  /// Removes the collation `name`, releasing its state; afterwards SQL using
  /// it fails ("no such collation sequence"). Removing one that is not
  /// registered does nothing. Fails as `createCollation` does.
  bool removeCollation(const std::string& name) noexcept;

  // MARK: Loadable extensions

  /// Loads the extension at `path` into this connection, calling its init
  /// function `entryPoint` (empty: SQLite's default rule, see `Extension`),
  /// through the C API only: loading is enabled for this one call
  /// (SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION) and disabled again right after,
  /// whatever happened, so the SQL function `load_extension()` is never
  /// enabled. What the extension registers (functions, collations, virtual
  /// tables) is on this connection only; a VFS it registers is the
  /// process's. `Configuration::extensions` loads extensions at every open.
  ///
  /// Fails with SQLITE_ERROR and a message naming `path` (and `entryPoint`
  /// when given) with SQLite's reason when the file cannot be loaded (missing,
  /// not a shared library), lacks the entry point, or its init fails (then
  /// "error during initialization: " and the extension's message); with
  /// SQLITE_MISUSE when the database is closed, `path` is empty, or `path`
  /// or `entryPoint` holds a NUL byte; with SQLITE_ERROR saying so when the
  /// SQLite library was built without extension loading.
  bool loadExtension(const std::string& path, const std::string& entryPoint = "") noexcept;

  // MARK: State

  /// The last failure's message; empty after a successful call.
  std::string error() const noexcept;
  /// The last failure; code 0 after a successful call.
  Error lastError() const noexcept;
  /// Rowid of the most recent successful INSERT on this connection.
  std::int64_t lastInsertRowId() const noexcept;
  /// Rows changed by the most recent INSERT, UPDATE or DELETE.
  int changes() const noexcept;
  /// True while a transaction is open.
  bool isInTransaction() const noexcept;

  // MARK: Transactions and savepoints

  /// BEGIN DEFERRED, IMMEDIATE or EXCLUSIVE. Fails with SQLite's error
  /// inside an open transaction, or when the lock stays busy past the busy
  /// timeout.
  bool begin(TransactionKind kind = TransactionKind::Deferred) noexcept;
  /// COMMIT. A failed COMMIT leaves the transaction open and the connection
  /// usable.
  bool commit() noexcept;
  /// ROLLBACK. Fails when no transaction is open.
  bool rollback() noexcept;
  /// SAVEPOINT with `name` quoted (any name is just a name); SQLITE_MISUSE
  /// when it holds NUL.
  bool savepoint(const std::string& name) noexcept;
  /// RELEASE SAVEPOINT `name`.
  bool releaseSavepoint(const std::string& name) noexcept;
  /// ROLLBACK TO SAVEPOINT `name` (the savepoint stays open).
  bool rollbackToSavepoint(const std::string& name) noexcept;
  /// Runs `body(Database&)` in a transaction of `kind`: when it returns true
  /// the transaction commits; when it returns false it rolls back and
  /// `inTransaction` returns false with `lastError()` clear. Inside an open
  /// transaction it runs as a savepoint instead (`kind` is ignored). A failed
  /// COMMIT rolls back and is reported; a C++ exception from `body` rolls
  /// back and propagates.
  template <typename Body>
  bool inTransaction(Body&& body, TransactionKind kind = TransactionKind::Deferred);
  /// Runs `body(Database&)` in a savepoint (a transaction when none is
  /// open), as `inTransaction` does.
  template <typename Body>
  bool inSavepoint(Body&& body);
  /// PRAGMA user_version into `version`.
  bool userVersion(std::int64_t& version) noexcept;
  /// PRAGMA user_version = `version`; SQLITE_RANGE when `version` does not
  /// fit the 32-bit signed integer SQLite keeps there.
  bool setUserVersion(std::int64_t version) noexcept;
  /// Makes statements wait up to `milliseconds` for another connection's
  /// lock before failing with SQLITE_BUSY; 0 (or less) fails at once. Every
  /// connection starts with `Configuration::busyTimeoutMilliseconds` (5000
  /// by default). Fails with SQLITE_MISUSE when closed.
  bool setBusyTimeout(int milliseconds) noexcept;
  /// The busy timeout in milliseconds: the one set at open (5000 by
  /// default) or by the last `setBusyTimeout` (0 when it was 0 or less); 0
  /// when closed.
  int busyTimeout() const noexcept;

  /// Makes the statement running now on this connection fail with
  /// SQLITE_INTERRUPT (a write's transaction then rolls back: SQLite's
  /// rule). The only method safe to call from another thread while this
  /// `Database` is in use, as long as it is not moved or destroyed
  /// meanwhile (closing it is safe). Does nothing when no statement runs: a
  /// statement that starts afterwards is not interrupted.
  void interrupt() const noexcept;

  // MARK: Tracing, hooks and library info

  // The callbacks below are called by SQLite on the thread running the
  // statement, while it runs. A callback must not use the connection that
  // calls it (SQLite's rule: no statement, no other hook change, no close
  // from inside one; the outcome is undefined). It cannot fail the
  // statement: a C++ exception it throws is caught and dropped there. Each
  // callback is released (destroyed) when replaced, removed (an empty
  // std::function), and when the connection closes: at `close()`, or, while
  // statements it prepared are alive, when the last of them goes; SQLite
  // is told to forget it first, so a released callback is never called. On
  // a closed database these do nothing but record SQLITE_MISUSE in
  // `lastError()` (the callback is destroyed); when memory runs out they
  // record SQLITE_NOMEM and keep the callback installed before. They never
  // throw.

  /// Calls `callback` with a `TraceEvent` for each statement this
  /// connection runs: as it starts (`TraceOptions::Statements`) and as it
  /// finishes, with how long it ran (`TraceOptions::Profile`); with
  /// `TraceOptions::ExpandedSQL`, the events also carry the SQL with the
  /// bound values in place (otherwise no bound value appears in an event).
  /// Replaces the trace callback installed before; an empty `callback`, or
  /// options asking for no event, stops tracing.
  void trace(unsigned options, std::function<void(const TraceEvent&)> callback);
  /// Calls `callback` each time a transaction that wrote commits (COMMIT,
  /// RELEASE of the outermost savepoint, or a write statement outside a
  /// transaction). SQLite calls it as the commit starts, before the commit
  /// is written (to the database file or its write-ahead log): other
  /// connections do not see the changes yet, and the commit can still fail
  /// (SQLITE_BUSY, an I/O error) after calling it; a retried COMMIT calls it
  /// again. A transaction that wrote nothing (only reads) does not call it.
  /// It never turns the commit into a rollback. Replaces the one installed
  /// before; empty removes it.
  void onCommit(std::function<void()> callback);
  /// Calls `callback` each time a transaction rolls back: ROLLBACK (also
  /// `rollback()` and `inTransaction` giving up), and a transaction SQLite
  /// rolls back itself (a write outside a transaction that fails, an error
  /// that ends the transaction such as SQLITE_FULL or ON CONFLICT
  /// ROLLBACK). Not for ROLLBACK TO a savepoint (the transaction goes on),
  /// nor for the rollback of a transaction left open when the connection
  /// closes. Replaces the one installed before; empty removes it.
  void onRollback(std::function<void()> callback);
  /// Calls `callback(kind, table, rowID)` for each row an INSERT, UPDATE or
  /// DELETE changes in a rowid table (SQLite's update hook): not for
  /// WITHOUT ROWID tables, SQLite's own tables (such as sqlite_sequence),
  /// rows a REPLACE conflict deletes, or a DELETE without WHERE that SQLite
  /// runs by truncating the table. It is called as the row changes, before
  /// the transaction commits (it may still roll back). Replaces the one
  /// installed before; empty removes it.
  void onChange(std::function<void(ChangeKind, const std::string& table, std::int64_t rowID)> callback);
  /// Whether this build can encrypt: true when the core was built against
  /// SQLCipher (CMake `SQLITEBRIDGE_SQLCIPHER=ON`, SwiftPM trait `SQLCipher`),
  /// false in the default build on the system SQLite, where a
  /// `Configuration::key` fails the open with SQLITE_MISUSE before any file
  /// is made.
  static bool isEncryptionAvailable() noexcept;
  /// The version of SQLCipher this build links ("4.19.0"; its `PRAGMA
  /// cipher_version`), empty in the default build (or when memory runs out).
  static std::string cipherVersion() noexcept;
  /// Re-encrypts the open database with `key` (sqlite3_rekey): every page is
  /// rewritten, and from then on only `key` opens the file. The connection
  /// stays open and usable. Fails, changing nothing, with SQLITE_MISUSE when
  /// the database is closed, `key` is empty, a transaction is open, the
  /// database was opened without a key (SQLCipher cannot encrypt a plain
  /// database in place), or this build cannot encrypt (see
  /// `isEncryptionAvailable`). When the rewrite fails (SQLite's error:
  /// SQLITE_IOERR, SQLITE_FULL, SQLITE_BUSY, ...; SQLITE_IOERR too when
  /// SQLCipher reports success but the file does not open with `key`), the
  /// file keeps its old key and the connection is closed (its cipher no
  /// longer matches the file), the message saying so: open it again.
  bool changeKey(const std::string& key) noexcept;
  /// The version of the SQLite library in use ("3.40.1"; sqlite3_libversion).
  /// Throws std::bad_alloc only when memory runs out.
  static std::string sqliteVersion();
  /// The options the SQLite library was compiled with, as `PRAGMA
  /// compile_options` lists them, without the "SQLITE_" prefix
  /// ("THREADSAFE=1", ...). Throws std::bad_alloc only when memory runs out.
  static std::vector<std::string> compileOptions();
  friend struct interop::HookAccess;

  // MARK: Observation

  /// The region `sql` reads (see `DatabaseRegion`), into `out`: `sql` is
  /// prepared (through the statement cache, which keeps the region with the
  /// statement), never run. Fails as `prepare` does (syntax or schema
  /// error, more than one statement: `out` unchanged), and with
  /// SQLITE_MISUSE when the database is closed.
  bool region(const std::string& sql, DatabaseRegion& out) noexcept;
  /// Tells `observer` of this connection's transactions from now on, for
  /// `extent` (see `ObserverExtent` and `TransactionObserver`, which says on
  /// which thread and when each callback runs). A transaction counts only if
  /// it changes something the observer `observes`; a read-only
  /// transaction is not told, and does not end a `NextTransaction` extent.
  /// Works side by side with `onCommit`, `onRollback`, `onChange` and
  /// `trace`. A null observer is ignored; on a closed database it records
  /// SQLITE_MISUSE, out of memory SQLITE_NOMEM (the observer not added).
  void add(std::shared_ptr<TransactionObserver> observer,
           ObserverExtent extent = ObserverExtent::ObserverLifetime) noexcept;
  /// Stops telling `observer` (every time it was added); it is told nothing
  /// more, not even of the transaction open now. Does nothing for an
  /// observer not added.
  void remove(const TransactionObserver* observer) noexcept;
  /// Makes the open transaction count as changing `region` (for changes the
  /// library cannot see: another process, a virtual table's module, SQL
  /// run through `handle()`); outside a transaction the observers are told
  /// of a commit of `region` at once. Fails with SQLITE_MISUSE when closed,
  /// SQLITE_NOMEM when out of memory.
  bool notifyChanges(const DatabaseRegion& region) noexcept;

  // MARK: Changesets (Changeset.hpp; Sources/SQLiteBridgeCore/Changesets)

  /// Applies `changeset` (or patchset) in one savepoint: every change made,
  /// or none. `tables` (`nullopt`: all) names the tables to apply; changes
  /// to the others are skipped. Each conflict is handed to `onConflict`
  /// (empty: every conflict aborts; see `ChangesetConflictResolution`).
  /// On success, `*rebaseData` (when not null) receives what a
  /// `ChangesetRebaser` needs to rebase a changeset made beside this one.
  ///
  /// Fails, with nothing applied: SQLITE_ABORT when the handler answered
  /// `Abort` (the message names the table and the conflict kind);
  /// SQLITE_MISUSE when it answered `Replace` for a kind other than Data or
  /// Conflict (naming the kind), or when the database is closed or inside a
  /// read-only block; SQLITE_SCHEMA when a table to apply is missing here or
  /// its columns or primary key differ from the changeset's (SQLite itself
  /// would skip it silently); the session extension's absence; what a
  /// statement fails with (SQLITE_BUSY, SQLITE_FULL, ...). Observers are told
  /// of the changes as of any write (`notifyChanges` of the tables touched).
  bool apply(const Changeset& changeset, const std::optional<std::vector<std::string>>& tables = std::nullopt,
             const ChangesetConflictHandler& onConflict = nullptr, std::string* rebaseData = nullptr) noexcept;

  /// The underlying connection handle, for calling sqlite3 directly from C++;
  /// null when closed. The `Database` still owns it.
  sqlite3* handle() const noexcept;

 private:
  friend struct interop::DatabaseAccess;
  friend struct interop::TransactionAccess;
  friend class Migrator;
  friend struct interop::BackupAccess;
  friend struct interop::TableHelperAccess;
  friend class Transaction;
  friend class Savepoint;
  friend class ConnectionPool;
  friend class DatabaseSnapshot;
  friend struct interop::ConcurrencyAccess;
  friend struct interop::InterruptHandle;
  friend struct interop::FunctionAccess;
  friend struct interop::RecordAccess;
  friend class ConnectionObservation;
  friend struct ObservationAccess;
  friend struct interop::ObservationAccess;
  friend struct QueryAccess;
  friend struct ChangesetAccess;
  friend Database detail::unusableDatabase(const Error& reason) noexcept;
  // The two steps of every scoped transaction (inTransaction, inSavepoint,
  // and the Swift facade's through interop): begin one of `kind`, or a
  // savepoint (named in `savepointName`) when a transaction is open or
  // `asSavepoint`; then finish it, committing (releasing) when `commit`,
  // else rolling back. A failed commit or release rolls back and keeps its
  // error; a rollback asked for clears the error.
  bool beginScope(TransactionKind kind, bool asSavepoint, std::string& savepointName) noexcept;
  bool finishScope(bool commit, const std::string& savepointName) noexcept;
  // inTransaction and inSavepoint: body between the two steps.
  template <typename Body>
  bool inScope(TransactionKind kind, bool asSavepoint, Body&& body);
  std::string uniqueSavepointName() noexcept;
  // `backup` with a C callback (the Swift facade passes a closure context);
  // a callback that returns false stops the copy (SQLITE_ABORT).
  bool backupInto(Database& destination, int pagesPerStep, bool (*progress)(void* context, int remaining, int total),
                  void* context) noexcept;
  bool runControl(const std::string& sql) noexcept;
  explicit Database(std::shared_ptr<Connection> connection) noexcept;
  // `cachedStatement` for a caller that binds every parameter before
  // stepping, as `execute` and the Swift facade do: the values an earlier
  // use bound are not cleared first, which saves a pass over the parameters
  // per call. The second form lends into `statement`, replacing what it held.
  Statement cachedStatementForArguments(const void* utf8, std::size_t size) noexcept;
  bool cachedStatementForArguments(const void* utf8, std::size_t size, Statement& statement) noexcept;
  // A query request's select rendered and lent, bound, for `fetchAll<T>`
  // (Query/QueryRequest.cpp: the render and the fetch share one read
  // transaction, which ends when `out` is released).
  bool lendRequest(const QueryRequest& request, Statement& out) noexcept;
  // Appends a `T` per row `statement` returns (`fetch<T>` after the lend).
  template <typename T>
  bool fetchFrom(Statement& statement, std::vector<T>& out);
  enum class Caching { None, Cached, CachedForArguments };
  Statement prepareText(const char* sql, std::size_t size, Caching caching) noexcept;
  bool finishEarlyStop() noexcept;
  bool openByName(const std::string& name, const std::string& createSQL, const Location& location,
                  const Configuration& configuration) noexcept;
  bool run(const std::string& sql, const std::vector<Value>* arguments, const NamedValues* named,
           std::vector<Row>* results, Row* firstRow) noexcept;
  bool beginCall() noexcept;
  // Records: the statement(s) of `operation` on `table` for records with
  // `columns` (in record order) and `primaryKey`, into `plan`. Fails with
  // SQLITE_MISUSE when a name holds NUL, when an update, save, delete or
  // fetch by key has no primary key, or when an update, save or delete's
  // record lacks a key column (matched ignoring ASCII case).
  bool planRecord(RecordOperation operation, const std::string& table, const std::vector<std::string>& columns,
                  const std::vector<std::string>& primaryKey, ConflictResolution onConflict, RecordPlan& plan) noexcept;
  // Runs a write plan, `bind` binding the record's values into each
  // statement. Sets `*rowID` to the inserted row's rowid (0 when nothing
  // was inserted) and `*changed`: Insert, whether a row was inserted;
  // Update, true; Save, true when it inserted, false when it updated;
  // Delete, whether a row was deleted. An update that matches no row fails
  // with SQLITE_NOTFOUND naming the table and the key values. Refuses the
  // query plans (SQLITE_MISUSE): step their SQL instead.
  bool runRecord(const RecordPlan& plan, RecordBinder bind, void* context, std::int64_t* rowID, bool* changed) noexcept;
  bool runRecordStatement(const std::string& sql, const std::vector<int>& order, RecordBinder bind,
                          void* context) noexcept;
  // An INSERT of a plan: `*rowID` the new row's rowid (0 when none went
  // in), `*inserted` whether one did.
  bool runRecordInsert(const std::string& sql, const std::vector<int>& order, RecordBinder bind, void* context,
                       std::int64_t* rowID, bool* inserted) noexcept;
  bool failMissingRecord(const RecordPlan& plan, RecordBinder bind, void* context) noexcept;
  // The record templates (DatabaseRecords.hpp): records that error where
  // lastError() reports it; returns false.
  bool failRecord(int code, const std::string& message) noexcept;
  // rebuildFTS5Table and optimizeFTS5Table: FTS5's command `command`.
  bool runFTS5Command(const std::string& name, const char* command) noexcept;
  // Fails the call with `literal.failure()` (its SQL set to the literal's
  // text); SQLITE_MISUSE when closed.
  bool failInvalidLiteral(const SQL& literal) noexcept;
  // A plan for `T`'s records of the columns of `values`, made by planRecord
  // once per thread and shape (DatabaseRecords.hpp); null when planning failed.
  template <typename T>
  const RecordPlan* recordPlan(RecordOperation operation, const NamedValues* values, ConflictResolution onConflict);
  template <typename T>
  bool writeRecord(RecordOperation operation, const T& record, ConflictResolution onConflict, std::int64_t* rowID,
                   bool* changed);
  // Steps `statement` (bound), calling `each(T&&)` with each row read as a
  // `T` until it returns false.
  template <typename T, typename Each>
  bool stepRecords(Statement& statement, Each&& each);
  // Steps `statement` (bound) and sets `out` to its first row read as a
  // `T` (empty when there is none); `out` is unchanged on failure.
  template <typename T>
  bool stepFirstRecord(Statement& statement, std::optional<T>& out);

  std::shared_ptr<Connection> connection_;
};

template <typename Bind, typename OnRow, typename>
bool Database::execute(const std::string& sql, Bind&& bind, OnRow&& onRow) {
  Statement statement = cachedStatement(sql);
  if (!statement.isValid()) return false;
  if (!statement.startTrackingBinds()) return false;
  if (!bind(statement)) return finishEarlyStop();
  return statement.finishTrackingBinds() && statement.forEachRow(std::forward<OnRow>(onRow));
}

template <typename Body>
bool Database::inTransaction(Body&& body, TransactionKind kind) {
  return inScope(kind, false, std::forward<Body>(body));
}

template <typename Body>
bool Database::inSavepoint(Body&& body) {
  return inScope(TransactionKind::Deferred, true, std::forward<Body>(body));
}

template <typename Body>
bool Database::inScope(TransactionKind kind, bool asSavepoint, Body&& body) {
  std::string savepointName;
  if (!beginScope(kind, asSavepoint, savepointName)) return false;
  bool commit = false;
  try {
    commit = body(*this);
  } catch (...) {
    finishScope(false, savepointName);
    throw;
  }
  return finishScope(commit, savepointName) && commit;
}

template <typename Body>
bool Database::forEachRow(const std::string& sql, const std::vector<Value>& arguments, Body&& body) {
  Statement statement = cachedStatementForArguments(sql.data(), sql.size());
  return statement.isValid() && statement.bind(arguments) && statement.forEachRow(std::forward<Body>(body));
}

template <typename Body>
bool Database::forEachRow(const std::string& sql, const NamedValues& arguments, Body&& body) {
  Statement statement = cachedStatementForArguments(sql.data(), sql.size());
  return statement.isValid() && statement.bind(arguments) && statement.forEachRow(std::forward<Body>(body));
}

template <typename OnRow>
bool Database::executeScript(const std::string& sql, OnRow&& onRow) {
  std::size_t offset = 0;
  for (;;) {
    Statement statement = prepareNext(sql, offset);
    if (!statement.isValid()) return !lastError().isError();
    bool stopped = false;
    const bool ok = statement.forEachRow([&](const RowView& row) {
      if constexpr (std::is_same_v<std::invoke_result_t<OnRow&, const RowView&>, bool>) {
        stopped = !onRow(row);
        return !stopped;
      } else {
        onRow(row);
        return true;
      }
    });
    if (!ok) return false;
    if (stopped) return true;
  }
}

}  // namespace sqlitebridge

// The record templates' definitions, and the variadic execute's.
#include "DatabaseRecords.hpp"
