import SQLiteBridgeCore

/// How long `Database.add(transactionObserver:extent:)` keeps an observer.
public enum ObserverExtent: Sendable {
  /// While the observer lives: the database holds it weakly and forgets it
  /// once it is gone (it never keeps the observer alive).
  case observerLifetime
  /// Until the next transaction that changes something the observer
  /// observes ends (commits or rolls back), held strongly meanwhile. A
  /// read-only transaction does not end it.
  case nextTransaction
  /// While the connection is open, held strongly.
  case databaseLifetime

  var cxx: sqlitebridge.ObserverExtent {
    switch self {
    case .observerLifetime: return .ObserverLifetime
    case .nextTransaction: return .NextTransaction
    case .databaseLifetime: return .DatabaseLifetime
    }
  }
}
