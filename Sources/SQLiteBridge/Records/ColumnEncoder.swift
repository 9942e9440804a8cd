import Foundation

// One property of an `Encodable` row as one column (see RowEncoder.swift).

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
    of value: T, codingPath: @autoclosure () -> [any CodingKey], storage: RowEncodingStorage, column: String
  ) throws -> DatabaseValue {
    if let convertible = value as? any DatabaseValueConvertible { return convertible.databaseValue }
    let encoder = ColumnEncoder(codingPath: codingPath(), storage: storage, column: column)
    try value.encode(to: encoder)
    if !encoder.needsJSON, let encoded = encoder.value { return encoded }
    let json = storage.jsonEncoder(forColumn: column)
    return .text(String(decoding: try json.encode(value), as: UTF8.self))
  }

  /// `value` as an integer column.
  ///
  /// - Throws: `EncodingError.invalidValue` above Int64.max (never wrapped
  ///   to a negative number).
  static func unsigned<T: FixedWidthInteger & UnsignedInteger>(
    _ value: T, codingPath: @autoclosure () -> [any CodingKey]
  ) throws -> DatabaseValue {
    guard let integer = Int64(exactly: value) else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: codingPath(),
          debugDescription: "\(value) is above Int64.max: SQLite cannot store it as an integer"
        ))
    }
    return .integer(integer)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    needsJSON = true
    return KeyedEncodingContainer(DiscardingKeyedContainer<Key>(codingPath: codingPath))
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
