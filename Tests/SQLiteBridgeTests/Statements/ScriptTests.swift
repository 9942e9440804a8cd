import Foundation
import SQLiteBridge
import Testing

@Suite("executeScript with rows, and validateSQL")
struct ScriptTests {
  // MARK: executeScript with a row callback

  @Test func callbackSeesRowsOfEveryStatementInOrder() throws {
    let database = try memoryDatabase()
    var seen: [Row] = []
    try database.executeScript(
      """
      SELECT 1 AS first;
      CREATE TABLE a(x INTEGER, label TEXT);
      INSERT INTO a(x, label) VALUES (10, 'ten'), (20, 'twenty');
      SELECT x, label FROM a ORDER BY x;
      UPDATE a SET x = x + 1;
      SELECT sum(x) AS total FROM a;
      """
    ) { row in
      seen.append(row.copy())
    }
    #expect(seen.map(\.columnNames) == [["first"], ["x", "label"], ["x", "label"], ["total"]])
    #expect(seen.map(\.values) == [[1], [10, "ten"], [20, "twenty"], [32]])
  }

  @Test func callbackReadsColumnsByNameAndIndex() throws {
    let database = try memoryDatabase()
    var values: [DatabaseValue?] = []
    try database.executeScript("SELECT 'a' AS Name, 2 AS n; SELECT x'00ff' AS data") { row in
      values.append(row["name"])
      values.append(row[row.count - 1])
      values.append(.text(row.columnName(0)))
    }
    #expect(values == ["a", 2, "Name", nil, .blob(Data([0, 255])), "data"])
  }

  @Test func callbackIsNotCalledForAScriptWithoutRows() throws {
    let database = try memoryDatabase()
    var calls = 0
    try database.executeScript("CREATE TABLE a(x); INSERT INTO a(x) VALUES (1);") { _ in calls += 1 }
    #expect(calls == 0)
    #expect(try scalar(database, "SELECT x FROM a") == 1)
  }

  @Test func emptyScriptWithCallbackDoesNothing() throws {
    let database = try memoryDatabase()
    var calls = 0
    try database.executeScript("") { _ in calls += 1 }
    try database.executeScript(" ;; -- comment\n /* block */ ") { _ in calls += 1 }
    #expect(calls == 0)
    #expect(try tableNames(database).isEmpty)
  }

