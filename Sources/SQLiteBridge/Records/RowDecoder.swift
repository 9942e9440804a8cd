import Foundation
import SQLiteBridgeCore

// Decodes `Decodable` values straight from a statement's current row: each
// property reads its column through the `RowView` (scalars from the borrowed
// column, without making a `DatabaseValue`), so no `[DatabaseValue]` row or
// dictionary is built. One `RowDecodingContext` serves every row of a query.
// Coding paths are built only for errors. A property that asks for a keyed
// or unkeyed container is decoded from its column's JSON text (see
// JSONColumns.swift).

/// What every row of one query shares while it is decoded: where the rows
/// come from (a statement stepped row by row, or rows the core already
/// holds), the names keys are matched with, and the column each key was
/// found at on earlier rows.
package final class RowDecodingContext {
  /// The statement whose current row is decoded (the same statement on
  /// every row); nil when the rows are `heldRows`.
  private let statement: UnsafePointer<sqlitebridge.Statement>?
  /// Rows the core returned whole (a cluster client's result), decoded one
  /// by one: `heldRow` is the current one. Nil for a statement.
  private let heldRows: UnsafePointer<sqlitebridge.interop.RowList>?
  /// The row of `heldRows` being decoded. (Unchecked: a context serves one
  /// query on one thread.)
  @exclusivity(unchecked) package var heldRow = 0
  /// The SQL of held rows, for errors (a statement knows its own).
  private let heldSQL: String
  /// The column names, in order.
  let columnNames: [String]
  let keyDecoding: KeyDecodingStrategy
  /// Column names as keys are compared with them (converted from
  /// snake_case when asked).
  let keyNames: [String]
  /// The keys looked up on the first rows, in the order they were asked for,
  /// and the column each was found at (-1: none). A type asks for its keys
  /// in the same order on every row, so each lookup is one comparison of a
  /// key with itself instead of a scan of the column names. Kept behind a
  /// pointer: a class's stored `var`s pay for a dynamic exclusivity check on
  /// every access, several times per row here.
  ///
  /// A key of a plain-data type (a synthesized `CodingKeys` enum) is also
  /// remembered by its bits and type, so that it is recognized without
  /// asking for its `stringValue` (a call through two witness tables and a
  /// string release, per property and row): the same type with the same
  /// bits is the same key.
  private struct Plan {
    var keys: [String] = []
    var slots: [Slot] = []
    var lookup = 0
  }
  /// What is known of the key asked for at one place of a row.
  private struct Slot {
    /// The key's type when it is plain data (then `bits` are its bits).
    var type: ObjectIdentifier?
    var bits: UInt64
    /// The column the key names, -1 for none.
    var column: Int
  }
  private let plan: UnsafeMutablePointer<Plan>
  /// The keyed container of the last `Key` type asked for (a
  /// `KeyedContainerCache<KeyedDecodingContainer<Key>>`), reused by every
  /// row: making one costs generic metadata lookups and an allocation.
  private var cachedKeyType: ObjectIdentifier?
  private var cachedContainer: AnyObject?
  /// The type fetched reads from one column when it is convertible.
  private let convertibleType: (any DatabaseValueConvertible.Type)?
  /// The type fetched when it is a `FetchableRecord`: its hook gives the
  /// JSON decoders.
  private let record: (any FetchableRecord.Type)?
  /// The statement's columns (nil for held rows), which keep the JSON
  /// decoders for every context of the same run.
  private let columnTable: ColumnTable?
  /// The JSON decoders of this query's columns, once one was needed.
  private var jsonDecoders: JSONDecoderCache?
  /// The scopes and prefetched rows of a request with associations (nil
  /// otherwise, and inside a scope).
  let scoping: RowScoping?
  /// The span of `scoping` this context decodes (a scope), -1 for the
  /// request's row.
  let spanIndex: Int
  /// Where this context's columns start in the statement's row (0, or a
  /// scope's first column).
  private let columnOffset: Int32

  /// A context decoding the current row of `row`'s statement as `type`
  /// (whose JSON decoders come from its hook when it is a
  /// `FetchableRecord`).
  convenience init<T>(row: RowView, keyDecoding: KeyDecodingStrategy, decoding type: T.Type) {
    self.init(row: row, keyDecoding: keyDecoding, decoding: type, record: type as? any FetchableRecord.Type)
  }

  /// A context decoding the current row of `row`'s statement as `type`,
  /// with the JSON decoders of `record` (`type` itself, known without a
  /// cast; nil for the plain ones).
  convenience init<T>(
    row: RowView, keyDecoding: KeyDecodingStrategy, decoding type: T.Type, record: (any FetchableRecord.Type)?
  ) {
    self.init(
      statement: row.statement, heldRows: nil, heldSQL: "", columnNames: row.columns.names, columnTable: row.columns,
      keyDecoding: keyDecoding, decoding: type, record: record, scoping: row.scoping,
      spanIndex: row.columns.spanIndex, columnOffset: row.offset)
  }

  /// A context decoding the rows of `rows` (named `columnNames`, the result
  /// of `sql`), one by one from `heldRow` 0. `rows` must stay unchanged
  /// while the context is used.
  package convenience init<T>(
    rows: UnsafePointer<sqlitebridge.interop.RowList>, columnNames: [String], sql: String,
    keyDecoding: KeyDecodingStrategy, decoding type: T.Type
  ) {
    self.init(
      statement: nil, heldRows: rows, heldSQL: sql, columnNames: columnNames, columnTable: nil,
      keyDecoding: keyDecoding, decoding: type, record: type as? any FetchableRecord.Type)
  }

  private init<T>(
    statement: UnsafePointer<sqlitebridge.Statement>?, heldRows: UnsafePointer<sqlitebridge.interop.RowList>?,
    heldSQL: String, columnNames: [String], columnTable: ColumnTable?, keyDecoding: KeyDecodingStrategy,
    decoding type: T.Type, record: (any FetchableRecord.Type)?, scoping: RowScoping? = nil, spanIndex: Int = -1,
    columnOffset: Int32 = 0
  ) {
    self.scoping = scoping
    self.spanIndex = spanIndex
    self.columnOffset = columnOffset
    self.statement = statement
    self.heldRows = heldRows
    self.heldSQL = heldSQL
    self.columnNames = columnNames
    self.columnTable = columnTable
    self.record = record
    self.keyDecoding = keyDecoding
    keyNames = columnNames.map(keyDecoding.keyName(forColumn:))
    convertibleType = type as? any DatabaseValueConvertible.Type
    plan = .allocate(capacity: 1)
    plan.initialize(to: Plan())
  }

  deinit {
    plan.deinitialize(count: 1)
    plan.deallocate()
  }

  /// The current row as `T`: from its first column when `T` is
  /// `DatabaseValueConvertible`, otherwise through `T.init(from:)` with a
  /// keyed container whose keys are column names.
  package func decodeRow<T: Decodable>(_ type: T.Type) throws -> T {
    plan.pointee.lookup = 0
    if let convertibleType {
      return try convert(convertibleType, column: 0, codingPath: []) as! T
    }
    return try T(from: RowDecoder(context: self))
  }

  /// The column `key` names, or nil. Inlined into each property's read:
  /// the plain-data key asked for at this place on the earlier rows costs
  /// one comparison of its bits; anything else (and a string's retain and
  /// release) is out of line, in `namedColumn`, so that the inlined part
  /// stays small.
  @inline(__always)
  func column<Key: CodingKey>(for key: Key) -> Int? {
    let lookup = plan.pointee.lookup
    plan.pointee.lookup = lookup &+ 1
    if lookup < plan.pointee.slots.count, let bits = CodingKeyBits.of(key) {
      let slot = plan.pointee.slots[lookup]
      if slot.type == ObjectIdentifier(Key.self), slot.bits == bits { return slot.column >= 0 ? slot.column : nil }
    }
    return namedColumn(for: key, at: lookup)
  }

  /// The column `key` names when its bits did not find it: a key that is
  /// not plain data is compared by `stringValue` with the key asked for at
  /// this place on the earlier rows; otherwise it is looked up by name.
  @inline(never)
  private func namedColumn<Key: CodingKey>(for key: Key, at lookup: Int) -> Int? {
    let bits = CodingKeyBits.of(key)
    let name = key.stringValue
    if bits == nil, lookup < plan.pointee.slots.count, plan.pointee.keys[lookup] == name {
      let column = plan.pointee.slots[lookup].column
      return column >= 0 ? column : nil
    }
    return lookUpColumn(for: name, at: lookup, bits: bits, type: ObjectIdentifier(Key.self))
  }

  /// The column `key` names, found by name, remembered as the key asked for
  /// at place `lookup` of a row (with its bits and type when it has bits).
  @inline(never)
  private func lookUpColumn(for key: String, at lookup: Int, bits: UInt64?, type: ObjectIdentifier) -> Int? {
    let column = keyNames.firstIndex { Identifier.same($0, key) }
    let slot = Slot(type: bits == nil ? nil : type, bits: bits ?? 0, column: column ?? -1)
    if lookup < plan.pointee.slots.count {
      plan.pointee.keys[lookup] = key
      plan.pointee.slots[lookup] = slot
    } else if lookup == plan.pointee.slots.count, lookup < 1024 {
      plan.pointee.keys.append(key)
      plan.pointee.slots.append(slot)
    }
    return column
  }

  /// The keyed container for `Key`, made once per query (per key type).
  func keyedContainer<Key: CodingKey>(_ type: Key.Type) -> KeyedDecodingContainer<Key> {
    if cachedKeyType == ObjectIdentifier(type), let cachedContainer {
      return unsafeDowncast(cachedContainer, to: KeyedContainerCache<KeyedDecodingContainer<Key>>.self).copy()
    }
    return makeKeyedContainer(type)
  }

  /// A new keyed container for `Key`, cached. Apart from `keyedContainer`:
  /// a local container there made every call (the cached path too) ask for
  /// the container type's metadata.
  @inline(never)
  private func makeKeyedContainer<Key: CodingKey>(_ type: Key.Type) -> KeyedDecodingContainer<Key> {
    let container = KeyedDecodingContainer(RowKeyedContainer<Key>(context: self))
    cachedKeyType = ObjectIdentifier(type)
    cachedContainer = KeyedContainerCache(container)
    return container
  }

  /// Drops the cached keyed container. Whoever makes a context calls this
  /// when the query's rows are decoded, thrown or not, and keeps the
  /// context alive until then: the container refers to it without owning
  /// it (see `RowKeyedContainer`).
  package func endQuery() {
    cachedKeyType = nil
    cachedContainer = nil
  }

  /// Column `column` of the current row, borrowed (see `Statement.column`).
  /// (`column` is an index of `keyNames`, so it fits an Int32.)
  @inline(__always)
  func view(_ column: Int) -> sqlitebridge.ColumnView {
    if let statement { return statement.pointee.column(columnOffset &+ Int32(truncatingIfNeeded: column)) }
    return heldView(column)
  }

  /// Column `column` of the current held row, borrowed from the core's list.
  @inline(never)
  private func heldView(_ column: Int) -> sqlitebridge.ColumnView {
    sqlitebridge.interop.RowListAccess.column(heldRows!.pointee, heldRow, column)
  }

  /// Column `column` of the current row, copied.
  func value(_ column: Int) -> DatabaseValue { DatabaseValue(view(column)) }

  /// The SQL whose rows are decoded, for errors.
  var sql: String { statement.map { String($0.pointee.sql()) } ?? heldSQL }

  /// Whether column `column` of the current row is NULL.
  func isNull(_ column: Int) -> Bool { view(column).type == .Null }

  // MARK: Reading values

  /// Column `column` read by `read` (straight from the statement).
  ///
  /// - Throws: `DecodingError.valueNotFound` for NULL and
  ///   `.typeMismatch` for a value that does not convert; both name the
  ///   column, value and type, with the `DatabaseError` (`.mismatch`) as the
  ///   underlying error.
  @inline(__always)
  func read<T>(
    _ type: T.Type, column: Int, codingPath: () -> [any CodingKey], _ read: (sqlitebridge.ColumnView) -> T?
  ) throws -> T {
    if let value = read(view(column)) { return value }
    throw mismatch(type, column: column, codingPath: codingPath())
  }

  /// The error for column `column`, whose value does not convert to `type`.
  func mismatch<T>(_ type: T.Type, column: Int, codingPath: [any CodingKey]) -> DecodingError {
    let value = self.value(column)
    let error = DatabaseError.conversion(
      column: columnNames[column], value: value, storageClass: view(column).type, type: type, sql: sql)
    let context = DecodingError.Context(codingPath: codingPath, debugDescription: error.message, underlyingError: error)
    return value.isNull ? .valueNotFound(type, context) : .typeMismatch(type, context)
  }

  /// Column `column` converted by `T.fromDatabaseValue`.
  ///
  /// - Throws: `DecodingError`, as `read`.
  func convert<T: DatabaseValueConvertible>(_ type: T.Type, column: Int, codingPath: [any CodingKey]) throws -> T {
    if let converted = T.fromDatabaseValue(value(column)) { return converted }
    throw mismatch(type, column: column, codingPath: codingPath)
  }

  /// Column `column` as any `Decodable` type: a convertible type through
  /// `fromDatabaseValue`; another type through its own `init(from:)` reading
  /// the column as a single value (an enum with a raw value, for instance),
  /// or, when it asks for a keyed or unkeyed container, from JSON text in the
  /// column.
  func decode<T: Decodable>(_ type: T.Type, column: Int, codingPath: [any CodingKey]) throws -> T {
    if let convertible = type as? any DatabaseValueConvertible.Type {
      return try convert(convertible, column: column, codingPath: codingPath) as! T
    }
    do {
      return try T(from: ColumnDecoder(context: self, column: column, codingPath: codingPath))
    } catch is ColumnDecoder.NeedsContainer {
      return try decodeJSON(type, column: column, codingPath: codingPath)
    }
  }

  /// Column `column`'s JSON text decoded as `T`, by the column's JSON
  /// decoder (see `jsonDecoder(_:)`).
  ///
  /// - Throws: `DecodingError.typeMismatch` (or `.valueNotFound` for NULL)
  ///   when the column is not text (or is text that is not valid UTF-8), as
  ///   for any value that does not convert; `.typeMismatch` too when the
  ///   text is not JSON for `T`: its underlying error is a `DatabaseError`
  ///   with `.mismatch` whose message, the core's, names the column, the
  ///   value and `T` (`column "tags" holds text 'oops' that is not JSON for
  ///   Array<String>, which does not convert to Array<String>`), and its
  ///   description is that message followed by JSONDecoder's reason. An
  ///   error that is not a `DecodingError` (thrown by a type's own
  ///   `init(from:)`) is rethrown as it is.
  private func decodeJSON<T: Decodable>(_ type: T.Type, column: Int, codingPath: [any CodingKey]) throws -> T {
    let value = self.value(column)
    guard case .text(let text) = value else {
      throw mismatch(type, column: column, codingPath: codingPath)
    }
    do {
      return try jsonDecoder(column).decode(T.self, from: Data(text.utf8))
    } catch let jsonError as DecodingError {
      let error = DatabaseError.notJSON(column: columnNames[column], value: value, type: type, sql: sql)
      let description = error.message + " (" + JSONColumns.reason(jsonError) + ")"
      throw DecodingError.typeMismatch(
        type, DecodingError.Context(codingPath: codingPath, debugDescription: description, underlyingError: error))
    }
  }

  /// The JSON decoder of column `column`: asked of the record type's hook
  /// (or made plain) once per query, shared through the statement's column
  /// table by every context decoding the same run as the same type.
  private func jsonDecoder(_ column: Int) -> JSONDecoder {
    if let jsonDecoders { return jsonDecoders.decoder(column: column, name: columnNames[column]) }
    let recordID = record.map { ObjectIdentifier($0) }
    let cache: JSONDecoderCache
    if let shared = columnTable?.jsonDecoders, shared.recordID == recordID {
      cache = shared
    } else {
      cache = JSONDecoderCache(record: record, columnCount: columnNames.count)
      columnTable?.jsonDecoders = cache
    }
    jsonDecoders = cache
    return cache.decoder(column: column, name: columnNames[column])
  }

  /// The error for a key with no column.
  // MARK: Associations

  /// What the scoped property `key` holds, when `key` names a scope or a
  /// prefetch of the request: `.some(value)`; `.some(nil)` for an optional
  /// association that found nothing (every column NULL) or a missing
  /// prefetch; nil when `key` names neither.
  func scoped<T: Decodable>(_ type: T.Type, _ key: any CodingKey) throws -> T?? {
    guard let scoping, let statement else { return nil }
    let name = key.stringValue
    if let index = scoping.span(named: name, under: spanIndex) {
      let span = scoping.spans[index]
      if RowScoping.isEmpty(span, in: statement) { return .some(nil) }
      let names = Array(scoping.names[span.start..<span.start + span.count])
      let child = RowDecodingContext(
        statement: statement, heldRows: nil, heldSQL: "", columnNames: names, columnTable: nil,
        keyDecoding: keyDecoding, decoding: type, record: type as? any FetchableRecord.Type, scoping: scoping,
        spanIndex: index, columnOffset: Int32(span.start))
      defer { withExtendedLifetime(child) { child.endQuery() } }
      return .some(try child.decodeRow(type))
    }
    guard spanIndex < 0, scoping.prefetchKeys.contains(name) else { return nil }
    let values = scoping.prefetchedValues[name] ?? []
    if let typed = values as? T { return .some(typed) }
    let context = DecodingError.Context(
      codingPath: [key],
      debugDescription: "the rows prefetched for \"\(name)\" do not decode as \(T.self) (an array of the "
        + "association's FetchableRecord destination)")
    throw DecodingError.typeMismatch(type, context)
  }

  /// `T` decoded from the row's own columns, for a property `key` that names
  /// no column, scope or prefetch (a nested record whose columns are the
  /// row's); `keyNotFound` when `T` reads one value.
  func decodeFromOwnColumns<T: Decodable>(_ type: T.Type, _ key: any CodingKey) throws -> T {
    guard !(type is any DatabaseValueConvertible.Type), let statement else { throw keyNotFound(key) }
    let child = RowDecodingContext(
      statement: statement, heldRows: nil, heldSQL: "", columnNames: columnNames, columnTable: nil,
      keyDecoding: keyDecoding, decoding: type, record: type as? any FetchableRecord.Type, columnOffset: columnOffset)
    defer { withExtendedLifetime(child) { child.endQuery() } }
    do {
      return try T(from: NestedRecordDecoder(context: child, key: key))
    } catch DecodingError.keyNotFound {
      throw keyNotFound(key)
    }
  }

  func keyNotFound(_ key: any CodingKey) -> DecodingError {
    var description = "no column named \"\(key.stringValue)\" in the row"
    if keyDecoding == .convertFromSnakeCase {
      description =
        "no column named \"\(SnakeCase.snakeCase(key.stringValue))\" in the row (nor another whose name "
        + "converts from snake_case to \"\(key.stringValue)\")"
    }
    description += "; columns: " + columnNames.map { "\"\($0)\"" }.joined(separator: ", ")
    return .keyNotFound(key, DecodingError.Context(codingPath: [key], debugDescription: description))
  }
}

