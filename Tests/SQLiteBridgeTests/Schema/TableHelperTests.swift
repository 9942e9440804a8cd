import Foundation
import SQLiteBridge
import Testing

/// Table helpers from Swift: insert (each `ConflictResolution`), update and
/// delete (counts, the refused empty WHERE), select (columns, WHERE, ORDER
/// BY, LIMIT), createTable with every `ColumnDefinition` option, addColumn,
/// dropTable; hostile and unicode names stay names; bad types and
/// references are refused before anything runs. (TableHelperTests.cpp
/// checks the same.)
@Suite("Table helpers")
struct TableHelperTests {
  static let hostileTable = "x\"; DROP TABLE t; --"
  static let hostileColumn = "y\"); DELETE FROM t; --"

  /// `t(id INTEGER PRIMARY KEY, name TEXT UNIQUE, score REAL)` holding a,
  /// b and c.
  private func database() throws -> Database {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT UNIQUE, score REAL)")
    try database.execute("INSERT INTO t(name, score) VALUES ('a', 1.5), ('b', 2.5), ('c', 3.5)")
    return database
  }

  private func count(_ database: Database, _ table: String = "t") throws -> DatabaseValue {
    try scalar(database, "SELECT count(*) FROM \"\(table)\"")
  }

  /// The schema and every row of `t`.
  private struct Snapshot: Equatable {
    let schema: [[String: DatabaseValue]]
    let rows: [Row]
  }

  /// The schema and every row of `t`, to show a refused call changed nothing.
  private func snapshot(_ database: Database) throws -> Snapshot {
    Snapshot(schema: try schemaSnapshot(database), rows: try tableSnapshot(database, "t"))
  }

  private func expectMisuse(_ containing: String, _ body: () throws -> Void) {
    let error = #expect(throws: DatabaseError.self) { try body() }
    #expect(error?.resultCode == .misuse, "\(String(describing: error))")
    #expect(error?.message.contains(containing) == true, "\(String(describing: error))")
  }

  @Test func insertBindsEveryValueInOrderAndReturnsTheRowID() throws {
    let database = try database()
    try database.execute("CREATE TABLE v(i INTEGER, r REAL, s TEXT, b BLOB, n)")
    let rowID = try database.insert(
      into: "v", ["s": "it's", "i": -7, "r": 0.1, "b": .blob(Data([0, 1, 0xff])), "n": nil])
    #expect(rowID == 1)
    #expect(
      try database.execute("SELECT * FROM v") == [
        ["i": -7, "r": 0.1, "s": "it's", "b": .blob(Data([0, 1, 0xff])), "n": .null]
      ])
    let next = try database.insert(into: "t", ["name": "d"])
    #expect(next == 4)
    #expect(next == database.lastInsertRowID)
  }

  @Test func insertWithoutValuesInsertsDefaultValues() throws {
    let database = try database()
    try database.execute("CREATE TABLE d(id INTEGER PRIMARY KEY, note TEXT DEFAULT 'none')")
    #expect(try database.insert(into: "d", [:]) == 1)
    #expect(try database.execute("SELECT * FROM d") == [["id": 1, "note": "none"]])
  }

  @Test func abortFailsUndoingTheStatementOnly() throws {
    let database = try database()
    try database.execute("BEGIN")
    try database.insert(into: "t", ["name": "e"])
    let error = #expect(throws: DatabaseError.self) {
      try database.insert(into: "t", ["name": "a"], onConflict: .abort)
    }
    #expect(error?.extendedResultCode == .constraintUnique)
    #expect(database.isInTransaction)
    try database.execute("COMMIT")
    #expect(try count(database) == 4)
    // Abort is the default.
    let again = #expect(throws: DatabaseError.self) { try database.insert(into: "t", ["name": "b"]) }
    #expect(again?.extendedResultCode == .constraintUnique)
  }

  @Test func replaceDeletesTheRowInTheWay() throws {
    let database = try database()
    #expect(try database.insert(into: "t", ["name": "a", "score": 9.0], onConflict: .replace) == 4)
    #expect(
      try database.execute("SELECT id, name, score FROM t ORDER BY id") == [
        ["id": 2, "name": "b", "score": 2.5], ["id": 3, "name": "c", "score": 3.5],
        ["id": 4, "name": "a", "score": 9.0],
      ])
  }

  @Test func ignoreSkipsTheRowAndReturnsRowIDZero() throws {
    let database = try database()
    #expect(try database.insert(into: "t", ["name": "z"], onConflict: .ignore) == 4)
    let before = try snapshot(database)
    #expect(try database.insert(into: "t", ["name": "a", "score": 100.0], onConflict: .ignore) == 0)
    #expect(try snapshot(database) == before)
  }

  @Test func failKeepsTheTransactionAndWhatCameBefore() throws {
    let database = try database()
    try database.execute("BEGIN")
    try database.insert(into: "t", ["name": "e"], onConflict: .fail)
    let error = #expect(throws: DatabaseError.self) {
      try database.insert(into: "t", ["name": "a"], onConflict: .fail)
    }
    #expect(error?.extendedResultCode == .constraintUnique)
    #expect(database.isInTransaction)
    try database.execute("COMMIT")
    #expect(try count(database) == 4)
  }

  @Test func rollbackUndoesTheWholeTransaction() throws {
    let database = try database()
    try database.execute("BEGIN")
    try database.insert(into: "t", ["name": "e"], onConflict: .rollback)
    #expect(try count(database) == 4)
    let error = #expect(throws: DatabaseError.self) {
      try database.insert(into: "t", ["name": "a"], onConflict: .rollback)
    }
    #expect(error?.extendedResultCode == .constraintUnique)
    #expect(!database.isInTransaction, "OR ROLLBACK ends the transaction")
    #expect(try count(database) == 3)
  }

  @Test func updateBindsSetValuesThenWhereArgumentsAndCountsRows() throws {
    let database = try database()
    #expect(try database.update("t", set: ["score": 0.0, "name": nil], where: "name = ? OR id = ?", ["b", 3]) == 2)
    #expect(
      try database.execute("SELECT name, score FROM t ORDER BY id") == [
        ["name": "a", "score": 1.5], ["name": .null, "score": 0.0], ["name": .null, "score": 0.0],
      ])
    #expect(try database.update("t", set: ["score": 1.0], where: "id > ?", [99]) == 0)
    #expect(try database.update("t", set: ["score": 7.0], where: "1") == 3)
    #expect(try scalar(database, "SELECT count(*) FROM t WHERE score = 7") == 3)
  }

  @Test func deleteCountsTheRowsItDeletes() throws {
    let database = try database()
    #expect(try database.delete(from: "t", where: "score > ?", [2.0]) == 2)
    #expect(try count(database) == 1)
    #expect(try database.delete(from: "t", where: "id = ?", [42]) == 0)
    #expect(try database.delete(from: "t", where: "1") == 1)
    #expect(try count(database) == 0)
  }

  @Test func anEmptyWhereIsRefusedAndChangesNothing() throws {
    let database = try database()
    let before = try snapshot(database)
    for whereSQL in ["", " \t\n "] {
      expectMisuse("write \"1\" to update every row") {
        try database.update("t", set: ["score": 0.0], where: whereSQL)
      }
      expectMisuse("write \"1\" to delete every row") { try database.delete(from: "t", where: whereSQL) }
    }
    expectMisuse("no column to set") { try database.update("t", set: [:], where: "1") }
    #expect(try snapshot(database) == before)
  }

  @Test func whereArgumentsMustMatchTheirParameters() throws {
    let database = try database()
    let before = try snapshot(database)
    let missing = #expect(throws: DatabaseError.self) { try database.delete(from: "t", where: "id = ?") }
    #expect(missing?.resultCode == .range)
    let extra = #expect(throws: DatabaseError.self) {
      try database.update("t", set: ["score": 0.0], where: "id = ?", [1, 2])
    }
    #expect(extra?.resultCode == .range)
    // A trailing comment cannot swallow what the core writes after it.
    #expect(try database.select(["name"], from: "t", where: "id > ? -- comment", [1], limit: 1).count == 1)
    // A second statement never runs: cut inside the parentheses it is a
    // syntax error; closing them first, it is trailing SQL, refused as
    // everywhere.
    let cut = #expect(throws: DatabaseError.self) { try database.delete(from: "t", where: "1; DROP TABLE t") }
    #expect(cut?.resultCode == .error)
    let trailing = #expect(throws: DatabaseError.self) {
      try database.delete(from: "t", where: "1); DROP TABLE t; --")
    }
    #expect(trailing?.resultCode == .misuse)
    #expect(try snapshot(database) == before)
  }

  @Test func selectReadsColumnsWhereOrderByAndLimit() throws {
    let database = try database()
    let all = try database.select(from: "t")
    #expect(all.count == 3)
    #expect(all.first?.count == 3, "no columns selects *")
    try database.insert(into: "t", ["name": "0", "score": 2.5])
    #expect(
      try database.select(["name", "score"], from: "t", where: "score >= ?", [2.0], orderBy: ["score", "name"]) == [
        ["name": "0", "score": 2.5], ["name": "b", "score": 2.5], ["name": "c", "score": 3.5],
      ])
    #expect(try database.select(["id"], from: "t", orderBy: ["name"], limit: 2) == [["id": 4], ["id": 1]])
    #expect(try database.select(["id"], from: "t", where: "id > ?", [1], orderBy: ["id"], limit: 0).isEmpty)
    #expect(try database.select(["id"], from: "t", where: "id > ?", [1], orderBy: ["id"], limit: 1) == [["id": 2]])
    #expect(try database.select(["id"], from: "t", where: "", orderBy: ["id"]).count == 4, "empty reads every row")
    expectMisuse("must not be negative") { _ = try database.select(["id"], from: "t", limit: -1) }
    // A misspelt column is an error, not a column of constant text (SQLite's
    // leniency with double-quoted names that match no column).
    let column = #expect(throws: DatabaseError.self) { try database.select(["nope"], from: "t") }
    #expect(column?.resultCode == .error)
    #expect(column?.message.contains("no such column") == true)
    let order = #expect(throws: DatabaseError.self) { try database.select(from: "t", orderBy: ["nope"]) }
    #expect(order?.message.contains("no such column") == true)
    // The keys are the names as asked for (SQLite compares them ignoring case).
    #expect(try database.select(["NAME"], from: "t", where: "id = ?", [1], orderBy: ["Id"]) == [["NAME": "a"]])
    let table = #expect(throws: DatabaseError.self) { try database.select(from: "missing") }
    #expect(table?.message.contains("no such table") == true)
  }

  @Test func hostileTableAndColumnNamesAreJustNames() throws {
    let database = try database()
    let before = try snapshot(database)
    let table = Self.hostileTable
    let column = Self.hostileColumn
    try database.createTable(table, [ColumnDefinition(column, "TEXT"), ColumnDefinition("n", "INTEGER")])
    #expect(try scalar(database, "SELECT count(*) FROM sqlite_master WHERE name = ?", [.text(table)]) == 1)
    #expect(try database.tableColumns(table) == [column, "n"])
    #expect(try database.insert(into: table, NamedArguments([(column, "v'); DROP TABLE t; --"), ("n", 1)])) == 1)
    #expect(try database.update(table, set: NamedArguments([(column, "w\"; --")]), where: "n = ?", [1]) == 1)
    #expect(try database.select([column], from: table, orderBy: [column]) == [[column: "w\"; --"]])
    try database.addColumn(ColumnDefinition("z\" TEXT); DROP TABLE t; --", "TEXT"), to: table)
    #expect(try database.delete(from: table, where: "1") == 1)
    try database.dropTable(table)
    #expect(try snapshot(database) == before, "nothing but the hostile table changed")
  }

  @Test func unicodeNamesRoundTrip() throws {
    let database = try database()
    let table = "таблица 表 ✓"
    let column = "名前 é"
    try database.createTable(table, [ColumnDefinition(column, "TEXT", notNull: true)])
    try database.insert(into: table, NamedArguments([(column, "значение")]))
    #expect(try database.select([column], from: table, orderBy: [column], limit: 10) == [[column: "значение"]])
    #expect(try scalar(database, "SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 't'") == .text(table))
  }

  @Test func namesHoldingNulAreRefusedBeforeAnythingRuns() throws {
    let database = try database()
    let before = try snapshot(database)
    let nul = "t\0x"
    expectMisuse("NUL") { try database.insert(into: nul, ["name": "n"]) }
    expectMisuse("NUL") { try database.insert(into: "t", NamedArguments([(nul, "n")])) }
    expectMisuse("NUL") { try database.update(nul, set: ["name": "n"], where: "1") }
    expectMisuse("NUL") { try database.update("t", set: NamedArguments([(nul, "n")]), where: "1") }
    expectMisuse("NUL") { try database.delete(from: nul, where: "1") }
    expectMisuse("NUL") { _ = try database.select(from: nul) }
    expectMisuse("NUL") { _ = try database.select([nul], from: "t") }
    expectMisuse("NUL") { _ = try database.select(from: "t", orderBy: [nul]) }
    expectMisuse("NUL") { try database.createTable(nul, [ColumnDefinition("a")]) }
    expectMisuse("NUL") { try database.createTable("u", [ColumnDefinition(nul)]) }
    expectMisuse("NUL") { try database.createTable("u", [ColumnDefinition("p", "INTEGER", references: nul + "(id)")]) }
    expectMisuse("NUL") { try database.createTable("u", [ColumnDefinition("p", "TEXT", defaultValue: .text(nul))]) }
    expectMisuse("NUL") { try database.addColumn(ColumnDefinition(nul), to: "t") }
    expectMisuse("NUL") { try database.dropTable(nul) }
    #expect(try snapshot(database) == before)
  }

  @Test func createTableRendersEveryOption() throws {
    let database = try database()
    try database.createTable("parent", [ColumnDefinition("id", "INTEGER", primaryKey: true, autoincrement: true)])
    try database.createTable(
      "child",
      [
        ColumnDefinition("id", "INTEGER", primaryKey: true),
        ColumnDefinition("code", "VARCHAR(20)", notNull: true, unique: true, defaultValue: "it's"),
        ColumnDefinition("parent", "INTEGER", references: " parent ( id ) "),
        ColumnDefinition("owner", "INTEGER", references: "parent"),
        ColumnDefinition("i", "INTEGER", defaultValue: -42),
        ColumnDefinition("r1", "REAL", defaultValue: 1.0),
        ColumnDefinition("r2", defaultValue: 0.1),
        ColumnDefinition("r3", "REAL", defaultValue: .real(-.infinity)),
        ColumnDefinition("b", "BLOB", defaultValue: .blob(Data([0xde, 0xad, 0x00]))),
        ColumnDefinition("n", "DECIMAL(10, 2)", defaultValue: .null),
      ])
    #expect(
      try scalar(database, "SELECT sql FROM sqlite_master WHERE name = 'child'")
        == .text(
          "CREATE TABLE \"child\" (\"id\" INTEGER PRIMARY KEY, \"code\" VARCHAR(20) NOT NULL UNIQUE DEFAULT "
            + "'it''s', \"parent\" INTEGER REFERENCES \"parent\"(\"id\"), \"owner\" INTEGER REFERENCES \"parent\", "
            + "\"i\" INTEGER DEFAULT -42, \"r1\" REAL DEFAULT (CAST(1 AS REAL)), \"r2\" DEFAULT 0.1, \"r3\" REAL "
            + "DEFAULT (-9e999), \"b\" BLOB DEFAULT x'dead00', \"n\" DECIMAL(10, 2) DEFAULT NULL)"))
    #expect(
      try scalar(database, "SELECT sql FROM sqlite_master WHERE name = 'parent'")
        == "CREATE TABLE \"parent\" (\"id\" INTEGER PRIMARY KEY AUTOINCREMENT)")
    #expect(
      // The pragmas as statements, which every SQLite has (the pragma
      // functions need 3.16), each row cut to the fields compared.
      try database.execute("PRAGMA table_info('child')")
        .filter { ["id", "code", "r1"].contains($0["name"]) }
        .map { $0.filter { ["name", "type", "notnull", "dflt_value", "pk"].contains($0.key) } } == [
          ["name": "id", "type": "INTEGER", "notnull": 0, "dflt_value": .null, "pk": 1],
          ["name": "code", "type": "VARCHAR(20)", "notnull": 1, "dflt_value": "'it''s'", "pk": 0],
          ["name": "r1", "type": "REAL", "notnull": 0, "dflt_value": "CAST(1 AS REAL)", "pk": 0],
        ])
    #expect(
      try database.execute("PRAGMA foreign_key_list('child')")
        .map { $0.filter { ["from", "table", "to"].contains($0.key) } }
        .sorted { "\(String(describing: $0["from"]))" < "\(String(describing: $1["from"]))" } == [
          ["from": "owner", "table": "parent", "to": .null], ["from": "parent", "table": "parent", "to": "id"],
        ])
    // The defaults read back exactly as given.
    try database.insert(into: "child", [:])
    #expect(
      try database.execute("SELECT code, i, r1, r2, r3, b, n FROM child") == [
        [
          "code": "it's", "i": -42, "r1": .real(1.0), "r2": 0.1, "r3": .real(-.infinity),
          "b": .blob(Data([0xde, 0xad, 0x00])), "n": .null,
        ]
      ])
    // UNIQUE and NOT NULL hold.
    let unique = #expect(throws: DatabaseError.self) { try database.insert(into: "child", [:]) }
    #expect(unique?.extendedResultCode == .constraintUnique)
    let notNull = #expect(throws: DatabaseError.self) { try database.insert(into: "child", ["code": nil]) }
    #expect(notNull?.extendedResultCode == .constraintNotNull)
  }

  @Test func ifNotExistsAddColumnAndDropTableIfExists() throws {
    let database = try database()
    try database.createTable("u", [ColumnDefinition("a", "TEXT")])
    let exists = #expect(throws: DatabaseError.self) { try database.createTable("u", [ColumnDefinition("a", "TEXT")]) }
    #expect(exists?.message.contains("already exists") == true)
    try database.createTable("u", ifNotExists: true, [ColumnDefinition("other")])
    try database.insert(into: "u", ["a": "x"])
    try database.addColumn(ColumnDefinition("b", "INTEGER", notNull: true, defaultValue: 5), to: "u")
    #expect(try database.tableColumns("u") == ["a", "b"])
    #expect(try database.execute("SELECT * FROM u") == [["a": "x", "b": 5]])
    let primaryKey = #expect(throws: DatabaseError.self) {
      try database.addColumn(ColumnDefinition("c", "INTEGER", primaryKey: true), to: "u")
    }
    #expect(primaryKey?.resultCode == .error, "SQLite cannot add a primary key")
    let missing = #expect(throws: DatabaseError.self) { try database.addColumn(ColumnDefinition("c"), to: "missing") }
    #expect(missing?.resultCode == .error)
    try database.dropTable("u")
    let gone = #expect(throws: DatabaseError.self) { try database.dropTable("u") }
    #expect(gone?.message.contains("no such table") == true)
    try database.dropTable("u", ifExists: true)
  }

  @Test func typesMustBeTypeNames() throws {
    let database = try database()
    for type in [
      "", "TEXT", " unsigned big int ", "VARCHAR(20)", "DECIMAL(10, 2)", "NUMERIC( -1 )", "FLOAT(+3.5,2)", "my_type2",
    ] {
      try database.createTable("ok", [ColumnDefinition("c", type)])
      try database.dropTable("ok")
    }
    let before = try snapshot(database)
    for type in [
      "TEXT; DROP TABLE t", "TEXT DEFAULT 1", "INTEGER PRIMARY KEY", "text not null", "TEXT COLLATE NOCASE",
      "INT AS (1)", "VARCHAR(", "VARCHAR(a)", "(10)", "DECIMAL(10,2) x", "\"q\"", "TEXT)", "2INT", "VARCHAR(1,2,3)",
      "TEXT -- c", "INT(1) (2)", "TEXT\nCHECK (0)",
    ] {
      expectMisuse("not a type name") { try database.createTable("bad", [ColumnDefinition("c", type)]) }
      expectMisuse("not a type name") { try database.addColumn(ColumnDefinition("c", type), to: "t") }
    }
    #expect(try snapshot(database) == before)
  }

  @Test func malformedDefinitionsAreRefusedBeforeAnythingRuns() throws {
    let database = try database()
    let before = try snapshot(database)
    for references in ["users(", "(id)", "users()", "users(id", "users(id)x", " ", "users( )"] {
      expectMisuse("table(column)") {
        try database.createTable(
          "bad", [ColumnDefinition("id"), ColumnDefinition("p", "INTEGER", references: references)])
      }
    }
    // A key to SQLite's own table would make every later schema change fail
    // ("foreign key mismatch"), this table's own DROP included.
    for references in ["sqlite_master", "SQLITE_SCHEMA(name)", " sqlite_stat1 "] {
      expectMisuse("SQLite's own table") {
        try database.createTable("bad", [ColumnDefinition("id"), ColumnDefinition("p", references: references)])
      }
      expectMisuse("SQLite's own table") {
        try database.addColumn(ColumnDefinition("p", references: references), to: "t")
      }
    }
    expectMisuse("AUTOINCREMENT") {
      try database.createTable("bad", [ColumnDefinition("id", "INTEGER", autoincrement: true)])
    }
    expectMisuse("at least one column") { try database.createTable("bad", []) }
    #expect(try snapshot(database) == before)
  }

  @Test func everyHelperFailsWithMisuseWhenClosed() throws {
    let database = try database()
    database.close()
    expectMisuse("not open") { try database.insert(into: "t", ["name": "n"]) }
    expectMisuse("not open") { try database.update("t", set: ["name": "n"], where: "1") }
    expectMisuse("not open") { try database.delete(from: "t", where: "1") }
    expectMisuse("not open") { _ = try database.select(from: "t") }
    expectMisuse("not open") { try database.createTable("u", [ColumnDefinition("a")]) }
    expectMisuse("not open") { try database.addColumn(ColumnDefinition("a"), to: "t") }
    expectMisuse("not open") { try database.dropTable("t") }
  }

  @Test func everyHostileIdentifierIsJustANameThroughEveryHelper() throws {
    let database = try database()
    let before = try snapshot(database)
    for name in hostileIdentifiers {
      // No such table: SQLite's error, and nothing ran.
      let missing: [() throws -> Void] = [
        { try database.insert(into: name, ["name": "mallory"]) },
        { try database.update(name, set: ["name": "mallory"], where: "1") },
        { try database.delete(from: name, where: "1") },
        { _ = try database.select(from: name) },
        { try database.dropTable(name) },
      ]
      for call in missing {
        let error = #expect(throws: DatabaseError.self) { try call() }
        #expect(error?.message.contains("no such table") == true, "\(name): \(String(describing: error))")
      }
      // As a column of t: no such column.
      let select = #expect(throws: DatabaseError.self) { try database.select([name], from: "t") }
      #expect(select?.message.contains("no such column") == true, "\(name)")
      let update = #expect(throws: DatabaseError.self) {
        try database.update("t", set: NamedArguments([(name, "mallory")]), where: "1")
      }
      #expect(update?.message.contains("no such column") == true, "\(name)")
      #expect(try snapshot(database) == before, "\(name)")

      // Made on purpose, each is exactly the table and column written to.
      let column = name + " col"
      try database.createTable(name, [ColumnDefinition(column, "TEXT", notNull: true)])
      try database.insert(into: name, NamedArguments([(column, .text("row of " + name))]))
      try database.addColumn(ColumnDefinition(name, "INTEGER", defaultValue: 7), to: name)
      #expect(try database.update(name, set: NamedArguments([(name, 8)]), where: "1") == 1)
      #expect(
        try database.select([column, name], from: name, orderBy: [name, column], limit: 1) == [
          [column: .text("row of " + name), name: 8]
        ], "\(name)")
      #expect(try database.delete(from: name, where: "1") == 1)
      try database.dropTable(name)
      #expect(try snapshot(database) == before, "\(name)")
    }
  }

  @Test func realDefaultsReadBackBitForBit() throws {
    let database = try database()
    // Values SQLite's own decimal reading misses (3.40 reads the 17 digits of
    // the first a bit off), edges, and a spread of bit patterns.
    var reals: [Double] = [
      0.1, 1.0, -0.0, 0.0, -2.5, 1e300, 2.2250738585072014e-308, Double.leastNonzeroMagnitude, 1.7976931348623157e308,
      9007199254740993.0, 1e20, -123456789.0,
    ]
    let misread: UInt64 = 0x0079_0000_002f_033d
    var bits = misread
    for _ in 0..<300 {
      let real = Double(bitPattern: bits)
      if real.isFinite { reals.append(real) }
      bits = bits &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407  // a fixed sequence
    }
    try database.createTable(
      "reals", reals.indices.map { ColumnDefinition("c\($0)", defaultValue: .real(reals[$0])) })
    try database.insert(into: "reals", [:])
    let row = try #require(try database.rows("SELECT * FROM reals").first)
    for index in reals.indices {
      guard case .real(let read) = row[index] else {
        Issue.record("column \(index) read \(row[index])")
        continue
      }
      #expect(read.bitPattern == reals[index].bitPattern, "column \(index): wrote \(reals[index]), read \(read)")
    }
    // A column ALTER TABLE adds gives the rows already there its default: an
    // integral real stays a real.
    try database.addColumn(ColumnDefinition("added", defaultValue: 1.0), to: "reals")
    try database.addColumn(ColumnDefinition("odd", defaultValue: .real(reals[12])), to: "reals")
    #expect(try scalar(database, "SELECT typeof(added) || ' ' || added FROM reals") == "real 1.0")
    #expect(try database.select(["odd"], from: "reals") == [["odd": .real(reals[12])]])
    #expect(Double(bitPattern: misread) == reals[12])
  }

  /// SQLite makes a table called "": every call finds it like any other
  /// name (the fuzz target found the schema calls taking "" for no name).
  @Test func aTableNamedTheEmptyStringIsFoundByEveryCall() throws {
    let database = try memoryDatabase()
    try database.createTable("", [ColumnDefinition("a"), ColumnDefinition("b")])
    #expect(try database.tableExists(""))
    #expect(try database.tableColumns("") == ["a", "b"])
    #expect(try database.columns(in: "main.").map(\.name) == ["a", "b"])
    try database.insert(into: "", ["a": 1, "b": 2])
    #expect(try database.select(from: "") == [["a": 1, "b": 2]])
    try database.dropTable("")
    #expect(try !database.tableExists(""))
    let missing = try #require(throws: DatabaseError.self) { try database.tableColumns("") }
    #expect(missing.message == "no such table: ")
  }
}
