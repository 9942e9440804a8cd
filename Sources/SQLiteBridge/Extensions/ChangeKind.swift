import SQLiteBridgeCore

/// What changed a row, as `Database.onChange(_:)` reports it.
public enum ChangeKind: Sendable {
  /// An INSERT added the row.
  case insert
  /// An UPDATE changed the row.
  case update
  /// A DELETE removed the row.
  case delete
}

extension ChangeKind {
  /// The kind the core reports (`sqlitebridge::ChangeKind`).
  init(_ kind: sqlitebridge.ChangeKind) {
    switch kind {
    case .Insert: self = .insert
    case .Update: self = .update
    default: self = .delete
    }
  }
}
