/// What changed a row, as `Database.onChange(_:)` reports it.
public enum ChangeKind: Sendable {
  /// An INSERT added the row.
  case insert
  /// An UPDATE changed the row.
  case update
  /// A DELETE removed the row.
  case delete
}
