/// One changed row, as `TransactionObserver.databaseDidChange(with:)` is
/// told.
public struct DatabaseEvent: Sendable {
  /// What happened to the row.
  public var kind: ChangeKind
  /// The table, as SQLite names it in its schema.
  public var table: String
  /// The row's rowid (after the change, for an update that moves it).
  public var rowID: Int64

  /// An event (the library makes them; this is for testing an observer).
  public init(kind: ChangeKind, table: String, rowID: Int64) {
    self.kind = kind
    self.table = table
    self.rowID = rowID
  }
}
