import CxxStdlib
import SQLiteBridgeCore

extension Database {
  /// Runs a script of any number of statements (migrations, seed data),
  /// ignoring rows. Stops at the first failing statement; earlier ones stay
  /// applied unless the script holds its own transaction.
  ///
  /// - Throws: `DatabaseError` naming the failing statement in `sql`.
  public func executeScript(_ sql: String) throws {
    guard core.executeScript(std.string(sql)) else { throw lastError }
  }

  /// Runs a script of any number of statements, handing `body` every row
  /// any of them returns (FMDB's `executeStatements(_:resultBlock:)`).
  ///
  /// - Throws: `DatabaseError` naming the failing statement, or whatever
  ///   `body` throws (which stops the script).
  public func executeScript(_ sql: String, _ body: (RowView) throws -> Void) throws {
    let script = std.string(sql)
    var offset = 0
    while true {
      var statement = core.prepareNext(script, &offset)
      guard statement.isValid() else {
        if core.lastError().code != 0 { throw lastError }
        return
      }
      try forEachRow(of: &statement, body)
    }
  }

  /// Checks that `sql` is exactly one valid statement (syntax, tables and
  /// columns known, nothing after it) without running it.
  ///
  /// - Throws: `DatabaseError` as `execute(_:_:)` would before running.
  public func validateSQL(_ sql: String) throws {
    guard core.validate(std.string(sql)) else { throw lastError }
  }
}
