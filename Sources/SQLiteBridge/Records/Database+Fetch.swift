import SQLiteBridgeCore

// Decodable rows. Each row is decoded straight from the statement through a
// RowView (see RowDecoder.swift); no [DatabaseValue] row is built.

extension Database {
  /// Runs exactly one statement and decodes every row as `T`, matching `T`'s
  /// coding keys to column names (ASCII case-insensitive, leftmost column
  /// wins). A `T` that is `DatabaseValueConvertible` (`Int`, `String`,
  /// `Date`, …) is read from each row's first column instead.
  ///
  /// An optional property whose column is absent or NULL decodes as nil.
  /// Columns no property asks for are ignored. A property of a `Decodable`
  /// type that is not `DatabaseValueConvertible` decodes from its column as
  /// a single value (an enum with a raw value) or, when it is a container
  /// (a nested struct, an array, a dictionary), from JSON text, with
  /// `T.databaseJSONDecoder(for:)` when `T` is a `FetchableRecord` (asked
  /// once per column per query), otherwise a plain `JSONDecoder`.
  ///
  /// - Throws: `DatabaseError` as `execute(_:_:)` does, and `DecodingError`
  ///   when a row does not decode: `.keyNotFound` for a non-optional
  ///   property with no column, `.valueNotFound` when its column is NULL,
  ///   `.typeMismatch` when the value does not convert or is text that is
  ///   not JSON for the property's type (underlying error: a
  ///   `DatabaseError` with `.mismatch` whose message names the column, the
  ///   value and the type, e.g. `column "tags" holds text 'oops' that is
  ///   not JSON for Array<String>, which does not convert to
  ///   Array<String>`). Each error's `codingPath` holds the key and its
  ///   `debugDescription` names the column (for JSON, followed by
  ///   JSONDecoder's reason). Nothing is returned when a row fails.
  public func fetch<T: Decodable>(_ type: T.Type, _ sql: String, _ arguments: [DatabaseValue] = []) throws -> [T] {
    var statement = try prepared(sql, arguments)
    return try decodeAll(type, &statement, keyDecoding: .useDefaultKeys)
  }

  /// `fetch(_:_:_:)` with `keyDecoding` deciding how keys match columns
  /// (`.convertFromSnakeCase`: column `user_id` fills property `userId`).
  ///
  /// - Throws: `DatabaseError` or `DecodingError`, as `fetch(_:_:_:)`.
  public func fetch<T: Decodable>(
    _ type: T.Type, _ sql: String, _ arguments: [DatabaseValue] = [], keyDecoding: KeyDecodingStrategy
  ) throws -> [T] {
    var statement = try prepared(sql, arguments)
    return try decodeAll(type, &statement, keyDecoding: keyDecoding)
  }

  /// `fetch(_:_:_:)` with named arguments.
  ///
  /// - Throws: `DatabaseError` (`.range` for an unmatched name) or
  ///   `DecodingError`, as `fetch(_:_:_:)`.
  public func fetch<T: Decodable>(_ type: T.Type, _ sql: String, _ arguments: NamedArguments) throws -> [T] {
    var statement = try prepared(sql, arguments)
    return try decodeAll(type, &statement, keyDecoding: .useDefaultKeys)
  }

  /// `fetch(_:_:_:)` with named arguments and a key decoding strategy.
  ///
  /// - Throws: `DatabaseError` or `DecodingError`, as `fetch(_:_:_:)`.
  public func fetch<T: Decodable>(
    _ type: T.Type, _ sql: String, _ arguments: NamedArguments, keyDecoding: KeyDecodingStrategy
  ) throws -> [T] {
    var statement = try prepared(sql, arguments)
    return try decodeAll(type, &statement, keyDecoding: keyDecoding)
  }

