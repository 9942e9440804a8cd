import CxxStdlib
import Foundation
import SQLiteBridge
import SQLiteBridgeClusterCore
import SQLiteBridgeClusterCore.Interop
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// A dqlite node running in this process (dqlite 1.11, libdqlite), backed
/// by the C++ `sqlitebridge::ClusterNode`: it serves `ClusterDatabase`
/// clients and replicates to the other members.
///
/// The type exists in every build, but only a build with the SwiftPM trait
/// `Dqlite` (`swift build --traits Dqlite`, which links libdqlite: Debian's
/// libdqlite-dev) can run one: elsewhere `isAvailable` is false and `init`
/// throws `.misuse`. The cluster client, `ClusterDatabase`, needs no trait.
///
/// Threads: libdqlite runs the node on a thread of its own; `stop()` may be
/// called from any thread (calls are serialized). Starting a node sets
/// SIGPIPE to be ignored in the process when it has its default action
/// (which would end the process when a member dies); a handler of your own
/// is left alone.
///
/// `@unchecked Sendable`: its one mutable state, the core's node, is only
/// touched under `lock` (the core's node is safe from one thread at a
/// time); `id` and `address` are constants.
public final class ClusterNode: @unchecked Sendable {
  private let lock = NSLock()
  private var core: sqlitebridge.ClusterNode

  /// The node's Raft id (kept after `stop()`).
  public let id: UInt64
  /// The "host:port" the node listens on and registered with (kept after
  /// `stop()`).
  public let address: String

  /// Whether this build can run a node: true only with the SwiftPM trait
  /// `Dqlite`.
  public static var isAvailable: Bool { sqlitebridge.ClusterNode.isAvailable() }

  /// Starts a node listening on `address` ("host:port", IPv4, e.g.
  /// "127.0.0.1:9001"), keeping its Raft log and snapshots in
  /// `dataDirectory` (created when missing; the databases themselves live
  /// in memory). With `join` empty it bootstraps a new cluster (or restarts
  /// the one `dataDirectory` holds); otherwise it joins the cluster through
  /// those members: the leader adds it as a spare and makes it a voter (a
  /// restart of a member keeps its place).
  ///
  /// `id` nil: the bootstrap id (1) when `join` is empty; otherwise the id
  /// `dataDirectory` was first started with, or a new one derived from
  /// `address` (kept in `dataDirectory`, so that a restart keeps it).
  ///
  /// Blocks the calling thread until the node serves (and, when joining,
  /// is a member).
  ///
  /// - Throws: `DatabaseError` with `.misuse` in a build without the trait
  ///   `Dqlite` ("this build of SQLiteBridge has no dqlite node…") or when
  ///   `address` or `dataDirectory` is empty; `.cantOpen` when the directory
  ///   cannot be made or dqlite refuses to start (its message kept); the
  ///   client's error (`.cantOpen` when no leader answered) when joining
  ///   fails, the node stopped again.
  public init(id: UInt64? = nil, address: String, dataDirectory: String, join: [String] = []) throws {
    var configuration = sqlitebridge.ClusterNodeConfiguration()
    configuration.id = id ?? 0
    configuration.address = std.string(address)
    configuration.dataDirectory = std.string(dataDirectory)
    for member in join { configuration.join.push_back(std.string(member)) }
    var error = sqlitebridge.Error()
    core = sqlitebridge.ClusterNode.start(configuration, &error)
    guard core.isRunning() else { throw DatabaseError(error) }
    self.id = core.id()
    self.address = String(sqlitebridge.interop.ClusterAccess.nodeAddress(core))
  }

  /// Whether the node runs: true from `init` until `stop()`.
  public var isRunning: Bool { lock.withLock { core.isRunning() } }

  /// Stops the node, blocking until it has. When it leads, it first hands
  /// leadership over to another voter (when there is one), so that the
  /// cluster does not wait for an election. Stopping a stopped node does
  /// nothing. Releasing the node stops it the same way (the core's node
  /// stops when destroyed), ignoring an error.
  ///
  /// - Throws: `DatabaseError` with `.ioError` when dqlite reports an error
  ///   while stopping; the node is stopped all the same.
  public func stop() throws {
    var error = sqlitebridge.Error()
    let stopped = lock.withLock { core.stop(&error) }
    guard stopped else { throw DatabaseError(error) }
  }
}
