import SQLiteBridgeCore

// Fetching with `SQL` literals: each overload runs the literal's text with
// its arguments through its `(type, sql, arguments)` twin, after the
// literal's own check. The same three kinds as there: `Decodable`,
// `FetchableRecord`, and both (so that `init(row:)` wins without ambiguity).

extension Database {
  /// `fetch(_:_:_:)` for an `SQL` literal: every row decoded as `T`.
  ///
  /// - Throws: as `fetch(_:_:_:)`, and `DatabaseError` with `.misuse` naming
  ///   it when an identifier in the literal held a NUL byte.
  public func fetch<T: Decodable>(_ type: T.Type, literal: SQL) throws -> [T] {
    try fetch(type, literal.checkedSQL(), literal.arguments)
  }

  /// `fetchOne(_:_:_:)` for an `SQL` literal: the first row decoded as `T`,
  /// or nil.
  ///
  /// - Throws: as `fetch(_:literal:)`.
  public func fetchOne<T: Decodable>(_ type: T.Type, literal: SQL) throws -> T? {
    try fetchOne(type, literal.checkedSQL(), literal.arguments)
  }

  /// `fetch(_:_:_:)` of a `FetchableRecord` for an `SQL` literal: every row
  /// built with `init(row:)`.
  ///
  /// - Throws: as `fetch(_:_:_:)` of a `FetchableRecord`, and
  ///   `DatabaseError` with `.misuse` naming it when an identifier in the
  ///   literal held a NUL byte.
  @inlinable
  public func fetch<T: FetchableRecord>(_ type: T.Type, literal: SQL) throws -> [T] {
    try fetch(type, literal.checkedSQL(), literal.arguments)
  }

  /// `fetchOne(_:_:_:)` of a `FetchableRecord` for an `SQL` literal.
  ///
  /// - Throws: as `fetch(_:literal:)` of a `FetchableRecord`.
  @inlinable
  public func fetchOne<T: FetchableRecord>(_ type: T.Type, literal: SQL) throws -> T? {
    try fetchOne(type, literal.checkedSQL(), literal.arguments)
  }

  /// `fetch(_:literal:)` of a `FetchableRecord`, for a type that is also
  /// `Decodable`: its `init(row:)` builds each row.
  ///
  /// - Throws: as `fetch(_:literal:)` of a `FetchableRecord`.
  @inlinable
  public func fetch<T: Decodable & FetchableRecord>(_ type: T.Type, literal: SQL) throws -> [T] {
    try fetch(type, literal.checkedSQL(), literal.arguments)
  }

  /// `fetchOne(_:literal:)` of a `FetchableRecord`, for a type that is also
  /// `Decodable`: its `init(row:)` builds the row.
  ///
  /// - Throws: as `fetch(_:literal:)` of a `FetchableRecord`.
  @inlinable
  public func fetchOne<T: Decodable & FetchableRecord>(_ type: T.Type, literal: SQL) throws -> T? {
    try fetchOne(type, literal.checkedSQL(), literal.arguments)
  }

  /// `forEach(_:_:_:_:)` of a `FetchableRecord` for an `SQL` literal: each
  /// row built with `init(row:)` and handed to `body` as it is stepped.
  ///
  /// - Throws: as `fetch(_:literal:)` of a `FetchableRecord`, or whatever
  ///   `body` throws; either stops the scan.
  @inlinable
  public func forEach<T: FetchableRecord>(_ type: T.Type, literal: SQL, _ body: (T) throws -> Void) throws {
    try forEach(type, literal.checkedSQL(), literal.arguments, body)
  }
}
