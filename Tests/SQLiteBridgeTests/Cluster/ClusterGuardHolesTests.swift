import Foundation
import SQLiteBridge
import SQLiteBridgeCluster
import Testing

/// The holes issue 36 found in the guards against values that abort dqlite
/// 1.11 nodes, where the scripted node (Tests/Fixtures/fake-dqlite-node.py)
/// shows what the client sends: a table another client created, ALTER
/// TABLE … ADD COLUMN with a DEFAULT the nodes abort on, generated columns.
/// Mirrors Tests/CxxTests/Cluster/ClusterGuardHolesTests.cpp; the same
/// against dqlite-demo nodes is in ClusterDatabaseTests.
@Suite("ClusterDatabase guard holes (scripted node)")
struct ClusterGuardHolesTests {
  @Test func aTableAnotherClientCreatedIsGuardedBeforeTheNextWrite() throws {
    try withFakeNode("schema-other-client") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      try db.execute("INSERT INTO u VALUES (1)")
      // The fake now shows t(flag BOOLEAN), made by another client, and a
      // new schema version; it runs no trigger, so the INSERT succeeds.
      try db.execute("INSERT INTO t VALUES ('yes')")
      #expect(try node.guarded("BEFORE INSERT ON \"main\".\"t\"", before: "INSERT INTO t VALUES ('yes')"))
      // And a compound read that could hand the nodes such a value in it is
      // refused before it is sent.
      let read = databaseError { try db.execute("SELECT flag FROM t UNION ALL SELECT 'x'") }
      #expect(read?.resultCode == .misuse, "\(String(describing: read))")
    }
  }

  @Test(arguments: [
    "ALTER TABLE t ADD COLUMN b BOOLEAN DEFAULT 'yes'", "ALTER TABLE t ADD b BOOLEAN DEFAULT 0.5",
    "ALTER TABLE t ADD COLUMN d DATETIME DEFAULT 1.5",
  ])
  func addingAGuardedColumnWithADefaultTheNodesAbortOnIsRefusedBeforeItIsSent(alter: String) throws {
    try withFakeNode("schema-alter") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      let refused = databaseError { try db.execute(alter) }
      #expect(refused?.resultCode == .misuse, "\(String(describing: refused))")
      #expect(refused?.message.contains("DEFAULT") == true)
      #expect(try node.executed() == [])
      try db.execute("ALTER TABLE t ADD COLUMN b BOOLEAN DEFAULT 1")
      #expect(try node.executed() == ["ALTER TABLE t ADD COLUMN b BOOLEAN DEFAULT 1"])
    }
  }

  // The client's copy of the schema is made by the SQLite it links, which
  // knows generated columns.
  @Test func generatedColumnsAreGuardedAfterEveryInsertAndUpdate() throws {
    try withFakeNode("schema-generated") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      try db.execute("UPDATE g SET a = 'yes'")  // the fake runs no trigger
      let update = "UPDATE g SET a = 'yes'"
      #expect(try node.guarded("AFTER UPDATE ON \"main\".\"g\" WHEN typeof(NEW.\"b\")", before: update))
      #expect(try node.guarded("AFTER INSERT ON \"main\".\"g\" WHEN typeof(NEW.\"c\")", before: update))
      #expect(try node.guarded("AFTER UPDATE ON \"main\".\"g\" WHEN typeof(NEW.\"c\")", before: update))
    }
  }
}
