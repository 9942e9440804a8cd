import Foundation
import SQLiteBridge
import SQLiteBridgeCore
import Testing

/// What the library does on a SQLite older than the features it uses, from
/// Swift: the encrypted build runs on SQLCipher's SQLite 3.15.2 (Debian 12).
/// Schema introspection falls back to what that SQLite has; noFollowSymlinks
/// fails with the documented "needs SQLite ≥ 3.31.0" error. Each test
/// asserts the branch of the SQLite it runs on. (SQLiteFeatureTests.cpp
/// checks the same in C++.)
@Suite("SQLite features")
struct SQLiteFeaturesTests {
  private var sqliteVersionNumber: Int32 { sqlite3_libversion_number() }

  @Test func noFollowSymlinksOpensOnNewSQLiteAndFailsNamingTheVersionOnOld() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/plain.db"
      var configuration = Configuration()
      configuration.noFollowSymlinks = true
      if sqliteVersionNumber >= 3_031_000 {
        let database = try Database(path: path, configuration: configuration)
        _ = try database.execute("CREATE TABLE t(x)")
        return
      }
      let error = databaseError { _ = try Database(path: path, configuration: configuration) }
      #expect(error?.resultCode == .error)
      let expected =
        "Configuration.noFollowSymlinks needs SQLite \u{2265} 3.31.0; this build runs on SQLite \(Database.sqliteVersion)"
      #expect(error?.message.hasPrefix(expected) == true, "\(String(describing: error))")
      #expect(!FileManager.default.fileExists(atPath: path), "no file is made")
    }
  }

  @Test func schemaIntrospectionWorksWithoutThePragmaFunctions() throws {
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
