import Foundation
import SQLiteBridge
import Testing

/// Swift prepared statements (`makeStatement`, `makeStatements`), `firstRow`
/// and `RowCursor`, as C++ has `prepare`, `prepareNext` and stepping.
@Suite("Prepared statements, firstRow and RowCursor")
struct PreparedStatementTests {
  /// `t(id INTEGER PRIMARY KEY, name TEXT)` holding ids 1...`count`.
  private func database(rows count: Int = 5) throws -> Database {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)")
    try database.execute(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
        + "INSERT INTO t SELECT i, 'name ' || i FROM n", [.integer(Int64(count))])
    return database
  }

  @Test func aStatementDescribesItself() throws {
    let database = try database()
    let select = try database.makeStatement("SELECT id, name AS label FROM t WHERE id > :low AND id < ?3 AND ? = ?")
    #expect(select.sql == "SELECT id, name AS label FROM t WHERE id > :low AND id < ?3 AND ? = ?")
    #expect(select.parameterCount == 5)
    #expect(select.parameterNames == [":low", nil, "?3", nil, nil])
    #expect(select.columnNames == ["id", "label"])
    #expect(select.isReadOnly)
    let insert = try database.makeStatement("INSERT INTO t(name) VALUES (@name)")
    #expect(!insert.isReadOnly)
    #expect(insert.columnNames == [])
    #expect(insert.parameterNames == ["@name"])
  }

  @Test func aStatementRunsAgainAndAgainWithNewArgumentsWithoutPreparingAgain() throws {
    let database = try database()
    let select = try database.makeStatement("SELECT name FROM t WHERE id = ?")
    let prepared = database.preparedStatementCount
    for id in 1...5 {
      #expect(try select.execute([.integer(Int64(id))]) == [["name": .text("name \(id)")]])
    }
    #expect(try select.rows([.integer(3)]).map { $0["name"] } == [.text("name 3")])
    var seen: [DatabaseValue] = []
    try select.forEachRow([.integer(4)]) { seen.append($0[0]) }
    #expect(seen == [.text("name 4")])
    #expect(database.preparedStatementCount == prepared, "the statement was prepared again")

    let insert = try database.makeStatement("INSERT INTO t(name) VALUES (:name)")
    try insert.execute(["name": "six"])
    try insert.execute(["name": "seven"])
    #expect(try scalar(database, "SELECT count(*) FROM t") == .integer(7))
  }

  @Test func aStatementRefusesWrongArgumentsAndStaysUsable() throws {
    let database = try database()
    let select = try database.makeStatement("SELECT name FROM t WHERE id = ?")
    let tooFew = try #require(throws: DatabaseError.self) { try select.execute() }
    #expect(tooFew.resultCode == .range)
    let tooMany = try #require(throws: DatabaseError.self) { try select.rows([1, 2]) }
    #expect(tooMany.resultCode == .range)
    let named = try database.makeStatement("SELECT :a + :b AS sum")
    let missing = try #require(throws: DatabaseError.self) { try named.execute(["a": 1]) }
    #expect(missing.resultCode == .range)
    #expect(missing.message.contains(":b"), "\(missing.message)")
    #expect(try named.execute(["a": 1, "b": 2]) == [["sum": .integer(3)]])
    #expect(try select.execute([2]) == [["name": .text("name 2")]])
  }

  @Test func aFailingRunLeavesNothingRunningAndTheStatementReusable() throws {
    let database = try database()
    // Fails at the third row (integer overflow), after two rows were read.
    let failing = try database.makeStatement(
      "SELECT CASE WHEN id = 3 THEN abs(-9223372036854775807 - 1) ELSE id END FROM t ORDER BY id")
    var read = 0
    let error = try #require(throws: DatabaseError.self) { try failing.forEachRow { _ in read += 1 } }
    #expect(read == 2)
    #expect(error.resultCode == .error)
    // Reset after the failure: the table can be changed, and a run starts over.
    try database.execute("DELETE FROM t WHERE id = 3")
    #expect(try failing.rows().count == 4)
  }

  @Test func makeStatementTakesExactlyOneStatement() throws {
    let database = try database()
    let trailing = try #require(throws: DatabaseError.self) { try database.makeStatement("SELECT 1; SELECT 2") }
    #expect(trailing.resultCode == .misuse)
    let empty = try #require(throws: DatabaseError.self) { try database.makeStatement("  -- nothing\n") }
    #expect(empty.resultCode == .misuse)
    let syntax = try #require(throws: DatabaseError.self) { try database.makeStatement("SELEKT 1") }
    #expect(syntax.resultCode == .error)
    let unknownTable = try #require(throws: DatabaseError.self) { try database.makeStatement("SELECT * FROM nope") }
    #expect(unknownTable.message.contains("no such table"), "\(unknownTable.message)")
  }

  @Test func makeStatementsPreparesEveryStatementOfAScriptInOrder() throws {
    let database = try database()
    let statements = try database.makeStatements(
      """
      -- a script
      INSERT INTO t(name) VALUES ('six');;
      /* two */ SELECT count(*) AS n FROM t;
      DELETE FROM t WHERE id > 5
      """)
    #expect(
      statements.map(\.sql) == [
        "INSERT INTO t(name) VALUES ('six');", "SELECT count(*) AS n FROM t;", "DELETE FROM t WHERE id > 5",
      ])
    try statements[0].execute()
    #expect(try statements[1].execute() == [["n": .integer(6)]])
    try statements[2].execute()
    #expect(try statements[1].execute() == [["n": .integer(5)]])
    #expect(try database.makeStatements("  ; -- only comments\n").isEmpty)

    let failing = try #require(throws: DatabaseError.self) {
      try database.makeStatements("SELECT 1; SELECT * FROM nope; SELECT 2")
    }
    #expect(failing.message.contains("no such table"), "\(failing.message)")
    // Prepared against the schema as it is: a table the script creates is
    // not there yet for its later statements.
    #expect(throws: DatabaseError.self) { try database.makeStatements("CREATE TABLE u(x); INSERT INTO u VALUES (1)") }
  }

  @Test func aStatementKeepsWorkingAfterItsDatabaseIsClosedAsInCxx() throws {
    let database = try database()
    let select = try database.makeStatement("SELECT count(*) AS n FROM t")
    database.close()
    #expect(throws: DatabaseError.self) { try database.execute("SELECT 1") }
    #expect(try select.execute() == [["n": .integer(5)]])
    let error = try #require(throws: DatabaseError.self) { try select.execute([1]) }
    #expect(error.resultCode == .range, "the statement's own error, not the closed database's")
  }

  @Test func firstRowReturnsTheFirstRowAndStopsThere() throws {
    let database = try database(rows: 1000)
    let row = try #require(try database.firstRow("SELECT id, name FROM t WHERE id >= ? ORDER BY id", [10]))
    #expect(row.columnNames == ["id", "name"])
    #expect(row["id"] == .integer(10))
    #expect(try database.firstRow("SELECT id FROM t WHERE id < 0") == nil)
    // Nothing is left running: the table can be dropped at once.
    try database.execute("DROP TABLE t")
    let error = try #require(throws: DatabaseError.self) { try database.firstRow("SELECT * FROM t") }
    #expect(error.resultCode == .error)
    let wrongCount = try #require(throws: DatabaseError.self) { try database.firstRow("SELECT ?") }
    #expect(wrongCount.resultCode == .range)
  }

  @Test func aCursorHandsOutEveryRowThenNil() throws {
    let database = try database()
    let cursor = try database.cursor("SELECT id, name FROM t WHERE id > ? ORDER BY id", [2])
    #expect(cursor.columnNames == ["id", "name"])
    var ids: [Int] = []
    while let row = try cursor.next() {
      ids.append(try row.get("id", as: Int.self))
      #expect(row["name"] == .text("name \(ids.last!)"))
    }
    #expect(ids == [3, 4, 5])
    #expect(try cursor.next() == nil)
    #expect(try cursor.next() == nil)
  }

  @Test func breakingOutOfACursorLeavesNothingRunning() throws {
    let database = try database(rows: 1000)
    do {
      let cursor = try database.cursor("SELECT id FROM t ORDER BY id")
      var seen = 0
      while try cursor.next() != nil {
        seen += 1
        if seen == 3 { break }
      }
      #expect(seen == 3)
    }
    // A statement still running would make this fail ("database table is locked").
    try database.execute("DROP TABLE t")
    #expect(try tableNames(database) == [])
  }

  @Test func aCursorThatFailsThrowsOnceAndIsDone() throws {
    let database = try database()
    let cursor = try database.cursor(
      "SELECT CASE WHEN id = 3 THEN abs(-9223372036854775807 - 1) ELSE id END AS v FROM t ORDER BY id")
    #expect(try cursor.next()?["v"] == .integer(1))
    #expect(try cursor.next()?["v"] == .integer(2))
    let error = try #require(throws: DatabaseError.self) { try cursor.next() }
    #expect(error.message.contains("integer overflow"), "\(error.message)")
    #expect(try cursor.next() == nil)
    try database.execute("DROP TABLE t")
    let before = try #require(throws: DatabaseError.self) { try database.cursor("SELECT * FROM t") }
    #expect(before.resultCode == .error)
  }
}
