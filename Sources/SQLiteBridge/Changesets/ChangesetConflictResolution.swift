import SQLiteBridgeCore

/// What a conflict handler answers (``Database/apply(_:tables:onConflict:)``,
/// ``UndoHistory/undo(onConflict:)``).
public enum ChangesetConflictResolution: Sendable {
  /// Skip this change (for ``ChangesetConflictKind/foreignKey``: keep the
  /// changes, foreign keys broken, as SQLite does).
  case omit
  /// Valid for ``ChangesetConflictKind/data`` and
  /// ``ChangesetConflictKind/conflict`` only: make the change anyway,
  /// overwriting the conflicting row. For any other kind the apply is rolled
  /// back and throws `.misuse` naming the kind.
  case replace
  /// Roll every change of this apply back; it throws `.abort` naming the
  /// table and the kind.
  case abort
}

extension ChangesetConflictResolution {
  /// The core's answer.
  init(_ resolution: sqlitebridge.ChangesetConflictResolution) {
    switch resolution {
    case .Omit: self = .omit
    case .Replace: self = .replace
    default: self = .abort
    }
  }

  /// The answer as the core takes it.
  var cxx: sqlitebridge.ChangesetConflictResolution {
    switch self {
    case .omit: return .Omit
    case .replace: return .Replace
    case .abort: return .Abort
    }
  }
}
