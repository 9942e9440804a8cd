import CxxStdlib
import SQLiteBridge
import SQLiteBridgeClusterCore
import SQLiteBridgeCore

/// How a `ClusterDatabase` finds and talks to a dqlite cluster (the core's
/// `sqlitebridge::ClusterConfiguration`).
public struct ClusterConfiguration: Sendable {
  /// "host:port" of any members of the cluster, spelled as they registered
  /// (the client asks them who leads, then follows the leader they name).
  /// IPv6 hosts are written in brackets: "[::1]:9001". An empty list makes
  /// `ClusterDatabase.init` throw `.misuse`.
  public var servers: [String]
  /// How long one attempt to connect to one member may take (5 s by
  /// default). Counted in whole milliseconds, rounded up.
  public var connectTimeout: Duration = .seconds(5)
  /// How long the client looks for a leader (after a leader change or a
  /// broken connection) before a call fails, and how long a request may
  /// wait for its answer (30 s by default). Counted in whole milliseconds,
  /// rounded up; a call that runs out of it throws `.cantOpen` (no leader
  /// found) or the error of its last attempt.
  public var retryTimeout: Duration = .seconds(30)

  /// A configuration reaching the cluster through `servers`, with the
  /// default timeouts.
  public init(servers: [String]) {
    self.servers = servers
  }

  /// The core's configuration.
  var cxx: sqlitebridge.ClusterConfiguration {
    var configuration = sqlitebridge.ClusterConfiguration()
    for server in servers { configuration.servers.push_back(std.string(server)) }
    configuration.connectTimeoutMilliseconds = Self.milliseconds(connectTimeout)
    configuration.retryTimeoutMilliseconds = Self.milliseconds(retryTimeout)
    return configuration
  }

  /// `duration` in whole milliseconds, rounded up (so that a positive
  /// duration is never 0, which would give up at once), within Int32.
  static func milliseconds(_ duration: Duration) -> Int32 {
    let (seconds, attoseconds) = duration.components
    let perMillisecond: Int64 = 1_000_000_000_000_000
    let (whole, rest) = attoseconds.quotientAndRemainder(dividingBy: perMillisecond)
    let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1000)
    if overflow { return seconds < 0 ? Int32.min : Int32.max }
    let total = scaled.addingReportingOverflow(whole + (rest > 0 ? 1 : 0))
    if total.overflow { return seconds < 0 ? Int32.min : Int32.max }
    return Int32(clamping: total.partialValue)
  }
}
