// The overloads that took `[DatabaseValue]` or `NamedArguments`, kept for
// one release so that a variable of either type still compiles: each
// forwards to its `StatementArguments` overload, which binds it by the same
// path (no conversion). Literals never pick them: they are disfavored, and
// the `[DatabaseValue]` ones are generic, so a literal is
// `StatementArguments`. Remove in the next release.


extension Database {
  /// `execute(_:_:)` with `[DatabaseValue]` (deprecated).
  ///
  /// - Throws: as `execute(_:_:)`.
  @available(*, deprecated, message: "pass StatementArguments(values), or write the values as a literal")
  @_disfavoredOverload @discardableResult
  public func execute(_ sql: String, _ arguments: some Collection<DatabaseValue>) throws -> [[String: DatabaseValue]] {
    try execute(sql, StatementArguments(Array(arguments)))
  }

  /// `execute(_:_:)` with `NamedArguments` (deprecated).
  ///
  /// - Throws: as `execute(_:_:)`.
  @available(*, deprecated, message: "pass StatementArguments(arguments), or write the names as a literal")
  @_disfavoredOverload @discardableResult
  public func execute(_ sql: String, _ arguments: NamedArguments) throws -> [[String: DatabaseValue]] {
    try execute(sql, StatementArguments(arguments))
  }

  /// `rows(_:_:)` with `[DatabaseValue]` (deprecated).
  ///
  /// - Throws: as `rows(_:_:)`.
  @available(*, deprecated, message: "pass StatementArguments(values), or write the values as a literal")
  @_disfavoredOverload
  public func rows(_ sql: String, _ arguments: some Collection<DatabaseValue>) throws -> [Row] {
    try rows(sql, StatementArguments(Array(arguments)))
  }

  /// `rows(_:_:)` with `NamedArguments` (deprecated).
  ///
  /// - Throws: as `rows(_:_:)`.
  @available(*, deprecated, message: "pass StatementArguments(arguments), or write the names as a literal")
  @_disfavoredOverload
  public func rows(_ sql: String, _ arguments: NamedArguments) throws -> [Row] {
    try rows(sql, StatementArguments(arguments))
  }

  /// `forEachRow(_:_:_:)` with `[DatabaseValue]` (deprecated).
  ///
  /// - Throws: as `forEachRow(_:_:_:)`.
  @available(*, deprecated, message: "pass StatementArguments(values), or write the values as a literal")
  @_disfavoredOverload
  public func forEachRow(
    _ sql: String, _ arguments: some Collection<DatabaseValue>, _ body: (RowView) throws -> Void
  ) throws {
    try forEachRow(sql, StatementArguments(Array(arguments)), body)
  }

  /// `forEachRow(_:_:_:)` with `NamedArguments` (deprecated).
  ///
  /// - Throws: as `forEachRow(_:_:_:)`.
  @available(*, deprecated, message: "pass StatementArguments(arguments), or write the names as a literal")
  @_disfavoredOverload
  public func forEachRow(_ sql: String, _ arguments: NamedArguments, _ body: (RowView) throws -> Void) throws {
    try forEachRow(sql, StatementArguments(arguments), body)
  }

  // MARK: Decodable

  /// `fetch(_:_:_:)` of a `Decodable` with `[DatabaseValue]` (deprecated).
  ///
  /// - Throws: as `fetch(_:_:_:)`.
  @available(*, deprecated, message: "pass StatementArguments(values), or write the values as a literal")
  @_disfavoredOverload
  public func fetch<T: Decodable>(
    _ type: T.Type, _ sql: String, _ arguments: some Collection<DatabaseValue>,
    keyDecoding: KeyDecodingStrategy = .useDefaultKeys
  ) throws -> [T] {
    try fetch(type, sql, StatementArguments(Array(arguments)), keyDecoding: keyDecoding)
  }

  /// `fetch(_:_:_:)` of a `Decodable` with `NamedArguments` (deprecated).
  ///
  /// - Throws: as `fetch(_:_:_:)`.
  @available(*, deprecated, message: "pass StatementArguments(arguments), or write the names as a literal")
  @_disfavoredOverload
  public func fetch<T: Decodable>(
    _ type: T.Type, _ sql: String, _ arguments: NamedArguments, keyDecoding: KeyDecodingStrategy = .useDefaultKeys
  ) throws -> [T] {
    try fetch(type, sql, StatementArguments(arguments), keyDecoding: keyDecoding)
  }

