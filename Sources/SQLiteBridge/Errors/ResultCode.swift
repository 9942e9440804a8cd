import SQLiteBridgeCore

/// An SQLite result code, primary (`.constraint`) or extended
/// (`.constraintUnique`), typed. Errors carry both: `DatabaseError`'s
/// `resultCode` and `extendedResultCode`. Match errors with `catch`:
///
/// ```swift
/// do { try db.execute("INSERT …") }
/// catch ResultCode.constraintUnique { … }   // only that extended code
/// catch ResultCode.constraint { … }         // any other constraint failure
/// ```
///
/// The values and names are the C++ core's (`sqlitebridge::ResultCode`,
/// `resultCodeName`).
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The number SQLite uses.
  public let rawValue: Int32

  /// The code with number `rawValue`, whether SQLite defines it or not.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  init(_ code: sqlitebridge.ResultCode) { rawValue = code.rawValue }

  /// The primary code of an extended one (`.constraint` for
  /// `.constraintUnique`); a primary code is its own.
  public var primary: ResultCode { ResultCode(rawValue: sqlitebridge.primaryResultCode(rawValue)) }

  /// SQLite's name and the number: "SQLITE_CONSTRAINT_UNIQUE (2067)";
  /// "SQLITE_UNKNOWN (…)" for a number SQLite does not define.
  public var description: String {
    guard let name = sqlitebridge.resultCodeName(rawValue) else { return "SQLITE_UNKNOWN (\(rawValue))" }
    return "\(String(cString: name)) (\(rawValue))"
  }

  // MARK: Primary codes

  /// `SQLITE_OK` (0): success; no error carries it.
  public static let ok = ResultCode(.OK)
  /// `SQLITE_ERROR` (1): an SQL error (syntax, no such table or column) or a failure with no more specific code.
  public static let error = ResultCode(.Error)
  /// `SQLITE_INTERNAL` (2): an internal malfunction of SQLite.
  public static let `internal` = ResultCode(.Internal)
  /// `SQLITE_PERM` (3): the requested access mode cannot be provided.
  public static let permission = ResultCode(.Perm)
  /// `SQLITE_ABORT` (4): an operation was aborted, for example by a rollback.
  public static let abort = ResultCode(.Abort)
  /// `SQLITE_BUSY` (5): another connection held a lock past the busy timeout.
  public static let busy = ResultCode(.Busy)
  /// `SQLITE_LOCKED` (6): a conflict within the same connection, or a table of a shared cache is locked.
  public static let locked = ResultCode(.Locked)
  /// `SQLITE_NOMEM` (7): out of memory.
  public static let noMemory = ResultCode(.NoMem)
  /// `SQLITE_READONLY` (8): a write on a read-only connection or file.
  public static let readOnly = ResultCode(.ReadOnly)
  /// `SQLITE_INTERRUPT` (9): the statement was interrupted (`interrupt()`).
  public static let interrupt = ResultCode(.Interrupt)
  /// `SQLITE_IOERR` (10): the operating system reported an I/O error.
  public static let ioError = ResultCode(.IOErr)
  /// `SQLITE_CORRUPT` (11): the database file is damaged.
  public static let corrupt = ResultCode(.Corrupt)
  /// `SQLITE_NOTFOUND` (12): here, an update of a record whose row does not exist.
  public static let notFound = ResultCode(.NotFound)
  /// `SQLITE_FULL` (13): the disk (or the database's size limit) is full.
  public static let full = ResultCode(.Full)
  /// `SQLITE_CANTOPEN` (14): the file cannot be opened or created, or a database name is not allowed.
  public static let cantOpen = ResultCode(.CantOpen)
  /// `SQLITE_PROTOCOL` (15): a locking protocol error (WAL).
  public static let protocolError = ResultCode(.Protocol)
  /// `SQLITE_EMPTY` (16): not used by SQLite today.
  public static let empty = ResultCode(.Empty)
  /// `SQLITE_SCHEMA` (17): the schema changed under a statement.
  public static let schema = ResultCode(.Schema)
  /// `SQLITE_TOOBIG` (18): a string or blob is too large.
  public static let tooBig = ResultCode(.TooBig)
  /// `SQLITE_CONSTRAINT` (19): a constraint failed (`UNIQUE`, `NOT NULL`, `CHECK`, primary or foreign key).
  public static let constraint = ResultCode(.Constraint)
  /// `SQLITE_MISMATCH` (20): a value does not convert to the type asked for.
  public static let mismatch = ResultCode(.Mismatch)
  /// `SQLITE_MISUSE` (21): the library was used wrongly (a closed database, several statements given to `execute`, a reentrant call).
  public static let misuse = ResultCode(.Misuse)
  /// `SQLITE_NOLFS` (22): large files are not supported.
  public static let noLFS = ResultCode(.NoLFS)
  /// `SQLITE_AUTH` (23): the authorizer refused the statement.
  public static let authorization = ResultCode(.Auth)
  /// `SQLITE_FORMAT` (24): not used by SQLite today.
  public static let format = ResultCode(.Format)
  /// `SQLITE_RANGE` (25): a wrong argument count or parameter name, or a column that is not there.
  public static let range = ResultCode(.Range)
  /// `SQLITE_NOTADB` (26): the file is not a database, or the encryption key is wrong.
  public static let notADatabase = ResultCode(.NotADB)
  /// `SQLITE_NOTICE` (27): a notice from the log; no call fails with it.
  public static let notice = ResultCode(.Notice)
  /// `SQLITE_WARNING` (28): a warning from the log; no call fails with it.
  public static let warning = ResultCode(.Warning)
  /// `SQLITE_ROW` (100): a step produced a row; no call fails with it.
  public static let row = ResultCode(.Row)
  /// `SQLITE_DONE` (101): a statement finished; no call fails with it.
  public static let done = ResultCode(.Done)

  // MARK: Extended codes users match on (SQLite's numbers)

  /// A UNIQUE constraint failed (2067).
  public static let constraintUnique = ResultCode(rawValue: 2067)
  /// A PRIMARY KEY constraint failed (1555).
  public static let constraintPrimaryKey = ResultCode(rawValue: 1555)
  /// A foreign key constraint failed (787).
  public static let constraintForeignKey = ResultCode(rawValue: 787)
  /// A NOT NULL constraint failed (1299).
  public static let constraintNotNull = ResultCode(rawValue: 1299)
  /// A CHECK constraint failed (275).
  public static let constraintCheck = ResultCode(rawValue: 275)
  /// A commit was vetoed (531): SQLite's commit hook asked for a rollback,
  /// as a `TransactionObserver` does when `databaseWillCommit()` throws
  /// anything but a `DatabaseError`.
  public static let constraintCommitHook = ResultCode(rawValue: 531)
  /// A WAL read transaction cannot be upgraded to a write: its snapshot is
  /// stale (517).
  public static let busySnapshot = ResultCode(rawValue: 517)
  /// The database file was moved or renamed while open (1032).
  public static let readOnlyDatabaseMoved = ResultCode(rawValue: 1032)
  /// `SQLITE_ABORT_ROLLBACK` (516): the transaction was rolled back. A
  /// `ClusterDatabase` reports it for a statement of a transaction whose
  /// connection to the leader went away before COMMIT: nothing of the
  /// transaction was committed, and every statement but COMMIT and ROLLBACK
  /// fails with it until one of them ends the transaction on the client too.
  public static let abortRollback = ResultCode(rawValue: 516)

  // MARK: dqlite's extended codes (a ClusterDatabase's errors)

  /// `SQLITE_IOERR_NOT_LEADER` (10250, dqlite's): the node asked is not the
  /// cluster's leader, so it did not run the request. A `ClusterDatabase`
  /// sends such a request again to the new leader itself; it reaches the
  /// caller only when no node knows of a leader (`ClusterDatabase.leader()`
  /// then answers nil).
  public static let ioErrorNotLeader = ResultCode(rawValue: 10250)
  /// `SQLITE_IOERR_LEADERSHIP_LOST` (10506, dqlite's): the leader was lost
  /// after a write was sent, so it may or may not have been applied; the
  /// message starts "outcome in doubt". A `ClusterDatabase` never sends such
  /// a write again: check whether it was applied before repeating it.
  public static let ioErrorLeadershipLost = ResultCode(rawValue: 10506)
}

extension ResultCode {
  /// `catch ResultCode.constraint { … }` matches any constraint error;
  /// `catch ResultCode.constraintUnique { … }` only that extended code;
  /// false for an error that is not a `DatabaseError`.
  public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
    guard let error = error as? DatabaseError else { return false }
    return sqlitebridge.resultCodeMatches(pattern.rawValue, error.extendedCode)
  }
}

extension DatabaseError {
  /// The primary code, typed (`.constraint` for a UNIQUE violation).
  public var resultCode: ResultCode { ResultCode(rawValue: code) }
  /// The extended code, typed (`.constraintUnique` for a UNIQUE violation;
  /// the primary code when SQLite has nothing more specific).
  public var extendedResultCode: ResultCode { ResultCode(rawValue: extendedCode) }
}
