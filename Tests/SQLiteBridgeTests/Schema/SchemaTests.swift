import Foundation
import SQLiteBridge
import Testing

@Suite("hasTableColumn and tableColumns")
struct SchemaTests {
  private func notesDatabase() throws -> Database {
    let database = try memoryDatabase()
    try database.executeScript(
      """
      CREATE TABLE notes(id INTEGER PRIMARY KEY, Title TEXT, body TEXT);
      INSERT INTO notes(Title, body) VALUES ('t', 'b');
      """)
    return database
  }

  @Test func tableColumnsListsColumnsInDeclarationOrder() throws {
    let database = try notesDatabase()
    #expect(try database.tableColumns("notes") == ["id", "Title", "body"])
  }

  @Test func hasTableColumnAnswersTrueAndFalse() throws {
    let database = try notesDatabase()
    #expect(try database.hasTableColumn("notes", "id"))
    #expect(try database.hasTableColumn("notes", "body"))
    #expect(try !database.hasTableColumn("notes", "missing"))
    #expect(try !database.hasTableColumn("notes", ""))
  }

  @Test func namesAreCaseInsensitive() throws {
    let database = try notesDatabase()
    #expect(try database.hasTableColumn("NOTES", "title"))
    #expect(try database.hasTableColumn("Notes", "TITLE"))
    #expect(try database.tableColumns("nOtEs") == ["id", "Title", "body"])
  }

  @Test func identifiersThatNeedQuotingWork() throws {
    let database = try memoryDatabase()
    try database.execute(
      #"CREATE TABLE "my ""odd"" table"("first name" TEXT, "x; DROP TABLE t" INT, "quote""d" INT, [select] INT)"#)
    let table = #"my "odd" table"#
    #expect(try database.tableColumns(table) == ["first name", "x; DROP TABLE t", #"quote"d"#, "select"])
    #expect(try database.hasTableColumn(table, "FIRST NAME"))
    #expect(try database.hasTableColumn(table, #"quote"d"#))
    #expect(try database.hasTableColumn(table, "select"))
    #expect(try !database.hasTableColumn(table, "first"))
  }

  @Test func tableWithSpacesAndKeywordNamesWorks() throws {
    let database = try memoryDatabase()
    try database.execute(#"CREATE TABLE "order items"("group" INT, "from" TEXT)"#)
    #expect(try database.tableColumns("order items") == ["group", "from"])
    #expect(try database.hasTableColumn("ORDER ITEMS", "FROM"))
  }

  @Test(arguments: [
    "x; DROP TABLE t", "t; DROP TABLE t", "t); DROP TABLE t; --", #"t"; DROP TABLE t; --"#, "t' OR '1'='1",
  ])
  func injectionLookingNamesRunNothingAndAreMissingTables(_ name: String) throws {
    let database = try memoryDatabase()
    try database.executeScript("CREATE TABLE t(id INTEGER PRIMARY KEY); INSERT INTO t(id) VALUES (1);")
    let before = try schemaSnapshot(database)

    let columnsError = try #require(throws: DatabaseError.self) { try database.tableColumns(name) }
    #expect(columnsError.resultCode == .error)
    let hasError = try #require(throws: DatabaseError.self) { try database.hasTableColumn(name, "id") }
    #expect(hasError.resultCode == .error)

    #expect(try schemaSnapshot(database) == before)
    #expect(try database.execute("SELECT id FROM t") == [["id": 1]])
  }

  @Test func injectionLookingTableNameIsJustAName() throws {
    let database = try memoryDatabase()
    try database.executeScript(
      #"CREATE TABLE t(id INTEGER); CREATE TABLE "x; DROP TABLE t"(a INT, "b; DROP TABLE t" INT);"#)
    #expect(try database.tableColumns("x; DROP TABLE t") == ["a", "b; DROP TABLE t"])
    #expect(try database.hasTableColumn("x; DROP TABLE t", "b; drop table T"))
    #expect(try tableNames(database) == ["t", "x; DROP TABLE t"])
  }

  @Test func generatedColumnsAreIncluded() throws {
    let database = try memoryDatabase()
    try database.execute(
      "CREATE TABLE g(a INT, b INT GENERATED ALWAYS AS (a * 2) VIRTUAL, c INT AS (a + 1) STORED, d TEXT)")
    #expect(try database.tableColumns("g") == ["a", "b", "c", "d"])
    #expect(try database.hasTableColumn("g", "b"))
    #expect(try database.hasTableColumn("g", "C"))
  }

  @Test(.enabled(if: sqliteHasCompileOption("ENABLE_FTS5"), "this SQLite lacks FTS5"))
  func hiddenColumnsOfVirtualTablesAreIncluded() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE VIRTUAL TABLE docs USING fts5(body)")
    #expect(try database.tableColumns("docs") == ["body", "docs", "rank"])
    #expect(try database.hasTableColumn("docs", "rank"))
  }

  @Test func missingTableThrowsNoSuchTableInsteadOfAnsweringFalse() throws {
    let database = try notesDatabase()
    let error = try #require(throws: DatabaseError.self) { try database.hasTableColumn("nowhere", "id") }
    #expect(error.resultCode == .error)
    #expect(error.message.contains("no such table"))
    #expect(error.message.contains("nowhere"))
  }

  @Test func missingTableThrowsNoSuchTableInsteadOfAnEmptyList() throws {
    let database = try notesDatabase()
    let error = try #require(throws: DatabaseError.self) { try database.tableColumns("nowhere") }
    #expect(error.resultCode == .error)
    #expect(error.message.contains("no such table"))
  }

  @Test func emptyTableNameThrows() throws {
    let database = try notesDatabase()
    let error = try #require(throws: DatabaseError.self) { try database.tableColumns("") }
    #expect(error.resultCode == .error)
  }

  @Test func schemaCallsWorkAgainAfterAFailure() throws {
    let database = try notesDatabase()
    #expect(throws: DatabaseError.self) { try database.hasTableColumn("nowhere", "id") }
    #expect(try database.hasTableColumn("notes", "id"))
    #expect(try !database.hasTableColumn("notes", "nope"))
  }
}