  /// `fetchOne(_:_:_:)` of a `Decodable` with `[DatabaseValue]` (deprecated).
  ///
  /// - Throws: as `fetchOne(_:_:_:)`.
  @available(*, deprecated, message: "pass StatementArguments(values), or write the values as a literal")
  @_disfavoredOverload
  public func fetchOne<T: Decodable>(
    _ type: T.Type, _ sql: String, _ arguments: some Collection<DatabaseValue>,
    keyDecoding: KeyDecodingStrategy = .useDefaultKeys
  ) throws -> T? {
    try fetchOne(type, sql, StatementArguments(Array(arguments)), keyDecoding: keyDecoding)
  }

  /// `fetchOne(_:_:_:)` of a `Decodable` with `NamedArguments` (deprecated).
  ///
  /// - Throws: as `fetchOne(_:_:_:)`.
  @available(*, deprecated, message: "pass StatementArguments(arguments), or write the names as a literal")
  @_disfavoredOverload
  public func fetchOne<T: Decodable>(
    _ type: T.Type, _ sql: String, _ arguments: NamedArguments, keyDecoding: KeyDecodingStrategy = .useDefaultKeys
  ) throws -> T? {
    try fetchOne(type, sql, StatementArguments(arguments), keyDecoding: keyDecoding)
  }

  // MARK: FetchableRecord

  /// `fetch(_:_:_:)` of a `FetchableRecord` with `[DatabaseValue]` (deprecated).
  ///
  /// - Throws: as `fetch(_:_:_:)`.
  @available(*, deprecated, message: "pass StatementArguments(values), or write the values as a literal")
  @inlinable @_disfavoredOverload
  public func fetch<T: FetchableRecord>(_ type: T.Type, _ sql: String, _ arguments: some Collection<DatabaseValue>)
    throws -> [T]
  {
    try fetch(type, sql, StatementArguments(Array(arguments)))
  }

  /// `fetch(_:_:_:)` of a `FetchableRecord` with `NamedArguments` (deprecated).
  ///
  /// - Throws: as `fetch(_:_:_:)`.
  @available(*, deprecated, message: "pass StatementArguments(arguments), or write the names as a literal")
  @inlinable @_disfavoredOverload
  public func fetch<T: FetchableRecord>(_ type: T.Type, _ sql: String, _ arguments: NamedArguments) throws -> [T] {
    try fetch(type, sql, StatementArguments(arguments))
  }

  /// `fetchOne(_:_:_:)` of a `FetchableRecord` with `[DatabaseValue]` (deprecated).
  ///
  /// - Throws: as `fetchOne(_:_:_:)`.
  @available(*, deprecated, message: "pass StatementArguments(values), or write the values as a literal")
  @inlinable @_disfavoredOverload
  public func fetchOne<T: FetchableRecord>(_ type: T.Type, _ sql: String, _ arguments: some Collection<DatabaseValue>)
    throws -> T?
  {
    try fetchOne(type, sql, StatementArguments(Array(arguments)))
  }

  /// `fetchOne(_:_:_:)` of a `FetchableRecord` with `NamedArguments` (deprecated).
  ///
  /// - Throws: as `fetchOne(_:_:_:)`.
  @available(*, deprecated, message: "pass StatementArguments(arguments), or write the names as a literal")
  @inlinable @_disfavoredOverload
  public func fetchOne<T: FetchableRecord>(_ type: T.Type, _ sql: String, _ arguments: NamedArguments) throws -> T? {
    try fetchOne(type, sql, StatementArguments(arguments))
  }

  /// `forEach(_:_:_:_:)` with `[DatabaseValue]` (deprecated).
  ///
  /// - Throws: as `forEach(_:_:_:_:)`.
  @available(*, deprecated, message: "pass StatementArguments(values), or write the values as a literal")
  @inlinable @_disfavoredOverload
  public func forEach<T: FetchableRecord>(
    _ type: T.Type, _ sql: String, _ arguments: some Collection<DatabaseValue>, _ body: (T) throws -> Void
  ) throws {
    try forEach(type, sql, StatementArguments(Array(arguments)), body)
  }

