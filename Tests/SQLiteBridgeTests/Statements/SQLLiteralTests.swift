import Foundation
import SQLiteBridge
import Testing

/// SQL literals: values bound, identifiers quoted, lists expanded, raw text
/// only through `\(sql:)` and `SQL(sql:)`, through every entry point. The
/// C++ suite holds the same cases (Tests/CxxTests/Statements/SQLLiteralTests.cpp);
/// the quoting and list rules are the core's.
@Suite("SQL literals")
struct SQLLiteralTests {
  /// Text that would end a string, a name and the statement, then drop a table.
  private let hostileText = "x'); DROP TABLE notes; --"
  private let hostileName = "x\"; DROP TABLE notes; --"

  private struct Note: Decodable, Equatable {
    var id: Int64
    var title: String
  }

  private struct NoteRecord: FetchableRecord {
    var title: String
    init(row: RowView) throws { title = try row.get("title", as: String.self) }
  }

  private func notes() throws -> Database {
    let database = try memoryDatabase()
    try database.executeScript(
      "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT); INSERT INTO notes(title) VALUES ('a'), ('b'), ('c');")
    return database
  }

  private func titles(_ database: Database) throws -> [DatabaseValue] {
    try database.rows("SELECT title FROM notes ORDER BY id").map { $0[0] }
  }

  // MARK: The rules

  @Test func valuesAreArgumentsNeverText() {
    let missing: Int? = nil
    let sql: SQL = "SELECT \(hostileText), \(42), \(missing), \(2.5), \(Data([0, 1]))"
    #expect(sql.sql == "SELECT ?, ?, ?, ?, ?")
    #expect(sql.arguments == [.text(hostileText), .integer(42), .null, .real(2.5), .blob(Data([0, 1]))])
  }

