import SQLiteBridgeCore

// Fetching records: each row is handed to `T.init(row:)` as a `RowView`
// read straight from the statement, with no Codable and no copied row. The
// loops are inlinable so that the caller's module specializes them for its
// record type (a generic loop pays for metadata on every row).
//
// A type that is both `Decodable` and `FetchableRecord` would match the
// `Decodable` fetch too: the `Decodable & FetchableRecord` overloads, more
// specific than both, make its `init(row:)` win without ambiguity.

extension Database {
  /// Runs exactly one statement and builds every row as `T` with
  /// `init(row:)`.
  ///
  /// - Throws: `DatabaseError` as `execute(_:_:)` does (`.range` for a wrong
  ///   argument count, `.misuse` for trailing SQL, SQLite's errors), and
  ///   whatever `init(row:)` throws (`row.get`: `.range` naming a missing
  ///   column, `.mismatch` naming the column that does not convert), which
  ///   ends the fetch.
  @inlinable
  public func fetch<T: FetchableRecord>(_ type: T.Type, _ sql: String, _ arguments: [DatabaseValue] = []) throws
    -> [T]
  {
    var statement = try recordStatement(sql, arguments)
    return try fetchRecords(type, &statement)
  }

  /// `fetch(_:_:_:)` with named arguments.
  ///
  /// - Throws: as `fetch(_:_:_:)`, and `.range` for an unmatched name.
  @inlinable
  public func fetch<T: FetchableRecord>(_ type: T.Type, _ sql: String, _ arguments: NamedArguments) throws -> [T] {
    var statement = try recordStatement(sql, arguments)
    return try fetchRecords(type, &statement)
  }

