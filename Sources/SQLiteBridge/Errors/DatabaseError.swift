import CxxStdlib
import SQLiteBridgeCore

/// A failure reported by SQLite or by SQLiteBridge: the SQLite result code,
/// the extended code (`resultCode` and `extendedResultCode` type them:
/// `.constraint` and `.constraintUnique` for a UNIQUE violation), a message
/// and the SQL that was running (nil when none was). `catch
/// ResultCode.constraint { … }` matches on them.
public struct DatabaseError: Error, Sendable, Equatable {
  /// Primary SQLite result code, e.g. 19; typed as `resultCode`
  /// (`.constraint`).
  public let code: Int32
  /// Extended SQLite result code, e.g. 2067; typed as `extendedResultCode`
  /// (`.constraintUnique`).
  public let extendedCode: Int32
  /// What went wrong, in words.
  public let message: String
  /// The SQL being run when the error happened; nil when none was.
  public let sql: String?

  /// Makes an error; `extendedCode` defaults to `code`.
  public init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil) {
    self.code = code
    self.extendedCode = extendedCode ?? code
    self.message = message
    self.sql = sql
  }

  package init(_ error: sqlitebridge.Error) {
    let sql = String(error.sql)
    self.init(
      code: Int32(error.code), extendedCode: Int32(error.extendedCode), message: String(error.message),
      sql: sql.isEmpty ? nil : sql)
  }
}

extension DatabaseError: CustomStringConvertible {
  /// "SQLite error 19 (extended 2067): UNIQUE constraint failed: t.x — SQL: INSERT ..."
  public var description: String {
    var text = "SQLite error \(code)"
    if extendedCode != code { text += " (extended \(extendedCode))" }
    text += ": \(message)"
    if let sql { text += " — SQL: \(sql)" }
    return text
  }
}
