import Foundation
import SQLiteBridge
import SQLiteBridgeCluster

/// `node --address ADDR --data DIR [--join ADDR,…] [--id N]`: a dqlite node
/// in the foreground (`ClusterNode`), until SIGTERM or SIGINT, when it hands
/// leadership over (if it leads) and stops, exit 0. Prints
/// `node ID ready at ADDR` once it serves (and, joining, is a voter). Needs
/// a build with the Dqlite trait; elsewhere it fails with SQLite error 21.
enum NodeCommand {
  static func run(_ arguments: inout Arguments) throws {
    guard let address = try arguments.option("address") else { throw UsageError("node needs --address HOST:PORT") }
    guard let data = try arguments.option("data") else { throw UsageError("node needs --data DIR") }
    let join = try arguments.option("join").map { $0.split(separator: ",").map(String.init) } ?? []
    let id = try arguments.option("id").map { text -> UInt64 in
      guard let id = UInt64(text), id > 0 else {
        throw UsageError("--id must be a positive whole number, not '\(text)'")
      }
      return id
    }
    try arguments.finish()
    // Blocked before the node's threads start, so that they inherit the
    // mask and only the wait below takes the signal.
    var stopping = sigset_t()
    sigemptyset(&stopping)
    sigaddset(&stopping, SIGTERM)
    sigaddset(&stopping, SIGINT)
    pthread_sigmask(SIG_BLOCK, &stopping, nil)
    let node = try ClusterNode(id: id, address: address, dataDirectory: data, join: join)
    print("node \(node.id) ready at \(node.address)")
    fflush(nil)  // every C output stream: stdout may be a pipe
    var signal: Int32 = 0
    sigwait(&stopping, &signal)
    try node.stop()
  }
}
