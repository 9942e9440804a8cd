import CxxStdlib
import SQLiteBridgeCore

// Running `SQL` literals: each entry point runs the literal's text with its
// arguments through the same path as its `(sql, arguments)` twin, after the
// literal's own check (an identifier holding NUL fails with `.misuse`
// before anything runs).

extension Database {
  /// Runs exactly one statement written as an `SQL` literal, with its
  /// arguments, and returns every row as a dictionary, as
  /// `execute(_:_:)` does.
  ///
  /// - Throws: `DatabaseError` as `execute(_:_:)` does, and with `.misuse`
  ///   naming it when an identifier in the literal held a NUL byte.
  @discardableResult
  public func execute(literal: SQL) throws -> [[String: DatabaseValue]] {
    try execute(literal.checkedSQL(), literal.arguments)
  }

  /// `rows(_:_:)` for an `SQL` literal: every column of every row kept.
  ///
  /// - Throws: `DatabaseError`, as `execute(literal:)`.
  public func rows(literal: SQL) throws -> [Row] {
    try rows(literal.checkedSQL(), literal.arguments)
  }

  /// `firstRow(_:_:)` for an `SQL` literal: the first row, or nil.
  ///
  /// - Throws: `DatabaseError`, as `execute(literal:)`.
  public func firstRow(literal: SQL) throws -> Row? {
    try firstRow(literal.checkedSQL(), literal.arguments)
  }

  /// `forEachRow(_:_:_:)` for an `SQL` literal: each row handed to `body`
  /// as it is stepped, read in place.
  ///
  /// - Throws: `DatabaseError`, as `execute(literal:)`, or what `body`
  ///   throws (which stops the run).
  public func forEachRow(literal: SQL, _ body: (RowView) throws -> Void) throws {
    try forEachRow(literal.checkedSQL(), literal.arguments, body)
  }

  /// Prepares an `SQL` literal as `makeStatement(_:)` does; each run of the
  /// statement that is given no arguments binds the literal's.
  ///
  /// - Throws: `DatabaseError` as `makeStatement(_:)` does, with `.range`
  ///   when the literal's arguments are not as many as the statement's
  ///   parameters (raw text with `?` of its own), and with `.misuse` naming
  ///   it when an identifier in the literal held a NUL byte.
  public func makeStatement(literal: SQL) throws -> Statement {
    var statement = core.prepare(std.string(try literal.checkedSQL()))
    guard statement.isValid() else { throw lastError }
    try statement.bindAll(literal.arguments)
    _ = statement.reset()
    return Statement(database: self, statement: statement, literalArguments: literal.arguments)
  }
}
