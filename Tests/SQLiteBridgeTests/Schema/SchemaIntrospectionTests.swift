import Foundation
import SQLiteBridge
import Testing

/// Schema introspection from Swift: exists checks, table names, columns,
/// primary keys, indexes, foreign keys, integrity_check and
/// foreign_key_check, with hostile, unicode, differently cased, qualified
/// and missing names. (SchemaIntrospectionTests.cpp checks the same.)
@Suite("Schema introspection")
struct SchemaIntrospectionTests {
  private func database() throws -> Database {
    let database = try memoryDatabase()
    try database.executeScript(
      """
      CREATE TABLE parent(id INTEGER PRIMARY KEY, code TEXT NOT NULL, region TEXT, UNIQUE(code, region));
      CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent ON DELETE CASCADE,
        code TEXT, region TEXT,
        FOREIGN KEY(code, region) REFERENCES parent(code, region) ON UPDATE SET NULL);
      CREATE INDEX child_parent ON child(parent_id);
      CREATE VIEW parent_codes AS SELECT code FROM parent;
      CREATE TRIGGER child_added AFTER INSERT ON child BEGIN SELECT 1; END;
      """)
    return database
  }

  /// Every table call throws "no such table: <name>" for `name`.
  private func expectNoSuchTable(
    _ database: Database, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let calls: [(String, () throws -> Void)] = [
      ("columns", { _ = try database.columns(in: name) }),
      ("primaryKey", { _ = try database.primaryKey(of: name) }),
      ("indexes", { _ = try database.indexes(on: name) }),
      ("foreignKeys", { _ = try database.foreignKeys(of: name) }),
      ("tableColumns", { _ = try database.tableColumns(name) }),
    ]
    for (call, body) in calls {
      let error = databaseError(sourceLocation: sourceLocation, body)
      #expect(error?.resultCode == .error, "\(call) \(name)", sourceLocation: sourceLocation)
      #expect(error?.extendedCode == 1, "\(call) \(name)", sourceLocation: sourceLocation)
      #expect(error?.message == "no such table: \(name)", "\(call)", sourceLocation: sourceLocation)
    }
    #expect(try !database.tableExists(name), sourceLocation: sourceLocation)
  }

  /// Every call finds table `name`, whose one column is `column`.
  private func expectFoundWithOneColumn(
    _ database: Database, _ name: String, _ column: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    #expect(try database.tableExists(name), "\(name)", sourceLocation: sourceLocation)
    #expect(try database.columns(in: name).map(\.name) == [column], "\(name)", sourceLocation: sourceLocation)
    #expect(try database.primaryKey(of: name) == ["rowid"], "\(name)", sourceLocation: sourceLocation)
    #expect(try database.tableColumns(name) == [column], "\(name)", sourceLocation: sourceLocation)
    #expect(try database.hasTableColumn(name, column), "\(name)", sourceLocation: sourceLocation)
  }

  // MARK: Exists

  @Test func existsChecksFindEachKindAndOnlyThatKind() throws {
    let database = try database()
    #expect(try database.tableExists("parent"))
    #expect(try database.viewExists("parent_codes"))
    #expect(try database.triggerExists("child_added"))
    #expect(try database.indexExists("child_parent"))
    #expect(try database.indexExists("sqlite_autoindex_parent_1"))
    #expect(try !database.tableExists("parent_codes"))
    #expect(try !database.viewExists("parent"))
    #expect(try !database.triggerExists("child_parent"))
    #expect(try !database.indexExists("child_added"))
  }

  @Test(arguments: ["nowhere", "", "main.nowhere", "main.", ".parent", "nope.parent", "parent ", "\"parent\""])
  func missingNamesAreFalseWithNoError(_ name: String) throws {
    let database = try database()
    #expect(try !database.tableExists(name))
    #expect(try !database.viewExists(name))
    #expect(try !database.triggerExists(name))
    #expect(try !database.indexExists(name))
  }

