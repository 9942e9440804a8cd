import SQLiteBridgeCore

// Overloads taking `StatementArguments`, for arguments given as Swift values
// (`[id, name, date]`, `["id": id]`). They are disfavored so that literals
// every element of which is a `DatabaseValue` literal keep choosing the
// `[DatabaseValue]` and `NamedArguments` overloads, without ambiguity.

extension Database {
  /// Runs exactly one statement with `arguments` bound, as
  /// `execute(_:_:)` does with `[DatabaseValue]` (positional) or
  /// `NamedArguments` (named).
  ///
  /// - Throws: `DatabaseError`, as those overloads do: `.range`
  ///   (SQLITE_RANGE) for a wrong argument count or an unmatched name, the
  ///   statement's error otherwise.
  @_disfavoredOverload
  @discardableResult
  public func execute(_ sql: String, _ arguments: StatementArguments) throws -> [[String: DatabaseValue]] {
    var statement = try prepared(sql, arguments)
    return try dictionaries(&statement)
  }

  /// Runs exactly one statement with `arguments` bound and returns its rows,
  /// every column kept.
  ///
  /// - Throws: `DatabaseError`, as `execute(_:_:)`.
  @_disfavoredOverload
  public func rows(_ sql: String, _ arguments: StatementArguments) throws -> [Row] {
    var statement = try prepared(sql, arguments)
    return try rows(&statement)
  }

  /// Runs exactly one statement with `arguments` bound, handing `body` each
  /// row as it is stepped (see `forEachRow(_:_:_:)`).
  ///
  /// - Throws: `DatabaseError`, as `execute(_:_:)`, or whatever `body`
  ///   throws (which stops the scan).
  @_disfavoredOverload
  public func forEachRow(_ sql: String, _ arguments: StatementArguments, _ body: (RowView) throws -> Void) throws {
    var statement = try prepared(sql, arguments)
    try forEachRow(of: &statement, body)
  }

  /// The cached statement for `sql` with `arguments` bound.
  func prepared(_ sql: String, _ arguments: StatementArguments) throws -> sqlitebridge.Statement {
    switch arguments.storage {
    case .positional(let values): return try prepared(sql, values)
    case .named(let named): return try prepared(sql, named)
    }
  }
}
