import Foundation
import SQLiteBridge
import SQLiteBridgeCluster
import Testing

/// `ClusterNode` with the SwiftPM trait `Dqlite` (this package depends on
/// SQLiteBridge with it): a one-node cluster serves a `ClusterDatabase`, a
/// second node joins it and leaves again. Without the trait, the main
/// suite's ClusterNodeTests check that a node cannot start.
@Suite("ClusterNode with the Dqlite trait")
struct ClusterNodeTraitTests {
  @Test func thisBuildHasTheDqliteTrait() {
    #expect(ClusterNode.isAvailable)
  }

  @Test
  func aNodeInThisProcessServesAClusterDatabaseAndASecondOneJoins() throws {
    try withTemporaryDirectory { directory in
      let first = try ClusterNode(address: "127.0.0.1:\(try freePort())", dataDirectory: directory + "/first")
      defer { try? first.stop() }
      #expect(first.isRunning)
      #expect(first.id == 1)  // the bootstrap id
      var configuration = ClusterConfiguration(servers: [first.address])
      configuration.retryTimeout = .seconds(30)
      let db = try ClusterDatabase(name: "app", configuration: configuration)
      try db.execute("CREATE TABLE t(n INTEGER)")
      try db.write { db in try db.execute("INSERT INTO t VALUES (1)") }
      #expect(try db.members() == [ClusterMember(id: 1, address: first.address, role: .voter)])
      #expect(try db.leader() == ClusterMember(id: 1, address: first.address, role: .voter))

      // A second node joins through the first: a spare made voter.
      let second = try ClusterNode(
        address: "127.0.0.1:\(try freePort())", dataDirectory: directory + "/second", join: [first.address])
      defer { try? second.stop() }
      #expect(second.id != 0 && second.id != first.id)
      #expect(
        Set(try db.members()) == [
          ClusterMember(id: first.id, address: first.address, role: .voter),
          ClusterMember(id: second.id, address: second.address, role: .voter),
        ])
      try db.execute("INSERT INTO t VALUES (2)")  // committed by both

      // It leaves: removed, then stopped; the first carries on alone.
      try db.remove(id: second.id)
      try second.stop()
      #expect(!second.isRunning)
      try second.stop()  // stopping a stopped node does nothing
      #expect(second.address.hasPrefix("127.0.0.1:"))  // kept after stop
      try db.execute("INSERT INTO t VALUES (3)")
      #expect(try db.rows("SELECT n FROM t ORDER BY n").map(\.values) == [[1], [2], [3]])
      db.close()
      try first.stop()
      #expect(!first.isRunning)
    }
  }

  @Test
  func aNodeNeedsAnAddressAndADataDirectory() throws {
    try withTemporaryDirectory { directory in
      #expect(misuse { _ = try ClusterNode(address: "", dataDirectory: directory) })
      #expect(misuse { _ = try ClusterNode(address: "127.0.0.1:1", dataDirectory: "") })
    }
  }
}

/// Whether `body` throws a `DatabaseError` whose code is `.misuse`.
private func misuse(_ body: () throws -> Void) -> Bool {
  do {
    try body()
    return false
  } catch let error as DatabaseError {
    return error.resultCode == .misuse
  } catch {
    return false
  }
}
