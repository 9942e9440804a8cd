import SQLiteBridgeCore

// `execute(_:values:)` for 1 to 12 values, one overload per count, each
// generic over every value's type. They are what a call with up to 12
// values picks (Swift prefers them to the parameter pack form), because
// Swift 6.3 does not specialize a parameter pack for the concrete types at
// a call site: through the pack, each value costs a metadata lookup, a
// copy through its value witness and a dynamic protocol call (about 70
// instructions a value, measured with callgrind on insert_values); here it
// costs the bind alone. Behaviour is exactly the pack form's.
// Generated (kept in order by hand): one overload per count below.
extension Database {
  /// `execute(_:values:)` with 1 value, bound to parameters 1...1.
  ///
  /// - Throws: `DatabaseError` as `execute(_:values:)` does.
  @inlinable @inline(__always) @discardableResult
  public func execute<V1: DatabaseValueConvertible>(
    _ sql: String, values v1: V1
  ) throws -> [[String: DatabaseValue]] {
    var statement = try cachedStatement(sql)
    guard statement.expectArgumentCount(1) else { throw statement.failure }
    try statement.bindOne(v1, at: 1)
    return try dictionaries(&statement)
  }

  /// `execute(_:values:)` with 2 values, bound to parameters 1...2.
  ///
  /// - Throws: `DatabaseError` as `execute(_:values:)` does.
  @inlinable @inline(__always) @discardableResult
  public func execute<V1: DatabaseValueConvertible, V2: DatabaseValueConvertible>(
    _ sql: String, values v1: V1, _ v2: V2
  ) throws -> [[String: DatabaseValue]] {
    var statement = try cachedStatement(sql)
    guard statement.expectArgumentCount(2) else { throw statement.failure }
    try statement.bindOne(v1, at: 1)
    try statement.bindOne(v2, at: 2)
    return try dictionaries(&statement)
  }

  /// `execute(_:values:)` with 3 values, bound to parameters 1...3.
  ///
  /// - Throws: `DatabaseError` as `execute(_:values:)` does.
  @inlinable @inline(__always) @discardableResult
  public func execute<V1: DatabaseValueConvertible, V2: DatabaseValueConvertible, V3: DatabaseValueConvertible>(
    _ sql: String, values v1: V1, _ v2: V2, _ v3: V3
  ) throws -> [[String: DatabaseValue]] {
    var statement = try cachedStatement(sql)
    guard statement.expectArgumentCount(3) else { throw statement.failure }
    try statement.bindOne(v1, at: 1)
    try statement.bindOne(v2, at: 2)
    try statement.bindOne(v3, at: 3)
    return try dictionaries(&statement)
  }

  /// `execute(_:values:)` with 4 values, bound to parameters 1...4.
  ///
  /// - Throws: `DatabaseError` as `execute(_:values:)` does.
  @inlinable @inline(__always) @discardableResult
  public func execute<
    V1: DatabaseValueConvertible, V2: DatabaseValueConvertible, V3: DatabaseValueConvertible,
    V4: DatabaseValueConvertible
  >(
    _ sql: String, values v1: V1, _ v2: V2, _ v3: V3, _ v4: V4
  ) throws -> [[String: DatabaseValue]] {
    var statement = try cachedStatement(sql)
    guard statement.expectArgumentCount(4) else { throw statement.failure }
    try statement.bindOne(v1, at: 1)
    try statement.bindOne(v2, at: 2)
    try statement.bindOne(v3, at: 3)
    try statement.bindOne(v4, at: 4)
    return try dictionaries(&statement)
  }

  /// `execute(_:values:)` with 5 values, bound to parameters 1...5.
  ///
  /// - Throws: `DatabaseError` as `execute(_:values:)` does.
  @inlinable @inline(__always) @discardableResult
  public func execute<
    V1: DatabaseValueConvertible, V2: DatabaseValueConvertible, V3: DatabaseValueConvertible,
    V4: DatabaseValueConvertible, V5: DatabaseValueConvertible
  >(
    _ sql: String, values v1: V1, _ v2: V2, _ v3: V3, _ v4: V4, _ v5: V5
  ) throws -> [[String: DatabaseValue]] {
    var statement = try cachedStatement(sql)
    guard statement.expectArgumentCount(5) else { throw statement.failure }
    try statement.bindOne(v1, at: 1)
    try statement.bindOne(v2, at: 2)
    try statement.bindOne(v3, at: 3)
    try statement.bindOne(v4, at: 4)
    try statement.bindOne(v5, at: 5)
    return try dictionaries(&statement)
  }

