import Foundation

// Encodes an `Encodable` value as one row: each key of its keyed container
// becomes a column. Used by `Database.insert(_:into:keyEncoding:)` and the
// default `PersistableRecord.encode(to:)`, through a `RowEncodingStorage`.
// A property that encodes a keyed or unkeyed container is stored as JSON
// text (see JSONColumns.swift and ColumnEncoder.swift).

/// Encodes a value's properties as the columns of one row, in the
/// container its storage is filling. The storage is held unmanaged, as by
/// `RowKeyedEncodingContainer` (an encoder is valid only while the value is
/// encoded); the coding path of a row is always empty.
struct RowEncoder: Encoder {
  private let unmanaged: Unmanaged<RowEncodingStorage>
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(storage: RowEncodingStorage) {
    unmanaged = .passUnretained(storage)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    unmanaged._withUnsafeGuaranteedRef { $0.keyedContainer(type) }
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    unmanaged._withUnsafeGuaranteedRef { $0.fail([Any](), codingPath: [], Self.notKeyed) }
    return DiscardingUnkeyedContainer(codingPath: [])
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    unmanaged._withUnsafeGuaranteedRef { $0.fail((), codingPath: [], Self.notKeyed) }
    return DiscardingSingleValueContainer(codingPath: [])
  }

  static let notKeyed =
    "a row is encoded from a keyed container (a struct's properties become columns), not from an unkeyed "
    + "container or a single value"
}

/// One column per key, set in the storage's container.
///
/// The storage is held unmanaged and used borrowed: the standard library's
/// container box copies this struct for every property it encodes, and the
/// storage keeps the box for the next record (a strong reference would be a
/// cycle). The storage is alive while it encodes a value
/// (`RowEncodingStorage.encode(_:into:)`), and a container is valid only
/// then, as for any `Encoder`'s containers.
struct RowKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  private let unmanaged: Unmanaged<RowEncodingStorage>
  /// Empty: the row's own keys.
  var codingPath: [any CodingKey] { [] }

  init(storage: RowEncodingStorage) {
    unmanaged = .passUnretained(storage)
  }

  /// The storage, for the paths that are not per property and record.
  private var storage: RowEncodingStorage { unmanaged.takeUnretainedValue() }

  /// `body` with the storage borrowed: no retain, no release.
  @inline(__always)
  private func withStorage<R>(_ body: (RowEncodingStorage) throws -> R) rethrows -> R {
    try unmanaged._withUnsafeGuaranteedRef(body)
  }

  @inline(__always)
  private func set(_ value: some DatabaseValueConvertible, _ key: Key) {
    withStorage { $0.set(value.databaseValue, forKey: key) }
  }

  mutating func encodeNil(forKey key: Key) throws { withStorage { $0.set(.null, forKey: key) } }
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
    try withStorage { $0.set(try ColumnEncoder.unsigned(value, codingPath: [key]), forKey: key) }
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    try withStorage { $0.set(try ColumnEncoder.unsigned(value, codingPath: [key]), forKey: key) }
  }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try withStorage { storage in
      let column = storage.plannedColumn(forKey: key) ?? storage.keyEncoding.columnName(forKey: key.stringValue)
      let encoded = try ColumnEncoder.databaseValue(
        of: value, codingPath: [key], storage: storage, column: column)
      storage.set(encoded, forKey: key)
    }
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
    storage.fail([String: Any](), codingPath: [key], Self.nested(key))
    return KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>(codingPath: [key]))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    storage.fail([Any](), codingPath: [key], Self.nested(key))
    return DiscardingUnkeyedContainer(codingPath: [key])
  }

  /// The same row: a superclass's properties become columns too.
  mutating func superEncoder() -> any Encoder { RowEncoder(storage: storage) }

  /// The same row, as `superEncoder()`.
  mutating func superEncoder(forKey key: Key) -> any Encoder { RowEncoder(storage: storage) }

  private static func nested(_ key: Key) -> String {
    "key \"\(key.stringValue)\" asks for a nested container, which has no column; give the property an "
      + "Encodable type of its own instead (it is stored as JSON text)"
  }
}
