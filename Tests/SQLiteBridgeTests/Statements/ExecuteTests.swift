import Foundation
import SQLiteBridge
import Testing

@Suite("execute, rows and executeScript")
struct ExecuteTests {
  /// An in-memory database with a table `t(id INTEGER PRIMARY KEY, name TEXT)`
  /// holding (1, 'one'), (2, 'two').
  private func sampleDatabase() throws -> Database {
    let database = try memoryDatabase()
    try database.executeScript(
      """
      CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT);
      INSERT INTO t(id, name) VALUES (1, 'one'), (2, 'two');
      """)
    return database
  }

  private func count(_ database: Database, _ table: String = "t") throws -> DatabaseValue {
    try scalar(database, "SELECT count(*) FROM \(table)")
  }

  // MARK: Results

  @Test func executeReturnsEveryRowAsADictionary() throws {
    let database = try sampleDatabase()
    let rows = try database.execute("SELECT id, name FROM t ORDER BY id")
    #expect(rows == [["id": 1, "name": "one"], ["id": 2, "name": "two"]])
  }

  @Test func rowsReturnsEveryRowInColumnOrder() throws {
    let database = try sampleDatabase()
    let rows = try database.rows("SELECT name, id FROM t ORDER BY id")
    #expect(rows.count == 2)
    #expect(rows.map(\.columnNames) == [["name", "id"], ["name", "id"]])
    #expect(rows.map(\.values) == [["one", 1], ["two", 2]])
  }

  @Test func statementsWithoutRowsReturnAnEmptyArray() throws {
    let database = try sampleDatabase()
    #expect(try database.execute("UPDATE t SET name = 'uno' WHERE id = 1").isEmpty)
    #expect(try database.rows("SELECT * FROM t WHERE id > 99").isEmpty)
    #expect(try database.execute("SELECT * FROM t WHERE id > 99").isEmpty)
  }

