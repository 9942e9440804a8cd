import Foundation
import SQLiteBridge
import Testing

@Suite("Statement cache")
struct StatementCacheTests {
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

  // MARK: Reuse

  @Test func capacityDefaultsTo64() throws {
    let database = try memoryDatabase()
    #expect(database.statementCacheCapacity == 64)
  }

  @Test func sameSQLIsPreparedOnceAcrossExecuteRowsAndForEachRow() throws {
    let database = try sampleDatabase()
    let sql = "SELECT name FROM t WHERE id = ?"
    let before = database.preparedStatementCount
    var names: [DatabaseValue] = []
    for round in 0..<100 {
      let id = DatabaseValue.integer(Int64(round % 2 + 1))
      switch round % 3 {
      case 0:
        names.append(try #require(try database.execute(sql, [id]).first?["name"]))
      case 1:
        names.append(try #require(try database.rows(sql, [id]).first?[0]))
      default:
        try database.forEachRow(sql, [id]) { names.append($0[0]) }
      }
    }
    #expect(database.preparedStatementCount == before + 1)
    #expect(names.count == 100)
    #expect(names.enumerated().allSatisfy { $0.element == ($0.offset % 2 == 0 ? "one" : "two") })
  }

  @Test func differentSQLTextIsPreparedSeparately() throws {
    let database = try sampleDatabase()
    let before = database.preparedStatementCount
    _ = try database.rows("SELECT 1")
    _ = try database.rows("SELECT 1 ")
    _ = try database.rows("select 1")
    _ = try database.rows("SELECT 1")
    #expect(database.preparedStatementCount == before + 3)
  }

  @Test func smallCapacityEvictsTheLeastRecentlyUsed() throws {
    let database = try sampleDatabase()
    database.statementCacheCapacity = 2
    #expect(database.statementCacheCapacity == 2)
    let sqls = ["SELECT 1", "SELECT 2", "SELECT 3"]
    let before = database.preparedStatementCount
    for round in 0..<3 {
      for (offset, sql) in sqls.enumerated() {
        #expect(try database.rows(sql).map(\.values) == [[DatabaseValue.integer(Int64(offset + 1))]], "round \(round)")
      }
    }
    // Cycling three statements through two slots evicts each before its reuse.
    #expect(database.preparedStatementCount == before + 9)
    // Two statements fit: after one preparation each, both are reused.
    let twoBefore = database.preparedStatementCount
    for _ in 0..<5 {
      _ = try database.rows("SELECT 1")
      _ = try database.rows("SELECT 2")
    }
    #expect(database.preparedStatementCount == twoBefore + 2)
  }

  @Test func capacityZeroPreparesEveryCall() throws {
    let database = try sampleDatabase()
    database.statementCacheCapacity = 0
    #expect(database.statementCacheCapacity == 0)
    let sql = "SELECT name FROM t WHERE id = ?"
    let before = database.preparedStatementCount
    for _ in 0..<10 {
      #expect(try database.execute(sql, [2]) == [["name": "two"]])
    }
    try database.forEachRow(sql, [1]) { #expect($0["name"] == "one") }
    #expect(database.preparedStatementCount == before + 11)
  }

  @Test func capacityZeroDropsWhatWasCached() throws {
    let database = try sampleDatabase()
    let sql = "SELECT count(*) FROM t"
    _ = try database.rows(sql)
    database.statementCacheCapacity = 0
    database.statementCacheCapacity = 64
    let before = database.preparedStatementCount
    #expect(try database.rows(sql).map(\.values) == [[2]])
    #expect(database.preparedStatementCount == before + 1)
  }

  @Test func negativeCapacityIsClampedToZero() throws {
    let database = try sampleDatabase()
    database.statementCacheCapacity = -5
    #expect(database.statementCacheCapacity == 0)
    let before = database.preparedStatementCount
    _ = try database.rows("SELECT 1")
    _ = try database.rows("SELECT 1")
    #expect(database.preparedStatementCount == before + 2)
  }

  @Test func clearStatementCacheMakesTheNextCallPrepareAgain() throws {
    let database = try sampleDatabase()
    let sql = "SELECT name FROM t ORDER BY id"
    _ = try database.rows(sql)
    let before = database.preparedStatementCount
    _ = try database.rows(sql)
    #expect(database.preparedStatementCount == before)
    database.clearStatementCache()
    #expect(database.statementCacheCapacity == 64)
    #expect(try database.rows(sql).map(\.values) == [["one"], ["two"]])
    #expect(database.preparedStatementCount == before + 1)
    _ = try database.rows(sql)
    #expect(database.preparedStatementCount == before + 1)
  }

  @Test func clearStatementCacheInsideForEachRowFinishesTheRun() throws {
    let database = try sampleDatabase()
    let sql = "SELECT id FROM t ORDER BY id"
    var ids: [DatabaseValue] = []
    try database.forEachRow(sql) { row in
      database.clearStatementCache()
      ids.append(row[0])
    }
    #expect(ids == [1, 2])
    let before = database.preparedStatementCount
    #expect(try database.rows(sql).map(\.values) == [[1], [2]])
    #expect(database.preparedStatementCount == before + 1)
  }

  // MARK: Two uses at once

  @Test func sameSQLNestedInsideForEachRowRunsAsASecondStatement() throws {
    let database = try sampleDatabase()
    let sql = "SELECT id, name FROM t WHERE id >= ? ORDER BY id"
    var pairs: [[DatabaseValue]] = []
    try database.forEachRow(sql, [1]) { outer in
      try database.forEachRow(sql, [outer[0]]) { inner in
        pairs.append([outer["name"]!, inner["name"]!])
      }
      // The outer row is still readable after the inner scan.
      #expect(outer["id"] != nil)
      #expect(outer.count == 2)
    }
    #expect(pairs == [["one", "one"], ["one", "two"], ["two", "two"]])
    // Afterwards the cached statement is reused.
    let before = database.preparedStatementCount
    #expect(try database.rows(sql, [2]).map(\.values) == [[2, "two"]])
    #expect(database.preparedStatementCount == before)
  }

  @Test func sameSQLInsideForEachRowViaExecuteAndRows() throws {
    let database = try sampleDatabase()
    let sql = "SELECT count(*) AS n FROM t"
    var counts: [DatabaseValue] = []
    try database.forEachRow(sql) { row in
      counts.append(row[0])
      counts.append(try #require(try database.execute(sql).first?["n"]))
      counts.append(try #require(try database.rows(sql).first?[0]))
    }
    #expect(counts == [2, 2, 2])
  }

  @Test func capacityOneWithNestedStatementsKeepsResultsRight() throws {
    let database = try sampleDatabase()
    database.statementCacheCapacity = 1
    let outerSQL = "SELECT id FROM t ORDER BY id"
    let innerSQL = "SELECT name FROM t WHERE id = ?"
    var names: [DatabaseValue] = []
    for _ in 0..<3 {
      try database.forEachRow(outerSQL) { outer in
        try database.forEachRow(innerSQL, [outer[0]]) { names.append($0[0]) }
      }
    }
    #expect(names == ["one", "two", "one", "two", "one", "two"])
    // The cache holds one statement: the last one returned, the outer one.
    let before = database.preparedStatementCount
    _ = try database.rows(outerSQL)
    #expect(database.preparedStatementCount == before)
    _ = try database.rows(innerSQL, [1])
    #expect(database.preparedStatementCount == before + 1)
  }

  // MARK: Schema changes

  @Test func cachedSelectStarSeesAnAddedColumn() throws {
    let database = try sampleDatabase()
    let sql = "SELECT * FROM t ORDER BY id"
    #expect(try database.rows(sql).map(\.columnNames) == [["id", "name"], ["id", "name"]])
    _ = try database.execute(sql)
    try database.forEachRow(sql) { _ in }
    try database.execute("ALTER TABLE t ADD COLUMN extra TEXT DEFAULT 'x'")
    let before = database.preparedStatementCount

    let rows = try database.rows(sql)
    #expect(rows.map(\.columnNames) == [["id", "name", "extra"], ["id", "name", "extra"]])
    #expect(rows.map(\.values) == [[1, "one", "x"], [2, "two", "x"]])
    #expect(
      try database.execute(sql) == [["id": 1, "name": "one", "extra": "x"], ["id": 2, "name": "two", "extra": "x"]])
    var views: [[String: DatabaseValue?]] = []
    try database.forEachRow(sql) { row in
      #expect(row.count == 3)
      #expect(row.columnName(2) == "extra")
      views.append(["extra": row["EXTRA"], "name": row["name"]])
    }
    #expect(views == [["extra": "x", "name": "one"], ["extra": "x", "name": "two"]])
    // SQLite re-prepared the cached statement itself: no new compile here.
    #expect(database.preparedStatementCount == before)
  }

  @Test func cachedStatementThrowsAfterDropTableAndWorksAfterRecreate() throws {
    let database = try sampleDatabase()
    let sql = "SELECT * FROM t ORDER BY 1"
    #expect(try database.rows(sql).count == 2)
    try database.execute("DROP TABLE t")

    let dropped = try #require(throws: DatabaseError.self) { try database.rows(sql) }
    #expect(dropped.resultCode == .error)
    #expect(dropped.message.contains("no such table: t"))
    #expect(throws: DatabaseError.self) { try database.execute(sql) }
    #expect(throws: DatabaseError.self) { try database.forEachRow(sql) { _ in } }

    try database.executeScript(
      """
      CREATE TABLE t(code TEXT, amount REAL, note TEXT);
      INSERT INTO t VALUES ('b', 2.5, NULL), ('a', 1.5, 'first');
      """)
    let rows = try database.rows(sql)
    #expect(rows.map(\.columnNames) == [["code", "amount", "note"], ["code", "amount", "note"]])
    #expect(rows.map(\.values) == [["a", 1.5, "first"], ["b", 2.5, nil]])
    #expect(
      try database.execute(sql) == [
        ["code": "a", "amount": 1.5, "note": "first"], ["code": "b", "amount": 2.5, "note": nil],
      ]
    )
    var names: [String] = []
    try database.forEachRow(sql) { row in
      names = (0..<row.count).map(row.columnName)
      #expect(row["id"] == nil)
    }
    #expect(names == ["code", "amount", "note"])
  }

  @Test func cachedStatementFollowsAColumnRename() throws {
    let database = try sampleDatabase()
    let sql = "SELECT * FROM t WHERE id = 1"
    #expect(try database.execute(sql) == [["id": 1, "name": "one"]])
    try database.execute("ALTER TABLE t RENAME COLUMN name TO title")
    #expect(try database.execute(sql) == [["id": 1, "title": "one"]])
  }

  // MARK: Bindings do not leak

  @Test func bindingsDoNotLeakIntoTheNextUse() throws {
    let database = try memoryDatabase()
    let sql = "SELECT ? AS v"
    #expect(try database.execute(sql, [1]) == [["v": 1]])
    #expect(try database.execute(sql, [nil]) == [["v": nil]])
    #expect(try database.execute(sql, ["text"]) == [["v": "text"]])
    let error = try #require(throws: DatabaseError.self) { try database.execute(sql) }
    #expect(error.resultCode == .range)
    let tooMany = try #require(throws: DatabaseError.self) { try database.execute(sql, [1, 2]) }
    #expect(tooMany.resultCode == .range)
    #expect(try database.execute(sql, [.blob(Data([9]))]) == [["v": .blob(Data([9]))]])
  }

  @Test func namedBindingsDoNotLeakIntoTheNextUse() throws {
    let database = try memoryDatabase()
    let sql = "SELECT :a AS a, :b AS b"
    #expect(try database.execute(sql, ["a": 1, "b": 2]) == [["a": 1, "b": 2]])
    let missing = try #require(throws: DatabaseError.self) { try database.execute(sql, ["a": 3]) }
    #expect(missing.resultCode == .range)
    #expect(missing.message.contains(":b"))
    #expect(try database.execute(sql, ["b": nil, "a": nil]) == [["a": nil, "b": nil]])
  }

  @Test func aFailedStepLeavesTheCachedStatementUsable() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE u(x UNIQUE)")
    let sql = "INSERT INTO u(x) VALUES (?)"
    try database.execute(sql, [1])
    let error = try #require(throws: DatabaseError.self) { try database.execute(sql, [1]) }
    #expect(error.extendedResultCode == .constraintUnique)
    let before = database.preparedStatementCount
    try database.execute(sql, [2])
    #expect(database.preparedStatementCount == before)
    #expect(try database.rows("SELECT x FROM u ORDER BY x").map(\.values) == [[1], [2]])
  }

  @Test func anAbandonedScanRestartsFromTheFirstRow() throws {
    let database = try sampleDatabase()
    let sql = "SELECT id FROM t ORDER BY id"
    struct Stop: Error {}
    #expect(throws: Stop.self) {
      try database.forEachRow(sql) { _ in throw Stop() }
    }
    #expect(try database.rows(sql).map(\.values) == [[1], [2]])
  }
}
