import Foundation
import SQLiteBridge
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("forEachRow and RowView")
struct StreamingTests {
  /// An in-memory database with a table `t(id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB)`
  /// holding three rows.
  private func sampleDatabase() throws -> Database {
    let database = try memoryDatabase()
    try database.executeScript(
      """
      CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB);
      INSERT INTO t(id, name, score, data) VALUES
        (1, 'one', 1.5, x'01'),
        (2, 'two', NULL, x''),
        (3, 'three', -2.25, NULL);
      """)
    return database
  }

  // MARK: RowView

  @Test func bodySeesEveryRowInOrder() throws {
    let database = try sampleDatabase()
    var ids: [DatabaseValue] = []
    try database.forEachRow("SELECT id FROM t ORDER BY id") { ids.append($0[0]) }
    #expect(ids == [1, 2, 3])
  }

  @Test func bodyIsNotCalledForAnEmptyResult() throws {
    let database = try sampleDatabase()
    var calls = 0
    try database.forEachRow("SELECT * FROM t WHERE id > 99") { _ in calls += 1 }
    try database.forEachRow("UPDATE t SET name = upper(name)") { _ in calls += 1 }
    #expect(calls == 0)
    #expect(try scalar(database, "SELECT name FROM t WHERE id = 1") == "ONE")
  }

  @Test func positionalArgumentsBind() throws {
    let database = try sampleDatabase()
    var names: [DatabaseValue] = []
    try database.forEachRow("SELECT name FROM t WHERE id >= ? AND id <= ?2 ORDER BY id", [2, 3]) { row in
      names.append(row[0])
    }
    #expect(names == ["two", "three"])
  }

