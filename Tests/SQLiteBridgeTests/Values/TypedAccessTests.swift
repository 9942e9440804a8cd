import Foundation
import SQLiteBridge
import Testing

@Suite("Typed access: Row.get and RowView.get")
struct TypedAccessTests {
  private let sql = "SELECT 7 AS id, 'abc' AS Name, NULL AS note, 2.0 AS two, 2.5 AS half, x'00ff' AS bytes, 1 AS id"

  private func row() throws -> Row {
    try #require(try memoryDatabase().rows(sql).first)
  }

  /// Runs `body` on the view of the single row of `sql`, inside forEachRow.
  private func withRowView(_ body: (RowView) throws -> Void) throws {
    let database = try memoryDatabase()
    var visited = 0
    try database.forEachRow(sql) { view in
      visited += 1
      try body(view)
    }
    #expect(visited == 1)
  }

  // MARK: Row

  @Test func rowGetReadsTypedValuesByName() throws {
    let row = try row()
    #expect(try row.get("id", as: Int.self) == 7)
    #expect(try row.get("id", as: Int8.self) == 7)
    #expect(try row.get("id", as: Double.self) == 7.0)
    #expect(try row.get("id", as: Bool.self) == true)
    #expect(try row.get("Name", as: String.self) == "abc")
    #expect(try row.get("note", as: String?.self) == nil)
    #expect(try row.get("note", as: DatabaseValue.self) == .null)
    #expect(try row.get("two", as: Int.self) == 2)
    #expect(try row.get("half", as: Double.self) == 2.5)
    #expect(try row.get("bytes", as: Data.self) == Data([0, 255]))
    #expect(try row["id", as: Int.self] == 7)
  }

  @Test func rowGetMatchesNamesCaseInsensitivelyAndTheLeftmostWins() throws {
    let row = try row()
    #expect(try row.get("NAME", as: String.self) == "abc")
    #expect(try row.get("name", as: String.self) == "abc")
    #expect(try row.get("ID", as: Int.self) == 7)
  }

  @Test func rowGetReadsByIndex() throws {
    let row = try row()
    #expect(try row.get(0, as: Int.self) == 7)
    #expect(try row.get(1, as: String.self) == "abc")
    #expect(try row.get(6, as: Int.self) == 1)
  }

  @Test func rowGetThrowsMismatchNamingColumnValueAndType() throws {
    let row = try row()
    let text = try #require(throws: DatabaseError.self) { try row.get("Name", as: Int.self) }
    #expect(text.resultCode == .mismatch)
    #expect(text.message == #"column "Name" holds text 'abc', which does not convert to Int"#)
    let null = try #require(throws: DatabaseError.self) { try row.get("note", as: String.self) }
    #expect(null.resultCode == .mismatch)
    #expect(null.message == #"column "note" holds NULL, which does not convert to String"#)
    let fraction = try #require(throws: DatabaseError.self) { try row.get(4, as: Int64.self) }
    #expect(fraction.message == #"column "half" holds real 2.5, which does not convert to Int64"#)
    let blob = try #require(throws: DatabaseError.self) { try row["bytes", as: String?.self] }
    // x'00ff' is not valid UTF-8: the message says such text reads as a blob.
    #expect(
      blob.message
        == #"column "bytes" holds a blob of 2 byte(s) that is not valid UTF-8 (text that is not valid UTF-8 reads as a blob), which does not convert to String?"#
    )
  }

  @Test func rowGetThrowsRangeForAMissingNameOrIndex() throws {
    let row = try row()
    let missing = try #require(throws: DatabaseError.self) { try row.get("x", as: Int.self) }
    #expect(missing.resultCode == .range)
    #expect(missing.message == #"no column named "x" in the row"#)
    let index = try #require(throws: DatabaseError.self) { try row.get(7, as: Int.self) }
    #expect(index.resultCode == .range)
    #expect(index.message == "column index 7 is out of range: the row has 7 column(s)")
    let negative = try #require(throws: DatabaseError.self) { try row.get(-1, as: Int.self) }
    #expect(negative.resultCode == .range)
  }

  @Test func longTextIsCutInTheMessage() throws {
    let long = String(repeating: "x", count: 50)
    let row = Row(columnNames: ["t"], values: [.text(long)])
    let error = try #require(throws: DatabaseError.self) { try row.get("t", as: Int.self) }
    #expect(
      error.message
        == "column \"t\" holds text '\(String(repeating: "x", count: 40))...', which does not convert to Int")
  }

  // MARK: RowView

  @Test func rowViewGetReadsTypedValuesByNameAndIndex() throws {
    try withRowView { (view: RowView) throws in
      #expect(try view.get("id", as: Int.self) == 7)
      #expect(try view.get("ID", as: UInt8.self) == 7)
      #expect(try view.get("name", as: String.self) == "abc")
      #expect(try view.get("note", as: Int?.self) == nil)
      #expect(try view.get("two", as: Int32.self) == 2)
      #expect(try view.get("bytes", as: Data.self) == Data([0, 255]))
      #expect(try view.get(3, as: Double.self) == 2.0)
      #expect(try view.get(6, as: Int.self) == 1)
      #expect(try view["half", as: Double.self] == 2.5)
    }
  }

  @Test func rowViewGetThrowsMismatchWithTheStatementSQL() throws {
    try withRowView { (view: RowView) throws in
      let error = try #require(throws: DatabaseError.self) { try view.get("name", as: Int.self) }
      #expect(error.resultCode == .mismatch)
      #expect(error.message == #"column "Name" holds text 'abc', which does not convert to Int"#)
      #expect(error.sql == sql)
      let null = try #require(throws: DatabaseError.self) { try view.get(2, as: Bool.self) }
      #expect(null.message == #"column "note" holds NULL, which does not convert to Bool"#)
    }
  }

  @Test func rowViewGetThrowsRangeForAMissingNameOrIndex() throws {
    try withRowView { (view: RowView) throws in
      let missing = try #require(throws: DatabaseError.self) { try view.get("missing", as: Int.self) }
      #expect(missing.resultCode == .range)
      #expect(missing.message == #"no column named "missing" in the row"#)
      let index = try #require(throws: DatabaseError.self) { try view.get(9, as: Int.self) }
      #expect(index.resultCode == .range)
      #expect(index.message == "column index 9 is out of range: the row has 7 column(s)")
    }
  }

  @Test func aThrowingGetStopsForEachRow() throws {
    let database = try memoryDatabase()
    var seen: [Int] = []
    let error = try #require(throws: DatabaseError.self) {
      try database.forEachRow("SELECT 1 AS v UNION ALL SELECT 'two' UNION ALL SELECT 3") { view in
        seen.append(try view.get("v", as: Int.self))
      }
    }
    #expect(error.resultCode == .mismatch)
    #expect(seen == [1])
  }
}
