import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

extension Database {
  /// Runs exactly one statement with named arguments (`:name`, `@name`,
  /// `$name`) and returns its rows as dictionaries, like
  /// `execute(_:_:)`.
  ///
  /// - Throws: `DatabaseError` with `.range`, naming the
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
    var statement = sqlitebridge.Statement()
    try lend(sql, into: &statement)
    try statement.bindAll(arguments)
    return statement
  }
}

extension sqlitebridge.Statement {
  /// Binds `arguments` by name; the core matches names to parameters and
  /// reports what does not fit.
  mutating func bindAll(_ arguments: NamedArguments) throws {
    guard sqlitebridge.interop.StatementAccess.beginNamedArguments(&self) else { throw failure }
    let elements = arguments.elements
    for position in elements.indices {
      let match = match(elements[position].0)
      guard match.count > 0 else { throw failure }
      for filled in 0..<match.count where !bind(elements[position].1, at: match.index(filled)) {
        throw failure
      }
    }
    guard sqlitebridge.interop.StatementAccess.endNamedArguments(&self) else { throw failure }
  }

  /// The parameters the argument `name` fills (native strings lend their
  /// UTF-8 without a copy).
  @inline(__always)
  mutating func match(_ name: String) -> sqlitebridge.interop.ParameterMatch {
    if let match = name.utf8.withContiguousStorageIfAvailable({
      sqlitebridge.interop.StatementAccess.matchNamedArgument(&self, $0.baseAddress, $0.count)
    }) {
      return match
    }
    var copy = name
    return copy.withUTF8 { sqlitebridge.interop.StatementAccess.matchNamedArgument(&self, $0.baseAddress, $0.count) }
  }
}