  @Test func wrongArgumentCountThrowsRangeWithoutCallingTheBody() throws {
    let database = try sampleDatabase()
    var calls = 0
    let error = try #require(throws: DatabaseError.self) {
      try database.forEachRow("SELECT name FROM t WHERE id = ?") { _ in calls += 1 }
    }
    #expect(error.resultCode == .range)
    #expect(calls == 0)
  }

  @Test func countAndColumnNamesAreWhatTheSQLCallsThem() throws {
    let database = try sampleDatabase()
    var seen: [(Int, [String])] = []
    try database.forEachRow("SELECT id AS Identifier, name, score * 2, data FROM t ORDER BY id LIMIT 1") { row in
      seen.append((row.count, (0..<row.count).map { row.columnName($0) }))
    }
    #expect(seen.count == 1)
    #expect(seen.first?.0 == 4)
    #expect(seen.first?.1 == ["Identifier", "name", "score * 2", "data"])
  }

  @Test func subscriptByIndexReadsEveryStorageClass() throws {
    let database = try sampleDatabase()
    var rows: [[DatabaseValue]] = []
    try database.forEachRow("SELECT id, name, score, data FROM t ORDER BY id") { row in
      rows.append([row[0], row[1], row[2], row[3]])
    }
    #expect(
      rows == [
        [1, "one", 1.5, .blob(Data([1]))],
        [2, "two", nil, .blob(Data())],
        [3, "three", -2.25, nil],
      ])
  }

  @Test func textKeepsEmbeddedNulAndNonASCII() throws {
    let database = try memoryDatabase()
    let text = "a\u{0}b – ünïcode 🚀"
    var read: DatabaseValue?
    try database.forEachRow("SELECT ?", [.text(text)]) { read = $0[0] }
    #expect(read == .text(text))
  }

  @Test func subscriptByNameIsCaseInsensitive() throws {
    let database = try sampleDatabase()
    var values: [DatabaseValue?] = []
    try database.forEachRow("SELECT id AS Identifier, name FROM t WHERE id = 2") { row in
      values = [row["identifier"], row["IDENTIFIER"], row["Identifier"], row["NaMe"]]
    }
    #expect(values == [2, 2, 2, "two"])
  }

  @Test func subscriptByNameFindsTheLeftmostDuplicate() throws {
    let database = try sampleDatabase()
    var values: [DatabaseValue?] = []
    try database.forEachRow("SELECT 'left' AS v, 'right' AS V, 'other' AS w") { row in
      values = [row["v"], row["V"], row[1]]
    }
    #expect(values == ["left", "left", "right"])
  }

  @Test func subscriptByNameIsNilForAMissingColumnAndNullForANullValue() throws {
    let database = try sampleDatabase()
    var missing: [DatabaseValue?] = []
    var null: DatabaseValue?
    try database.forEachRow("SELECT score FROM t WHERE id = 2") { row in
      missing = [row["nope"], row[""], row["scores"], row["scor"]]
      null = row["score"]
    }
    #expect(missing == [nil, nil, nil, nil])
    #expect(null == .some(.null))
  }

  @Test func copyEqualsWhatRowsReturns() throws {
    let database = try sampleDatabase()
    let sql = "SELECT id, name, score, data, name AS id FROM t ORDER BY id"
    var copies: [Row] = []
    try database.forEachRow(sql) { copies.append($0.copy()) }
    let rows = try database.rows(sql)
    #expect(copies == rows)
    #expect(copies.count == 3)
    #expect(copies.first?.columnNames == ["id", "name", "score", "data", "id"])
  }

  @Test func copyStaysValidAfterTheLoopAndLaterQueries() throws {
    let database = try sampleDatabase()
    var kept: Row?
    try database.forEachRow("SELECT id, name, data FROM t WHERE id = 1") { kept = $0.copy() }
    // Reuse the same cached statement and change the table underneath.
    try database.forEachRow("SELECT id, name, data FROM t WHERE id = 1") { _ in }
    try database.execute("UPDATE t SET name = 'changed', data = x'ff' WHERE id = 1")
    try database.execute("DELETE FROM t")
    let row = try #require(kept)
    #expect(row.columnNames == ["id", "name", "data"])
    #expect(row.values == [1, "one", .blob(Data([1]))])
    #expect(row["NAME"] == "one")
  }

  // MARK: Stopping and errors

  struct Stop: Error, Equatable {
    let at: DatabaseValue
  }

  @Test func throwingBodyStopsTheScanAndItsErrorPropagates() throws {
    let database = try sampleDatabase()
    var seen: [DatabaseValue] = []
    let error = try #require(throws: Stop.self) {
      try database.forEachRow("SELECT id FROM t ORDER BY id") { row in
        seen.append(row[0])
        if row[0] == 2 { throw Stop(at: row[0]) }
      }
    }
    #expect(error == Stop(at: 2))
    #expect(seen == [1, 2])
  }

  @Test func statementIsUsableAgainAfterTheBodyThrew() throws {
    let database = try sampleDatabase()
    let sql = "SELECT id FROM t WHERE id >= ? ORDER BY id"
    #expect(throws: Stop.self) {
      try database.forEachRow(sql, [1]) { throw Stop(at: $0[0]) }
    }
    let before = database.preparedStatementCount
    var ids: [DatabaseValue] = []
    try database.forEachRow(sql, [2]) { ids.append($0[0]) }
    #expect(ids == [2, 3])
    #expect(database.preparedStatementCount == before)
  }

  @Test func throwingBodyInsideATransactionLeavesItOpenForTheCaller() throws {
    let database = try sampleDatabase()
    try database.execute("BEGIN")
    #expect(throws: Stop.self) {
      try database.forEachRow("SELECT id FROM t") { throw Stop(at: $0[0]) }
    }
    try database.execute("DELETE FROM t")
    try database.execute("ROLLBACK")
    #expect(try scalar(database, "SELECT count(*) FROM t") == 3)
  }

  @Test func sqlErrorsThrowDatabaseError() throws {
    let database = try sampleDatabase()
    let syntax = try #require(throws: DatabaseError.self) { try database.forEachRow("SELEC 1") { _ in } }
    #expect(syntax.resultCode == .error)
    #expect(syntax.message.contains("syntax error"))
    #expect(syntax.sql == "SELEC 1")
    let missing = try #require(throws: DatabaseError.self) {
      try database.forEachRow("SELECT * FROM nowhere") { _ in }
    }
    #expect(missing.resultCode == .error)
    #expect(missing.message.contains("no such table: nowhere"))
    let trailing = try #require(throws: DatabaseError.self) { try database.forEachRow("SELECT 1; SELECT 2") { _ in } }
    #expect(trailing.resultCode == .misuse)
  }

  @Test func errorWhileSteppingThrowsAfterTheRowsBeforeIt() throws {
    let database = try sampleDatabase()
    let sql = "SELECT CASE WHEN id = 2 THEN abs(-9223372036854775807 - 1) ELSE id END AS v FROM t ORDER BY id"
    var seen: [DatabaseValue] = []
    let error = try #require(throws: DatabaseError.self) {
      try database.forEachRow(sql) { seen.append($0[0]) }
    }
    #expect(error.resultCode == .error)
    #expect(error.message.contains("integer overflow"))
    #expect(error.sql == sql)
    #expect(seen == [1])
    // And the statement works again.
    var first: DatabaseValue?
    try database.forEachRow("SELECT id FROM t ORDER BY id LIMIT 1") { first = $0[0] }
    #expect(first == 1)
  }

  @Test func bodyMayWriteWithAnotherStatement() throws {
    let database = try sampleDatabase()
    try database.execute("CREATE TABLE log(id INTEGER, name TEXT)")
    try database.forEachRow("SELECT id, name FROM t ORDER BY id") { row in
      try database.execute("INSERT INTO log(id, name) VALUES (?, ?)", [row[0], row["name"]!])
    }
    #expect(
      try database.rows("SELECT id, name FROM log ORDER BY id").map(\.values) == [
        [1, "one"], [2, "two"], [3, "three"],
      ])
  }

  // MARK: Constant memory

  @Test func streamsAMillionRowsInConstantMemory() throws {
    memoryHeavyTests.lock()  // no test using hundreds of MB runs meanwhile
    defer { memoryHeavyTests.unlock() }
    let database = try memoryDatabase()
    let rowCount: Int64 = 1_000_000
    let sql = countingRowsSQL
    // Warm up (prepare, fill SQLite's caches) before measuring.
    try database.forEachRow(sql, [1000]) { _ in }

    // Keeping a million two-column rows as [Row] grows the resident set by
    // about 107 MiB (measured); the stream must stay within a small bound.
    let bound = 32 * 1024 * 1024
    var count: Int64 = 0
    var sumX: Int64 = 0
    var sumY: Int64 = 0
    var ordered = true
    let runs = try measuringStreamMemory(bound: bound) { sample in
      (count, sumX, sumY, ordered) = (0, 0, 0, true)
      let start = ContinuousClock.now
      try database.forEachRow(sql, [.integer(rowCount)]) { row in
        guard case .integer(let x) = row[0], case .integer(let y) = row[1], row.count == 2 else {
          ordered = false
          return
        }
        if count == 0, row.columnName(1) != "y" { ordered = false }
        count += 1
        if x != count { ordered = false }
        sumX &+= x
        sumY &+= y
        sample()
      }
      print("forEachRow streamed \(count) rows in \(ContinuousClock.now - start)")
    }
    print("forEachRow's runs grew the process: \(runs)")

    #expect(count == rowCount)
    #expect(ordered)
    #expect(sumX == rowCount * (rowCount + 1) / 2)
    #expect(sumY == rowCount * (rowCount + 1))
    if runningUnderASanitizer { return }
    #expect(runs.last!.staysBelow(bound), "the process grew on every run: \(runs)")
  }
}