  /// `forEach(_:_:_:_:)` with `NamedArguments` (deprecated).
  ///
  /// - Throws: as `forEach(_:_:_:_:)`.
  @available(*, deprecated, message: "pass StatementArguments(arguments), or write the names as a literal")
  @inlinable @_disfavoredOverload
  public func forEach<T: FetchableRecord>(
    _ type: T.Type, _ sql: String, _ arguments: NamedArguments, _ body: (T) throws -> Void
  ) throws {
    try forEach(type, sql, StatementArguments(arguments), body)
  }

  // MARK: Decodable and FetchableRecord: init(row:) wins

  /// `fetch(_:_:_:)` through `init(row:)` with `[DatabaseValue]` (deprecated).
  ///
  /// - Throws: as `fetch(_:_:_:)`.
  @available(*, deprecated, message: "pass StatementArguments(values), or write the values as a literal")
  @inlinable @_disfavoredOverload
  public func fetch<T: Decodable & FetchableRecord>(
    _ type: T.Type, _ sql: String, _ arguments: some Collection<DatabaseValue>
  ) throws -> [T] {
    try fetch(type, sql, StatementArguments(Array(arguments)))
  }

  /// `fetch(_:_:_:)` through `init(row:)` with `NamedArguments` (deprecated).
  ///
  /// - Throws: as `fetch(_:_:_:)`.
  @available(*, deprecated, message: "pass StatementArguments(arguments), or write the names as a literal")
  @inlinable @_disfavoredOverload
  public func fetch<T: Decodable & FetchableRecord>(_ type: T.Type, _ sql: String, _ arguments: NamedArguments)
    throws -> [T]
  {
    try fetch(type, sql, StatementArguments(arguments))
  }

  /// `fetchOne(_:_:_:)` through `init(row:)` with `[DatabaseValue]` (deprecated).
  ///
  /// - Throws: as `fetchOne(_:_:_:)`.
  @available(*, deprecated, message: "pass StatementArguments(values), or write the values as a literal")
  @inlinable @_disfavoredOverload
  public func fetchOne<T: Decodable & FetchableRecord>(
    _ type: T.Type, _ sql: String, _ arguments: some Collection<DatabaseValue>
  ) throws -> T? {
    try fetchOne(type, sql, StatementArguments(Array(arguments)))
  }

  /// `fetchOne(_:_:_:)` through `init(row:)` with `NamedArguments` (deprecated).
  ///
  /// - Throws: as `fetchOne(_:_:_:)`.
  @available(*, deprecated, message: "pass StatementArguments(arguments), or write the names as a literal")
  @inlinable @_disfavoredOverload
  public func fetchOne<T: Decodable & FetchableRecord>(_ type: T.Type, _ sql: String, _ arguments: NamedArguments)
    throws -> T?
  {
    try fetchOne(type, sql, StatementArguments(arguments))
  }
}

extension Statement {
  /// `execute(_:)` with `[DatabaseValue]` (deprecated).
  ///
  /// - Throws: as `execute(_:)`.
  @available(*, deprecated, message: "pass StatementArguments(values), or write the values as a literal")
  @_disfavoredOverload @discardableResult
  public func execute(_ arguments: some Collection<DatabaseValue>) throws -> [[String: DatabaseValue]] {
    try execute(StatementArguments(Array(arguments)))
  }

  /// `execute(_:)` with `NamedArguments` (deprecated).
  ///
  /// - Throws: as `execute(_:)`.
  @available(*, deprecated, message: "pass StatementArguments(arguments), or write the names as a literal")
  @_disfavoredOverload @discardableResult
  public func execute(_ arguments: NamedArguments) throws -> [[String: DatabaseValue]] {
    try execute(StatementArguments(arguments))
  }

  /// `rows(_:)` with `[DatabaseValue]` (deprecated).
  ///
  /// - Throws: as `rows(_:)`.
  @available(*, deprecated, message: "pass StatementArguments(values), or write the values as a literal")
  @_disfavoredOverload
  public func rows(_ arguments: some Collection<DatabaseValue>) throws -> [Row] {
    try rows(StatementArguments(Array(arguments)))
  }

  /// `forEachRow(_:_:)` with `[DatabaseValue]` (deprecated).
  ///
  /// - Throws: as `forEachRow(_:_:)`.
  @available(*, deprecated, message: "pass StatementArguments(values), or write the values as a literal")
  @_disfavoredOverload
  public func forEachRow(_ arguments: some Collection<DatabaseValue>, _ body: (RowView) throws -> Void) throws {
    try forEachRow(StatementArguments(Array(arguments)), body)
  }
}
