import Foundation

// Encodes an `Encodable` value as one row: each key of its keyed container
// becomes a column. Used by `Database.insert(_:into:keyEncoding:)` and the
// default `PersistableRecord.encode(to:)`. A property that encodes a keyed
// or unkeyed container is stored as JSON text (see JSONColumns.swift).

/// The columns and values encoded so far, and the first error a
/// non-throwing `Encoder` call had to defer.
final class RowEncodingStorage {
  let keyEncoding: KeyEncodingStrategy
  /// The record type whose hook gives the JSON encoders (nil: the default
  /// one, for every column).
  let record: (any PersistableRecord.Type)?
  /// Whether everything encoded here is dropped unseen: the storage behind
  /// the containers handed out while finding out that a property needs
  /// JSON (its JSON is then encoded whole), or after an error was recorded.
  /// Nothing is converted there: neither a nested value's JSON, nor an
  /// unsigned integer that a column could not hold but JSON can.
  let discards: Bool
  private(set) var columns: [String] = []
  private(set) var values: [DatabaseValue] = []
  private(set) var error: (any Error)?
  /// The JSON encoder of each column that needed one, asked of `record`'s
  /// hook once per column.
  private var jsonEncoders: [(column: String, encoder: JSONEncoder)] = []

  init(keyEncoding: KeyEncodingStrategy, record: (any PersistableRecord.Type)? = nil) {
    self.keyEncoding = keyEncoding
    self.record = record
    discards = false
  }

  private init(discarding: ()) {
    keyEncoding = .useDefaultKeys
    record = nil
    discards = true
  }

  /// A storage that drops everything (see `discards`).
  static func discarding() -> RowEncodingStorage { RowEncodingStorage(discarding: ()) }

  /// The JSON encoder of column `column`: the record type's, asked once per
  /// column, or the default one.
  func jsonEncoder(forColumn column: String) -> JSONEncoder {
    if let found = jsonEncoders.first(where: { $0.column == column }) { return found.encoder }
    let encoder = record?.databaseJSONEncoder(for: column) ?? JSONColumns.defaultEncoder()
    jsonEncoders.append((column, encoder))
    return encoder
  }

  /// Sets the column for `key`; a key encoded again replaces its value.
  func set(_ value: DatabaseValue, forKey key: String) {
    set(value, column: keyEncoding.columnName(forKey: key))
  }

  /// Sets column `column`; a column encoded again replaces its value.
  func set(_ value: DatabaseValue, column: String) {
    guard !discards else { return }
    if let index = columns.firstIndex(of: column) {
      values[index] = value
    } else {
      columns.append(column)
      values.append(value)
    }
  }

  /// Records `description` as the error `insert` throws (the first one wins).
  func fail(_ value: Any, codingPath: [any CodingKey], _ description: String) {
    guard error == nil else { return }
    error = EncodingError.invalidValue(
      value, EncodingError.Context(codingPath: codingPath, debugDescription: description))
  }
}

