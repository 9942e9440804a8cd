import Foundation
import SQLiteBridge
import Testing

/// `backup(to:pagesPerStep:progress:)` from Swift: round trips between files
/// and memory, progress after each step, and the refusals. (BackupTests.cpp
/// checks the same in C++.)
@Suite("Backup")
struct BackupTests {
  private let notes = """
    CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT, body BLOB);
    CREATE INDEX notes_title ON notes(title);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
      INSERT INTO notes(title, body) SELECT 'note ' || i, randomblob(1000) FROM n;
    """

  private func contents(_ database: Database) throws -> [[String: DatabaseValue]] {
    try schemaSnapshot(database) + database.execute("SELECT id, title, hex(body) AS body FROM notes ORDER BY id")
  }

  @Test func aFileGoesIntoMemoryAndBackIntoAnotherFile() throws {
    try withTemporaryDirectory { directory in
      let source = try Database(path: directory + "/source.db")
      try source.executeScript(notes)
      let memory = try memoryDatabase()
      try source.backup(to: memory)
      #expect(try contents(memory) == contents(source))

      try memory.execute("INSERT INTO notes(title) VALUES ('made in memory')")
      let copy = try Database(path: directory + "/copy.db")
      try copy.execute("CREATE TABLE replaced(x)")
      try memory.backup(to: copy)
      #expect(try contents(copy) == contents(memory))
      #expect(try !tableNames(copy).contains("replaced"))
      copy.close()
      let reopened = try Database(path: directory + "/copy.db")
      #expect(try scalar(reopened, "SELECT title FROM notes ORDER BY id DESC LIMIT 1") == .text("made in memory"))
      #expect(try scalar(reopened, "PRAGMA integrity_check") == .text("ok"))
    }
  }

  @Test func progressIsReportedAfterEveryStep() throws {
    let source = try memoryDatabase()
    try source.executeScript(notes)
    let pages = try source.rows("PRAGMA page_count")[0].get(0, as: Int.self)
    #expect(pages > 50)
    var steps: [[Int]] = []
    let copy = try memoryDatabase()
    try source.backup(to: copy, pagesPerStep: 10) { remaining, total in steps.append([remaining, total]) }
    #expect(steps.count == (pages + 9) / 10)
    for (index, step) in steps.enumerated() {
      #expect(step == [max(0, pages - 10 * (index + 1)), pages])
    }
    #expect(try contents(copy) == contents(source))

    steps = []
    try source.backup(to: try memoryDatabase()) { remaining, total in steps.append([remaining, total]) }
    #expect(steps == [[0, pages]])
  }

  @Test func itselfAClosedDatabaseAndZeroPagesAreRefused() throws {
    let source = try memoryDatabase()
    try source.executeScript(notes)
    let itself = try #require(throws: DatabaseError.self) { try source.backup(to: source) }
    #expect(itself.resultCode == .misuse)
    #expect(itself.message.contains("into itself"))

    let closed = try memoryDatabase()
    closed.close()
    #expect(throws: DatabaseError.self) { try source.backup(to: closed) }
    let fromClosed = try #require(throws: DatabaseError.self) { try closed.backup(to: try memoryDatabase()) }
    #expect(fromClosed.resultCode == .misuse)

    let empty = try memoryDatabase()
    let zero = try #require(throws: DatabaseError.self) { try source.backup(to: empty, pagesPerStep: 0) }
    #expect(zero.resultCode == .misuse)
    #expect(try tableNames(empty).isEmpty)
  }

  @Test func aDestinationInATransactionFailsAndKeepsItsContent() throws {
    let source = try memoryDatabase()
    try source.executeScript(notes)
    let copy = try memoryDatabase()
    try copy.execute("CREATE TABLE mine(x)")
    try copy.inTransaction {
      try copy.execute("INSERT INTO mine VALUES (1)")
      let error = try #require(throws: DatabaseError.self) { try source.backup(to: copy) }
      #expect(error.message.contains("backup failed"))
      return .commit
    }
    #expect(try scalar(copy, "SELECT count(*) FROM mine") == .integer(1))
  }
}