  @Test func scriptWithCallbackStopsAtTheFirstFailingStatement() throws {
    let database = try memoryDatabase()
    var seen: [DatabaseValue] = []
    let error = try #require(throws: DatabaseError.self) {
      try database.executeScript(
        """
        CREATE TABLE a(x);
        INSERT INTO a(x) VALUES (1);
        SELECT x FROM a;
           INSERT INTO missing(x) VALUES (2);
        INSERT INTO a(x) VALUES (3);
        SELECT x FROM a;
        """
      ) { row in
        seen.append(row[0])
      }
    }
    #expect(error.resultCode == .error)
    #expect(error.message.contains("no such table: missing"))
    // Exactly the failing statement: no leading whitespace, nothing after it.
    #expect(error.sql == "INSERT INTO missing(x) VALUES (2);")
    #expect(seen == [1])
    #expect(try database.rows("SELECT x FROM a").map(\.values) == [[1]])
  }

  @Test func scriptWithCallbackStopsAtARuntimeError() throws {
    let database = try memoryDatabase()
    var seen: [DatabaseValue] = []
    let error = try #require(throws: DatabaseError.self) {
      try database.executeScript(
        """
        CREATE TABLE u(x UNIQUE);
        INSERT INTO u(x) VALUES (1);
        INSERT INTO u(x) VALUES (1);
        SELECT 'never';
        """
      ) { seen.append($0[0]) }
    }
    #expect(error.resultCode == .constraint)
    #expect(error.extendedResultCode == .constraintUnique)
    #expect(error.sql == "INSERT INTO u(x) VALUES (1);")
    #expect(seen.isEmpty)
    #expect(try scalar(database, "SELECT count(*) FROM u") == 1)
  }

  @Test func syntaxErrorInAScriptWithCallbackNamesTheStatement() throws {
    let database = try memoryDatabase()
    let error = try #require(throws: DatabaseError.self) {
      try database.executeScript("SELECT 1;\n\n  SELEC 2; SELECT 3;") { _ in }
    }
    #expect(error.resultCode == .error)
    #expect(error.message.contains("syntax error"))
    #expect(error.sql == "SELEC 2;")
  }

  @Test func syntaxErrorMidStatementReportsTheWholeStatement() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE a(x, y)")
    let failing = "INSERT INTO a(x, y) VALUES ('a;b',, 1);"
    let error = try #require(throws: DatabaseError.self) {
      try database.executeScript("INSERT INTO a(x, y) VALUES (1, 2);\n  \(failing)\nINSERT INTO a(x, y) VALUES (3, 4);")
    }
    #expect(error.resultCode == .error)
    #expect(error.message.contains("syntax error"))
    #expect(error.sql == failing)
    #expect(try database.rows("SELECT x FROM a").map(\.values) == [[1]])
  }

  @Test func syntaxErrorInATriggerBodyReportsTheWholeTrigger() throws {
    let database = try memoryDatabase()
    let failing = "CREATE TRIGGER tr AFTER INSERT ON a BEGIN INSERT INTO a(x) VALUES (,); SELECT 1; END;"
    let error = try #require(throws: DatabaseError.self) {
      try database.executeScript("CREATE TABLE a(x); \(failing) SELECT 2;") { _ in }
    }
    #expect(error.resultCode == .error)
    #expect(error.sql == failing)
  }

  @Test func syntaxErrorInTheLastStatementWithoutSemicolonReportsItToTheEnd() throws {
    let database = try memoryDatabase()
    let error = try #require(throws: DatabaseError.self) { try database.executeScript("SELECT 1; SELECT 1 +") }
    #expect(error.resultCode == .error)
    #expect(error.sql == "SELECT 1 +")
  }

  struct Stop: Error, Equatable {
    let at: DatabaseValue
  }

  @Test func throwingCallbackStopsTheScriptAndPropagates() throws {
    let database = try memoryDatabase()
    var seen: [DatabaseValue] = []
    let error = try #require(throws: Stop.self) {
      try database.executeScript(
        """
        CREATE TABLE a(x);
        INSERT INTO a(x) VALUES (1), (2), (3);
        SELECT x FROM a ORDER BY x;
        INSERT INTO a(x) VALUES (4);
        """
      ) { row in
        seen.append(row[0])
        if row[0] == 2 { throw Stop(at: row[0]) }
      }
    }
    #expect(error == Stop(at: 2))
    #expect(seen == [1, 2])
    #expect(try database.rows("SELECT x FROM a ORDER BY x").map(\.values) == [[1], [2], [3]])
  }

  @Test func scriptWithCallbackKeepsItsOwnTransaction() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE a(x)")
    var count: DatabaseValue?
    try database.executeScript("BEGIN; INSERT INTO a(x) VALUES (1); SELECT count(*) FROM a; ROLLBACK;") { row in
      count = row[0]
      #expect(database.isInTransaction)
    }
    #expect(count == 1)
    #expect(!database.isInTransaction)
    #expect(try scalar(database, "SELECT count(*) FROM a") == 0)
  }

  // MARK: validateSQL

  @Test func validStatementValidatesWithoutRunning() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE a(x INTEGER, y TEXT)")
    try database.validateSQL("INSERT INTO a(x, y) VALUES (1, 'one')")
    try database.validateSQL("INSERT INTO a(x, y) VALUES (?, :y)")
    try database.validateSQL("SELECT x, y FROM a WHERE x = ?;")
    try database.validateSQL("CREATE TABLE b(z)")
    #expect(try scalar(database, "SELECT count(*) FROM a") == 0)
    #expect(try tableNames(database) == ["a"])
  }

  @Test func syntaxErrorFailsValidationWithCode1() throws {
    let database = try memoryDatabase()
    let sql = "SELEC 1"
    let error = try #require(throws: DatabaseError.self) { try database.validateSQL(sql) }
    #expect(error.resultCode == .error)
    #expect(error.message.contains("syntax error"))
    #expect(error.sql == sql)
  }

  @Test func unknownTableFailsValidationWithCode1() throws {
    let database = try memoryDatabase()
    let sql = "SELECT * FROM nowhere"
    let error = try #require(throws: DatabaseError.self) { try database.validateSQL(sql) }
    #expect(error.resultCode == .error)
    #expect(error.message.contains("no such table: nowhere"))
    #expect(error.sql == sql)
  }

  @Test func unknownColumnFailsValidationWithCode1() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE a(x)")
    let error = try #require(throws: DatabaseError.self) { try database.validateSQL("SELECT nope FROM a") }
    #expect(error.resultCode == .error)
    #expect(error.message.contains("no such column: nope"))
  }

  @Test func trailingSQLFailsValidationWithCode21AndRunsNothing() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE a(x)")
    let sql = "INSERT INTO a(x) VALUES (1); INSERT INTO a(x) VALUES (2)"
    let error = try #require(throws: DatabaseError.self) { try database.validateSQL(sql) }
    #expect(error.resultCode == .misuse)
    #expect(error.message.contains("INSERT INTO a(x) VALUES (2)"))
    #expect(error.sql == sql)
    #expect(try scalar(database, "SELECT count(*) FROM a") == 0)
  }

  @Test func trailingCommentsAndSemicolonsValidate() throws {
    let database = try memoryDatabase()
    try database.validateSQL("SELECT 1; ;; -- done\n/* really */")
  }

  @Test(arguments: ["", "   ", ";", "-- only a comment"])
  func sqlWithoutAStatementFailsValidation(_ sql: String) throws {
    let database = try memoryDatabase()
    let error = try #require(throws: DatabaseError.self) { try database.validateSQL(sql) }
    #expect(error.resultCode == .misuse)
  }

  @Test func validationDoesNotDisturbTheStatementCache() throws {
    let database = try memoryDatabase()
    let sql = "SELECT 5"
    _ = try database.rows(sql)
    try database.validateSQL(sql)
    let before = database.preparedStatementCount
    #expect(try database.rows(sql).map(\.values) == [[5]])
    #expect(database.preparedStatementCount == before)
  }
}
