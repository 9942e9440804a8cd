import Foundation
import SQLiteBridge
import Testing

@Suite("Row")
struct RowTests {
  private func queriedRow(_ sql: String) throws -> Row {
    let database = try memoryDatabase()
    return try #require(try database.rows(sql).first)
  }

  @Test func columnNamesAndValuesKeepSQLOrder() throws {
    let row = try queriedRow("SELECT 3 AS c, 'two' AS b, NULL AS a")
    #expect(row.columnNames == ["c", "b", "a"])
    #expect(row.values == [.integer(3), .text("two"), .null])
    #expect(row.count == 3)
  }

  @Test func subscriptByIndexReadsThatColumn() throws {
    let row = try queriedRow("SELECT 10, 'x', x'01'")
    #expect(row[0] == .integer(10))
    #expect(row[1] == .text("x"))
    #expect(row[2] == .blob(Data([1])))
  }

  @Test func subscriptByNameIgnoresASCIICase() throws {
    let row = try queriedRow("SELECT 1 AS Title, 2 AS body")
    #expect(row["title"] == .integer(1))
    #expect(row["TITLE"] == .integer(1))
    #expect(row["Title"] == .integer(1))
    #expect(row["BoDy"] == .integer(2))
  }

  @Test func subscriptByNameComparesOnlyASCIILettersCaseInsensitively() {
    // SQLite folds only ASCII letters in identifiers, and so does Row.
    let row = Row(columnNames: ["été"], values: [1])
    #expect(row["été"] == .integer(1))
    #expect(row["ÉTÉ"] == nil)
    #expect(row["ete"] == nil)
  }

  @Test func subscriptByNameReturnsTheLeftmostDuplicate() throws {
    let row = try queriedRow("SELECT 1 AS x, 2 AS X, 3 AS x")
    #expect(row["x"] == .integer(1))
    #expect(row["X"] == .integer(1))
    #expect(row.columnIndex(of: "X") == 0)
  }

  @Test func missingNameIsNilButNullValueIsNull() throws {
    let row = try queriedRow("SELECT NULL AS empty")
    #expect(row["empty"] == .some(.null))
    #expect(row["missing"] == nil)
    #expect(row[""] == nil)
    #expect(row.columnIndex(of: "missing") == nil)
  }

  @Test func dictionaryUsesExactNamesAndTheLeftmostDuplicateWins() throws {
    let row = try queriedRow("SELECT 1 AS a, 2 AS b, 3 AS a, 4 AS A")
    #expect(row.dictionary == ["a": .integer(1), "b": .integer(2), "A": .integer(4)])
    #expect(row.columnNames == ["a", "b", "a", "A"])
    #expect(row.values == [1, 2, 3, 4])
  }

  @Test func rowsMadeDirectlyBehaveLikeQueriedRows() {
    let row = Row(columnNames: ["id", "ID", "name"], values: [1, 2, "n"])
    #expect(row[1] == .integer(2))
    #expect(row["Id"] == .integer(1))
    #expect(row.dictionary == ["id": 1, "ID": 2, "name": "n"])
  }

  @Test func rowsCompareByNamesAndValues() {
    let a = Row(columnNames: ["x"], values: [1])
    #expect(a == Row(columnNames: ["x"], values: [1]))
    #expect(a != Row(columnNames: ["y"], values: [1]))
    #expect(a != Row(columnNames: ["x"], values: [1.0]))
    #expect(Set([a, Row(columnNames: ["x"], values: [1])]).count == 1)
  }

  @Test func rowWithNoColumnsIsEmpty() {
    let row = Row(columnNames: [], values: [])
    #expect(row.count == 0)
    #expect(row.dictionary.isEmpty)
    #expect(row["anything"] == nil)
  }
}
