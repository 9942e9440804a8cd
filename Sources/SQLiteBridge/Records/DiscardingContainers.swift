// The containers that accept and drop everything: what a non-throwing
// `Encoder` call returns after recording why its output cannot be stored
// in a row, or while only finding out that a value needs JSON (its JSON is
// then encoded whole). Nothing encoded into them is converted or kept.

/// A keyed container that drops everything.
struct DiscardingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let codingPath: [any CodingKey]

  mutating func encodeNil(forKey key: Key) throws {}
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {}

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>(codingPath: codingPath + [key]))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    DiscardingUnkeyedContainer(codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder { DiscardingEncoder(codingPath: codingPath) }

  mutating func superEncoder(forKey key: Key) -> any Encoder { DiscardingEncoder(codingPath: codingPath + [key]) }
}

/// An unkeyed container that drops everything (and counts what it was
/// given, as `UnkeyedEncodingContainer` asks).
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
    return KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>(codingPath: codingPath))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    count += 1
    return DiscardingUnkeyedContainer(codingPath: codingPath)
  }

  mutating func superEncoder() -> any Encoder { DiscardingEncoder(codingPath: codingPath) }
}

/// A single-value container that drops its value.
struct DiscardingSingleValueContainer: SingleValueEncodingContainer {
  let codingPath: [any CodingKey]

  mutating func encodeNil() throws {}
  mutating func encode<T: Encodable>(_ value: T) throws {}
}

/// An encoder whose containers drop everything.
struct DiscardingEncoder: Encoder {
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(DiscardingKeyedContainer<Key>(codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer { DiscardingUnkeyedContainer(codingPath: codingPath) }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    DiscardingSingleValueContainer(codingPath: codingPath)
  }
}