/// Decodes the current row: keyed by column name, or as one value from the
/// first column.
///
/// The context is held unmanaged, as by `RowKeyedContainer`: made for every
/// row and passed as an `any Decoder`, a strong reference cost a retain and
/// a release per row. The query keeps the context alive; a decoder is valid
/// only while its row is decoded.
/// Decodes a nested record from the row's own columns: a keyed container
/// only (a type that reads one value has no column to read it from, and
/// fails as a missing key).
struct NestedRecordDecoder: Decoder {
  let context: RowDecodingContext
  let key: any CodingKey

  var codingPath: [any CodingKey] { [key] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    context.keyedContainer(type)
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw context.keyNotFound(key) }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { throw context.keyNotFound(key) }
}

struct RowDecoder: Decoder {
  private let unmanaged: Unmanaged<RowDecodingContext>

  init(context: RowDecodingContext) { unmanaged = .passUnretained(context) }

  /// The context, for the paths that are not per row.
  var context: RowDecodingContext { unmanaged.takeUnretainedValue() }

  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    unmanaged._withUnsafeGuaranteedRef { $0.keyedContainer(type) }
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw DecodingError.typeMismatch(
      [Any].self,
      DecodingError.Context(
        codingPath: [],
        debugDescription: "a row decodes as a keyed container (properties by column name), not an unkeyed one"))
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    ColumnDecoder(context: context, column: 0, codingPath: [])
  }
}

