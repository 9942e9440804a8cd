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

  public static let ok = ResultCode(.OK)
  public static let error = ResultCode(.Error)
  public static let `internal` = ResultCode(.Internal)
  public static let permission = ResultCode(.Perm)
  public static let abort = ResultCode(.Abort)
  public static let busy = ResultCode(.Busy)
  public static let locked = ResultCode(.Locked)
  public static let noMemory = ResultCode(.NoMem)
  public static let readOnly = ResultCode(.ReadOnly)
  public static let interrupt = ResultCode(.Interrupt)
  public static let ioError = ResultCode(.IOErr)
  public static let corrupt = ResultCode(.Corrupt)
  public static let notFound = ResultCode(.NotFound)
  public static let full = ResultCode(.Full)
  public static let cantOpen = ResultCode(.CantOpen)
  public static let protocolError = ResultCode(.Protocol)
  public static let empty = ResultCode(.Empty)
  public static let schema = ResultCode(.Schema)
  public static let tooBig = ResultCode(.TooBig)
  public static let constraint = ResultCode(.Constraint)
  public static let mismatch = ResultCode(.Mismatch)
  public static let misuse = ResultCode(.Misuse)
  public static let noLFS = ResultCode(.NoLFS)
  public static let authorization = ResultCode(.Auth)
  public static let format = ResultCode(.Format)
  public static let range = ResultCode(.Range)
  public static let notADatabase = ResultCode(.NotADB)
  public static let notice = ResultCode(.Notice)
  public static let warning = ResultCode(.Warning)
  public static let row = ResultCode(.Row)
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
  /// A WAL read transaction cannot be upgraded to a write: its snapshot is
  /// stale (517).
  public static let busySnapshot = ResultCode(rawValue: 517)
  /// The database file was moved or renamed while open (1032).
  public static let readOnlyDatabaseMoved = ResultCode(rawValue: 1032)
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
