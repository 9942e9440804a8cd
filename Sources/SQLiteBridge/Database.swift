import CxxStdlib
import Foundation
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// One SQLite connection, backed by the C++ `sqlitebridge::Database`.
///
/// Every failing call throws a `DatabaseError` carrying SQLite's result code,
/// extended code, message and SQL. A `Database` is used from one thread (or
/// task) at a time; it is not `Sendable`: share one through a
/// `DatabaseQueue` or `DatabasePool`.
public final class Database {
  /// Unchecked: a `Database` is used by one thread at a time, and the
  /// dynamic exclusivity check on every access would cost more than a
  /// whole cached statement lookup.
  @exclusivity(unchecked) var core: sqlitebridge.Database
  /// What `interrupt()` reaches from another thread without touching `core`.
  let interruptHandle: sqlitebridge.interop.InterruptHandle
  /// The record statements planned so far (see `RecordPlanCache`).
  let recordPlans = RecordPlanCache()

  /// Opens the database called `name` in `location.documentsDirectory`.
  ///
  /// On first use it copies the seed `bundleDirectory/seedName` (see
  /// ``DatabaseLocation/seedName``; by default `name`) when that exists
  /// (atomically), otherwise creates the database and runs `createSQL` (any
  /// number of statements, without BEGIN/COMMIT of its own) in one
  /// transaction; a failing script leaves no
  /// file behind. Later opens reuse the existing file and neither copy nor
  /// run the script again. A first open also removes the temporary files
  /// (`.sqlitebridge-*.tmp*`) an earlier one left in the documents directory
  /// when its process was killed midway: those of a process that is gone,
  /// untouched for a minute, and any untouched for a day.
  ///
  /// - Throws: `DatabaseError` with `.cantOpen` when `name` is
  ///   empty, `.` or `..`, holds `/`, `\` or NUL, is longer than 247 bytes
  ///   of UTF-8 (so that SQLite's `<name>-journal` fits a file name), ends in
  ///   `-journal`, `-wal` or `-shm` (any case: SQLite would take the file for
  ///   another database's companion and overwrite it) or starts with
  ///   `.sqlitebridge-` (our temporary files), when `location.seedName` is
  ///   set and breaks the same rules ("invalid seed name …"), when a
  ///   directory of `location` holds NUL, or when the documents
  ///   directory is missing or not writable; `.notADatabase` when the
  ///   existing file is not a database; the script's error when `createSQL`
  ///   fails; `.ioError` or `.full` naming what failed when a file or
  ///   directory cannot be written or synced (nothing is then published; the
  ///   next open tries again); `.busy` when another connection holds a lock on the
  ///   existing file for longer than `configuration.busyTimeout` (5 s by
  ///   default).
  public init(
    name: String, createSQL: String? = nil, location: DatabaseLocation = .default,
    configuration: Configuration = .init()
  ) throws {
    core = sqlitebridge.Database(std.string(name), std.string(createSQL ?? ""), location.cxx, configuration.cxx)
    interruptHandle = .of(core)
    guard core.isOpen() else { throw DatabaseError(core.lastError()) }
  }

  /// Opens the file at `path` (":memory:" for an in-memory database) in
  /// `mode`.
  ///
  /// - Throws: `DatabaseError` with `.cantOpen` when the file
  ///   cannot be opened or created or `path` holds NUL (never cut short
  ///   there), `.notADatabase` when it is not a database, `.busy` when
  ///   another connection holds a lock on it for longer
  ///   than the busy timeout (5 s: every connection waits that long before
  ///   its first read of the file).
  public init(path: String, mode: OpenMode = .readWriteCreate) throws {
    core = sqlitebridge.Database.open(std.string(path), mode.cxx)
    interruptHandle = .of(core)
    guard core.isOpen() else { throw DatabaseError(core.lastError()) }
  }

