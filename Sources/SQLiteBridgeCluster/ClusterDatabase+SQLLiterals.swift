// Running `SQL` literals on the cluster: each runs the literal's text with
// its arguments through its `(sql, arguments)` twin, on the leader, after
// the literal's own check.

import SQLiteBridge
import SQLiteBridgeClusterCore
import SQLiteBridgeCore

extension ClusterDatabase {
  /// `execute(_:_:)` for an `SQL` literal: exactly one statement, on the
  /// leader, its rows as dictionaries.
  ///
  /// - Throws: `DatabaseError` as `execute(_:_:)` does, and with `.misuse`
  ///   naming it, before anything is sent, when an identifier in the
  ///   literal held a NUL byte.
  @discardableResult
  public func execute(literal: SQL) throws -> [[String: DatabaseValue]] {
    try execute(literal.checkedSQL(), literal.arguments)
  }

  /// `rows(_:_:)` for an `SQL` literal.
  ///
  /// - Throws: `DatabaseError`, as `execute(literal:)`.
  public func rows(literal: SQL) throws -> [Row] {
    try rows(literal.checkedSQL(), literal.arguments)
  }

  /// `fetch(_:_:_:)` for an `SQL` literal: every row decoded as `T`.
  ///
  /// - Throws: `DatabaseError`, as `execute(literal:)`, and `DecodingError`
  ///   as `fetch(_:_:_:)`.
  public func fetch<T: Decodable>(_ type: T.Type, literal: SQL) throws -> [T] {
    try fetch(type, literal.checkedSQL(), literal.arguments)
  }
}
