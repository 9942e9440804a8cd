import SQLiteBridgeCore

// Running SQL with arguments: one overload per call, taking
// `StatementArguments` (array and dictionary literals, or a value;
// `forEachRow` is in Database+Streaming.swift). The `[DatabaseValue]` and
// `NamedArguments` overloads these replace forward here for one release
// (Database+DeprecatedArguments.swift).

extension Database {
  /// Runs exactly one statement with `arguments` bound (positional ones to
  /// its `?`, `?NNN` and, positionally, named parameters; named ones to
  /// `:name`, `@name`, `$name`), and returns every row as a dictionary
  /// keyed by column name (the leftmost column wins when names repeat; use
  /// `rows` to keep them all).
  ///
  /// - Throws: `DatabaseError` on a syntax or constraint error, with `.misuse`
  ///   (SQLITE_MISUSE) when SQL other than whitespace, comments and
  ///   semicolons follows the statement (never silently dropped; a NUL
  ///   character counts, even in a comment), and with `.range` when the
  ///   argument count does not match the statement's parameters, or, for
  ///   named arguments, when a parameter has no argument, an argument
  ///   matches no parameter or is given twice, or the statement has
  ///   positional parameters (the message names the parameter).
  @discardableResult
  public func execute(_ sql: String, _ arguments: StatementArguments = []) throws -> [[String: DatabaseValue]] {
    var statement = try prepared(sql, arguments)
    return try dictionaries(&statement)
  }

  /// Runs exactly one statement, like `execute`, and returns its rows with
  /// every column kept in order.
  ///
  /// - Throws: `DatabaseError`, as `execute(_:_:)`.
  public func rows(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
    var statement = try prepared(sql, arguments)
    return try rows(&statement)
  }

  /// The cached statement for `sql` with `arguments` bound, each kind by its
  /// own path (positional values in order; names through the statement's
  /// parameter table in the core).
  @inline(__always)
  func prepared(_ sql: String, _ arguments: StatementArguments) throws -> sqlitebridge.Statement {
    switch arguments.storage {
    case .positional(let values): return try prepared(sql, values)
    case .named(let named): return try prepared(sql, named)
    }
  }
}