/// The row's columns by name, for a type's properties. Absent columns are
/// `keyNotFound`; NULL is `valueNotFound` unless the property is optional.
///
/// The context is held unmanaged and used borrowed: the standard library's
/// container box copies this struct for every property it decodes, and with
/// a strong reference each copy cost a retain and a release (about a third
/// of what decoding an integer property cost). The query that made the
/// context keeps it alive while its rows are decoded (`Database.decodeAll`,
/// `decodeFirst`), and, like the `RowView` it reads, a container is valid
/// only while the row it was made for is being decoded.
struct RowKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  private let unmanaged: Unmanaged<RowDecodingContext>

  init(context: RowDecodingContext) { unmanaged = .passUnretained(context) }

  /// The context, for the paths that are not per property and row.
  var context: RowDecodingContext { unmanaged.takeUnretainedValue() }

  /// `body` with the context borrowed: no retain, no release.
  @inline(__always)
  private func withContext<R>(_ body: (RowDecodingContext) throws -> R) rethrows -> R {
    try unmanaged._withUnsafeGuaranteedRef(body)
  }

  var codingPath: [any CodingKey] { [] }

  /// A key for each column name (the leftmost of names equal but for ASCII
  /// case), converted from snake_case when asked.
  var allKeys: [Key] {
    let names = context.keyNames
    return names.indices.compactMap { index in
      names[..<index].contains { Identifier.same($0, names[index]) } ? nil : Key(stringValue: names[index])
    }
  }

  func contains(_ key: Key) -> Bool { withContext { $0.column(for: key) != nil } }

  @inline(__always)
  private func column(_ key: Key) throws -> Int {
    try withContext { context in
      guard let column = context.column(for: key) else { throw context.keyNotFound(key) }
      return column
    }
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    try withContext { context in
      guard let column = context.column(for: key) else { throw context.keyNotFound(key) }
      return context.isNull(column)
    }
  }

  /// The column for `key` read by `read`. (The errors are made out of
  /// line: boxing `key`, of a generic type, into an error here would cost on
  /// every call.)
  @inline(__always)
  private func read<T>(_ type: T.Type, _ key: Key, _ read: (sqlitebridge.ColumnView) -> T?) throws -> T {
    try withContext { context in
      guard let column = context.column(for: key) else { throw Self.keyNotFound(context, key) }
      if let value = read(context.view(column)) { return value }
      throw Self.mismatch(context, type, column: column, key: key)
    }
  }

  /// The error for a key with no column (see `RowDecodingContext.keyNotFound`).
  @inline(never)
  private static func keyNotFound(_ context: RowDecodingContext, _ key: Key) -> DecodingError {
    context.keyNotFound(key)
  }

  /// The error for a value that does not convert (see
  /// `RowDecodingContext.mismatch`).
  @inline(never)
  private static func mismatch<T>(_ context: RowDecodingContext, _ type: T.Type, column: Int, key: Key)
    -> DecodingError
  {
    context.mismatch(type, column: column, codingPath: [key])
  }

  /// nil for an absent column or NULL; otherwise the column read by `read`.
  @inline(__always)
  private func readIfPresent<T>(_ type: T.Type, _ key: Key, _ read: (sqlitebridge.ColumnView) -> T?) throws -> T? {
    try withContext { context in
      guard let column = context.column(for: key) else { return nil }
      let view = context.view(column)
      if view.type == .Null { return nil }
      if let value = read(view) { return value }
      throw Self.mismatch(context, type, column: column, key: key)
    }
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try read(type, key, ColumnRead.bool) }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try read(type, key, ColumnRead.string) }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try read(type, key, ColumnRead.double) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try read(type, key, ColumnRead.float) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try read(type, key, ColumnRead.integer) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try read(type, key, ColumnRead.integer) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try read(type, key, ColumnRead.integer) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try read(type, key, ColumnRead.integer) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try read(type, key, ColumnRead.integer) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try read(type, key, ColumnRead.integer) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try read(type, key, ColumnRead.integer) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try read(type, key, ColumnRead.integer) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try read(type, key, ColumnRead.integer) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try read(type, key, ColumnRead.integer) }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    let context = context
    if context.scoping != nil, let scoped = try context.scoped(type, key) {
      guard let value = scoped else { throw context.keyNotFound(key) }
      return value
    }
    guard let column = context.column(for: key) else { return try context.decodeFromOwnColumns(type, key) }
    return try context.decode(type, column: column, codingPath: [key])
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    try readIfPresent(type, key, ColumnRead.bool)
  }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    try readIfPresent(type, key, ColumnRead.string)
  }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    try readIfPresent(type, key, ColumnRead.double)
  }
  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
    try readIfPresent(type, key, ColumnRead.float)
  }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    try readIfPresent(type, key, ColumnRead.integer)
  }
  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
    try readIfPresent(type, key, ColumnRead.integer)
  }
  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
    try readIfPresent(type, key, ColumnRead.integer)
  }
  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
    try readIfPresent(type, key, ColumnRead.integer)
  }
  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    try readIfPresent(type, key, ColumnRead.integer)
  }
  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
    try readIfPresent(type, key, ColumnRead.integer)
  }
  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
    try readIfPresent(type, key, ColumnRead.integer)
  }
  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
    try readIfPresent(type, key, ColumnRead.integer)
  }
  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
    try readIfPresent(type, key, ColumnRead.integer)
  }
  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
    try readIfPresent(type, key, ColumnRead.integer)
  }
  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    if context.scoping != nil, let scoped = try context.scoped(type, key) { return scoped }
    guard let column = context.column(for: key), !context.isNull(column) else { return nil }
    return try context.decode(type, column: column, codingPath: [key])
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    throw nestedContainerError(key)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    throw nestedContainerError(key)
  }

  private func nestedContainerError(_ key: Key) -> DecodingError {
    DecodingError.typeMismatch(
      [String: Any].self,
      DecodingError.Context(
        codingPath: [key],
        debugDescription: "column \"\(key.stringValue)\" cannot be read as a nested container; decode it as a "
          + "Decodable type instead (which reads JSON text)"))
  }

  /// The same row: a superclass decodes its properties from the row too.
  func superDecoder() throws -> any Decoder { RowDecoder(context: context) }

  /// The same row, as `superDecoder()`.
  func superDecoder(forKey key: Key) throws -> any Decoder { RowDecoder(context: context) }
}

