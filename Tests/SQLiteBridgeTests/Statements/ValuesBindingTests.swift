import Foundation
import SQLiteBridge
import Testing

/// `execute(_:values:)` and `forEachRow(_:values:body:)`: each argument bound
/// where it stands, without an array, exactly as the array forms bind it.
@Suite("Values bound without an array")
struct ValuesBindingTests {
  @Test func everyConvertibleTypeBindsItsStorageClass() throws {
    let database = try memoryDatabase()
    let date = Date(timeIntervalSince1970: 1.5)
    let uuid = try #require(UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF"))
    let typeRows = try database.execute(
      "SELECT typeof(?) AS a, typeof(?) AS b, typeof(?) AS c, typeof(?) AS d, typeof(?) AS e, typeof(?) AS f, "
        + "typeof(?) AS g, typeof(?) AS h, typeof(?) AS i, typeof(?) AS j",
      values: 42, Int8(-1), UInt32(7), true, 2.5, "text", Data([1, 2]), uuid, date, Int?.none)
    #expect(
      typeRows == [
        [
          "a": "integer", "b": "integer", "c": "integer", "d": "integer", "e": "real", "f": "text", "g": "blob",
          "h": "blob", "i": "text", "j": "null",
        ]
      ])
  }

  @Test func valuesRoundTripExactly() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE t(i INTEGER, r, s TEXT, b BLOB, n TEXT)")
    let text = "nul\u{0}byte 😀"
    try database.execute(
      "INSERT INTO t VALUES (?, ?, ?, ?, ?)", values: Int64.min, -0.0, text, Data(), String?.none)
    let row = try #require(try database.rows("SELECT i, r, s, b, n FROM t").first)
    #expect(try row.get(0, as: Int64.self) == Int64.min)
    let real = try row.get(1, as: Double.self)
    #expect(real == 0 && real.sign == .minus)
    #expect(try row.get(2, as: String.self) == text)
    #expect(row.values[3] == .blob(Data()))
    #expect(row.values[4] == .null)
  }

  @Test func aWrongNumberOfValuesIsARangeErrorAndRunsNothing() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE t(a, b)")
    let tooFew = try #require(throws: DatabaseError.self) {
      try database.execute("INSERT INTO t VALUES (?, ?)", values: 1)
    }
    #expect(tooFew.resultCode == .range)
    let tooMany = try #require(throws: DatabaseError.self) {
      try database.execute("INSERT INTO t VALUES (?, ?)", values: 1, 2, 3)
    }
    #expect(tooMany.resultCode == .range)
    #expect(try scalar(database, "SELECT count(*) FROM t") == 0)
  }

  @Test func anInsertLoopReusesOneStatement() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE t(a INTEGER, b TEXT)")
    try database.execute("INSERT INTO t VALUES (?, ?)", values: 1, "row 1")
    let before = database.preparedStatementCount
    for row in 2...1_000 { try database.execute("INSERT INTO t VALUES (?, ?)", values: row, "row \(row)") }
    #expect(database.preparedStatementCount == before)
    #expect(try scalar(database, "SELECT count(*) || ':' || sum(a) FROM t") == "1000:500500")
    #expect(try scalar(database, "SELECT b FROM t WHERE a = 7") == "row 7")
  }

  @Test func forEachRowStreamsWithValues() throws {
    let database = try memoryDatabase()
    var seen: [Int] = []
    try database.forEachRow(
      "WITH RECURSIVE r(x) AS (SELECT ? UNION ALL SELECT x + 1 FROM r WHERE x < ?) SELECT x FROM r", values: 3, 6
    ) { row in
      seen.append(try row.get(0, as: Int.self))
    }
    #expect(seen == [3, 4, 5, 6])
    let error = try #require(throws: DatabaseError.self) {
      try database.forEachRow("SELECT ?", values: 1, 2) { _ in Issue.record("no row expected") }
    }
    #expect(error.resultCode == .range)
  }

  /// Every count from 1 to 12 binds exactly the values written, in order:
  /// the values left out (`OmittedValue`) bind nothing and are not counted,
  /// so one value short or one too many is `.range`.
  @Test func eachCountUpToTwelveBindsExactlyTheValuesWritten() throws {
    let database = try memoryDatabase()
    func select(_ count: Int) -> String {
      "SELECT " + (1...count).map { "? AS c\($0)" }.joined(separator: ", ")
    }
    func values(_ count: Int) -> [String: DatabaseValue] {
      Dictionary(uniqueKeysWithValues: (1...count).map { ("c\($0)", .integer(Int64($0))) })
    }
    #expect(try database.execute(select(1), values: 1) == [values(1)])
    #expect(try database.execute(select(2), values: 1, 2) == [values(2)])
    #expect(try database.execute(select(3), values: 1, 2, 3) == [values(3)])
    #expect(try database.execute(select(4), values: 1, 2, 3, 4) == [values(4)])
    #expect(try database.execute(select(5), values: 1, 2, 3, 4, 5) == [values(5)])
    #expect(try database.execute(select(6), values: 1, 2, 3, 4, 5, 6) == [values(6)])
    #expect(try database.execute(select(7), values: 1, 2, 3, 4, 5, 6, 7) == [values(7)])
    #expect(try database.execute(select(8), values: 1, 2, 3, 4, 5, 6, 7, 8) == [values(8)])
    #expect(try database.execute(select(9), values: 1, 2, 3, 4, 5, 6, 7, 8, 9) == [values(9)])
    #expect(try database.execute(select(10), values: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) == [values(10)])
    #expect(try database.execute(select(11), values: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11) == [values(11)])
    #expect(try database.execute(select(12), values: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12) == [values(12)])
    let short = try #require(throws: DatabaseError.self) {
      try database.execute(select(12), values: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
    }
    #expect(short.resultCode == .range)
    let over = try #require(throws: DatabaseError.self) {
      try database.execute(select(11), values: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
    }
    #expect(over.resultCode == .range)
    #expect(OmittedValue.fromDatabaseValue(.integer(1)) == nil && OmittedValue.fromDatabaseValue(.null) == nil)
  }

  /// An `OmittedValue` written among values is skipped, in the fixed-count
  /// form and in the parameter pack alike.
  @Test func anOmittedValueWrittenAmongValuesIsSkipped() throws {
    let database = try memoryDatabase()
    #expect(try database.execute("SELECT ? AS a, ? AS b", values: 1, OmittedValue(), 2) == [["a": 1, "b": 2]])
    let thirteen = "SELECT " + (1...13).map { "? AS c\($0)" }.joined(separator: ", ")
    let row = try #require(
      try database.execute(thirteen, values: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, OmittedValue(), 13).first)
    #expect(row["c12"] == 12 && row["c13"] == 13)
    let error = try #require(throws: DatabaseError.self) {
      try database.execute("SELECT ? AS a, ? AS b", values: 1, OmittedValue())
    }
    #expect(error.resultCode == .range)
  }

  /// Up to 12 values take the fixed-count overload (the values left out
  /// are `OmittedValue`s, which bind nothing); more take the parameter
  /// pack. Both bind the same way.
  @Test func thirteenValuesBindThroughThePack() throws {
    let database = try memoryDatabase()
    let sql = "SELECT " + (1...13).map { "typeof(?) AS c\($0)" }.joined(separator: ", ")
    let row = try #require(
      try database.execute(sql, values: 1, 2.5, "three", 4, 5, 6, 7, 8, 9, 10, 11, 12, Data([13])).first)
    #expect(row["c1"] == "integer" && row["c2"] == "real" && row["c3"] == "text")
    #expect(row["c12"] == "integer" && row["c13"] == "blob")
    let error = try #require(throws: DatabaseError.self) {
      try database.execute(sql, values: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)
    }
    #expect(error.resultCode == .range)
  }

  @Test func theOtherArgumentFormsKeepTheirMeaning() throws {
    let database = try memoryDatabase()
    #expect(try database.execute("SELECT 1 AS one") == [["one": 1]])
    #expect(try database.execute("SELECT ? AS a", [1]) == [["a": 1]])
    #expect(try database.execute("SELECT :a AS a", ["a": 2]) == [["a": 2]])
    let array: [DatabaseValue] = [3]
    #expect(try database.execute("SELECT ? AS a", array) == [["a": 3]])
    #expect(try database.execute("SELECT ? AS a", values: 4) == [["a": 4]])
    var streamed: [Int] = []
    try database.forEachRow("SELECT 5") { row in streamed.append(try row.get(0, as: Int.self)) }
    #expect(streamed == [5])
  }
}