  @Test func anIdentifierIsDoubleQuotedWithEveryQuoteDoubled() {
    let sql: SQL = "SELECT \(identifier: "a\"b"), \(identifier: "notes"), \(identifier: "")"
    #expect(sql.sql == #"SELECT "a""b", "notes", """#)
    #expect(sql.arguments.isEmpty)
  }

  @Test func aListIsOnePlaceholderPerValueAndAnEmptyOneIsAnEmptyList() {
    let three: SQL = "IN \([1, 2, 3])"
    #expect(three.sql == "IN (?, ?, ?)")
    #expect(three.arguments == [1, 2, 3])
    let none: SQL = "IN \([String]())"
    #expect(none.sql == "IN ()")
    #expect(none.arguments.isEmpty)
    let set: SQL = "\(Set(["x"]))"
    #expect(set.sql == "(?)")
  }

  @Test func nestedLiteralsKeepTheirArgumentsInOrder() {
    let condition: SQL = "title = \("b") OR id = \(3)"
    let sql: SQL = "SELECT \(1) FROM notes WHERE \(literal: condition) AND id <> \(9)"
    #expect(sql.sql == "SELECT ? FROM notes WHERE title = ? OR id = ? AND id <> ?")
    #expect(sql.arguments == [1, "b", 3, 9])
    #expect(sql.description == "SELECT ? FROM notes WHERE title = ? OR id = ? AND id <> ? [1, 'b', 3, 9]")
  }

  @Test func rawTextGoesInOnlyWhenAskedFor() {
    let column = "title"
    let asValue: SQL = "SELECT \(column) FROM notes"
    let asRaw: SQL = "SELECT \(sql: column) FROM notes"
    let made = SQL(sql: "SELECT title FROM notes WHERE id = ?", arguments: [1])
    #expect(asValue.sql == "SELECT ? FROM notes")
    #expect(asRaw.sql == "SELECT title FROM notes")
    #expect(made.sql == "SELECT title FROM notes WHERE id = ?")
    #expect(made.arguments == [1])
  }

  // MARK: Running them

  @Test func everyKindOfPieceRunsAsWritten() throws {
    let database = try notes()
    let rows = try database.rows(
      literal: """
        SELECT \(identifier: "title") FROM \(identifier: "notes") WHERE id IN \([1, 3])
        AND title <> \("zzz") AND \(literal: SQL(sql: "id > ?", arguments: [0])) ORDER BY \(sql: "id")
        """)
    #expect(rows.map { $0[0] } == ["a", "c"])
  }

  @Test func aHostileValueIsStoredAsItIsThroughEveryEntryPoint() throws {
    let database = try notes()
    try database.execute(literal: "INSERT INTO notes(title) VALUES (\(hostileText))")
    _ = try database.makeStatement(literal: "INSERT INTO notes(title) VALUES (\(hostileText + "2"))").execute()

    let select: SQL = "SELECT id, title FROM notes WHERE title = \(hostileText)"
    #expect(try database.execute(literal: select) == [["id": 4, "title": .text(hostileText)]])
    #expect(try database.rows(literal: select).map { $0[1] } == [.text(hostileText)])
    #expect(try database.firstRow(literal: select)?[1] == .text(hostileText))
    #expect(try database.fetch(Note.self, literal: select) == [Note(id: 4, title: hostileText)])
    #expect(try database.fetchOne(Note.self, literal: select) == Note(id: 4, title: hostileText))
    #expect(try database.fetch(NoteRecord.self, literal: select).map(\.title) == [hostileText])
    #expect(try database.fetchOne(NoteRecord.self, literal: select)?.title == hostileText)
    var streamed: [String] = []
    try database.forEach(NoteRecord.self, literal: select) { streamed.append($0.title) }
    try database.forEachRow(literal: select) { streamed.append(try $0.get("title", as: String.self)) }
    #expect(streamed == [hostileText, hostileText])
    #expect(try titles(database) == ["a", "b", "c", .text(hostileText), .text(hostileText + "2")])
  }

  @Test func aHostileIdentifierStaysOneName() throws {
    let database = try notes()
    try database.execute(literal: "CREATE TABLE \(identifier: hostileName)(\(identifier: hostileName))")
    try database.execute(literal: "INSERT INTO \(identifier: hostileName) VALUES (\(hostileText))")
    let rows = try database.rows(literal: "SELECT \(identifier: hostileName) FROM \(identifier: hostileName)")
    #expect(rows.map(\.columnNames) == [[hostileName]])
    #expect(rows.map { $0[0] } == [.text(hostileText)])
    #expect(try database.tableExists(hostileName))
    #expect(try titles(database) == ["a", "b", "c"])
  }

  @Test func anIdentifierHoldingNulFailsBeforeAnythingRunsThroughEveryEntryPoint() throws {
    let database = try notes()
    let sql: SQL = "DELETE FROM \(identifier: "notes\u{0}x")"
    let message = #"an SQL identifier cannot hold a NUL byte: "notes\0x""#
    let attempts: [() throws -> Void] = [
      { try database.execute(literal: sql) },
      { _ = try database.rows(literal: sql) },
      { _ = try database.firstRow(literal: sql) },
      { _ = try database.makeStatement(literal: sql) },
      { _ = try database.fetch(Note.self, literal: sql) },
      { _ = try database.fetchOne(Note.self, literal: sql) },
      { _ = try database.fetch(NoteRecord.self, literal: sql) },
      { _ = try database.fetchOne(NoteRecord.self, literal: "SELECT 1 WHERE \(literal: sql)") },
      { try database.forEach(NoteRecord.self, literal: sql) { _ in } },
      { try database.forEachRow(literal: sql) { _ in } },
    ]
    for attempt in attempts {
      let error = try #require(throws: DatabaseError.self) { try attempt() }
      #expect(error.resultCode == .misuse)
      #expect(error.message == message)
    }
    #expect(try titles(database) == ["a", "b", "c"])
  }

  @Test func anEmptyListMatchesNothing() throws {
    let database = try notes()
    let none: [Int] = []
    #expect(try database.firstRow(literal: "SELECT count(*) FROM notes WHERE id IN \(none)")?[0] == 0)
    #expect(try database.firstRow(literal: "SELECT count(*) FROM notes WHERE id NOT IN \(none)")?[0] == 3)
  }

  @Test func aThousandValuesInAList() throws {
    let database = try notes()
    try database.execute(
      "WITH RECURSIVE n(i) AS (SELECT 4 UNION ALL SELECT i + 1 FROM n WHERE i < 1200) "
        + "INSERT INTO notes(id, title) SELECT i, 't' || i FROM n")
    let ids = Array(Int64(1)...1000)
    let query: SQL = "SELECT count(*), sum(id) FROM notes WHERE id IN \(ids)"
    #expect(query.arguments.count == 1000)
    #expect(try database.rows(literal: query).map(\.values) == [[1000, 500_500]])
  }

  @Test func aStatementFromALiteralHasItsArgumentsBoundOnEveryRun() throws {
    let database = try notes()
    let statement = try database.makeStatement(literal: "SELECT count(*) AS n FROM notes WHERE title IN \(["a", "c"])")
    #expect(statement.parameterCount == 2)
    #expect(try statement.execute() == [["n": 2]])
    #expect(try statement.rows().map(\.values) == [[2]])
    #expect(try statement.execute(["b", "x"]) == [["n": 1]])
    #expect(try statement.execute() == [["n": 2]])
  }

  @Test func rawTextWithTheWrongNumberOfArgumentsFailsWithRange() throws {
    let database = try notes()
    let short = try #require(throws: DatabaseError.self) {
      try database.execute(literal: SQL(sql: "SELECT ?, ?", arguments: [1]))
    }
    #expect(short.resultCode == .range)
    let long = try #require(throws: DatabaseError.self) {
      try database.makeStatement(literal: SQL(sql: "SELECT ?", arguments: [1, 2]))
    }
    #expect(long.resultCode == .range)
  }
}
