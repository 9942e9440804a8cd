import Foundation
import SQLiteBridge
import Testing

@Suite("DatabaseValue")
struct DatabaseValueTests {
  // MARK: Literals and Hashable

  @Test func literalsMakeTheMatchingCases() {
    let null: DatabaseValue = nil
    let integer: DatabaseValue = 42
    let real: DatabaseValue = 1.5
    let text: DatabaseValue = "hello"
    #expect(null == .null)
    #expect(integer == .integer(42))
    #expect(real == .real(1.5))
    #expect(text == .text("hello"))
    #expect(null.isNull)
    #expect(!integer.isNull)
  }

  @Test func literalsWorkInsideArgumentArrays() throws {
    let database = try memoryDatabase()
    let row = try #require(try database.rows("SELECT ?, ?, ?, ?", [nil, 7, 2.25, "x"]).first)
    #expect(row.values == [.null, .integer(7), .real(2.25), .text("x")])
  }

  @Test func equalityDistinguishesStorageClasses() {
    #expect(DatabaseValue.integer(1) != .real(1.0))
    #expect(DatabaseValue.text("") != .null)
    #expect(DatabaseValue.blob(Data()) != .null)
    #expect(DatabaseValue.blob(Data()) != .text(""))
    #expect(DatabaseValue.text("a") != .blob(Data("a".utf8)))
    #expect(DatabaseValue.text("a\u{0}b") != .text("a"))
  }

  @Test func hashableValuesWorkAsSetElementsAndDictionaryKeys() {
    let values: [DatabaseValue] = [
      .null, .null, .integer(1), .integer(1), .real(1), .text(""), .text(""), .blob(Data()), .blob(Data([1])),
      .blob(Data([1])),
    ]
    let set = Set(values)
    #expect(set.count == 6)
    #expect(set.contains(.blob(Data())))
    #expect(set.contains(.text("")))
    let counts = Dictionary(values.map { ($0, 1) }, uniquingKeysWith: +)
    #expect(counts[.null] == 2)
    #expect(counts[.blob(Data([1]))] == 2)
    #expect(counts[.real(1)] == 1)
  }

  @Test func descriptionLooksLikeAnSQLLiteral() {
    #expect(DatabaseValue.null.description == "NULL")
    #expect(DatabaseValue.integer(-3).description == "-3")
    #expect(DatabaseValue.real(1.5).description == "1.5")
    #expect(DatabaseValue.text("it's").description == "'it''s'")
    #expect(DatabaseValue.blob(Data([0x01, 0xab])).description == "x'01ab'")
  }

  // MARK: Round trips

  /// Binds `value`, reads it straight back and reads it back from a column
  /// without type affinity; returns both reads and SQLite's `typeof`.
  private func roundTrip(_ value: DatabaseValue) throws -> (direct: DatabaseValue, stored: DatabaseValue, type: String)
  {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE t(v)")
    try database.execute("INSERT INTO t(v) VALUES (?)", [value])
    let direct = try scalar(database, "SELECT ?", [value])
    let stored = try scalar(database, "SELECT v FROM t")
    guard case .text(let type) = try scalar(database, "SELECT typeof(v) FROM t") else { return (direct, stored, "") }
    return (direct, stored, type)
  }

  @Test(arguments: [Int64.min, Int64.min + 1, -1, 0, 1, Int64(Int32.max) + 1, Int64.max])
  func integersRoundTripExactly(_ integer: Int64) throws {
    let result = try roundTrip(.integer(integer))
    #expect(result.direct == .integer(integer))
    #expect(result.stored == .integer(integer))
    #expect(result.type == "integer")
  }

  @Test(arguments: [
    0.0, 1.5, -2.75, 0.1, Double.pi, 1e308, -1e308, Double.greatestFiniteMagnitude,
    Double.leastNonzeroMagnitude, Double.leastNormalMagnitude, Double.leastNonzeroMagnitude * 3,
    -Double.leastNonzeroMagnitude,
    Double.infinity, -Double.infinity, 9007199254740993.0, 123456789.0,
  ])
  func doublesRoundTripBitForBit(_ real: Double) throws {
    let result = try roundTrip(.real(real))
    guard case .real(let direct) = result.direct, case .real(let stored) = result.stored else {
      Issue.record("expected reals, got \(result.direct) and \(result.stored)")
      return
    }
    #expect(direct.bitPattern == real.bitPattern)
    #expect(stored.bitPattern == real.bitPattern)
    #expect(result.type == "real")
  }

