import CxxStdlib
import SQLiteBridge
import SQLiteBridgeClusterCore
import SQLiteBridgeClusterCore.Interop
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// A ``SyncHub`` whose log is a table (`sync_log` unless named otherwise)
/// of a database on a dqlite cluster: strongly consistent, it survives the
/// loss of a minority of the nodes (the C++ `sqlitebridge::ClusterSyncHub`).
///
/// ```swift
/// let cluster = try ClusterDatabase(name: "notes-hub", configuration: ClusterConfiguration(servers: servers))
/// let hub = try ClusterSyncHub(cluster)
/// let engine = try SyncEngine(queue, tables: ["notes"], device: "phone", hub: hub)
/// ```
///
/// The table has the rows of ``DatabaseSyncHub``'s: position, device,
/// sequence, changeset, with (device, sequence) unique. An append is one
/// write block on the leader. One whose COMMIT's outcome the leader's loss
/// left unknown throws `.ioErrorLeadershipLost` ("outcome in doubt"); the
/// engine's next sync pulls first and finds the entries in the log (then
/// acknowledges them) or not (then pushes them again): never twice.
///
/// It takes the client's connection (the `ClusterDatabase` given is closed
/// after) and serializes its use. Its async calls wait for the cluster on a
/// thread of Dispatch's, not of Swift's cooperative pool. `@unchecked Sendable`: its one stored value
/// shares the core's hub, whose every entry point is thread-safe.
public final class ClusterSyncHub: SyncHub, @unchecked Sendable {
  private let core: CoreSyncHub

  /// Keeps the log in `table` of `cluster`'s database, made when missing;
  /// takes the client's connection.
  ///
  /// - Throws: `DatabaseError`: `.misuse` when the client is closed or
  ///   `table` is empty; `.error` when the table has other columns (naming
  ///   them); the cluster's failure when the table cannot be made.
  public init(_ cluster: ClusterDatabase, table: String = "sync_log") throws {
    var error = sqlitebridge.Error()
    let handle = sqlitebridge.interop.ClusterAccess.makeSyncHub(&cluster.core, std.string(table), &error)
    guard !error.isError() else { throw DatabaseError(error) }
    core = CoreSyncHub(handle)
  }

  /// Appends `entries` after position `last` when that is still the log's
  /// last position (true), in one write block; appends nothing and returns
  /// false when the log ends elsewhere.
  ///
  /// - Throws: `DatabaseError`: `.constraint` when an entry's (device,
  ///   sequence) is in the log already; `.misuse` for an entry with an empty
  ///   device name or a sequence below 1; `.ioErrorLeadershipLost` when the
  ///   outcome is unknown; the cluster's other failures (`.cantOpen` when no
  ///   leader answered in time).
  public func append(_ entries: [SyncEntry], after last: Int64) async throws -> Bool {
    try await core.append(entries, after: last)
  }

  /// The entries after `position`, in order, at most `limit` of them.
  ///
  /// - Throws: `DatabaseError`: `.corrupt` for an entry whose changeset does
  ///   not parse (naming its position); the cluster's failures.
  public func entries(after position: Int64, limit: Int) async throws -> [SyncEntry] {
    try await core.entries(after: position, limit: limit)
  }

  /// The log's last position (0 when it is empty).
  ///
  /// - Throws: `DatabaseError` with the cluster's failure.
  public func lastPosition() throws -> Int64 {
    try core.lastPosition()
  }
}