  /// Opens (or creates) the file at `path` for reading and writing, set up
  /// by `configuration`: its busy timeout already applies to the open, foreign
  /// keys are enforced unless `foreignKeysEnabled` is false, and `readOnly`
  /// opens the file read-only (never created: `.cantOpen` when missing);
  /// then the open options (`journalMode`, `synchronous`, `noFollowSymlinks`,
  /// `uriFilenames`, `sharedCacheName`) apply, each failing the open as
  /// `Configuration` says.
  ///
  /// - Throws: `DatabaseError`, as `init(path:mode:)`, or as an open option
  ///   says.
  public init(path: String, configuration: Configuration) throws {
    core = sqlitebridge.Database.open(std.string(path), configuration.cxx)
    interruptHandle = .of(core)
    guard core.isOpen() else { throw DatabaseError(core.lastError()) }
  }

  /// The connection a `DatabaseQueue` or `DatabasePool` lends a block.
  init(lent core: consuming sqlitebridge.Database) {
    self.core = core
    interruptHandle = .of(self.core)
  }

  /// The database file's path as opened ("" for an in-memory database and
  /// once closed).
  public var path: String { String(core.path()) }

  /// True until `close()` is called.
  public var isOpen: Bool { core.isOpen() }

  /// Closes the connection now, rolling back a transaction left open
  /// (SQLite's rule). Afterwards every call throws `DatabaseError` with code
  /// 21 (SQLITE_MISUSE, "the database is not open") and changes nothing.
  /// Never fails; closing a closed database does nothing. Without a call,
  /// the connection closes when the `Database` is released.
  public func close() {
    core.close()
  }

  /// Makes the statement running now on this connection throw
  /// `.interrupt` (a write's transaction then rolls back: SQLite's rule).
  /// The only `Database` method safe to call from another thread, whatever
  /// this one is doing (closing included). Does nothing when no statement
  /// runs: a statement that starts afterwards is not interrupted.
  public func interrupt() {
    interruptHandle.interrupt()
  }

  /// The error the core reported for the call that just failed.
  var lastError: DatabaseError { DatabaseError(core.lastError()) }

  // MARK: Running SQL