  @Test func columnNamesAreWhatTheSQLCallsThem() throws {
    let database = try sampleDatabase()
    let row = try #require(
      try database.rows("SELECT id AS Identifier, t.name, name AS \"odd name\", 1 + 1 FROM t").first)
    #expect(row.columnNames == ["Identifier", "name", "odd name", "1 + 1"])
    let dictionary = try #require(try database.execute("SELECT id AS Identifier FROM t ORDER BY id").first)
    #expect(dictionary == ["Identifier": 1])
  }

  @Test func duplicateColumnNamesKeepTheLeftmostInDictionariesAndAllInRows() throws {
    let database = try sampleDatabase()
    let sql = "SELECT a.id, b.id, a.name AS n, b.name AS n FROM t AS a JOIN t AS b ON b.id = a.id + 1"
    #expect(try database.execute(sql) == [["id": 1, "n": "one"]])
    let row = try #require(try database.rows(sql).first)
    #expect(row.columnNames == ["id", "id", "n", "n"])
    #expect(row.values == [1, 2, "one", "two"])
  }

  // MARK: Exactly one statement

  @Test func trailingStatementThrowsMisuseAndRunsNothing() throws {
    let database = try sampleDatabase()
    let sql = "INSERT INTO t(name) VALUES ('three'); INSERT INTO t(name) VALUES ('four')"
    let error = try #require(throws: DatabaseError.self) { try database.execute(sql) }
    #expect(error.resultCode == .misuse)
    #expect(error.sql == sql)
    #expect(error.message.contains("INSERT INTO t(name) VALUES ('four')"))
    #expect(try count(database) == 2)
  }

  @Test func trailingStatementThrowsFromRowsToo() throws {
    let database = try sampleDatabase()
    let error = try #require(throws: DatabaseError.self) { try database.rows("SELECT 1; SELECT 2") }
    #expect(error.resultCode == .misuse)
  }

  @Test func trailingGarbageIsNotSilentlyDropped() throws {
    let database = try sampleDatabase()
    let error = try #require(throws: DatabaseError.self) { try database.execute("SELECT 1; garbage") }
    #expect(error.resultCode == .misuse)
  }

  @Test(arguments: ["SELECT 7;", "SELECT 7 ;;; ", "SELECT 7 -- a comment", "SELECT 7; /* block */ ; -- line\n\t\r\n"])
  func trailingWhitespaceCommentsAndSemicolonsAreFine(_ sql: String) throws {
    let database = try memoryDatabase()
    #expect(try database.rows(sql).map(\.values) == [[7]])
  }

  @Test(arguments: ["", "   ", ";", "-- only a comment", "/* only a comment */"])
  func sqlWithoutAStatementThrows(_ sql: String) throws {
    let database = try memoryDatabase()
    let error = try #require(throws: DatabaseError.self) { try database.execute(sql) }
    #expect(error.resultCode == .misuse)
  }

  // MARK: Arguments

  @Test func argumentsBindToQuestionMarksInOrder() throws {
    let database = try sampleDatabase()
    try database.execute("INSERT INTO t(id, name) VALUES (?, ?)", [3, "three"])
    #expect(try database.execute("SELECT name FROM t WHERE id = ?", [3]) == [["name": "three"]])
  }

  @Test func tooFewArgumentsThrowRangeAndRunNothing() throws {
    let database = try sampleDatabase()
    let sql = "INSERT INTO t(id, name) VALUES (?, ?)"
    let error = try #require(throws: DatabaseError.self) { try database.execute(sql, [3]) }
    #expect(error.resultCode == .range)
    #expect(error.sql == sql)
    #expect(try count(database) == 2)
    let none = try #require(throws: DatabaseError.self) { try database.execute("SELECT ?") }
    #expect(none.resultCode == .range)
  }

  @Test func tooManyArgumentsThrowRange() throws {
    let database = try sampleDatabase()
    let error = try #require(throws: DatabaseError.self) { try database.execute("SELECT ?", [1, 2]) }
    #expect(error.resultCode == .range)
    let noParameters = try #require(throws: DatabaseError.self) { try database.rows("SELECT 1", [1]) }
    #expect(noParameters.resultCode == .range)
    #expect(try count(database) == 2)
  }

  @Test func numberedParametersBindByTheirNumber() throws {
    let database = try memoryDatabase()
    #expect(try database.rows("SELECT ?2, ?1, ?2", ["a", "b"]).map(\.values) == [["b", "a", "b"]])
  }

  @Test func numberedParametersNeedArgumentsUpToTheLargestNumber() throws {
    let database = try memoryDatabase()
    let error = try #require(throws: DatabaseError.self) { try database.execute("SELECT ?3", [1]) }
    #expect(error.resultCode == .range)
    #expect(try database.rows("SELECT ?3", [1, 2, 3]).map(\.values) == [[3]])
  }

  @Test func namedParametersBindPositionally() throws {
    let database = try memoryDatabase()
    let rows = try database.rows("SELECT :first, @second, $third, :first", ["x", "y", "z"])
    #expect(rows.map(\.values) == [["x", "y", "z", "x"]])
    let error = try #require(throws: DatabaseError.self) {
      try database.execute("SELECT :first, :second", ["only one"])
    }
    #expect(error.resultCode == .range)
  }

  // MARK: Errors

  @Test func syntaxErrorCarriesCodeMessageAndSQL() throws {
    let database = try memoryDatabase()
    let sql = "SELEC 1"
    let error = try #require(throws: DatabaseError.self) { try database.execute(sql) }
    #expect(error.resultCode == .error)
    #expect(error.extendedResultCode == .error)
    #expect(error.message.contains("syntax error"))
    #expect(error.sql == sql)
  }

  @Test func missingTableThrowsNoSuchTable() throws {
    let database = try memoryDatabase()
    let error = try #require(throws: DatabaseError.self) { try database.rows("SELECT * FROM nowhere") }
    #expect(error.resultCode == .error)
    #expect(error.message.contains("no such table: nowhere"))
    #expect(error.sql == "SELECT * FROM nowhere")
  }

  @Test func uniqueViolationHasExtendedCode2067() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE u(x UNIQUE)")
    try database.execute("INSERT INTO u(x) VALUES (1)")
    let sql = "INSERT INTO u(x) VALUES (?)"
    let error = try #require(throws: DatabaseError.self) { try database.execute(sql, [1]) }
    #expect(error.resultCode == .constraint)
    #expect(error.extendedResultCode == .constraintUnique)
    #expect(error.message.contains("UNIQUE constraint failed: u.x"))
    #expect(error.sql == sql)
  }

  @Test func primaryKeyViolationHasExtendedCode1555() throws {
    let database = try sampleDatabase()
    let error = try #require(throws: DatabaseError.self) {
      try database.execute("INSERT INTO t(id, name) VALUES (1, 'again')")
    }
    #expect(error.resultCode == .constraint)
    #expect(error.extendedResultCode == .constraintPrimaryKey)
    #expect(error.message.contains("t.id"))
  }

  @Test func foreignKeyViolationHasExtendedCode787WhenEnforced() throws {
    let database = try memoryDatabase()
    try database.executeScript(
      """
      PRAGMA foreign_keys = ON;
      CREATE TABLE parent(id INTEGER PRIMARY KEY);
      CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id));
      INSERT INTO parent(id) VALUES (1);
      """)
    try database.execute("INSERT INTO child(parent_id) VALUES (1)")
    let error = try #require(throws: DatabaseError.self) {
      try database.execute("INSERT INTO child(parent_id) VALUES (?)", [99])
    }
    #expect(error.resultCode == .constraint)
    #expect(error.extendedResultCode == .constraintForeignKey)
    #expect(error.message.contains("FOREIGN KEY constraint failed"))
    #expect(try scalar(database, "SELECT count(*) FROM child") == .integer(1))
  }

  @Test func notNullViolationHasExtendedCode1299() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE n(x NOT NULL)")
    let error = try #require(throws: DatabaseError.self) { try database.execute("INSERT INTO n(x) VALUES (?)", [nil]) }
    #expect(error.resultCode == .constraint)
    #expect(error.extendedResultCode == .constraintNotNull)
  }

  @Test func errorWhileSteppingThrowsInsteadOfReturningPartialRows() throws {
    let database = try sampleDatabase()
    // The first row is fine; the second overflows a 64-bit integer.
    let sql = "SELECT CASE WHEN id = 2 THEN abs(-9223372036854775807 - 1) ELSE id END AS v FROM t ORDER BY id"
    let error = try #require(throws: DatabaseError.self) { try database.execute(sql) }
    #expect(error.resultCode == .error)
    #expect(error.message.contains("integer overflow"))
    #expect(error.sql == sql)
    #expect(throws: DatabaseError.self) { try database.rows(sql) }
  }

  @Test func connectionKeepsWorkingAfterAnError() throws {
    let database = try sampleDatabase()
    #expect(throws: DatabaseError.self) { try database.execute("SELECT * FROM nowhere") }
    #expect(try database.execute("SELECT count(*) AS n FROM t") == [["n": 2]])
  }

  // MARK: State

  @Test func lastInsertRowIDIsTheNewestRowid() throws {
    let database = try sampleDatabase()
    try database.execute("INSERT INTO t(name) VALUES ('three')")
    #expect(database.lastInsertRowID == 3)
    try database.execute("INSERT INTO t(id, name) VALUES (40, 'forty')")
    #expect(database.lastInsertRowID == 40)
  }

  @Test func lastInsertRowIDIsZeroOnAFreshConnection() throws {
    let database = try memoryDatabase()
    #expect(database.lastInsertRowID == 0)
  }

  @Test func changesCountsRowsOfTheLastWrite() throws {
    let database = try sampleDatabase()
    try database.execute("INSERT INTO t(name) VALUES ('a'), ('b'), ('c')")
    #expect(database.changes == 3)
    try database.execute("UPDATE t SET name = upper(name) WHERE id <= 4")
    #expect(database.changes == 4)
    try database.execute("DELETE FROM t WHERE id > 99")
    #expect(database.changes == 0)
  }

  @Test func isInTransactionFollowsBeginAndCommit() throws {
    let database = try sampleDatabase()
    #expect(!database.isInTransaction)
    try database.execute("BEGIN")
    #expect(database.isInTransaction)
    try database.execute("INSERT INTO t(name) VALUES ('three')")
    try database.execute("ROLLBACK")
    #expect(!database.isInTransaction)
    #expect(try count(database) == 2)
  }

  @Test func busyTimeoutStillFailsWithBusyWhileAnotherConnectionWrites() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/shared.db"
      let writer = try Database(path: path)
      try writer.execute("CREATE TABLE t(x)")
      let other = try Database(path: path)
      try other.setBusyTimeout(milliseconds: 20)
      try writer.execute("BEGIN IMMEDIATE")
      let error = try #require(throws: DatabaseError.self) { try other.execute("INSERT INTO t(x) VALUES (1)") }
      #expect(error.resultCode == .busy)
      try writer.execute("COMMIT")
      try other.execute("INSERT INTO t(x) VALUES (1)")
      #expect(try scalar(writer, "SELECT count(*) FROM t") == .integer(1))
    }
  }

  // MARK: Scripts

  @Test func executeScriptRunsEveryStatement() throws {
    let database = try memoryDatabase()
    try database.executeScript(
      """
      -- a script may hold comments
      CREATE TABLE a(x);
      CREATE TABLE b(y);
      INSERT INTO a(x) VALUES (1), (2);
      SELECT * FROM a;  /* rows are ignored */
      INSERT INTO b(y) SELECT x * 10 FROM a;
      """)
    #expect(try database.rows("SELECT y FROM b ORDER BY y").map(\.values) == [[10], [20]])
  }

  @Test func executeScriptStopsAtTheFirstFailureAndKeepsEarlierStatements() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE a(x)")
    let error = try #require(throws: DatabaseError.self) {
      try database.executeScript(
        """
        INSERT INTO a(x) VALUES (1);
        INSERT INTO missing(x) VALUES (2);
        INSERT INTO a(x) VALUES (3);
        """)
    }
    #expect(error.resultCode == .error)
    #expect(error.message.contains("no such table: missing"))
    // Exactly the failing statement: no leading whitespace, nothing after it.
    #expect(error.sql == "INSERT INTO missing(x) VALUES (2);")
    #expect(try database.rows("SELECT x FROM a").map(\.values) == [[1]])
  }

  @Test func executeScriptWithItsOwnTransactionRollsBackAsAWhole() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE a(x UNIQUE)")
    #expect(throws: DatabaseError.self) {
      try database.executeScript("BEGIN; INSERT INTO a(x) VALUES (1); INSERT INTO a(x) VALUES (1); COMMIT;")
    }
    if database.isInTransaction { try database.execute("ROLLBACK") }
    #expect(try scalar(database, "SELECT count(*) FROM a") == .integer(0))
  }

  @Test func emptyScriptDoesNothing() throws {
    let database = try memoryDatabase()
    try database.executeScript("")
    try database.executeScript("  -- nothing\n")
    #expect(try tableNames(database).isEmpty)
  }
}
