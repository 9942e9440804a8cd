import Foundation
import SQLiteBridge
import Testing

/// A record for the Codable paths of a closed database.
private struct Note: Codable, Equatable {
  var id: Int64
  var v: String
}

@Suite("Hostile input: use of a closed database")
struct HostileUseTests {
  /// Every call on `database` throws SQLITE_MISUSE (21).
  private func expectEveryCallThrowsMisuse(_ database: Database) {
    func expectMisuse(_ call: String, _ body: () throws -> Void) {
      do {
        try body()
        Issue.record("\(call) did not throw")
      } catch let error as DatabaseError {
        #expect(error.resultCode == .misuse, "\(call): \(error)")
      } catch {
        Issue.record("\(call) threw \(error)")
      }
    }
    expectMisuse("execute") { _ = try database.execute("INSERT INTO t(v) VALUES ('lost')") }
    expectMisuse("execute arguments") { _ = try database.execute("SELECT ?", [1]) }
    expectMisuse("execute named") { _ = try database.execute("SELECT :a", ["a": 1] as NamedArguments) }
    expectMisuse("rows") { _ = try database.rows("SELECT * FROM t") }
    expectMisuse("executeScript") { try database.executeScript("DROP TABLE t;") }
    expectMisuse("validateSQL") { try database.validateSQL("SELECT 1") }
    expectMisuse("forEachRow") { try database.forEachRow("SELECT * FROM t", [] as StatementArguments) { _ in } }
    expectMisuse("fetch") { _ = try database.fetch(Note.self, "SELECT id, v FROM t") }
    expectMisuse("fetchOne") { _ = try database.fetchOne(Note.self, "SELECT id, v FROM t") }
    expectMisuse("insert") { try database.insert(Note(id: 9, v: "lost"), into: "t") }
    expectMisuse("hasTableColumn") { _ = try database.hasTableColumn("t", "v") }
    expectMisuse("tableColumns") { _ = try database.tableColumns("t") }
    expectMisuse("updateTable") { try database.updateTable(create: "CREATE TABLE t(x)", name: "t") }
    expectMisuse("setBusyTimeout") { try database.setBusyTimeout(milliseconds: 10) }
    #expect(!database.isOpen)
    #expect(database.path == "")
    #expect(!database.isInTransaction)
  }

  @Test func everyCallOnAClosedDatabaseThrowsMisuseAndTheFileKeepsItsData() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/closed.db"
      let database = try Database(path: path)
      try database.executeScript("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO t(v) VALUES ('kept');")
      // Work left in an open transaction is rolled back by the close.
      try database.executeScript("BEGIN; INSERT INTO t(v) VALUES ('uncommitted');")
      #expect(database.isOpen)
      database.close()
      expectEveryCallThrowsMisuse(database)
      database.close()  // closing again does nothing
      #expect(!database.isOpen)

      let reopened = try Database(path: path)
      #expect(try reopened.fetch(Note.self, "SELECT id, v FROM t") == [Note(id: 1, v: "kept")])
      #expect(try reopened.execute("PRAGMA integrity_check") == [["integrity_check": "ok"]])
    }
  }

  @Test func theMisuseErrorSaysTheDatabaseIsNotOpen() throws {
    let database = try memoryDatabase()
    database.close()
    let error = try #require(throws: DatabaseError.self) { try database.execute("SELECT 1") }
    #expect(error.resultCode == .misuse)
    #expect(error.message.contains("not open"), "\(error.message)")
  }
}
