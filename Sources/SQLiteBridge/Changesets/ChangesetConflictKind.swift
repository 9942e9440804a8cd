import SQLiteBridgeCore

/// Why applying a change met a conflict (SQLite's SQLITE_CHANGESET_*
/// kinds), as ``ChangesetConflict/kind`` says.
public enum ChangesetConflictKind: Sendable {
  /// The row to update or delete is there, but its values are not the
  /// change's old values.
  case data
  /// The row to update or delete is not there.
  case notFound
  /// The row to insert is there already (same primary key).
  case conflict
  /// The change breaks a constraint (UNIQUE, CHECK, NOT NULL).
  case constraint
  /// Once every change is made, foreign keys are broken: told once per
  /// apply, with ``ChangesetConflict/foreignKeyViolations``, not an
  /// operation.
  case foreignKey
}

extension ChangesetConflictKind {
  /// The kind the core reports.
  init(_ kind: sqlitebridge.ChangesetConflictKind) {
    switch kind {
    case .Data: self = .data
    case .NotFound: self = .notFound
    case .Conflict: self = .conflict
    case .Constraint: self = .constraint
    default: self = .foreignKey
    }
  }

  /// The kind as the core takes it.
  var cxx: sqlitebridge.ChangesetConflictKind {
    switch self {
    case .data: return .Data
    case .notFound: return .NotFound
    case .conflict: return .Conflict
    case .constraint: return .Constraint
    case .foreignKey: return .ForeignKey
    }
  }
}