/// Decodes one column as a single value, for a `Decodable` type that is not
/// `DatabaseValueConvertible` (an enum with a raw value, a wrapper type).
/// When the type asks for a keyed or unkeyed container instead,
/// `NeedsContainer` sends the decoding to the column's JSON text.
struct ColumnDecoder: Decoder, SingleValueDecodingContainer {
  struct NeedsContainer: Error {}

  let context: RowDecodingContext
  let column: Int
  let codingPath: [any CodingKey]

  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    throw NeedsContainer()
  }
  func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NeedsContainer() }
  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  func decodeNil() -> Bool { context.isNull(column) }

  @inline(__always)
  private func read<T>(_ type: T.Type, _ read: (sqlitebridge.ColumnView) -> T?) throws -> T {
    try context.read(type, column: column, codingPath: { codingPath }, read)
  }

  func decode(_ type: Bool.Type) throws -> Bool { try read(type, ColumnRead.bool) }
  func decode(_ type: String.Type) throws -> String { try read(type, ColumnRead.string) }
  func decode(_ type: Double.Type) throws -> Double { try read(type, ColumnRead.double) }
  func decode(_ type: Float.Type) throws -> Float { try read(type, ColumnRead.float) }
  func decode(_ type: Int.Type) throws -> Int { try read(type, ColumnRead.integer) }
  func decode(_ type: Int8.Type) throws -> Int8 { try read(type, ColumnRead.integer) }
  func decode(_ type: Int16.Type) throws -> Int16 { try read(type, ColumnRead.integer) }
  func decode(_ type: Int32.Type) throws -> Int32 { try read(type, ColumnRead.integer) }
  func decode(_ type: Int64.Type) throws -> Int64 { try read(type, ColumnRead.integer) }
  func decode(_ type: UInt.Type) throws -> UInt { try read(type, ColumnRead.integer) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try read(type, ColumnRead.integer) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try read(type, ColumnRead.integer) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try read(type, ColumnRead.integer) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try read(type, ColumnRead.integer) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try context.decode(type, column: column, codingPath: codingPath)
  }
}