  /// `execute(_:values:)` with 6 values, bound to parameters 1...6.
  ///
  /// - Throws: `DatabaseError` as `execute(_:values:)` does.
  @inlinable @inline(__always) @discardableResult
  public func execute<
    V1: DatabaseValueConvertible, V2: DatabaseValueConvertible, V3: DatabaseValueConvertible,
    V4: DatabaseValueConvertible, V5: DatabaseValueConvertible, V6: DatabaseValueConvertible
  >(
    _ sql: String, values v1: V1, _ v2: V2, _ v3: V3, _ v4: V4, _ v5: V5, _ v6: V6
  ) throws -> [[String: DatabaseValue]] {
    var statement = try cachedStatement(sql)
    guard statement.expectArgumentCount(6) else { throw statement.failure }
    try statement.bindOne(v1, at: 1)
    try statement.bindOne(v2, at: 2)
    try statement.bindOne(v3, at: 3)
    try statement.bindOne(v4, at: 4)
    try statement.bindOne(v5, at: 5)
    try statement.bindOne(v6, at: 6)
    return try dictionaries(&statement)
  }

  /// `execute(_:values:)` with 7 values, bound to parameters 1...7.
  ///
  /// - Throws: `DatabaseError` as `execute(_:values:)` does.
  @inlinable @inline(__always) @discardableResult
  public func execute<
    V1: DatabaseValueConvertible, V2: DatabaseValueConvertible, V3: DatabaseValueConvertible,
    V4: DatabaseValueConvertible, V5: DatabaseValueConvertible, V6: DatabaseValueConvertible,
    V7: DatabaseValueConvertible
  >(
    _ sql: String, values v1: V1, _ v2: V2, _ v3: V3, _ v4: V4, _ v5: V5, _ v6: V6, _ v7: V7
  ) throws -> [[String: DatabaseValue]] {
    var statement = try cachedStatement(sql)
    guard statement.expectArgumentCount(7) else { throw statement.failure }
    try statement.bindOne(v1, at: 1)
    try statement.bindOne(v2, at: 2)
    try statement.bindOne(v3, at: 3)
    try statement.bindOne(v4, at: 4)
    try statement.bindOne(v5, at: 5)
    try statement.bindOne(v6, at: 6)
    try statement.bindOne(v7, at: 7)
    return try dictionaries(&statement)
  }

  /// `execute(_:values:)` with 8 values, bound to parameters 1...8.
  ///
  /// - Throws: `DatabaseError` as `execute(_:values:)` does.
  @inlinable @inline(__always) @discardableResult
  public func execute<
    V1: DatabaseValueConvertible, V2: DatabaseValueConvertible, V3: DatabaseValueConvertible,
    V4: DatabaseValueConvertible, V5: DatabaseValueConvertible, V6: DatabaseValueConvertible,
    V7: DatabaseValueConvertible, V8: DatabaseValueConvertible
  >(
    _ sql: String, values v1: V1, _ v2: V2, _ v3: V3, _ v4: V4, _ v5: V5, _ v6: V6, _ v7: V7, _ v8: V8
  ) throws -> [[String: DatabaseValue]] {
    var statement = try cachedStatement(sql)
    guard statement.expectArgumentCount(8) else { throw statement.failure }
    try statement.bindOne(v1, at: 1)
    try statement.bindOne(v2, at: 2)
    try statement.bindOne(v3, at: 3)
    try statement.bindOne(v4, at: 4)
    try statement.bindOne(v5, at: 5)
    try statement.bindOne(v6, at: 6)
    try statement.bindOne(v7, at: 7)
    try statement.bindOne(v8, at: 8)
    return try dictionaries(&statement)
  }

  /// `execute(_:values:)` with 9 values, bound to parameters 1...9.
  ///
  /// - Throws: `DatabaseError` as `execute(_:values:)` does.
  @inlinable @inline(__always) @discardableResult
  public func execute<
    V1: DatabaseValueConvertible, V2: DatabaseValueConvertible, V3: DatabaseValueConvertible,
    V4: DatabaseValueConvertible, V5: DatabaseValueConvertible, V6: DatabaseValueConvertible,
    V7: DatabaseValueConvertible, V8: DatabaseValueConvertible, V9: DatabaseValueConvertible
  >(
    _ sql: String, values v1: V1, _ v2: V2, _ v3: V3, _ v4: V4, _ v5: V5, _ v6: V6, _ v7: V7, _ v8: V8, _ v9: V9
  ) throws -> [[String: DatabaseValue]] {
    var statement = try cachedStatement(sql)
    guard statement.expectArgumentCount(9) else { throw statement.failure }
    try statement.bindOne(v1, at: 1)
    try statement.bindOne(v2, at: 2)
    try statement.bindOne(v3, at: 3)
    try statement.bindOne(v4, at: 4)
    try statement.bindOne(v5, at: 5)
    try statement.bindOne(v6, at: 6)
    try statement.bindOne(v7, at: 7)
    try statement.bindOne(v8, at: 8)
    try statement.bindOne(v9, at: 9)
    return try dictionaries(&statement)
  }

