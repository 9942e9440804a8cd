// The least any `Decoder` can cost for fetch_decodable's `Item` (issue 38):
// a keyed container that returns a constant for every `Int64`, cached
// across rows as SQLiteBridge's is, no SQLite. What it costs per row is the
// standard library's part of decoding a `Decodable` (the
// `KeyedDecodingContainer` box, its associated-type lookups and
// value-witness calls, the synthesized `init(from:)`), which no decoder
// avoids. Not part of the package; run it by hand:
//
//   swiftc -O Benchmarks/CodableFloor/main.swift -o /tmp/codable-floor
//   valgrind --tool=callgrind /tmp/codable-floor 0       # startup only
//   valgrind --tool=callgrind /tmp/codable-floor 20000   # (difference) / 20000 = per row
//
// Measured on the 2-core machine (Swift 6.3.1): 1,975 instructions a row
// (docs/performance.md).
struct Item: Decodable {
  let i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int64
}

final class Cache<C> {
  let c: C
  init(_ c: C) { self.c = c }
}

struct ConstantContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  var codingPath: [any CodingKey] { [] }
  var allKeys: [Key] { [] }
  func contains(_ key: Key) -> Bool { true }
  func decodeNil(forKey key: Key) throws -> Bool { false }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { 1 }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { fatalError() }
  func nestedContainer<N: CodingKey>(keyedBy type: N.Type, forKey key: Key) throws -> KeyedDecodingContainer<N> {
    fatalError()
  }
  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { fatalError() }
  func superDecoder() throws -> any Decoder { fatalError() }
  func superDecoder(forKey key: Key) throws -> any Decoder { fatalError() }
}

final class Context { var cached: AnyObject? }

struct ConstantDecoder: Decoder {
  let context: Context
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    if let cached = context.cached { return unsafeDowncast(cached, to: Cache<KeyedDecodingContainer<Key>>.self).c }
    let c = KeyedDecodingContainer(ConstantContainer<Key>())
    context.cached = Cache(c)
    return c
  }
  func unkeyedContainer() throws -> any UnkeyedDecodingContainer { fatalError() }
  func singleValueContainer() throws -> any SingleValueDecodingContainer { fatalError() }
}

@inline(never)
func decodeAll<T: Decodable>(_ type: T.Type, count: Int, context: Context) throws -> Int {
  var n = 0
  for _ in 0..<count {
    _ = try T(from: ConstantDecoder(context: context))
    n += 1
  }
  return n
}

let count = Int(CommandLine.arguments.dropFirst().first ?? "20000")!
print(try decodeAll(Item.self, count: count, context: Context()))
