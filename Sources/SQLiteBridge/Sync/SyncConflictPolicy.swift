import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// How a ``SyncEngine``'s rounds settle the conflicts met while a device
/// rewrites its copy (the pulled entries applied, then its own pending
/// changes re-applied on top).
public enum SyncConflictPolicy: Sendable {
  /// Later in the log wins (the core's rule): a device's pending changes
  /// come after the entries it pulls, so they overwrite a row the hub
  /// changed (``ChangesetConflictKind/data``) or inserted with the same key
  /// (``ChangesetConflictKind/conflict``); an update or delete of a row the
  /// hub deleted is dropped (``ChangesetConflictKind/notFound``); a change
  /// that breaks a UNIQUE, CHECK or NOT NULL constraint is dropped
  /// (``ChangesetConflictKind/constraint``). Every settled conflict is in
  /// the round's ``SyncReport``.
  case hubOrderWins
  /// The handler decides each conflict: told the conflict and whether the
  /// change is one of this device's own (`isLocal` true: a pending change
  /// re-applied on top of the pulled ones) or the hub's. It is called on
  /// the syncing thread, inside the round's transaction, and must not use
  /// the database. Answering ``ChangesetConflictResolution/abort`` fails
  /// the round (``SyncEngine/sync()`` throws `.abort`, the copy as it was);
  /// ``ChangesetConflictResolution/replace`` for a kind that cannot be
  /// replaced fails it with `.misuse`. It is never asked about a change
  /// that is made already: a delete of a row that is gone (deleted on two
  /// devices, or taken by a cascade first), or a change a foreign key
  /// action or trigger recorded that the same action made here again.
  case custom(@Sendable (ChangesetConflict, _ isLocal: Bool) -> ChangesetConflictResolution)
}

extension SyncConflictPolicy {
  /// What ``hubOrderWins`` answers to `conflict` (the core's rule), for a
  /// ``custom(_:)`` handler that decides some conflicts and leaves the rest
  /// to the default: ``ChangesetConflictResolution/replace`` for
  /// ``ChangesetConflictKind/data`` and ``ChangesetConflictKind/conflict``,
  /// ``ChangesetConflictResolution/omit`` for every other kind.
  public static func hubOrderWinsResolution(_ conflict: ChangesetConflict, isLocal: Bool)
    -> ChangesetConflictResolution
  {
    ChangesetConflictResolution(SyncInterop.hubOrderWinsResolution(conflict.kind.cxx, isLocal))
  }
}

extension SyncConflictPolicy {
  /// A custom policy's handler.
  typealias Handler = @Sendable (ChangesetConflict, _ isLocal: Bool) -> ChangesetConflictResolution

  /// What the core's engine takes: a C callback and a retained box holding
  /// the handler, released by the core through `release` once the engine
  /// no longer needs it (all nil for ``hubOrderWins``).
  var callbacks:
    (callback: SyncInterop.ConflictCallback?, box: UnsafeMutableRawPointer?, release: sqlitebridge.interop.ReleaseBox?)
  {
    switch self {
    case .hubOrderWins: return (nil, nil, nil)
    case .custom(let handler): return (syncConflictThroughBox, HookBox<Handler>.retained(handler), releaseHookBox)
    }
  }
}

/// What the core calls for each conflict of a custom policy: the box's
/// handler, told the conflict as a Swift value.
private func syncConflictThroughBox(
  _ box: UnsafeMutableRawPointer?, _ conflict: UnsafePointer<sqlitebridge.ChangesetConflict>?, _ isLocal: Bool
) -> sqlitebridge.ChangesetConflictResolution {
  HookBox<SyncConflictPolicy.Handler>.callback(at: box)(ChangesetConflict(conflict!), isLocal).cxx
}
