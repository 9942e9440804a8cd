import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// One of the core's hubs (the SQLite file's, the cluster's) as the Swift
/// hubs call it: the entries converted both ways, each call waiting for the
/// core off Swift's cooperative pool, failures thrown as `DatabaseError`. Shared by
/// ``DatabaseSyncHub`` and the cluster module's `ClusterSyncHub`.
package struct CoreSyncHub: @unchecked Sendable {
  /// The core's hub, whose every entry point is thread-safe (unchecked
  /// Sendable for that reason).
  let handle: sqlitebridge.interop.SyncHubHandle

  /// Wraps `handle` (a hub the core made).
  package init(_ handle: sqlitebridge.interop.SyncHubHandle) {
    self.handle = handle
  }

  /// `SyncHub.append(_:after:)`.
  package func append(_ entries: [SyncEntry], after last: Int64) async throws -> Bool {
    try await awaitOffThePool {
      let list = try entries.coreList()
      var appended = false
      var error = sqlitebridge.Error()
      guard SyncInterop.append(handle, list, last, &appended, &error) else { throw DatabaseError(error) }
      return appended
    }
  }

  /// `SyncHub.entries(after:limit:)`; a negative `limit` asks for none.
  package func entries(after position: Int64, limit: Int) async throws -> [SyncEntry] {
    try await awaitOffThePool {
      var list = sqlitebridge.interop.SyncEntryList()
      var error = sqlitebridge.Error()
      guard SyncInterop.entries(handle, position, max(limit, 0), &list, &error) else { throw DatabaseError(error) }
      return [SyncEntry](list)
    }
  }

  /// The log's last position (0 when empty), blocking.
  package func lastPosition() throws -> Int64 {
    var position: Int64 = 0
    var error = sqlitebridge.Error()
    guard SyncInterop.lastPosition(handle, &position, &error) else { throw DatabaseError(error) }
    return position
  }
}