  @Test(.enabled(if: sqliteHasCompileOption("ENABLE_FTS5"), "this SQLite lacks FTS5"))
  func existsCoversVirtualShadowAndSQLitesOwnTables() throws {
    let database = try database()
    try database.execute("CREATE VIRTUAL TABLE docs USING fts5(body)")
    try database.execute("CREATE TABLE counted(id INTEGER PRIMARY KEY AUTOINCREMENT)")
    #expect(try database.tableExists("docs"))
    #expect(try database.tableExists("docs_data"))
    #expect(try database.tableExists("sqlite_sequence"))
    #expect(try database.tableExists("sqlite_schema"))
    #expect(try database.tableExists("sqlite_master"))
  }

  @Test func existsChecksThrowOnlyWhenClosed() throws {
    let database = try database()
    database.close()
    #expect(databaseError { _ = try database.tableExists("parent") }?.resultCode == .misuse)
    #expect(databaseError { _ = try database.viewExists("parent_codes") }?.resultCode == .misuse)
    #expect(databaseError { _ = try database.triggerExists("child_added") }?.resultCode == .misuse)
    #expect(databaseError { _ = try database.indexExists("child_parent") }?.resultCode == .misuse)
  }

  // MARK: Table names

  @Test(.enabled(if: sqliteHasCompileOption("ENABLE_FTS5"), "this SQLite lacks FTS5"))
  func tableNamesListsTheMainSchemasUserTablesSorted() throws {
    let database = try database()
    try database.executeScript(
      """
      CREATE TABLE Zeta(z); CREATE TABLE alpha(a);
      CREATE TABLE counted(id INTEGER PRIMARY KEY AUTOINCREMENT);
      INSERT INTO counted DEFAULT VALUES;
      CREATE VIRTUAL TABLE docs USING fts5(body);
      CREATE TEMP TABLE scratch(s);
      ATTACH ':memory:' AS aux; CREATE TABLE aux.elsewhere(e);
      """)
    #expect(try database.tableExists("sqlite_sequence"))
    #expect(try database.tableNames() == ["Zeta", "alpha", "child", "counted", "docs", "parent"])
  }

  @Test func tableNamesOfAnEmptyDatabaseIsEmpty() throws {
    #expect(try memoryDatabase().tableNames() == [])
  }

  // MARK: Columns

