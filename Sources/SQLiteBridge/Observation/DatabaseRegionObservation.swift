import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// A callback on the writer after each commit that changes a region (the
/// C++ `sqlitebridge::observeRegion`, which owns every rule below): once
/// per commit, never coalesced, before any other write can start.
///
/// Commits by other connections and processes count too, as changes of the
/// whole database, with `Configuration.externalChangeCheckInterval` set on
/// the queue or pool.
public struct DatabaseRegionObservation: Sendable {
  /// What the observation watches: the union of the regions it was made
  /// with.
  public let region: DatabaseRegion

  /// Watches the union of `regions` (none: nothing, no callback ever).
  public init(tracking regions: DatabaseRegion...) {
    region = regions.reduce(DatabaseRegion()) { $0.union($1) }
  }

  /// Starts watching the queue's commits.
  ///
  /// `onChange` runs on the queue's thread, right after each commit that
  /// changes the region, with the connection outside any transaction: it
  /// may read and write it (a write there is a commit of its own, and is
  /// observed too). The `Database` is lent for the call (kept, it throws
  /// `.misuse`). With an external-change interval, a commit of another
  /// process is told on the queue's observation thread, holding the
  /// connection. `onError` runs when the observation ends on an error
  /// (checking for external changes failed), on the thread that met it.
  ///
  /// - Throws: `DatabaseError`: `.misuse` when the queue is not open or when
  ///   called from inside one of its blocks ("reentrant access"); nothing
  ///   is observed then.
  public func start(
    in queue: DatabaseQueue, onError: @escaping @Sendable (any Error) -> Void,
    onChange: @escaping @Sendable (Database) -> Void
  ) throws -> DatabaseCancellable {
    try start { error in
      ObservationStartAccess.startRegionInQueue(
        queue.core, region.cxx, RegionObservationBox.callbacks(onError: onError, onChange: onChange), &error)
    }
  }

  /// Starts watching the pool's commits: `onChange` runs on the pool's
  /// writer, as `start(in:onError:onChange:)` on a queue describes.
  ///
  /// - Throws: `DatabaseError`, as on a queue.
  public func start(
    in pool: DatabasePool, onError: @escaping @Sendable (any Error) -> Void,
    onChange: @escaping @Sendable (Database) -> Void
  ) throws -> DatabaseCancellable {
    try start { error in
      ObservationStartAccess.startRegionInPool(
        pool.core, region.cxx, RegionObservationBox.callbacks(onError: onError, onChange: onChange), &error)
    }
  }
}

extension DatabaseRegionObservation {
  /// The cancellable of the observation `begin` starts; throws the reason it
  /// gives when it could not start.
  fileprivate func start(
    _ begin: (inout sqlitebridge.Error) -> sqlitebridge.interop.ObservationToken
  ) throws -> DatabaseCancellable {
    var error = sqlitebridge.Error()
    let token = begin(&error)
    guard ObservationStartAccess.isActive(token) else { throw DatabaseError(error) }
    return DatabaseCancellable(token)
  }
}

/// A region observation's callbacks, as the core holds them.
private final class RegionObservationBox {
  let onError: @Sendable (any Error) -> Void
  let onChange: @Sendable (Database) -> Void

  private init(onError: @escaping @Sendable (any Error) -> Void, onChange: @escaping @Sendable (Database) -> Void) {
    self.onError = onError
    self.onChange = onChange
  }

  /// The callbacks of a new box, retained once for the core (which
  /// releases it).
  static func callbacks(
    onError: @escaping @Sendable (any Error) -> Void, onChange: @escaping @Sendable (Database) -> Void
  ) -> sqlitebridge.interop.RegionObservationCallbacks {
    var callbacks = sqlitebridge.interop.RegionObservationCallbacks()
    callbacks.changed = regionChangedThroughBox
    callbacks.fail = regionFailedThroughBox
    callbacks.release = releaseRegionObservationBox
    callbacks.box = Unmanaged.passRetained(RegionObservationBox(onError: onError, onChange: onChange)).toOpaque()
    return callbacks
  }

  static func at(_ context: UnsafeMutableRawPointer?) -> RegionObservationBox? {
    context.map { Unmanaged<RegionObservationBox>.fromOpaque($0).takeUnretainedValue() }
  }
}

private func regionChangedThroughBox(
  _ context: UnsafeMutableRawPointer?, _ database: UnsafePointer<sqlitebridge.Database>?
) {
  guard let box = RegionObservationBox.at(context), let database else { return }
  withLentDatabase(database, box.onChange)
}

private func regionFailedThroughBox(_ context: UnsafeMutableRawPointer?, _ error: UnsafePointer<sqlitebridge.Error>?) {
  RegionObservationBox.at(context)?.onError(DatabaseError(ObservationStartAccess.error(error)))
}

private func releaseRegionObservationBox(_ context: UnsafeMutableRawPointer?) {
  guard let context else { return }
  Unmanaged<RegionObservationBox>.fromOpaque(context).release()
}
