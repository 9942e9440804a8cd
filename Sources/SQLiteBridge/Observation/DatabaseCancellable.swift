import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// A running observation (`ValueObservation`, `DatabaseRegionObservation`):
/// `cancel()` stops it, and so does the last reference going away.
///
/// `Sendable`: its one stored value is the core's observation handle, whose
/// every entry point is safe from any thread.
public final class DatabaseCancellable: Sendable {
  private let token: sqlitebridge.interop.ObservationToken

  init(_ token: sqlitebridge.interop.ObservationToken) { self.token = token }

  deinit { ObservationStartAccess.cancel(token) }

  /// Stops the observation. After it returns no callback of the observation
  /// runs again: one running on another thread is waited for, and a fetch
  /// running is interrupted and waited for. Called from inside one of the
  /// observation's own callbacks it returns at once, and that callback is
  /// the last. Never call it while holding the queue's or pool's writer
  /// (inside a `write` block) when a region observation's callback may be
  /// waiting for that writer: the wait would never end. Cancelling twice
  /// does nothing.
  public func cancel() { ObservationStartAccess.cancel(token) }

  /// True until the observation is cancelled, ended by an error, or its
  /// queue or pool is gone.
  public var isActive: Bool { ObservationStartAccess.isActive(token) }
}

typealias ObservationStartAccess = sqlitebridge.interop.ObservationStartAccess

extension sqlitebridge.interop.ObservationToken: @unchecked Sendable {}

/// The `Database` a callback of the core gets (a pointer to the core's
/// `Database`), lent for the call: closed once `body` returns, so one kept
/// throws `.misuse`.
func withLentDatabase<T>(
  _ database: UnsafePointer<sqlitebridge.Database>, _ body: (Database) throws -> T
) rethrows -> T {
  let db = Database(lent: sqlitebridge.interop.ObservationAccess.share(database))
  defer { db.close() }
  return try body(db)
}
