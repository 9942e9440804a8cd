import CxxStdlib
import SQLiteBridge
import SQLiteBridgeClusterCore
import SQLiteBridgeCore

/// One member of a dqlite cluster, as the cluster's configuration lists it
/// (the core's `sqlitebridge::ClusterMember`).
public struct ClusterMember: Sendable, Hashable {
  /// The member's Raft id (never 0 for a real member).
  public var id: UInt64
  /// "host:port" the member registered with; clients and the other members
  /// reach it there.
  public var address: String
  /// What the member does in the cluster.
  public var role: ClusterRole

  /// A member with `id`, reached at `address` ("host:port"), in `role`.
  public init(id: UInt64, address: String, role: ClusterRole = .voter) {
    self.id = id
    self.address = address
    self.role = role
  }

  /// The member the core reported.
  init(_ member: sqlitebridge.ClusterMember) {
    self.init(id: member.id, address: String(member.address), role: ClusterRole(member.role))
  }

  /// The core's member.
  var cxx: sqlitebridge.ClusterMember {
    var member = sqlitebridge.ClusterMember()
    member.id = id
    member.address = std.string(address)
    member.role = role.cxx
    return member
  }
}