  @Test func negativeZeroKeepsItsSign() throws {
    let result = try roundTrip(.real(-0.0))
    guard case .real(let direct) = result.direct, case .real(let stored) = result.stored else {
      Issue.record("expected reals, got \(result.direct) and \(result.stored)")
      return
    }
    #expect(direct.sign == .minus)
    #expect(direct == 0)
    #expect(stored.sign == .minus)
  }

  @Test func nanIsStoredAsNullAsSQLiteDoes() throws {
    let result = try roundTrip(.real(.nan))
    #expect(result.direct == .null)
    #expect(result.stored == .null)
    #expect(result.type == "null")
  }

  @Test(arguments: [
    "", "plain", "a\u{0}b", "\u{0}", "trailing\u{0}", "héllo wörld", "日本語のテキスト", "👋🏽 family: 👨‍👩‍👧‍👦",
    "line\nbreak\ttab", "quote ' and \"double\"",
  ])
  func textRoundTripsExactly(_ text: String) throws {
    let result = try roundTrip(.text(text))
    #expect(result.direct == .text(text))
    #expect(result.stored == .text(text))
    #expect(result.type == "text")
  }

  @Test func textWithEmbeddedNulKeepsEveryByte() throws {
    let database = try memoryDatabase()
    let text = "a\u{0}b"
    #expect(try scalar(database, "SELECT length(CAST(? AS BLOB))", [.text(text)]) == .integer(3))
    #expect(try scalar(database, "SELECT CAST(? AS BLOB)", [.text(text)]) == .blob(Data([0x61, 0x00, 0x62])))
    #expect(try scalar(database, "SELECT ? = CAST(x'610062' AS TEXT)", [.text(text)]) == .integer(1))
  }

  @Test func nonASCIITextIsStoredAsUTF8() throws {
    let database = try memoryDatabase()
    let text = "é👋"
    #expect(try scalar(database, "SELECT hex(?)", [.text(text)]) == .text("C3A9F09F918B"))
    #expect(try scalar(database, "SELECT length(?)", [.text(text)]) == .integer(2))
  }

  @Test func emptyTextIsTextNotNull() throws {
    let result = try roundTrip(.text(""))
    #expect(result.direct == .text(""))
    #expect(result.stored == .text(""))
    #expect(result.type == "text")
    let database = try memoryDatabase()
    #expect(try scalar(database, "SELECT ''") == .text(""))
    #expect(try scalar(database, "SELECT ? IS NULL", [.text("")]) == .integer(0))
  }

  @Test func nullRoundTripsAsNull() throws {
    let result = try roundTrip(.null)
    #expect(result.direct == .null)
    #expect(result.stored == .null)
    #expect(result.type == "null")
  }

  @Test func zeroLengthBlobIsABlobNotNull() throws {
    let result = try roundTrip(.blob(Data()))
    #expect(result.direct == .blob(Data()))
    #expect(result.stored == .blob(Data()))
    #expect(result.type == "blob")
    let database = try memoryDatabase()
    #expect(try scalar(database, "SELECT x''") == .blob(Data()))
    #expect(try scalar(database, "SELECT zeroblob(0)") == .blob(Data()))
    #expect(try scalar(database, "SELECT ? IS NULL", [.blob(Data())]) == .integer(0))
  }

  @Test func blobWithEveryByteValueRoundTripsExactly() throws {
    let bytes = Data((0...255).map { UInt8($0) } + [0, 0, 255, 0])
    let result = try roundTrip(.blob(bytes))
    #expect(result.direct == .blob(bytes))
    #expect(result.stored == .blob(bytes))
    #expect(result.type == "blob")
  }

  @Test func largeBlobRoundTripsExactly() throws {
    var generator = SystemRandomNumberGenerator()
    let bytes = Data((0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) })
    let result = try roundTrip(.blob(bytes))
    #expect(result.stored == .blob(bytes))
  }

  @Test func blobReadFromSQLIsTheSameBytes() throws {
    let database = try memoryDatabase()
    #expect(try scalar(database, "SELECT x'00ff10'") == .blob(Data([0x00, 0xff, 0x10])))
  }

  @Test func valuesAreNotConvertedOnTheWayOut() throws {
    let database = try memoryDatabase()
    let row = try #require(try database.rows("SELECT 1, 1.0, '1', x'31', NULL").first)
    #expect(row.values == [.integer(1), .real(1.0), .text("1"), .blob(Data("1".utf8)), .null])
  }
}
