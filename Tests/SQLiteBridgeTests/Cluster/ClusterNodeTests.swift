import Foundation
import SQLiteBridge
import SQLiteBridgeCluster
import Testing

/// `ClusterNode`, a dqlite node in this process: without the SwiftPM trait
/// `Dqlite` it cannot start (`.misuse`, `isAvailable` false); with it
/// (`swift test --traits Dqlite --filter Cluster`) a one-node cluster
/// serves a `ClusterDatabase`, a second node joins it and leaves again.
@Suite("ClusterNode")
struct ClusterNodeTests {
  @Test(.enabled(if: !ClusterNode.isAvailable, "this build has the Dqlite trait"))
  func withoutTheDqliteTraitANodeCannotStart() throws {
    #expect(!ClusterNode.isAvailable)
    try withTemporaryDirectory { directory in
      let error = databaseError {
        _ = try ClusterNode(address: "127.0.0.1:\(try freePort())", dataDirectory: directory + "/node")
      }
      #expect(error?.resultCode == .misuse)
      #expect(error?.message.contains("no dqlite node") == true, "\(String(describing: error))")
      #expect(error?.message.contains("Dqlite") == true)
      #expect(!fileExists(directory + "/node"))
    }
  }

  @Test(.enabled(if: ClusterNode.isAvailable, "needs the Dqlite trait (swift test --traits Dqlite)"))
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

  @Test(.enabled(if: ClusterNode.isAvailable, "needs the Dqlite trait (swift test --traits Dqlite)"))
  func aNodeNeedsAnAddressAndADataDirectory() throws {
    try withTemporaryDirectory { directory in
      #expect(databaseError { _ = try ClusterNode(address: "", dataDirectory: directory) }?.resultCode == .misuse)
      #expect(databaseError { _ = try ClusterNode(address: "127.0.0.1:1", dataDirectory: "") }?.resultCode == .misuse)
    }
  }
}
