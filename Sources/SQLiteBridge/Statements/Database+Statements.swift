import CxxStdlib
import SQLiteBridgeCore

extension Database {
  /// Prepares exactly one statement, outside the statement cache, to run it
  /// as often as needed (`Statement.execute`, `rows`, `forEachRow`).
  ///
  /// - Throws: `DatabaseError` on a syntax or schema error (`.error`), and
  ///   with `.misuse` for SQL holding no statement or SQL after the first
  ///   one (other than whitespace, comments and semicolons).
  public func makeStatement(_ sql: String) throws -> Statement {
    let statement = core.prepare(std.string(sql))
    guard statement.isValid() else { throw lastError }
    return Statement(database: self, statement: statement)
  }

  /// Prepares every statement of a script, in order, one `Statement` each.
  /// Each is prepared against the schema as it is now: a script whose later
  /// statements use what its earlier ones create fails here (run it with
  /// `executeScript`, or make its statements one at a time).
  ///
  /// - Throws: `DatabaseError` naming the statement that does not prepare.
  public func makeStatements(_ script: String) throws -> [Statement] {
    let text = std.string(script)
    var offset = 0
    var statements: [Statement] = []
    while true {
      let statement = core.prepareNext(text, &offset)
      guard statement.isValid() else {
        if core.lastError().code != 0 { throw lastError }
        return statements
      }
      statements.append(Statement(database: self, statement: statement))
    }
  }

  /// The first row `sql` returns with `arguments`, or nil when it returns
  /// none. Stops after it: the statement is reset at once, so nothing keeps
  /// running (or holding a lock) afterwards.
  ///
  /// - Throws: `DatabaseError`, as `execute(_:_:)`.
  public func firstRow(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> Row? {
    var statement = try prepared(sql, arguments)
    guard try step(&statement) else { return nil }
    let count = statement.columnCount()
    return Row(
      columnNames: (0..<count).map { String(statement.columnName($0)) },
      values: statement.currentValues(count: count))
  }

  /// The rows of `sql` one at a time: `while let row = try cursor.next() {
  /// … }`; `break` stops early with no error, and nothing keeps running once
  /// the cursor is released.
  ///
  /// - Throws: `DatabaseError`, as `execute(_:_:)` (before the first row);
  ///   `next()` throws a failing step's error.
  public func cursor(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> RowCursor {
    let statement = try prepared(sql, arguments)
    return RowCursor(database: self, statement: statement)
  }
}
