import Foundation
import SQLiteBridge
import SQLiteBridgeCluster
import Testing

/// `ClusterNode`, a dqlite node in this process: without the SwiftPM trait
/// `Dqlite` it cannot start (`.misuse`, `isAvailable` false). With the
/// trait, its tests are the package Tests/DqliteTrait (scripts/dqlite-ci).
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
}
