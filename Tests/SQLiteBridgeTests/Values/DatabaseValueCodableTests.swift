import Foundation
import SQLiteBridge
import Testing

/// A record with a column of any type, as `sqlite-bridge generate swift`
/// writes one for a column declared without a type.
private struct Untyped: Codable, Equatable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "untyped"
  var id: Int64
  var value: DatabaseValue
  var maybe: DatabaseValue
}

@Suite("DatabaseValue Codable")
struct DatabaseValueCodableTests {
  @Test func aRecordPropertyRoundTripsEveryStorageClassAsItIs() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE untyped(id INTEGER PRIMARY KEY, value, maybe)")
    let values: [DatabaseValue] = [
      .null, .integer(.min), .real(-0.5), .real(2), .text(""), .text("a\u{0}b"), .blob(Data()), .blob(Data([0, 255])),
    ]
    for (index, value) in values.enumerated() {
      _ = try database.insert(Untyped(id: Int64(index), value: value, maybe: .null))
    }
    let typed = try database.rows("SELECT value FROM untyped ORDER BY id").map { $0.values[0] }
    #expect(typed == values)
    let fetched = try database.fetch(Untyped.self, "SELECT * FROM untyped ORDER BY id")
    #expect(fetched.map(\.value) == values)
    #expect(fetched.map(\.maybe) == Array(repeating: .null, count: values.count))
  }

  @Test func jsonHoldsEachValueAsASingleValue() throws {
    let values: [DatabaseValue] = [.null, .integer(7), .real(1.5), .text("x"), .blob(Data([1, 2]))]
    let json = String(decoding: try JSONEncoder().encode(values), as: UTF8.self)
    #expect(json == #"[null,7,1.5,"x","AQI="]"#)
    // JSON has no blobs: one reads back as its base64 text.
    let decoded = try JSONDecoder().decode([DatabaseValue].self, from: Data(json.utf8))
    #expect(decoded == [.null, .integer(7), .real(1.5), .text("x"), .text("AQI=")])
  }

  @Test func jsonThatIsNotASingleValueFailsToDecode() {
    #expect(throws: DecodingError.self) {
      _ = try JSONDecoder().decode([DatabaseValue].self, from: Data(#"[[1]]"#.utf8))
    }
  }
}
