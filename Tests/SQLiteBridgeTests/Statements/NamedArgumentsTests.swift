import Foundation
import SQLiteBridge
import Testing

@Suite("Named arguments")
struct NamedArgumentsTests {
  /// An in-memory database with an empty table `notes(id INTEGER PRIMARY KEY, title TEXT)`.
  private func notesDatabase() throws -> Database {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT)")
    return database
  }

  /// Every note as (id, title), ordered by id.
  private func notes(_ database: Database) throws -> [[DatabaseValue]] {
    try database.rows("SELECT id, title FROM notes ORDER BY id").map(\.values)
  }

  // MARK: Binding by name

  @Test func executeBindsColonNamesFromADictionaryLiteral() throws {
    let database = try notesDatabase()
    try database.execute("INSERT INTO notes(id, title) VALUES (:id, :title)", ["id": 1, "title": "x"])
    #expect(try notes(database) == [[1, "x"]])
    let found = try database.execute("SELECT title FROM notes WHERE id = :id", ["id": 1])
    #expect(found == [["title": "x"]])
  }

  @Test func executeBindsAtNames() throws {
    let database = try notesDatabase()
    try database.execute("INSERT INTO notes(id, title) VALUES (@id, @title)", ["id": 2, "title": "at"])
    #expect(try notes(database) == [[2, "at"]])
  }

  @Test func executeBindsDollarNames() throws {
    let database = try notesDatabase()
    try database.execute("INSERT INTO notes(id, title) VALUES ($id, $title)", ["id": 3, "title": "dollar"])
    #expect(try notes(database) == [[3, "dollar"]])
  }

  @Test func rowsBindsNamedArguments() throws {
    let database = try memoryDatabase()
    let rows = try database.rows("SELECT :a AS a, @b AS b, $c AS c", ["a": 1, "b": "two", "c": nil])
    #expect(rows.map(\.columnNames) == [["a", "b", "c"]])
    #expect(rows.map(\.values) == [[1, "two", nil]])
  }

  @Test func forEachRowBindsNamedArguments() throws {
    let database = try notesDatabase()
    try database.executeScript("INSERT INTO notes(id, title) VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd');")
    var seen: [DatabaseValue] = []
    try database.forEachRow(
      "SELECT title FROM notes WHERE id BETWEEN :low AND :high ORDER BY id", ["low": 2, "high": 3]
    ) { row in
      seen.append(row[0])
    }
    #expect(seen == ["b", "c"])
  }

  @Test func keyWithoutPrefixFillsEveryPrefixOfThatName() throws {
    let database = try memoryDatabase()
    let rows = try database.rows("SELECT :id, @id, $id", ["id": 7])
    #expect(rows.map(\.values) == [[7, 7, 7]])
  }

  @Test func keyWithPrefixFillsOnlyThatParameter() throws {
    let database = try memoryDatabase()
    let rows = try database.rows("SELECT :id, @id, $id", [":id": 1, "@id": 2, "$id": 3])
    #expect(rows.map(\.values) == [[1, 2, 3]])
  }

  @Test func keyWithPrefixDoesNotFillAnotherPrefix() throws {
    let database = try memoryDatabase()
    let error = try #require(throws: DatabaseError.self) { try database.execute("SELECT @id", [":id": 1]) }
    #expect(error.resultCode == .range)
    #expect(error.message.contains("\":id\""))
    #expect(error.message.contains("@id"))
  }

  @Test func sameNameTwiceInSQLTakesOneArgument() throws {
    let database = try memoryDatabase()
    let rows = try database.rows("SELECT :x + 1, :x * 10, :x", ["x": 4])
    #expect(rows.map(\.values) == [[5, 40, 4]])
  }

  @Test func emptyArgumentsRunAStatementWithoutParameters() throws {
    let database = try notesDatabase()
    try database.execute("INSERT INTO notes(id, title) VALUES (1, 'plain')", [:])
    #expect(try notes(database) == [[1, "plain"]])
    #expect(try database.rows("SELECT 42", [:]).map(\.values) == [[42]])
  }

  @Test func everyValueKindBindsByName() throws {
    let database = try memoryDatabase()
    let blob = Data([0, 1, 2, 255])
    let row = try #require(
      try database.rows(
        "SELECT :n, :i, :r, :t, :b, :e",
        ["n": nil, "i": .integer(Int64.min), "r": 2.5, "t": "tëxt\u{0}nul", "b": .blob(blob), "e": .blob(Data())]
      ).first)
    #expect(row.values == [nil, .integer(Int64.min), 2.5, "tëxt\u{0}nul", .blob(blob), .blob(Data())])
  }

  @Test func namedStatementsAreReusedFromTheCacheWithFreshBindings() throws {
    let database = try memoryDatabase()
    let sql = "SELECT :a, :b"
    #expect(try database.rows(sql, ["a": 1, "b": 2]).map(\.values) == [[1, 2]])
    let before = database.preparedStatementCount
    #expect(try database.rows(sql, ["b": "y", "a": "x"]).map(\.values) == [["x", "y"]])
    #expect(database.preparedStatementCount == before)
    // A failed bind leaves nothing behind for the next use.
    #expect(throws: DatabaseError.self) { try database.rows(sql, ["a": 9]) }
    #expect(try database.rows(sql, ["a": nil, "b": 3]).map(\.values) == [[nil, 3]])
  }

  // MARK: NamedArguments

  @Test func literalKeepsItsOrder() {
    let arguments: NamedArguments = ["zeta": 1, "alpha": "a", ":mid": nil, "beta": 2.5]
    #expect(arguments.elements.map(\.0) == ["zeta", "alpha", ":mid", "beta"])
    #expect(arguments.elements.map(\.1) == [1, "a", nil, 2.5])
  }

  @Test func literalKeepsRepeatedKeys() {
    let arguments: NamedArguments = ["id": 1, "id": 2]
    #expect(arguments.elements.map(\.0) == ["id", "id"])
    #expect(arguments.elements.map(\.1) == [1, 2])
  }

  @Test func initFromADictionaryBinds() throws {
    let database = try notesDatabase()
    let dictionary: [String: DatabaseValue] = ["id": 5, "title": "from a dictionary"]
    let arguments = NamedArguments(dictionary)
    #expect(arguments.elements.count == 2)
    #expect(Dictionary(uniqueKeysWithValues: arguments.elements) == dictionary)
    try database.execute("INSERT INTO notes(id, title) VALUES (:id, :title)", arguments)
    #expect(try notes(database) == [[5, "from a dictionary"]])
  }

  @Test func initFromPairsKeepsTheirOrder() throws {
    let arguments = NamedArguments([("b", 2), ("a", 1)])
    #expect(arguments.elements.map(\.0) == ["b", "a"])
    let database = try memoryDatabase()
    #expect(try database.rows("SELECT :a, :b", arguments).map(\.values) == [[1, 2]])
  }

  // MARK: Mismatches are errors naming the parameter

  @Test func missingArgumentThrowsRangeNamingTheParameterAndRunsNothing() throws {
    let database = try notesDatabase()
    let sql = "INSERT INTO notes(id, title) VALUES (:id, :title)"
    let error = try #require(throws: DatabaseError.self) { try database.execute(sql, ["id": 1]) }
    #expect(error.resultCode == .range)
    #expect(error.message.contains(":title"))
    #expect(!error.message.contains(":id"))
    #expect(error.sql == sql)
    #expect(try notes(database).isEmpty)
  }

  @Test func missingArgumentThrowsFromRowsAndForEachRowToo() throws {
    let database = try memoryDatabase()
    let fromRows = try #require(throws: DatabaseError.self) { try database.rows("SELECT @a, @b", ["a": 1]) }
    #expect(fromRows.resultCode == .range)
    #expect(fromRows.message.contains("@b"))
    var called = false
    let fromForEach = try #require(throws: DatabaseError.self) {
      try database.forEachRow("SELECT $a, $b", ["b": 1]) { _ in called = true }
    }
    #expect(fromForEach.resultCode == .range)
    #expect(fromForEach.message.contains("$a"))
    #expect(!called)
  }

  @Test func argumentMatchingNoParameterThrowsNamingItAndTheParameters() throws {
    let database = try notesDatabase()
    let sql = "INSERT INTO notes(id, title) VALUES (:id, :title)"
    let error = try #require(throws: DatabaseError.self) {
      try database.execute(sql, ["id": 1, "title": "x", "extra": 3])
    }
    #expect(error.resultCode == .range)
    #expect(error.message.contains("\"extra\""))
    #expect(error.message.contains(":id, :title"))
    #expect(error.sql == sql)
    #expect(try notes(database).isEmpty)
  }

  @Test func argumentForAStatementWithoutParametersThrows() throws {
    let database = try memoryDatabase()
    let error = try #require(throws: DatabaseError.self) { try database.execute("SELECT 1", ["a": 1]) }
    #expect(error.resultCode == .range)
    #expect(error.message.contains("\"a\""))
    #expect(error.message.contains("has none"))
  }

  @Test func keyHoldingANulByteMatchesNoParameter() throws {
    let database = try memoryDatabase()
    let error = try #require(throws: DatabaseError.self) { try database.execute("SELECT :id", ["id\u{0}x": 1]) }
    #expect(error.resultCode == .range)
    #expect(error.message.contains("matches no parameter"))
    #expect(error.message.contains(":id"))
  }

  @Test func sameArgumentTwiceThrowsNamingIt() throws {
    let database = try notesDatabase()
    let sql = "INSERT INTO notes(id, title) VALUES (:id, 'twice')"
    let error = try #require(throws: DatabaseError.self) { try database.execute(sql, ["id": 1, ":id": 2]) }
    #expect(error.resultCode == .range)
    #expect(error.message.contains("\":id\""))
    #expect(error.message.contains("twice"))
    #expect(try notes(database).isEmpty)
  }

  @Test func repeatedLiteralKeyThrows() throws {
    let database = try memoryDatabase()
    let error = try #require(throws: DatabaseError.self) { try database.execute("SELECT :id", ["id": 1, "id": 2]) }
    #expect(error.resultCode == .range)
    #expect(error.message.contains("\"id\""))
    #expect(error.message.contains("twice"))
  }

  @Test(arguments: ["SELECT ?", "SELECT ?1", "SELECT :id, ?"])
  func positionalParametersRejectNamedArguments(_ sql: String) throws {
    let database = try memoryDatabase()
    let error = try #require(throws: DatabaseError.self) { try database.execute(sql, ["id": 1]) }
    #expect(error.resultCode == .range)
    #expect(error.message.contains("positional"))
    #expect(error.sql == sql)
  }

  @Test func emptyArgumentsForAStatementWithParametersThrow() throws {
    let database = try memoryDatabase()
    let error = try #require(throws: DatabaseError.self) { try database.execute("SELECT :id", [:]) }
    #expect(error.resultCode == .range)
    #expect(error.message.contains(":id"))
  }

  @Test func connectionWorksAfterANamedArgumentError() throws {
    let database = try notesDatabase()
    let sql = "INSERT INTO notes(id, title) VALUES (:id, :title)"
    #expect(throws: DatabaseError.self) { try database.execute(sql, ["id": 1, "nope": 2]) }
    try database.execute(sql, ["title": "ok", "id": 1])
    #expect(try notes(database) == [[1, "ok"]])
  }

  // MARK: Overloads

  @Test func everyArgumentSpellingCompilesUnambiguously() throws {
    let database = try memoryDatabase()
    let noArguments = try database.execute("SELECT 1 AS v")
    let emptyArray = try database.execute("SELECT 2 AS v", [])
    let positional = try database.execute("SELECT ? AS a, ? AS b, ? AS c", [1, "a", nil])
    let named = try database.execute("SELECT :a AS v", ["a": 1])
    let emptyNamed = try database.execute("SELECT 3 AS v", [:])
    #expect(noArguments == [["v": 1]])
    #expect(emptyArray == [["v": 2]])
    #expect(positional == [["a": 1, "b": "a", "c": nil]])
    #expect(named == [["v": 1]])
    #expect(emptyNamed == [["v": 3]])
    #expect(try database.rows("SELECT 1", []).count == 1)
    #expect(try database.rows("SELECT :a", ["a": 1]).count == 1)
  }
}
