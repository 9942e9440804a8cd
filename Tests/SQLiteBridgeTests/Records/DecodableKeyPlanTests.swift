import Foundation
import SQLiteBridge
import Testing

// The row decoder remembers, per query, which column each key asked for at
// each place of a row named (by the key's bits and type for plain-data keys,
// by its string otherwise). These rows make that memory wrong on purpose:
// keys that change from row to row, two key types with the same bits, keys
// that are not plain data.
@Suite("Decodable rows: keys remembered across rows")
struct DecodableKeyPlanTests {
  /// A superclass and a subclass whose `CodingKeys` enums have the same
  /// bits (case 0, case 1) but name different columns.
  class Base: Decodable {
    let a: Int64
    let b: Int64
    enum CodingKeys: CodingKey { case a, b }
    required init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      a = try container.decode(Int64.self, forKey: .a)
      b = try container.decode(Int64.self, forKey: .b)
    }
  }

  final class Derived: Base {
    let c: Int64
    let d: Int64
    enum DerivedKeys: CodingKey { case c, d }
    required init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: DerivedKeys.self)
      c = try container.decode(Int64.self, forKey: .c)
      d = try container.decode(Int64.self, forKey: .d)
      try super.init(from: container.superDecoder())
    }
  }

  /// Reads column `x` or `y` depending on `kind`: the key at the second
  /// place of a row changes from row to row.
  struct Either: Decodable, Equatable {
    let kind: String
    let value: Int64
    enum CodingKeys: CodingKey { case kind, x, y }
    init(kind: String, value: Int64) {
      self.kind = kind
      self.value = value
    }
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      kind = try container.decode(String.self, forKey: .kind)
      value = try container.decode(Int64.self, forKey: kind == "x" ? .x : .y)
    }
  }

  /// Reads column `x` or `y` depending on `kind`, each through a key type of
  /// its own: at the second place of a row, keys of two types with the
  /// same bits (case 0) alternate.
  struct Switching: Decodable, Equatable {
    let kind: String
    let value: Int64
    enum KindKey: CodingKey { case kind }
    enum XKey: CodingKey { case x }
    enum YKey: CodingKey { case y }
    init(kind: String, value: Int64) {
      self.kind = kind
      self.value = value
    }
    init(from decoder: any Decoder) throws {
      kind = try decoder.container(keyedBy: KindKey.self).decode(String.self, forKey: .kind)
      if kind == "x" {
        value = try decoder.container(keyedBy: XKey.self).decode(Int64.self, forKey: .x)
      } else {
        value = try decoder.container(keyedBy: YKey.self).decode(Int64.self, forKey: .y)
      }
    }
  }

  /// A plain-data key that is not an enum: column `c<number>`.
  struct NumberedKey: CodingKey {
    let number: Int
    init(_ number: Int) { self.number = number }
    init?(stringValue: String) {
      guard stringValue.hasPrefix("c"), let number = Int(stringValue.dropFirst()) else { return nil }
      self.number = number
    }
    init?(intValue: Int) { nil }
    var stringValue: String { "c\(number)" }
    var intValue: Int? { nil }
  }

  /// Sums columns c0 ... c<count - 1>, where `count` is column `count`: the
  /// number of keys and their sequence change from row to row.
  struct Prefix: Decodable, Equatable {
    let sum: Int64
    init(sum: Int64) { self.sum = sum }
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: NumberedKey.self)
      let count = try container.decode(Int.self, forKey: NumberedKey(stringValue: "c9")!)
      var sum: Int64 = 0
      for number in 0..<count { sum += try container.decode(Int64.self, forKey: NumberedKey(number)) }
      self.sum = sum
    }
  }

  /// A key that is not plain data (it holds a string): looked up by name.
  struct NamedKey: CodingKey {
    let stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    var intValue: Int? { nil }
  }

  /// Reads the column that column `pick` names.
  struct Picked: Decodable, Equatable {
    let value: Int64
    init(value: Int64) { self.value = value }
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: NamedKey.self)
      let pick = try container.decode(String.self, forKey: NamedKey(stringValue: "pick"))
      value = try container.decode(Int64.self, forKey: NamedKey(stringValue: pick))
    }
  }

  @Test func keyTypesWithTheSameBitsReadTheirOwnColumns() throws {
    let database = try memoryDatabase()
    let rows = try database.fetch(
      Derived.self, "SELECT 1 AS a, 2 AS b, 3 AS c, 4 AS d UNION ALL SELECT 10, 20, 30, 40")
    #expect(rows.map { [$0.a, $0.b, $0.c, $0.d] } == [[1, 2, 3, 4], [10, 20, 30, 40]])
  }

  @Test func keysOfTwoTypesWithTheSameBitsAtOnePlaceReadTheirOwnColumns() throws {
    let database = try memoryDatabase()
    let rows = try database.fetch(
      Switching.self,
      "SELECT 'x' AS kind, 1 AS x, 2 AS y UNION ALL SELECT 'y', 3, 4 UNION ALL SELECT 'x', 5, 6")
    #expect(rows == [Switching(kind: "x", value: 1), Switching(kind: "y", value: 4), Switching(kind: "x", value: 5)])
  }

  @Test func aKeyThatChangesFromRowToRowReadsItsColumn() throws {
    let database = try memoryDatabase()
    let rows = try database.fetch(
      Either.self,
      "SELECT 'x' AS kind, 1 AS x, 2 AS y UNION ALL SELECT 'y', 3, 4 UNION ALL SELECT 'y', 5, 6 "
        + "UNION ALL SELECT 'x', 7, 8")
    #expect(
      rows == [
        Either(kind: "x", value: 1), Either(kind: "y", value: 4), Either(kind: "y", value: 6),
        Either(kind: "x", value: 7),
      ])
  }

  @Test func plainDataKeysThatAreNotEnumsReadTheirColumns() throws {
    let database = try memoryDatabase()
    let rows = try database.fetch(
      Prefix.self,
      "SELECT 1 AS c0, 2 AS c1, 4 AS c2, 8 AS c3, 0 AS c4, 0 AS c5, 0 AS c6, 0 AS c7, 0 AS c8, 2 AS c9 "
        + "UNION ALL SELECT 1, 2, 4, 8, 0, 0, 0, 0, 0, 4 UNION ALL SELECT 16, 32, 64, 128, 0, 0, 0, 0, 0, 1")
    #expect(rows == [Prefix(sum: 3), Prefix(sum: 15), Prefix(sum: 16)])
  }

  @Test func keysThatAreNotPlainDataAreMatchedByName() throws {
    let database = try memoryDatabase()
    let rows = try database.fetch(
      Picked.self,
      "SELECT 'a' AS pick, 1 AS a, 2 AS b UNION ALL SELECT 'b', 3, 4 UNION ALL SELECT 'b', 5, 6 "
        + "UNION ALL SELECT 'a', 7, 8")
    #expect(rows == [Picked(value: 1), Picked(value: 4), Picked(value: 6), Picked(value: 7)])
  }

  @Test func aKeyWithNoColumnOnALaterRowIsKeyNotFound() throws {
    let database = try memoryDatabase()
    // The second row picks a column that does not exist.
    #expect(throws: DecodingError.self) {
      try database.fetch(Picked.self, "SELECT 'a' AS pick, 1 AS a UNION ALL SELECT 'zz', 2")
    }
  }
}
