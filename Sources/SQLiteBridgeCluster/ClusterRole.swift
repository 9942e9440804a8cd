import SQLiteBridge
import SQLiteBridgeClusterCore
import SQLiteBridgeCore

/// What a member of a dqlite cluster does (the core's
/// `sqlitebridge::ClusterRole`).
public enum ClusterRole: Sendable, Hashable, CustomStringConvertible {
  /// Takes part in elections and in every commit's quorum; only a voter
  /// leads.
  case voter
  /// Keeps a copy of the log without voting, ready to be promoted.
  case standBy
  /// Only belongs to the configuration: no copy of the log, no vote.
  case spare

  /// The dqlite protocol's name of the role, as the core spells it:
  /// "voter", "stand-by", "spare".
  public var description: String { String(cString: sqlitebridge.describe(cxx)) }

  /// The core's role.
  var cxx: sqlitebridge.ClusterRole {
    switch self {
    case .voter: return .Voter
    case .standBy: return .StandBy
    case .spare: return .Spare
    }
  }

  /// The role the core reported.
  init(_ role: sqlitebridge.ClusterRole) {
    switch role {
    case .Voter: self = .voter
    case .StandBy: self = .standBy
    default: self = .spare
    }
  }
}