  /// `fetch(_:_:_:)` with arguments given as Swift values (`[id, date]` or
  /// `["id": id]`).
  ///
  /// - Throws: `DatabaseError` or `DecodingError`, as `fetch(_:_:_:)`.
  @_disfavoredOverload
  public func fetch<T: Decodable>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments) throws -> [T] {
    var statement = try prepared(sql, arguments)
    return try decodeAll(type, &statement, keyDecoding: .useDefaultKeys)
  }

  /// `fetch(_:_:_:)` with arguments given as Swift values and a key
  /// decoding strategy.
  ///
  /// - Throws: `DatabaseError` or `DecodingError`, as `fetch(_:_:_:)`.
  @_disfavoredOverload
  public func fetch<T: Decodable>(
    _ type: T.Type, _ sql: String, _ arguments: StatementArguments, keyDecoding: KeyDecodingStrategy
  ) throws -> [T] {
    var statement = try prepared(sql, arguments)
    return try decodeAll(type, &statement, keyDecoding: keyDecoding)
  }

  /// Runs exactly one statement and decodes its first row as `T` (as
  /// `fetch(_:_:_:)` decodes rows); nil when there is no row. Later rows
  /// are not stepped.
  ///
  /// - Throws: `DatabaseError` or `DecodingError`, as `fetch(_:_:_:)`.
  public func fetchOne<T: Decodable>(_ type: T.Type, _ sql: String, _ arguments: [DatabaseValue] = []) throws -> T? {
    var statement = try prepared(sql, arguments)
    return try decodeFirst(type, &statement, keyDecoding: .useDefaultKeys)
  }

  /// `fetchOne(_:_:_:)` with a key decoding strategy.
  ///
  /// - Throws: `DatabaseError` or `DecodingError`, as `fetch(_:_:_:)`.
  public func fetchOne<T: Decodable>(
    _ type: T.Type, _ sql: String, _ arguments: [DatabaseValue] = [], keyDecoding: KeyDecodingStrategy
  ) throws -> T? {
    var statement = try prepared(sql, arguments)
    return try decodeFirst(type, &statement, keyDecoding: keyDecoding)
  }

  /// `fetchOne(_:_:_:)` with named arguments.
  ///
  /// - Throws: `DatabaseError` or `DecodingError`, as `fetch(_:_:_:)`.
  public func fetchOne<T: Decodable>(_ type: T.Type, _ sql: String, _ arguments: NamedArguments) throws -> T? {
    var statement = try prepared(sql, arguments)
    return try decodeFirst(type, &statement, keyDecoding: .useDefaultKeys)
  }

  /// `fetchOne(_:_:_:)` with named arguments and a key decoding strategy.
  ///
  /// - Throws: `DatabaseError` or `DecodingError`, as `fetch(_:_:_:)`.
  public func fetchOne<T: Decodable>(
    _ type: T.Type, _ sql: String, _ arguments: NamedArguments, keyDecoding: KeyDecodingStrategy
  ) throws -> T? {
    var statement = try prepared(sql, arguments)
    return try decodeFirst(type, &statement, keyDecoding: keyDecoding)
  }

  /// `fetchOne(_:_:_:)` with arguments given as Swift values.
  ///
  /// - Throws: `DatabaseError` or `DecodingError`, as `fetch(_:_:_:)`.
  @_disfavoredOverload
  public func fetchOne<T: Decodable>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments) throws -> T? {
    var statement = try prepared(sql, arguments)
    return try decodeFirst(type, &statement, keyDecoding: .useDefaultKeys)
  }

  /// `fetchOne(_:_:_:)` with arguments given as Swift values and a key
  /// decoding strategy.
  ///
  /// - Throws: `DatabaseError` or `DecodingError`, as `fetch(_:_:_:)`.
  @_disfavoredOverload
  public func fetchOne<T: Decodable>(
    _ type: T.Type, _ sql: String, _ arguments: StatementArguments, keyDecoding: KeyDecodingStrategy
  ) throws -> T? {
    var statement = try prepared(sql, arguments)
    return try decodeFirst(type, &statement, keyDecoding: keyDecoding)
  }

  /// Every row of `statement` decoded as `T`. (A plain loop rather than
  /// `forEachRow(of:)`: appending to an array of generic type captured by a
  /// closure looks up generic metadata on every row.)
  func decodeAll<T: Decodable>(
    _ type: T.Type, _ statement: inout sqlitebridge.Statement, keyDecoding: KeyDecodingStrategy
  ) throws -> [T] {
    try withUnsafeMutablePointer(to: &statement) { pointer in
      guard try step(&pointer.pointee) else { return [] }
      // Columns are read after the first step, as forEachRow(of:) does.
      let row = RowView(statement: UnsafePointer(pointer), columns: ColumnTable(pointer.pointee))
      let context = RowDecodingContext(row: row, keyDecoding: keyDecoding, decoding: type)
      // Kept alive to the end: the keyed container does not own it.
      defer { withExtendedLifetime(context) { context.endQuery() } }
      // Reserving first asks for `[T]`'s metadata once, before the loop;
      // otherwise every `append` (after a throwing call) asks again, a
      // runtime hash lookup per row.
      var result: [T] = []
      result.reserveCapacity(16)
      repeat {
        result.append(try context.decodeRow(type))
      } while try step(&pointer.pointee)
      return result
    }
  }

  /// The first row of `statement` decoded as `T`, or nil; stops there.
  func decodeFirst<T: Decodable>(
    _ type: T.Type, _ statement: inout sqlitebridge.Statement, keyDecoding: KeyDecodingStrategy
  ) throws -> T? {
    try withUnsafeMutablePointer(to: &statement) { pointer in
      guard try step(&pointer.pointee) else { return nil }
      let row = RowView(statement: UnsafePointer(pointer), columns: ColumnTable(pointer.pointee))
      let context = RowDecodingContext(row: row, keyDecoding: keyDecoding, decoding: type)
      // Kept alive to the end: the keyed container does not own it.
      defer { withExtendedLifetime(context) { context.endQuery() } }
      return try context.decodeRow(type)
    }
  }
}