  /// `execute(_:values:)` with 10 values, bound to parameters 1...10.
  ///
  /// - Throws: `DatabaseError` as `execute(_:values:)` does.
  @inlinable @inline(__always) @discardableResult
  public func execute<
    V1: DatabaseValueConvertible, V2: DatabaseValueConvertible, V3: DatabaseValueConvertible,
    V4: DatabaseValueConvertible, V5: DatabaseValueConvertible, V6: DatabaseValueConvertible,
    V7: DatabaseValueConvertible, V8: DatabaseValueConvertible, V9: DatabaseValueConvertible,
    V10: DatabaseValueConvertible
  >(
    _ sql: String, values v1: V1, _ v2: V2, _ v3: V3, _ v4: V4, _ v5: V5, _ v6: V6, _ v7: V7, _ v8: V8, _ v9: V9,
    _ v10: V10
  ) throws -> [[String: DatabaseValue]] {
    var statement = try cachedStatement(sql)
    guard statement.expectArgumentCount(10) else { throw statement.failure }
    try statement.bindOne(v1, at: 1)
    try statement.bindOne(v2, at: 2)
    try statement.bindOne(v3, at: 3)
    try statement.bindOne(v4, at: 4)
    try statement.bindOne(v5, at: 5)
    try statement.bindOne(v6, at: 6)
    try statement.bindOne(v7, at: 7)
    try statement.bindOne(v8, at: 8)
    try statement.bindOne(v9, at: 9)
    try statement.bindOne(v10, at: 10)
    return try dictionaries(&statement)
  }

  /// `execute(_:values:)` with 11 values, bound to parameters 1...11.
  ///
  /// - Throws: `DatabaseError` as `execute(_:values:)` does.
  @inlinable @inline(__always) @discardableResult
  public func execute<
    V1: DatabaseValueConvertible, V2: DatabaseValueConvertible, V3: DatabaseValueConvertible,
    V4: DatabaseValueConvertible, V5: DatabaseValueConvertible, V6: DatabaseValueConvertible,
    V7: DatabaseValueConvertible, V8: DatabaseValueConvertible, V9: DatabaseValueConvertible,
    V10: DatabaseValueConvertible, V11: DatabaseValueConvertible
  >(
    _ sql: String, values v1: V1, _ v2: V2, _ v3: V3, _ v4: V4, _ v5: V5, _ v6: V6, _ v7: V7, _ v8: V8, _ v9: V9,
    _ v10: V10, _ v11: V11
  ) throws -> [[String: DatabaseValue]] {
    var statement = try cachedStatement(sql)
    guard statement.expectArgumentCount(11) else { throw statement.failure }
    try statement.bindOne(v1, at: 1)
    try statement.bindOne(v2, at: 2)
    try statement.bindOne(v3, at: 3)
    try statement.bindOne(v4, at: 4)
    try statement.bindOne(v5, at: 5)
    try statement.bindOne(v6, at: 6)
    try statement.bindOne(v7, at: 7)
    try statement.bindOne(v8, at: 8)
    try statement.bindOne(v9, at: 9)
    try statement.bindOne(v10, at: 10)
    try statement.bindOne(v11, at: 11)
    return try dictionaries(&statement)
  }

  /// `execute(_:values:)` with 12 values, bound to parameters 1...12.
  ///
  /// - Throws: `DatabaseError` as `execute(_:values:)` does.
  @inlinable @inline(__always) @discardableResult
  public func execute<
    V1: DatabaseValueConvertible, V2: DatabaseValueConvertible, V3: DatabaseValueConvertible,
    V4: DatabaseValueConvertible, V5: DatabaseValueConvertible, V6: DatabaseValueConvertible,
    V7: DatabaseValueConvertible, V8: DatabaseValueConvertible, V9: DatabaseValueConvertible,
    V10: DatabaseValueConvertible, V11: DatabaseValueConvertible, V12: DatabaseValueConvertible
  >(
    _ sql: String, values v1: V1, _ v2: V2, _ v3: V3, _ v4: V4, _ v5: V5, _ v6: V6, _ v7: V7, _ v8: V8, _ v9: V9,
    _ v10: V10, _ v11: V11, _ v12: V12
  ) throws -> [[String: DatabaseValue]] {
    var statement = try cachedStatement(sql)
    guard statement.expectArgumentCount(12) else { throw statement.failure }
    try statement.bindOne(v1, at: 1)
    try statement.bindOne(v2, at: 2)
    try statement.bindOne(v3, at: 3)
    try statement.bindOne(v4, at: 4)
    try statement.bindOne(v5, at: 5)
    try statement.bindOne(v6, at: 6)
    try statement.bindOne(v7, at: 7)
    try statement.bindOne(v8, at: 8)
    try statement.bindOne(v9, at: 9)
    try statement.bindOne(v10, at: 10)
    try statement.bindOne(v11, at: 11)
    try statement.bindOne(v12, at: 12)
    return try dictionaries(&statement)
  }

}
