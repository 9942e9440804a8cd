import SQLiteBridgeCore

// Values bound without an array: `execute(sql, values: title, id)` binds
// each argument where it stands, so an insert loop allocates nothing per
// row. The `values:` label keeps every existing `execute(sql, [...])` and
// `execute(sql, ["name": ...])` call as it was. Calls with up to 12 values
// pick the fixed-count overload of Database+FixedValues.swift (faster: see
// there); this parameter pack form takes any number.
extension Database {
  /// Runs exactly one statement with `values` bound to its parameters 1, 2,
  /// … in order (each as its `databaseValue`), and returns every row as a
  /// dictionary keyed by column name, as `execute(_:_:)` does. No array is
  /// built for the arguments.
  ///
  /// - Throws: `DatabaseError` as `execute(_:_:)` does: `.range` when the
  ///   number of values does not match the statement's parameters.
  @inlinable @inline(__always) @discardableResult
  public func execute<each V: DatabaseValueConvertible>(_ sql: String, values: repeat each V) throws
    -> [[String: DatabaseValue]]
  {
    var statement = try cachedStatement(sql)
    try statement.bindValues(repeat each values)
    return try dictionaries(&statement)
  }

  /// Runs exactly one statement with `values` bound to its parameters 1, 2,
  /// … in order, handing `body` each row as it is stepped (constant memory),
  /// as `forEachRow(_:_:_:)` does.
  ///
  /// - Throws: `DatabaseError` as `execute(_:values:)` does, or whatever
  ///   `body` throws (which stops the scan).
  @inlinable
  public func forEachRow<each V: DatabaseValueConvertible>(
    _ sql: String, values: repeat each V, body: (RowView) throws -> Void
  ) throws {
    var statement = try cachedStatement(sql)
    try statement.bindValues(repeat each values)
    try forEachRow(of: &statement, body)
  }
}

extension sqlitebridge.Statement {
  /// Binds `values` to parameters 1...n after the core checked their count
  /// (`.range` when it does not match).
  @inlinable @inline(__always)
  mutating func bindValues<each V: DatabaseValueConvertible>(_ values: repeat each V) throws {
    var count = 0
    repeat Self.countOne(each values, &count)
    guard expectArgumentCount(count) else { throw failure }
    var index: Int32 = 0
    repeat try bindOne(each values, &index)
  }

  /// Adds one to `count` (a pack's length, counted where it is expanded),
  /// unless `value` is an `OmittedValue`, which takes no parameter.
  @inlinable @inline(__always)
  static func countOne<V>(_ value: V, _ count: inout Int) {
    if V.self != OmittedValue.self { count += 1 }
  }

  /// Binds `value` to the parameter after `index`, and moves `index` there
  /// (an `OmittedValue` binds nothing and leaves `index` as it is).
  @inlinable @inline(__always)
  mutating func bindOne<V: DatabaseValueConvertible>(_ value: V, _ index: inout Int32) throws {
    guard V.self != OmittedValue.self else { return }
    index += 1
    try bindOne(value, at: index)
  }

  /// Binds `value` to parameter `index`.
  @inlinable @inline(__always)
  mutating func bindOne<V: DatabaseValueConvertible>(_ value: V, at index: Int32) throws {
    guard bind(value.databaseValue, at: index) else { throw failure }
  }

}