  /// Runs exactly one statement with `arguments` bound to its `?`, `?NNN`
  /// (and, positionally, named) parameters, and returns every row as a
  /// dictionary keyed by column name (the leftmost column wins when names
  /// repeat; use `rows` to keep them all).
  ///
  /// - Throws: `DatabaseError` on a syntax or constraint error, with `.misuse`
  ///   (SQLITE_MISUSE) when SQL other than whitespace, comments and
  ///   semicolons follows the statement (never silently dropped; a NUL
  ///   character counts, even in a comment), and with
  ///   `.range` when the argument count does not match the
  ///   statement's parameters.
  @discardableResult
  public func execute(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> [[String: DatabaseValue]] {
    var statement = try prepared(sql, arguments)
    return try dictionaries(&statement)
  }

  /// Runs exactly one statement, like `execute`, and returns its rows with
  /// every column kept in order.
  ///
  /// - Throws: `DatabaseError`, as `execute`.
  public func rows(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> [Row] {
    var statement = try prepared(sql, arguments)
    return try rows(&statement)
  }

  // MARK: Schema

  /// Whether `table` (a table or a view) has a column named `column` (ASCII
  /// case-insensitive; hidden and generated columns included).
  ///
  /// `table` is found by the core's name rule, the same for every schema
  /// call: the name as it is first, in SQLite's search order (temp, main,
  /// attached schemas); only when nothing is called that does a leading
  /// `schema.` for one of the connection's schemas qualify it. So `"main.v"`
  /// is view `v` of main, unless a table or view is itself called "main.v".
  ///
  /// - Throws: `DatabaseError` with `.error` ("no such table") when the table
  ///   does not exist.
  public func hasTableColumn(_ table: String, _ column: String) throws -> Bool {
    let found = core.hasTableColumn(std.string(table), std.string(column))
    if !found, core.lastError().code != 0 { throw lastError }
    return found
  }

  /// The names of `table`'s columns in declaration order.
  ///
  /// `table` (a table or a view) is found as for ``hasTableColumn(_:_:)``:
  /// the name as it is first, then `schema.name`.
  ///
  /// - Throws: `DatabaseError` with `.error` ("no such table") when the table
  ///   does not exist.
  public func tableColumns(_ table: String) throws -> [String] {
    var columns = sqlitebridge.interop.StringList()
    guard core.tableColumns(std.string(table), &columns) else { throw lastError }
    return (0..<columns.size()).map { String(columns[$0]) }
  }

  /// Changes the schema of table `name` by rebuilding it in one transaction
  /// (a savepoint inside an open transaction): the table is renamed
  /// `<name>_old`, `create` makes the new `<name>`, `insert` copies rows from
  /// `<name>_old` (when empty, the columns both tables share are copied),
  /// the old table is dropped, its indexes and triggers are recreated, and
  /// foreign keys are checked when enforced.
  ///
  /// - Throws: `DatabaseError` when any step fails; everything is then
  ///   rolled back and the old table, its rows, indexes and triggers are
  ///   untouched. Code 1 when `name` does not exist, when `<name>_old`
  ///   already exists, or when `create` does not create `<name>`; extended
  ///   `.constraintForeignKey` when the new rows break a
  ///   foreign key.
  public func updateTable(create: String, insert: String = "", name: String) throws {
    guard core.updateTable(std.string(create), std.string(insert), std.string(name)) else { throw lastError }
  }

  // MARK: State

  /// Rowid of the most recent successful INSERT on this connection.
  public var lastInsertRowID: Int64 { core.lastInsertRowId() }

  /// Rows changed by the most recent INSERT, UPDATE or DELETE.
  public var changes: Int { Int(core.changes()) }

  /// True while a transaction is open.
  public var isInTransaction: Bool { core.isInTransaction() }

  /// Makes statements wait up to `milliseconds` for another connection's
  /// lock before failing with `.busy`; 0 (or less) fails at once.
  /// Every connection starts with `Configuration.busyTimeout` (5 s by
  /// default).
  ///
  /// - Throws: `DatabaseError` with `.misuse` when closed.
  public func setBusyTimeout(milliseconds: Int) throws {
    guard core.setBusyTimeout(Int32(clamping: milliseconds)) else { throw lastError }
  }

  /// The busy timeout: the one set at open (5 s by default) or by the last
  /// `setBusyTimeout` (zero when that was zero or less); zero once closed.
  public var busyTimeout: Duration { .milliseconds(core.busyTimeout()) }

  // MARK: Statements

  /// Lends the cached statement for `sql` (preparing it on first use; the
  /// core checks it is exactly one statement) and binds `arguments`,
  /// checking their count in the core.
  func prepared(_ sql: String, _ arguments: [DatabaseValue]) throws -> sqlitebridge.Statement {
    var statement = sqlitebridge.Statement()
    try lend(sql, into: &statement)
    try statement.bindAll(arguments)
    return statement
  }

  /// Steps `statement`: true when a row is ready, false when done.
  func step(_ statement: inout sqlitebridge.Statement) throws -> Bool {
    switch statement.step() {
    case .Row: return true
    case .Done: return false
    default: throw statement.failure
    }
  }

  /// Steps through every row, handing `body` a view of each. The columns
  /// are read after the first step, so a statement SQLite re-prepared after
  /// a schema change reports its new columns.
  @usableFromInline
  func forEachRow(of statement: inout sqlitebridge.Statement, _ body: (RowView) throws -> Void) throws {
    try withUnsafeMutablePointer(to: &statement) { pointer in
      guard try step(&pointer.pointee) else { return }
      // One view for every row: the column table is neither retained nor
      // released per row.
      let row = RowView(statement: UnsafePointer(pointer), columns: ColumnTable(pointer.pointee))
      repeat {
        try body(row)
      } while try step(&pointer.pointee)
    }
  }

  /// Every row of `statement` as a dictionary (leftmost duplicate wins).
  @usableFromInline
  func dictionaries(_ statement: inout sqlitebridge.Statement) throws -> [[String: DatabaseValue]] {
    // A statement without result columns (INSERT, UPDATE, ...) just runs.
    if statement.columnCount() == 0 {
      while try step(&statement) {}
      return []
    }
    var result: [[String: DatabaseValue]] = []
    try forEachRow(of: &statement) { row in
      let values = row.statement.pointee.currentValues(count: row.columns.count)
      result.append(row.columns.dictionaryTemplate.mapValues { values[$0] })
    }
    return result
  }

  /// Every row of `statement`, all columns kept.
  func rows(_ statement: inout sqlitebridge.Statement) throws -> [Row] {
    var result: [Row] = []
    try forEachRow(of: &statement) { result.append($0.copy()) }
    return result
  }
}
