/// A kind of change to a table, as `TransactionObserver.observes(eventsOfKind:)`
/// is asked about it.
public enum DatabaseEventKind: Sendable, Hashable {
  /// Rows inserted into `table`.
  case insert(table: String)
  /// Rows deleted from `table` (also rows a REPLACE conflict deletes, and a
  /// table dropped).
  case delete(table: String)
  /// Rows of `table` updated, setting `columns` (as spelled in the
  /// statement). An empty set means "any column": the change is not known
  /// column by column (a schema change, a table rebuilt, a row changed by a
  /// statement the library did not prepare), so an observer of some of the
  /// table's columns should answer as for all of them.
  case update(table: String, columns: Set<String>)
}