  /// `fetch(_:_:_:)` with arguments given as Swift values (`[id, date]` or
  /// `["id": id]`).
  ///
  /// - Throws: as `fetch(_:_:_:)`.
  @inlinable @_disfavoredOverload
  public func fetch<T: FetchableRecord>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments) throws
    -> [T]
  {
    var statement = try recordStatement(sql, arguments)
    return try fetchRecords(type, &statement)
  }

  /// Runs exactly one statement and builds its first row as `T`; nil when
  /// there is no row. Later rows are not stepped.
  ///
  /// - Throws: as `fetch(_:_:_:)`.
  @inlinable
  public func fetchOne<T: FetchableRecord>(_ type: T.Type, _ sql: String, _ arguments: [DatabaseValue] = []) throws
    -> T?
  {
    var statement = try recordStatement(sql, arguments)
    return try fetchFirstRecord(type, &statement)
  }

  /// `fetchOne(_:_:_:)` with named arguments.
  ///
  /// - Throws: as `fetch(_:_:_:)`, and `.range` for an unmatched name.
  @inlinable
  public func fetchOne<T: FetchableRecord>(_ type: T.Type, _ sql: String, _ arguments: NamedArguments) throws -> T? {
    var statement = try recordStatement(sql, arguments)
    return try fetchFirstRecord(type, &statement)
  }

  /// `fetchOne(_:_:_:)` with arguments given as Swift values.
  ///
  /// - Throws: as `fetch(_:_:_:)`.
  @inlinable @_disfavoredOverload
  public func fetchOne<T: FetchableRecord>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments) throws
    -> T?
  {
    var statement = try recordStatement(sql, arguments)
    return try fetchFirstRecord(type, &statement)
  }

  /// Runs exactly one statement and hands `body` each row built as `T`, as
  /// it is stepped: a result of any size in constant memory (one `T` at a
  /// time).
  ///
  /// - Throws: as `fetch(_:_:_:)`, or whatever `body` throws; either stops
  ///   the scan.
  @inlinable
  public func forEach<T: FetchableRecord>(
    _ type: T.Type, _ sql: String, _ arguments: [DatabaseValue] = [], _ body: (T) throws -> Void
  ) throws {
    var statement = try recordStatement(sql, arguments)
    try forEachRecord(type, &statement, body)
  }

  /// `forEach(_:_:_:_:)` with named arguments.
  ///
  /// - Throws: as `forEach(_:_:_:_:)`, and `.range` for an unmatched name.
  @inlinable
  public func forEach<T: FetchableRecord>(
    _ type: T.Type, _ sql: String, _ arguments: NamedArguments, _ body: (T) throws -> Void
  ) throws {
    var statement = try recordStatement(sql, arguments)
    try forEachRecord(type, &statement, body)
  }

  /// `forEach(_:_:_:_:)` with arguments given as Swift values.
  ///
  /// - Throws: as `forEach(_:_:_:_:)`.
  @inlinable @_disfavoredOverload
  public func forEach<T: FetchableRecord>(
    _ type: T.Type, _ sql: String, _ arguments: StatementArguments, _ body: (T) throws -> Void
  ) throws {
    var statement = try recordStatement(sql, arguments)
    try forEachRecord(type, &statement, body)
  }

  // MARK: Decodable and FetchableRecord: init(row:) wins

  /// `fetch(_:_:_:)` of a `FetchableRecord`, for a type that is also
  /// `Decodable`: its `init(row:)` builds each row.
  ///
  /// - Throws: as `fetch(_:_:_:)` of a `FetchableRecord`.
  @inlinable
  public func fetch<T: Decodable & FetchableRecord>(
    _ type: T.Type, _ sql: String, _ arguments: [DatabaseValue] = []
  ) throws -> [T] {
    var statement = try recordStatement(sql, arguments)
    return try fetchRecords(type, &statement)
  }

  /// `fetch(_:_:_:)` with named arguments, through `init(row:)`.
  ///
  /// - Throws: as `fetch(_:_:_:)` of a `FetchableRecord`.
  @inlinable
  public func fetch<T: Decodable & FetchableRecord>(_ type: T.Type, _ sql: String, _ arguments: NamedArguments)
    throws -> [T]
  {
    var statement = try recordStatement(sql, arguments)
    return try fetchRecords(type, &statement)
  }

  /// `fetch(_:_:_:)` with Swift values as arguments, through `init(row:)`.
  ///
  /// - Throws: as `fetch(_:_:_:)` of a `FetchableRecord`.
  @inlinable @_disfavoredOverload
  public func fetch<T: Decodable & FetchableRecord>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments)
    throws -> [T]
  {
    var statement = try recordStatement(sql, arguments)
    return try fetchRecords(type, &statement)
  }

  /// `fetchOne(_:_:_:)` of a `FetchableRecord`, for a type that is also
  /// `Decodable`: its `init(row:)` builds the row.
  ///
  /// - Throws: as `fetch(_:_:_:)` of a `FetchableRecord`.
  @inlinable
  public func fetchOne<T: Decodable & FetchableRecord>(
    _ type: T.Type, _ sql: String, _ arguments: [DatabaseValue] = []
  ) throws -> T? {
    var statement = try recordStatement(sql, arguments)
    return try fetchFirstRecord(type, &statement)
  }

  /// `fetchOne(_:_:_:)` with named arguments, through `init(row:)`.
  ///
  /// - Throws: as `fetch(_:_:_:)` of a `FetchableRecord`.
  @inlinable
  public func fetchOne<T: Decodable & FetchableRecord>(_ type: T.Type, _ sql: String, _ arguments: NamedArguments)
    throws -> T?
  {
    var statement = try recordStatement(sql, arguments)
    return try fetchFirstRecord(type, &statement)
  }

  /// `fetchOne(_:_:_:)` with Swift values as arguments, through
  /// `init(row:)`.
  ///
  /// - Throws: as `fetch(_:_:_:)` of a `FetchableRecord`.
  @inlinable @_disfavoredOverload
  public func fetchOne<T: Decodable & FetchableRecord>(
    _ type: T.Type, _ sql: String, _ arguments: StatementArguments
  ) throws -> T? {
    var statement = try recordStatement(sql, arguments)
    return try fetchFirstRecord(type, &statement)
  }

  // MARK: By primary key

  /// The row of `T.databaseTableName` whose primary key (one column) is
  /// `key`, built with `init(row:)` (`SELECT * FROM "table" WHERE "k" = ?`);
  /// nil when there is none.
  ///
  /// - Throws: `DatabaseError` with `.misuse` when `T.primaryKey` is empty,
  ///   `.range` when it has more than one column (use `fetchOne(_:keys:)`),
  ///   SQLite's error for a missing table or column; whatever `init(row:)`
  ///   throws.
  public func fetchOne<T: FetchableRecord & PersistableRecord>(_ type: T.Type, key: DatabaseValue) throws -> T? {
    try fetchOne(type, keys: [key])
  }

  /// The row whose primary key columns hold `keys` (in `T.primaryKey`'s
  /// order: a composite key), or nil.
  ///
  /// - Throws: `DatabaseError` with `.range` when `keys` does not have one
  ///   value per key column; as `fetchOne(_:key:)` otherwise.
  public func fetchOne<T: FetchableRecord & PersistableRecord>(_ type: T.Type, keys: [DatabaseValue]) throws -> T? {
    let plan = try recordPlan(type, .SelectByKey, columns: [])
    var statement = try prepared(plan.sql, keys)
    return try fetchFirstRecord(type, &statement)
  }

  /// Every row of `T.databaseTableName` (`SELECT * FROM "table"`), built
  /// with `init(row:)`, in SQLite's order.
  ///
  /// - Throws: `DatabaseError` for a missing table; whatever `init(row:)`
  ///   throws.
  public func fetchAll<T: FetchableRecord & PersistableRecord>(_ type: T.Type) throws -> [T] {
    let plan = try recordPlan(type, .SelectAll, columns: [])
    var statement = try prepared(plan.sql, [])
    return try fetchRecords(type, &statement)
  }

  // MARK: The loops

  /// The cached statement for `sql` with `arguments` bound.
  @usableFromInline
  func recordStatement(_ sql: String, _ arguments: [DatabaseValue]) throws -> sqlitebridge.Statement {
    try prepared(sql, arguments)
  }

  /// The cached statement for `sql` with named `arguments` bound.
  @usableFromInline
  func recordStatement(_ sql: String, _ arguments: NamedArguments) throws -> sqlitebridge.Statement {
    try prepared(sql, arguments)
  }

  /// The cached statement for `sql` with Swift values bound.
  @usableFromInline
  func recordStatement(_ sql: String, _ arguments: StatementArguments) throws -> sqlitebridge.Statement {
    try prepared(sql, arguments)
  }

  /// Every row of `statement` as `T`.
  @inlinable
  func fetchRecords<T: FetchableRecord>(_ type: T.Type, _ statement: inout sqlitebridge.Statement) throws -> [T] {
    try withUnsafeMutablePointer(to: &statement) { pointer in
      guard try Self.stepRecord(&pointer.pointee) else { return [] }
      // The columns are read after the first step, as forEachRow does.
      let row = RowView(statement: UnsafePointer(pointer), columns: Self.recordColumns(pointer))
      var result: [T] = []
      repeat {
        result.append(try T(row: row))
      } while try Self.stepRecord(&pointer.pointee)
      return result
    }
  }

  /// The first row of `statement` as `T`, or nil; stops there.
  @inlinable
  func fetchFirstRecord<T: FetchableRecord>(_ type: T.Type, _ statement: inout sqlitebridge.Statement) throws -> T? {
    try withUnsafeMutablePointer(to: &statement) { pointer in
      guard try Self.stepRecord(&pointer.pointee) else { return nil }
      return try T(row: RowView(statement: UnsafePointer(pointer), columns: Self.recordColumns(pointer)))
    }
  }

  /// Hands `body` each row of `statement` as `T`.
  @inlinable
  func forEachRecord<T: FetchableRecord>(
    _ type: T.Type, _ statement: inout sqlitebridge.Statement, _ body: (T) throws -> Void
  ) throws {
    try withUnsafeMutablePointer(to: &statement) { pointer in
      guard try Self.stepRecord(&pointer.pointee) else { return }
      let row = RowView(statement: UnsafePointer(pointer), columns: Self.recordColumns(pointer))
      repeat {
        try body(try T(row: row))
      } while try Self.stepRecord(&pointer.pointee)
    }
  }

  /// Steps `statement`: true when a row is ready, false when done.
  @inlinable @inline(__always)
  static func stepRecord(_ statement: inout sqlitebridge.Statement) throws -> Bool {
    switch statement.step() {
    case .Row: return true
    case .Done: return false
    default: throw recordStepFailure(statement)
    }
  }

  /// The error the core recorded for `statement`'s failed step.
  @usableFromInline
  static func recordStepFailure(_ statement: borrowing sqlitebridge.Statement) -> DatabaseError {
    statement.failure
  }

  /// The columns of `statement`'s current run.
  @usableFromInline
  static func recordColumns(_ statement: UnsafeMutablePointer<sqlitebridge.Statement>) -> ColumnTable {
    ColumnTable(statement.pointee)
  }
}
