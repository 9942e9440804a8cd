import Foundation
import SQLiteBridge
import SQLiteBridgeCluster
import Testing

/// `ClusterSyncHub` against a real three-node dqlite cluster (go-dqlite's
/// dqlite-demo, each node a process of its own): the hub's rules
/// (conditional appends, a (device, sequence) once, reading back, a table
/// of another shape refused) and two devices syncing through it. Mirrors
/// `ClusterSyncHub.*` in Tests/CxxTests/Cluster/ClusterSyncTests.cpp (whose
/// kill-the-leader run is the C++ suite's). Skipped where dqlite-demo is
/// not installed (Debian package go-dqlite).
@Suite(
  "ClusterSyncHub against dqlite-demo nodes", .serialized, .usesSessionExtension,
  .enabled(if: DemoCluster.isInstalled, "dqlite-demo is not installed (Debian package go-dqlite)"),
  .demoCluster(nodes: 3))
struct ClusterSyncHubTests {
  let cluster: DemoCluster

  init() throws {
    cluster = try #require(DemoCluster.current, "the suite's dqlite-demo cluster")
  }

  /// A hub on the suite's cluster, in the database `name`.
  func hub(_ name: String, table: String = "sync_log") throws -> ClusterSyncHub {
    try ClusterSyncHub(try ClusterDatabase(name: name, configuration: cluster.configuration), table: table)
  }

  @Test func appendsOnlyAfterTheLastPositionNeverTwiceAndReadsBack() async throws {
    let hub = try hub("sync-hub-rules")
    let changes = try await noteInsert("a")
    let first = SyncEntry(position: 0, device: "phone", sequence: 1, changeset: changes)
    let empty = SyncEntry(position: 0, device: "phone", sequence: 2, changeset: try Changeset(data: Data()))
    #expect(try await hub.append([first, empty], after: 0))
    let late = SyncEntry(position: 0, device: "laptop", sequence: 1, changeset: changes)
    #expect(try await hub.append([late], after: 1) == false)  // the log moved: nothing appended
    let again = SyncEntry(position: 0, device: "phone", sequence: 2, changeset: changes)
    let error = await asyncDatabaseError { _ = try await hub.append([again], after: 2) }
    #expect(error?.resultCode == .constraint, "\(String(describing: error))")
    #expect(error?.message.contains("position 2") == true, "\(String(describing: error))")
    #expect(try await hub.append([late], after: 2))
    let read = try await hub.entries(after: 1, limit: 10)
    #expect(read.map(\.position) == [2, 3])
    #expect(read.map(\.device) == ["phone", "laptop"])
    #expect(read[0].changeset.data.isEmpty)
    #expect(read[1].changeset == changes)
    #expect(try hub.lastPosition() == 3)
  }

  @Test func aTableOfAnotherShapeIsRefused() throws {
    let db = try ClusterDatabase(name: "sync-hub-shape", configuration: cluster.configuration)
    try db.execute("CREATE TABLE elsewhere(a, b)")
    #expect {
      _ = try ClusterSyncHub(db, table: "elsewhere")
    } throws: { error in
      (error as? DatabaseError)?.resultCode == .error
        && (error as? DatabaseError)?.message.contains("not a hub's log") == true
    }
  }

  @Test func twoDevicesSyncThroughTheCluster() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone", hub: try hub("sync-hub-devices"))
    let laptop = try world.device("laptop", hub: try hub("sync-hub-devices"))
    try phone.write("INSERT INTO notes(id, title) VALUES ('p1', 'from phone')")
    try laptop.write("INSERT INTO notes(id, title) VALUES ('l1', 'from laptop')")
    try laptop.write("INSERT INTO tags(id, note_id, name) VALUES ('t1', 'l1', 'work')")
    #expect(try await phone.sync().pushed == 1)
    let second = try await laptop.sync()
    #expect(second.pulled == 1)
    #expect(second.pushed == 2)
    #expect(try await phone.sync().pulled == 2)
    #expect(try phone.rows() == laptop.rows())
    #expect(
      try phone.rows() == [
        "-- notes", "l1|from laptop|", "p1|from phone|", "-- tags", "t1|l1|work", "-- counters",
      ])
  }

  /// A changeset inserting note `id`, made on a scratch database.
  private func noteInsert(_ id: String) async throws -> Changeset {
    let db = try Database(path: ":memory:")
    try db.executeScript(try String(contentsOfFile: fixturePath("sync/schema.sql"), encoding: .utf8))
    let session = try DatabaseSession(db)
    try session.attach("notes")
    try db.execute("INSERT INTO notes(id, title) VALUES (?, 'x')", [.text(id)])
    return try session.changeset()
  }
}
