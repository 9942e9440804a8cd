import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// A conflict met while applying a changeset, as the conflict handler of
/// ``Database/apply(_:tables:onConflict:)`` (or of an undo or redo) is told.
public struct ChangesetConflict: Sendable, Hashable {
  /// Why the change could not be made as it is.
  public var kind: ChangesetConflictKind
  /// The change that met it; `nil` for ``ChangesetConflictKind/foreignKey``
  /// as an apply reports it (in a ``SyncReport``, a foreign-key conflict
  /// carries the pending operation the round dropped).
  public var operation: ChangesetOperation?
  /// The row in the database the change conflicts with, one value per
  /// column (``ChangesetConflictKind/data`` and
  /// ``ChangesetConflictKind/conflict``); `nil` for the other kinds.
  public var conflictingValues: [DatabaseValue]?
  /// For ``ChangesetConflictKind/foreignKey``: how many foreign key
  /// constraints are broken; 0 otherwise.
  public var foreignKeyViolations: Int = 0

  /// A conflict with these fields (``foreignKeyViolations`` 0). Never fails.
  public init(kind: ChangesetConflictKind, operation: ChangesetOperation?, conflictingValues: [DatabaseValue]?) {
    self.kind = kind
    self.operation = operation
    self.conflictingValues = conflictingValues
  }

  /// A copy of the conflict the core hands its handler, read in place.
  init(_ conflict: UnsafePointer<sqlitebridge.ChangesetConflict>) {
    kind = ChangesetConflictKind(conflict.pointee.kind)
    operation = ChangesetInterop.conflictOperation(conflict).map { ChangesetOperation($0) }
    conflictingValues =
      ChangesetInterop.hasConflictingValues(conflict)
      ? (0..<ChangesetInterop.conflictingValueCount(conflict)).map {
        DatabaseValue(ChangesetInterop.conflictingValue(conflict, $0))
      } : nil
    foreignKeyViolations = Int(conflict.pointee.foreignKeyViolations)
  }
}

/// A Swift conflict handler lent to the core for one call: the core calls
/// `callback` with a pointer to the handler, never kept past the call.
enum ConflictHandlerContext {
  typealias Handler = (ChangesetConflict) -> ChangesetConflictResolution

  /// Runs `body` with the C callback and the context that reach `handler`
  /// (both nil when there is none: every conflict then aborts).
  static func with<Result>(
    _ handler: Handler?, _ body: (ChangesetInterop.ConflictCallback?, UnsafeMutableRawPointer?) throws -> Result
  ) rethrows -> Result {
    guard var handler else { return try body(nil, nil) }
    return try withUnsafeMutablePointer(to: &handler) { pointer in
      try body(
        { context, conflict in
          let handler = context!.assumingMemoryBound(to: Handler.self).pointee
          return handler(ChangesetConflict(conflict!)).cxx
        }, UnsafeMutableRawPointer(pointer))
    }
  }
}