/// Reads a borrowed column as a Swift scalar with the rules of the
/// `DatabaseValueConvertible` conformances (see `ExactConversion`), without
/// making a `DatabaseValue` first. Nil when the value does not convert.
enum ColumnRead {
  /// An integer, or a real with no fractional part, that fits `T`.
  @inline(__always)
  static func integer<T: FixedWidthInteger>(_ column: sqlitebridge.ColumnView) -> T? {
    if column.type == .Integer { return T(exactly: column.integer) }
    return nonInteger(column)
  }

  /// A column that is not an integer, as `integer` reads it (out of line:
  /// the integer is the case to keep small).
  @inline(never)
  static func nonInteger<T: FixedWidthInteger>(_ column: sqlitebridge.ColumnView) -> T? {
    guard column.type == .Real else { return nil }
    return ExactConversion.integer(column.real).flatMap { T(exactly: $0) }
  }

  /// A non-zero integer (or integral real) is true.
  @inline(__always)
  static func bool(_ column: sqlitebridge.ColumnView) -> Bool? {
    (integer(column) as Int64?).map { $0 != 0 }
  }

  /// A real, or an integer as the nearest Double.
  @inline(__always)
  static func double(_ column: sqlitebridge.ColumnView) -> Double? {
    switch column.type {
    case .Real: return column.real
    case .Integer: return Double(column.integer)
    default: return nil
    }
  }

  /// A real or an integer as the nearest Float, unless a finite real would
  /// become infinity.
  @inline(__always)
  static func float(_ column: sqlitebridge.ColumnView) -> Float? {
    switch column.type {
    case .Real: return ExactConversion.float(column.real)
    case .Integer: return Float(column.integer)
    default: return nil
    }
  }

  /// Text only, and only valid UTF-8 (never repaired with U+FFFD).
  @inline(__always)
  static func string(_ column: sqlitebridge.ColumnView) -> String? {
    guard column.type == .Text else { return nil }
    return ColumnText.string(column)
  }
}