/// Encodes a value's properties as the columns of one row.
struct RowEncoder: Encoder {
  let storage: RowEncodingStorage
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(RowKeyedEncodingContainer<Key>(storage: storage, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    storage.fail([Any](), codingPath: codingPath, Self.notKeyed)
    return DiscardingUnkeyedContainer(codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    storage.fail((), codingPath: codingPath, Self.notKeyed)
    return ColumnEncoder(codingPath: codingPath, storage: .discarding(), column: "")
  }

  static let notKeyed =
    "a row is encoded from a keyed container (a struct's properties become columns), not from an unkeyed "
    + "container or a single value"
}

/// One column per key.
struct RowKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let storage: RowEncodingStorage
  let codingPath: [any CodingKey]

  private func set(_ value: some DatabaseValueConvertible, _ key: Key) {
    storage.set(value.databaseValue, forKey: key.stringValue)
  }

  mutating func encodeNil(forKey key: Key) throws { storage.set(.null, forKey: key.stringValue) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { set(value, key) }
  mutating func encode(_ value: String, forKey key: Key) throws { set(value, key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { set(value, key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { set(value, key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { set(value, key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { set(value, key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { set(value, key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { set(value, key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { set(value, key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { set(value, key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { set(value, key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { set(value, key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    guard !storage.discards else { return }
    storage.set(try ColumnEncoder.unsigned(value, codingPath: codingPath + [key]), forKey: key.stringValue)
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    guard !storage.discards else { return }
    storage.set(try ColumnEncoder.unsigned(value, codingPath: codingPath + [key]), forKey: key.stringValue)
  }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    guard !storage.discards else { return }
    let column = storage.keyEncoding.columnName(forKey: key.stringValue)
    let encoded = try ColumnEncoder.databaseValue(
      of: value, codingPath: codingPath + [key], storage: storage, column: column)
    storage.set(encoded, column: column)
  }

  // A nil optional is a NULL column, not a missing one (the default
  // implementations encode nothing for nil).
  mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { set(value, key) }
  mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { set(value, key) }
  mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { set(value, key) }
  mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { set(value, key) }
  mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { set(value, key) }
  mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { set(value, key) }
  mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { set(value, key) }
  mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { set(value, key) }
  mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { set(value, key) }
  mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { set(value, key) }
  mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { set(value, key) }
  mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { set(value, key) }
  mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    storage.fail([String: Any](), codingPath: codingPath + [key], Self.nested(key))
    return KeyedEncodingContainer(RowKeyedEncodingContainer<NestedKey>(storage: .discarding(), codingPath: codingPath))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    storage.fail([Any](), codingPath: codingPath + [key], Self.nested(key))
    return DiscardingUnkeyedContainer(codingPath: codingPath + [key])
  }

  /// The same row: a superclass's properties become columns too.
  mutating func superEncoder() -> any Encoder { RowEncoder(storage: storage, codingPath: codingPath) }

  /// The same row, as `superEncoder()`.
  mutating func superEncoder(forKey key: Key) -> any Encoder { RowEncoder(storage: storage, codingPath: codingPath) }

  private static func nested(_ key: Key) -> String {
    "key \"\(key.stringValue)\" asks for a nested container, which has no column; give the property an "
      + "Encodable type of its own instead (it is stored as JSON text)"
  }
}

/// Encodes one property's value as one column: a `DatabaseValueConvertible`
/// value as its `databaseValue`, another type as the single value it
/// encodes (an enum's raw value), or, when it encodes a keyed or unkeyed
/// container, as JSON text, written by the column's JSON encoder (the
/// record type's hook, through `storage`).
final class ColumnEncoder: Encoder, SingleValueEncodingContainer {
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  /// The row's storage, which gives the column's JSON encoder.
  private let storage: RowEncodingStorage
  /// The column the value is for.
  private let column: String
  private var value: DatabaseValue?
  private var needsJSON = false

  init(codingPath: [any CodingKey], storage: RowEncodingStorage, column: String) {
    self.codingPath = codingPath
    self.storage = storage
    self.column = column
  }

  /// The value of column `column` for `value`.
  ///
  /// - Throws: `EncodingError.invalidValue` when an unsigned integer
  ///   exceeds Int64.max or the value encodes nothing; the JSON encoder's
  ///   error (an `EncodingError`) when it cannot encode the value.
  static func databaseValue<T: Encodable>(
    of value: T, codingPath: [any CodingKey], storage: RowEncodingStorage, column: String
  ) throws -> DatabaseValue {
    if let convertible = value as? any DatabaseValueConvertible { return convertible.databaseValue }
    let encoder = ColumnEncoder(codingPath: codingPath, storage: storage, column: column)
    try value.encode(to: encoder)
    if !encoder.needsJSON, let encoded = encoder.value { return encoded }
    let json = storage.jsonEncoder(forColumn: column)
    return .text(String(decoding: try json.encode(value), as: UTF8.self))
  }

  /// `value` as an integer column.
  ///
  /// - Throws: `EncodingError.invalidValue` above Int64.max (never wrapped
  ///   to a negative number).
  static func unsigned<T: FixedWidthInteger & UnsignedInteger>(_ value: T, codingPath: [any CodingKey]) throws
    -> DatabaseValue
  {
    guard let integer = Int64(exactly: value) else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: codingPath, debugDescription: "\(value) is above Int64.max: SQLite cannot store it as an integer"
        ))
    }
    return .integer(integer)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    needsJSON = true
    return KeyedEncodingContainer(RowKeyedEncodingContainer<Key>(storage: .discarding(), codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    needsJSON = true
    return DiscardingUnkeyedContainer(codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  func encodeNil() throws { value = .null }
  func encode(_ value: Bool) throws { self.value = value.databaseValue }
  func encode(_ value: String) throws { self.value = value.databaseValue }
  func encode(_ value: Double) throws { self.value = value.databaseValue }
  func encode(_ value: Float) throws { self.value = value.databaseValue }
  func encode(_ value: Int) throws { self.value = value.databaseValue }
  func encode(_ value: Int8) throws { self.value = value.databaseValue }
  func encode(_ value: Int16) throws { self.value = value.databaseValue }
  func encode(_ value: Int32) throws { self.value = value.databaseValue }
  func encode(_ value: Int64) throws { self.value = value.databaseValue }
  func encode(_ value: UInt8) throws { self.value = value.databaseValue }
  func encode(_ value: UInt16) throws { self.value = value.databaseValue }
  func encode(_ value: UInt32) throws { self.value = value.databaseValue }
  func encode(_ value: UInt) throws { self.value = try Self.unsigned(value, codingPath: codingPath) }
  func encode(_ value: UInt64) throws { self.value = try Self.unsigned(value, codingPath: codingPath) }
  func encode<T: Encodable>(_ value: T) throws {
    self.value = try Self.databaseValue(of: value, codingPath: codingPath, storage: storage, column: column)
  }
}

/// Accepts and drops everything: what a non-throwing `Encoder` call returns
/// after recording why its output cannot be stored (or while only finding
/// out that a value needs JSON).
struct DiscardingUnkeyedContainer: UnkeyedEncodingContainer {
  let codingPath: [any CodingKey]
  private(set) var count = 0

  init(codingPath: [any CodingKey]) {
    self.codingPath = codingPath
  }

  mutating func encodeNil() throws { count += 1 }
  mutating func encode<T: Encodable>(_ value: T) throws { count += 1 }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    count += 1
    return KeyedEncodingContainer(RowKeyedEncodingContainer<NestedKey>(storage: .discarding(), codingPath: codingPath))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    count += 1
    return DiscardingUnkeyedContainer(codingPath: codingPath)
  }

  mutating func superEncoder() -> any Encoder {
    RowEncoder(storage: .discarding(), codingPath: codingPath)
  }
}