  @Test func columnsReportTypeNotNullDefaultKeyAndHidden() throws {
    let database = try database()
    try database.execute(
      """
      CREATE TABLE t(id INTEGER PRIMARY KEY, name VARCHAR(20) NOT NULL DEFAULT 'x',
        n INT DEFAULT 0, at TEXT DEFAULT CURRENT_TIMESTAMP, neg REAL DEFAULT -1.5,
        plain, twice AS (n * 2) VIRTUAL, total INT GENERATED ALWAYS AS (n + 1) STORED)
      """)
    #expect(
      try database.columns(in: "t") == [
        ColumnInfo(name: "id", declaredType: "INTEGER", primaryKeyIndex: 1),
        ColumnInfo(name: "name", declaredType: "VARCHAR(20)", isNotNull: true, defaultValueSQL: "'x'"),
        ColumnInfo(name: "n", declaredType: "INT", defaultValueSQL: "0"),
        ColumnInfo(name: "at", declaredType: "TEXT", defaultValueSQL: "CURRENT_TIMESTAMP"),
        ColumnInfo(name: "neg", declaredType: "REAL", defaultValueSQL: "-1.5"),
        ColumnInfo(name: "plain", declaredType: ""),
        ColumnInfo(name: "twice", declaredType: "", isHidden: true),
        ColumnInfo(name: "total", declaredType: "INT", isHidden: true),
      ])
  }

  @Test(
    .enabled(
      if: sqliteHasCompileOption("ENABLE_FTS5"), "needs FTS5"))
  func hiddenColumnsOfAVirtualTableAreHidden() throws {
    let database = try database()
    try database.execute("CREATE VIRTUAL TABLE docs USING fts5(title, body)")
    #expect(
      try database.columns(in: "docs") == [
        ColumnInfo(name: "title", declaredType: ""),
        ColumnInfo(name: "body", declaredType: ""),
        ColumnInfo(name: "docs", declaredType: "", isHidden: true),
        ColumnInfo(name: "rank", declaredType: "", isHidden: true),
      ])
  }

  @Test func columnsOfAViewAreListed() throws {
    let database = try database()
    #expect(try database.columns(in: "parent_codes").map(\.name) == ["code"])
  }

  // MARK: Primary keys

  @Test func primaryKeyInKeyOrder() throws {
    let database = try database()
    try database.executeScript(
      """
      CREATE TABLE plain(a, b);
      CREATE TABLE composite(a, b, c, PRIMARY KEY(c, a));
      CREATE TABLE textkey(code TEXT PRIMARY KEY, v);
      CREATE TABLE kv(q, r, s, PRIMARY KEY(r, q)) WITHOUT ROWID;
      """)
    #expect(try database.primaryKey(of: "plain") == ["rowid"])
    #expect(try database.primaryKey(of: "parent") == ["id"])
    #expect(try database.primaryKey(of: "composite") == ["c", "a"])
    #expect(try database.primaryKey(of: "textkey") == ["code"])
    #expect(try database.primaryKey(of: "kv") == ["r", "q"])
    let columns = try database.columns(in: "kv")
    #expect(columns.map(\.primaryKeyIndex) == [2, 1, 0])
    #expect(columns[0].isNotNull)
  }

  @Test func aViewHasNoPrimaryKeyIndexesOrForeignKeys() throws {
    let database = try database()
    let error = databaseError { _ = try database.primaryKey(of: "parent_codes") }
    #expect(error?.message == "no such table: parent_codes")
    #expect(databaseError { _ = try database.indexes(on: "parent_codes") }?.resultCode == .error)
    #expect(databaseError { _ = try database.foreignKeys(of: "parent_codes") }?.resultCode == .error)
  }

  // MARK: Indexes

  @Test func indexesWithColumnsUniquenessAndOrigin() throws {
    let database = try database()
    try database.executeScript(
      """
      CREATE TABLE kv(q, r, s UNIQUE, PRIMARY KEY(r, q)) WITHOUT ROWID;
      CREATE UNIQUE INDEX kv_s_q ON kv(s DESC, q);
      CREATE INDEX kv_expr ON kv(lower(s), r);
      CREATE TABLE textkey(code TEXT PRIMARY KEY);
      CREATE TABLE bare(x);
      """)
    #expect(
      try database.indexes(on: "kv") == [
        IndexInfo(name: "kv_expr", columns: ["", "r"], isUnique: false, origin: .createIndex),
        IndexInfo(name: "kv_s_q", columns: ["s", "q"], isUnique: true, origin: .createIndex),
        IndexInfo(name: "sqlite_autoindex_kv_1", columns: ["s"], isUnique: true, origin: .uniqueConstraint),
        IndexInfo(name: "sqlite_autoindex_kv_2", columns: ["r", "q"], isUnique: true, origin: .primaryKey),
      ])
    #expect(
      try database.indexes(on: "parent") == [
        IndexInfo(
          name: "sqlite_autoindex_parent_1", columns: ["code", "region"], isUnique: true, origin: .uniqueConstraint)
      ])
    #expect(
      try database.indexes(on: "child") == [
        IndexInfo(name: "child_parent", columns: ["parent_id"], isUnique: false, origin: .createIndex)
      ])
    #expect(
      try database.indexes(on: "textkey") == [
        IndexInfo(name: "sqlite_autoindex_textkey_1", columns: ["code"], isUnique: true, origin: .primaryKey)
      ])
    #expect(try database.indexes(on: "bare") == [])
  }

  // MARK: Foreign keys

  @Test func foreignKeysGroupColumnsAndKeepActions() throws {
    let database = try database()
    #expect(
      try database.foreignKeys(of: "child") == [
        ForeignKeyInfo(
          destinationTable: "parent", columns: ["code", "region"], destinationColumns: ["code", "region"],
          onUpdate: "SET NULL", onDelete: "NO ACTION"),
        ForeignKeyInfo(
          destinationTable: "parent", columns: ["parent_id"], destinationColumns: [], onUpdate: "NO ACTION",
          onDelete: "CASCADE"),
      ])
    #expect(try database.foreignKeys(of: "parent") == [])
  }

  // MARK: Checks

  @Test func integrityCheckOfASoundDatabaseIsEmpty() throws {
    let database = try database()
    try database.execute("INSERT INTO parent(code, region) VALUES ('a', 'b')")
    #expect(try database.integrityCheck() == [])
  }

  @Test func integrityCheckReportsACorruptIndex() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/corrupt.db"
      try makeDatabaseFile(
        at: path,
        script: """
          CREATE TABLE t(a); CREATE INDEX t_a ON t(a);
          INSERT INTO t VALUES (1), (2), (3);
          PRAGMA writable_schema = ON;
          UPDATE sqlite_master SET sql = 'CREATE INDEX t_a ON t(a DESC)' WHERE name = 't_a';
          """)
      let problems = try Database(path: path).integrityCheck()
      #expect(!problems.isEmpty)
      #expect(!problems.contains("ok"))
    }
  }

  @Test func foreignKeyCheckFindsRowsThatBreakAKey() throws {
    let database = try database()
    try database.executeScript(
      """
      PRAGMA foreign_keys = OFF;
      INSERT INTO parent(id, code, region) VALUES (1, 'a', 'b');
      INSERT INTO child(id, parent_id, code, region) VALUES (10, 1, 'a', 'b');
      INSERT INTO child(id, parent_id, code, region) VALUES (11, 99, 'a', 'b');
      INSERT INTO child(id, parent_id, code, region) VALUES (12, 1, 'zz', 'b');
      CREATE TABLE kv(k PRIMARY KEY, p REFERENCES parent) WITHOUT ROWID;
      INSERT INTO kv VALUES ('x', 42);
      """)
    var violations = try database.foreignKeyCheck().sorted { ($0.table, $0.rowID ?? -1) < ($1.table, $1.rowID ?? -1) }
    // An older SQLite may report a meaningless rowid for a row of a WITHOUT
    // ROWID table (SQLCipher 3's SQLite 3.15 did); 3.40 reports none.
    if !sqliteIsAtLeast(3_040_000), violations.count == 3, violations[2].table == "kv" {
      violations[2] = ForeignKeyViolation(
        table: "kv", rowID: nil, destinationTable: violations[2].destinationTable,
        foreignKeyIndex: violations[2].foreignKeyIndex)
    }
    #expect(
      violations == [
        ForeignKeyViolation(table: "child", rowID: 11, destinationTable: "parent", foreignKeyIndex: 1),
        ForeignKeyViolation(table: "child", rowID: 12, destinationTable: "parent", foreignKeyIndex: 0),
        ForeignKeyViolation(table: "kv", rowID: nil, destinationTable: "parent", foreignKeyIndex: 0),
      ])
    #expect(try database.foreignKeys(of: "child")[1].columns == ["parent_id"])
  }

  @Test func foreignKeyCheckOfASoundDatabaseIsEmpty() throws {
    #expect(try database().foreignKeyCheck() == [])
  }

  // MARK: Names

  @Test func namesMatchIgnoringASCIICase() throws {
    let database = try database()
    #expect(try database.tableExists("PARENT"))
    #expect(try database.viewExists("Parent_Codes"))
    #expect(try database.triggerExists("CHILD_ADDED"))
    #expect(try database.indexExists("Child_Parent"))
    #expect(try database.columns(in: "ChIlD").count == 4)
    #expect(try database.primaryKey(of: "CHILD") == ["id"])
    #expect(try database.indexes(on: "CHILD").map(\.name) == ["child_parent"])
    #expect(try database.foreignKeys(of: "Child").count == 2)
  }

  @Test func hostileNamesAreJustNames() throws {
    let database = try database()
    let hostile = #"x"; DROP TABLE t; --"#
    let spaced = "order items"
    try database.executeScript(
      #"""
      CREATE TABLE t(id INTEGER PRIMARY KEY);
      CREATE TABLE "x""; DROP TABLE t; --"("a""; b" INTEGER PRIMARY KEY,
        "ref col" REFERENCES "order items"("the id"));
      CREATE TABLE "order items"("the id" INTEGER PRIMARY KEY, "x y" UNIQUE);
      CREATE INDEX "x""; DROP TABLE t; -- index" ON "x""; DROP TABLE t; --"("ref col");
      CREATE VIEW "a view; --" AS SELECT 1;
      CREATE TRIGGER "trig""ger" AFTER INSERT ON t BEGIN SELECT 1; END;
      """#)
    #expect(try database.tableExists(hostile))
    #expect(try database.tableExists(spaced))
    #expect(try database.indexExists(hostile + " index"))
    #expect(try database.viewExists("a view; --"))
    #expect(try database.triggerExists(#"trig"ger"#))
    #expect(try database.columns(in: hostile).map(\.name) == [#"a"; b"#, "ref col"])
    #expect(try database.primaryKey(of: hostile) == [#"a"; b"#])
    #expect(
      try database.indexes(on: hostile) == [
        IndexInfo(name: hostile + " index", columns: ["ref col"], isUnique: false, origin: .createIndex)
      ])
    #expect(
      try database.indexes(on: spaced) == [
        IndexInfo(name: "sqlite_autoindex_order items_1", columns: ["x y"], isUnique: true, origin: .uniqueConstraint)
      ])
    #expect(
      try database.foreignKeys(of: hostile) == [
        ForeignKeyInfo(destinationTable: "order items", columns: ["ref col"], destinationColumns: ["the id"])
      ])
    #expect(try database.tableNames() == ["child", "order items", "parent", "t", hostile])
    #expect(try database.tableExists("t"))
    try expectNoSuchTable(database, hostile + " ")
    #expect(try database.tableExists("t"))
  }

  @Test func unicodeNamesWork() throws {
    let database = try database()
    try database.executeScript(
      """
      CREATE TABLE café_ñ("ünï" TEXT PRIMARY KEY, 表 REFERENCES 表);
      CREATE TABLE 表(列 INTEGER PRIMARY KEY);
      CREATE INDEX 索引 ON café_ñ(表);
      """)
    #expect(try database.tableExists("café_ñ"))
    #expect(try database.tableExists("表"))
    #expect(try database.indexExists("索引"))
    // Only ASCII letters fold, as in SQLite.
    #expect(try database.tableExists("CAFé_ñ"))
    #expect(try !database.tableExists("CAFÉ_Ñ"))
    #expect(try database.primaryKey(of: "café_ñ") == ["ünï"])
    #expect(try database.columns(in: "表") == [ColumnInfo(name: "列", declaredType: "INTEGER", primaryKeyIndex: 1)])
    #expect(
      try database.indexes(on: "café_ñ") == [
        IndexInfo(name: "sqlite_autoindex_café_ñ_1", columns: ["ünï"], isUnique: true, origin: .primaryKey),
        IndexInfo(name: "索引", columns: ["表"], isUnique: false, origin: .createIndex),
      ])
    #expect(
      try database.foreignKeys(of: "café_ñ") == [
        ForeignKeyInfo(destinationTable: "表", columns: ["表"], destinationColumns: [])
      ])
    #expect(try database.tableNames() == ["café_ñ", "child", "parent", "表"])
    try expectNoSuchTable(database, "CAFÉ_Ñ")
  }

  @Test func attachedSchemasAreReachedByQualifiedNames() throws {
    let database = try database()
    try database.executeScript(
      """
      ATTACH ':memory:' AS aux;
      CREATE TABLE aux.remote(r TEXT PRIMARY KEY, p REFERENCES parent);
      CREATE INDEX aux.remote_p ON remote(p);
      CREATE VIEW aux.remote_view AS SELECT 1;
      CREATE TRIGGER aux.remote_added AFTER INSERT ON remote BEGIN SELECT 1; END;
      CREATE TABLE aux.parent(only_in_aux);
      """)
    for name in ["aux.remote", "AUX.Remote", "remote"] {
      #expect(try database.tableExists(name), "\(name)")
      #expect(try database.primaryKey(of: name) == ["r"], "\(name)")
      #expect(
        try database.indexes(on: name) == [
          IndexInfo(name: "remote_p", columns: ["p"], isUnique: false, origin: .createIndex),
          IndexInfo(name: "sqlite_autoindex_remote_1", columns: ["r"], isUnique: true, origin: .primaryKey),
        ], "\(name)")
      #expect(
        try database.foreignKeys(of: name) == [
          ForeignKeyInfo(destinationTable: "parent", columns: ["p"], destinationColumns: [])
        ], "\(name)")
    }
    #expect(try database.indexExists("aux.remote_p"))
    #expect(try database.viewExists("aux.remote_view"))
    #expect(try database.triggerExists("aux.remote_added"))
    #expect(try !database.indexExists("main.remote_p"))
    #expect(try database.columns(in: "parent").count == 3)
    #expect(try database.columns(in: "main.parent").count == 3)
    #expect(try database.columns(in: "aux.parent").map(\.name) == ["only_in_aux"])
    #expect(try database.tableColumns("aux.parent") == ["only_in_aux"])
    #expect(try database.hasTableColumn("AUX.PARENT", "only_in_aux"))
    #expect(try database.tableNames() == ["child", "parent"])
    try expectNoSuchTable(database, "main.remote")
    try expectNoSuchTable(database, "aux.nowhere")
    try expectNoSuchTable(database, "nope.remote")
  }

  @Test func tempComesBeforeMainForAnUnqualifiedName() throws {
    let database = try database()
    try database.execute("CREATE TEMP TABLE parent(temp_only)")
    try expectFoundWithOneColumn(database, "parent", "temp_only")
    try expectFoundWithOneColumn(database, "temp.parent", "temp_only")
    #expect(try database.columns(in: "main.parent").count == 3)
  }

  @Test func aTableNamedLikeAQualifiedNameWinsAsItIs() throws {
    let database = try database()
    try database.executeScript(
      """
      ATTACH ':memory:' AS aux;
      CREATE TABLE aux.t(in_aux);
      CREATE TABLE t(in_main);
      CREATE TABLE "aux.t"(dotted);
      CREATE TABLE "a.b"(ab);
      """)
    try expectFoundWithOneColumn(database, "aux.t", "dotted")
    try expectFoundWithOneColumn(database, "AUX.T", "dotted")
    try expectFoundWithOneColumn(database, "main.aux.t", "dotted")
    try expectFoundWithOneColumn(database, "main.t", "in_main")
    try expectFoundWithOneColumn(database, "t", "in_main")
    try expectFoundWithOneColumn(database, "a.b", "ab")
    try expectFoundWithOneColumn(database, "main.a.b", "ab")
    try expectNoSuchTable(database, "aux.a.b")
    try database.execute(#"DROP TABLE "aux.t""#)
    try expectFoundWithOneColumn(database, "aux.t", "in_aux")
  }

  // Found by the execute_sql fuzz target (its oracle asked SQLite for the
  // literal name "main.v"): a view has columns too, so tableColumns and
  // hasTableColumn follow the same name rule for it.
  @Test func aViewIsFoundByItsSchemaQualifiedNameUnlessADottedNameIsItself() throws {
    let database = try database()
    try database.executeScript(
      """
      CREATE VIEW v AS SELECT 1 AS one, 2 AS two;
      CREATE TEMP VIEW tv AS SELECT 3 AS three;
      """)
    for name in ["v", "main.v", "MAIN.V"] {
      #expect(try database.tableColumns(name) == ["one", "two"], "\(name)")
      #expect(try database.hasTableColumn(name, "TWO"), "\(name)")
    }
    // "main.v" is not a name here, so "main.main.v" is "main.v" in main.
    let missing = databaseError { _ = try database.tableColumns("main.main.v") }
    #expect(missing?.message == "no such table: main.main.v")
    #expect(try database.tableColumns("temp.tv") == ["three"])
    let notInMain = databaseError { _ = try database.hasTableColumn("main.tv", "three") }
    #expect(notInMain?.resultCode == .error)
    #expect(notInMain?.message == "no such table: main.tv")

    try database.execute(#"CREATE TABLE "main.v"(dotted)"#)
    #expect(try database.tableColumns("main.v") == ["dotted"])  // the name as it is wins
    #expect(try database.hasTableColumn("main.v", "one") == false)
    #expect(try database.tableColumns("main.main.v") == ["dotted"])
    #expect(try database.tableColumns("v") == ["one", "two"])
  }

  @Test func missingTablesAreErrorsNeverEmptyLists() throws {
    let database = try database()
    for name in ["nowhere", "", "parent; DROP TABLE parent", "'parent'", "main.", ".parent"] {
      try expectNoSuchTable(database, name)
    }
    #expect(try database.tableExists("parent"))
  }

  @Test func namesHoldingNulNameNothing() throws {
    let database = try database()
    let name = "parent\0; DROP TABLE parent"
    #expect(try !database.tableExists(name))
    #expect(try !database.indexExists("child_parent\0x"))
    let error = databaseError { _ = try database.columns(in: name) }
    #expect(error?.resultCode == .error)
    #expect(error?.message == "no such table: parent?; DROP TABLE parent (the name holds a NUL byte)")
    #expect(try database.tableExists("parent"))
  }

  @Test func everyCallThrowsMisuseWhenClosed() throws {
    let database = try database()
    database.close()
    let calls: [() throws -> Void] = [
      { _ = try database.tableNames() },
      { _ = try database.columns(in: "parent") },
      { _ = try database.primaryKey(of: "parent") },
      { _ = try database.indexes(on: "parent") },
      { _ = try database.foreignKeys(of: "parent") },
      { _ = try database.integrityCheck() },
      { _ = try database.foreignKeyCheck() },
    ]
    for call in calls {
      #expect(databaseError(call)?.resultCode == .misuse)
    }
  }

  @Test func answersFollowSchemaChanges() throws {
    let database = try database()
    try database.execute("ALTER TABLE parent ADD COLUMN added TEXT DEFAULT 'new'")
    #expect(try database.columns(in: "parent").last?.defaultValueSQL == "'new'")
    try database.execute("DROP VIEW parent_codes")
    #expect(try !database.viewExists("parent_codes"))
    try database.execute("DROP TABLE child")
    #expect(try !database.triggerExists("child_added"))
    #expect(try !database.indexExists("child_parent"))
    try expectNoSuchTable(database, "child")
  }

  // Every reading at once, on main, temp and an attached schema, and
  // updateTable on what they read.
  @Test func columnsNamesIndexesAndKeysOfMainTempAndAttached() throws {
    let database = try Database(path: ":memory:")
    try database.executeScript(
      """
      CREATE TABLE parent(id INTEGER PRIMARY KEY, code TEXT UNIQUE);
      CREATE TABLE child(id INTEGER PRIMARY KEY,
        parent_id INTEGER NOT NULL REFERENCES parent(id) ON DELETE CASCADE, note TEXT DEFAULT 'n');
      CREATE INDEX child_parent ON child(parent_id);
      CREATE TEMP TABLE scratch(s);
      ATTACH ':memory:' AS aux;
      CREATE TABLE aux.elsewhere(e);
      INSERT INTO parent VALUES (1, 'a');
      INSERT INTO child(parent_id) VALUES (1);
      """)
    let columns = try database.columns(in: "child")
    #expect(columns.map(\.name) == ["id", "parent_id", "note"])
    #expect(columns[1].isNotNull)
    #expect(columns[2].defaultValueSQL == "'n'")
    #expect(try database.tableNames() == ["child", "parent"])
    #expect(try database.tableExists("sqlite_master"))
    #expect(try database.tableExists("SCRATCH"))
    #expect(try database.tableExists("aux.elsewhere"))
    #expect(try database.hasTableColumn("scratch", "s"))
    #expect(try database.indexes(on: "child").map(\.columns) == [["parent_id"]])
    let keys = try database.foreignKeys(of: "child")
    #expect(keys.map(\.destinationTable) == ["parent"])
    #expect(keys.first?.onDelete == "CASCADE")
    try database.updateTable(
      create: "CREATE TABLE parent(id INTEGER PRIMARY KEY, code TEXT UNIQUE, rank INTEGER)", name: "parent")
    #expect(try database.hasTableColumn("parent", "rank"))
    #expect(try scalar(database, "SELECT count(*) FROM child") == .integer(1))
  }
}
