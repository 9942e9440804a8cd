import SQLiteBridgeCore

extension Database {
  /// Runs exactly one statement with named arguments (`:name`, `@name`,
  /// `$name`) and returns its rows as dictionaries, like
  /// `execute(_:_:)`.
  ///
  /// - Throws: `DatabaseError` with code 25 (SQLITE_RANGE), naming the
  ///   parameter, when a parameter has no argument, an argument matches no
  ///   parameter or is given twice, or the statement has positional
  ///   parameters; otherwise as `execute(_:_:)`.
  @discardableResult
  public func execute(_ sql: String, _ arguments: NamedArguments) throws -> [[String: DatabaseValue]] {
    var statement = try prepared(sql, arguments)
    return try dictionaries(&statement)
  }

  /// Runs exactly one statement with named arguments and returns its rows,
  /// every column kept.
  ///
  /// - Throws: `DatabaseError`, as `execute(_:_:)` with named arguments.
  public func rows(_ sql: String, _ arguments: NamedArguments) throws -> [Row] {
    var statement = try prepared(sql, arguments)
    return try rows(&statement)
  }

  /// Runs exactly one statement with named arguments, handing `body` each
  /// row as it is stepped (see `forEachRow(_:_:_:)`).
  public func forEachRow(_ sql: String, _ arguments: NamedArguments, _ body: (RowView) throws -> Void) throws {
    var statement = try prepared(sql, arguments)
    try forEachRow(of: &statement, body)
  }

  /// The cached statement for `sql` with `arguments` bound by name; the
  /// core matches names to parameters and reports what does not fit.
  func prepared(_ sql: String, _ arguments: NamedArguments) throws -> sqlitebridge.Statement {
    var statement = try cachedStatement(sql)
    guard statement.beginNamedArguments() else { throw lastError }
    for (name, value) in arguments.elements {
      var key = name
      let match = key.withUTF8 { statement.matchNamedArgument($0.baseAddress, $0.count) }
      guard match.count > 0 else { throw lastError }
      for position in 0..<match.count where !statement.bind(value, at: match.index(position)) {
        throw lastError
      }
    }
    guard statement.endNamedArguments() else { throw lastError }
    return statement
  }
}
