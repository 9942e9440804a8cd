import SQLiteBridge
import SQLiteBridgeCluster

/// The global option `--cluster HOST:PORT[,HOST:PORT…]`: the commands that
/// take it (`query`, `shell`, `watch`, `cluster`) run on a dqlite cluster
/// through `ClusterDatabase` instead of on a file, and their DB argument is
/// the cluster database's name.
struct ClusterTarget {
  let configuration: ClusterConfiguration

  /// Takes `--cluster` out of `arguments`; nil without it. An empty list is
  /// a usage error.
  init?(_ arguments: inout Arguments) throws {
    guard let list = try arguments.option("cluster") else { return nil }
    let servers = list.split(separator: ",").map { String($0) }.filter { !$0.isEmpty }
    guard !servers.isEmpty else { throw UsageError("--cluster needs HOST:PORT[,HOST:PORT...]") }
    configuration = ClusterConfiguration(servers: servers)
  }

  /// The cluster database called `name` (created on first write).
  func open(_ name: String) throws -> ClusterDatabase {
    try ClusterDatabase(name: name, configuration: configuration)
  }
}
