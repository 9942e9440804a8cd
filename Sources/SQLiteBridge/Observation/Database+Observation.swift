import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

// Regions and transaction observers. Every rule (what a statement reads,
// who is told what and when, savepoints, vetoes, extents) is the core's
// (`Database::region`, `add`, `remove`, `notifyChanges`); a Swift observer
// reaches it as a retained box and the C functions below, which the core
// calls and releases the box with once it forgets the observer. No Swift
// error crosses them: a veto is handed to the core with `setVeto`.

private typealias ObservationAccess = sqlitebridge.interop.ObservationAccess

extension Database {
  /// The region `sql` reads (see `DatabaseRegion`): `sql` is prepared
  /// (through the statement cache, which keeps the region with the
  /// statement, so asking again prepares nothing), never run.
  ///
  /// - Throws: `DatabaseError` as preparing fails: `.error` on a syntax or
  ///   schema error, `.misuse` for SQL after the first statement and when
  ///   the database is closed.
  public func region(of sql: String) throws -> DatabaseRegion {
    var region = sqlitebridge.DatabaseRegion()
    guard core.region(std.string(sql), &region) else { throw lastError }
    return DatabaseRegion(region)
  }

  /// Tells `transactionObserver` of this connection's transactions from now
  /// on, for `extent` (see `ObserverExtent`; with `.observerLifetime`, the
  /// default, the database holds it weakly and never keeps it alive). A
  /// transaction counts only if it changes something the observer
  /// `observes`; a read-only transaction is not told, and does not end a
  /// `.nextTransaction` extent. Works side by side with `onCommit`,
  /// `onRollback`, `onChange` and `trace`. Adding the same observer twice
  /// tells it twice. See `TransactionObserver` for when and on which thread
  /// each callback runs (the thread running the writing statement).
  ///
  /// Never fails: on a closed database the observer is not added (and not
  /// kept); when memory runs out it is not added either.
  public func add(transactionObserver: some TransactionObserver, extent: ObserverExtent = .observerLifetime) {
    let box = TransactionObserverBox(transactionObserver, weakly: extent == .observerLifetime)
    // The core releases the box in every case (at once when closed).
    var callbacks = sqlitebridge.interop.ObserverCallbacks()
    callbacks.observes = observesThroughBox
    callbacks.didChange = didChangeThroughBox
    callbacks.willCommit = willCommitThroughBox
    callbacks.didEnd = didEndThroughBox
    callbacks.alive = isAliveThroughBox
    callbacks.release = releaseTransactionObserverBox
    callbacks.box = Unmanaged.passRetained(box).toOpaque()
    ObservationAccess.addObserver(&core, Self.identity(of: transactionObserver), extent.cxx, callbacks)
  }

  /// Stops telling `transactionObserver` (every time it was added); it is
  /// told nothing more, not even of the transaction open now. Does nothing
  /// for an observer not added, or on a closed database.
  public func remove(transactionObserver: some TransactionObserver) {
    ObservationAccess.removeObserver(&core, Self.identity(of: transactionObserver))
  }

  /// Makes the open transaction count as changing `region`, for changes the
  /// library cannot see (another process, a virtual table's module, SQL run
  /// on the raw handle): its observers are told at its end, as if it had
  /// made them (without events). Outside a transaction the observers of
  /// `region` are told of a commit at once (`databaseDidCommit`, with no
  /// `databaseWillCommit`: nothing is left to veto). An empty region does
  /// nothing.
  ///
  /// - Throws: `DatabaseError` with `.misuse` when the database is closed,
  ///   `.noMemory` when memory runs out.
  public func notifyChanges(in region: DatabaseRegion) throws {
    guard core.notifyChanges(region.cxx) else { throw lastError }
  }

  /// What the core knows an observer by (for `remove`): its object's
  /// address, which no other live object shares.
  private static func identity(of observer: some TransactionObserver) -> UInt {
    UInt(bitPattern: Unmanaged.passUnretained(observer).toOpaque())
  }
}

/// A Swift observer as the core holds it: strongly, or weakly for
/// `.observerLifetime` (the core then asks `isAliveThroughBox`).
private final class TransactionObserverBox {
  private weak var weakObserver: (any TransactionObserver)?
  private let strongObserver: (any TransactionObserver)?

  init(_ observer: any TransactionObserver, weakly: Bool) {
    strongObserver = weakly ? nil : observer
    weakObserver = weakly ? observer : nil
  }

  /// The observer, nil once a weakly held one is gone.
  var observer: (any TransactionObserver)? { strongObserver ?? weakObserver }

  static func observer(at context: UnsafeMutableRawPointer?) -> (any TransactionObserver)? {
    guard let context else { return nil }
    return Unmanaged<TransactionObserverBox>.fromOpaque(context).takeUnretainedValue().observer
  }
}

private func observesThroughBox(
  _ context: UnsafeMutableRawPointer?, _ kind: sqlitebridge.ChangeKind, _ table: UnsafePointer<CChar>?,
  _ columns: UnsafePointer<sqlitebridge.interop.StringList>?
) -> Bool {
  guard let observer = TransactionObserverBox.observer(at: context) else { return false }
  let name = table.map { String(cString: $0) } ?? ""
  switch ChangeKind(kind) {
  case .insert: return observer.observes(eventsOfKind: .insert(table: name))
  case .delete: return observer.observes(eventsOfKind: .delete(table: name))
  case .update:
    let count = ObservationAccess.columnCount(columns)
    var set = Set<String>(minimumCapacity: Int(count))
    for index in 0..<count { set.insert(String(ObservationAccess.column(columns, index))) }
    return observer.observes(eventsOfKind: .update(table: name, columns: set))
  }
}

private func didChangeThroughBox(
  _ context: UnsafeMutableRawPointer?, _ kind: sqlitebridge.ChangeKind, _ table: UnsafePointer<CChar>?, _ rowID: Int64
) {
  guard let observer = TransactionObserverBox.observer(at: context) else { return }
  observer.databaseDidChange(
    with: DatabaseEvent(kind: ChangeKind(kind), table: table.map { String(cString: $0) } ?? "", rowID: rowID))
}

private func willCommitThroughBox(
  _ context: UnsafeMutableRawPointer?, _ veto: UnsafeMutablePointer<sqlitebridge.Error>?
) -> Bool {
  guard let observer = TransactionObserverBox.observer(at: context) else { return true }
  do {
    try observer.databaseWillCommit()
    return true
  } catch let error as DatabaseError {
    ObservationAccess.setVeto(veto, error.code, error.extendedCode, std.string(error.message))
  } catch {
    // As the core reports a C++ observer's exception: a constraint failure
    // of the commit hook. (The extended code is passed: the core keeps a
    // nonzero extended code as given and would otherwise repeat `code`.)
    ObservationAccess.setVeto(
      veto, ResultCode.constraint.rawValue, ResultCode.constraintCommitHook.rawValue,
      std.string(String(describing: error)))
  }
  return false
}

private func didEndThroughBox(
  _ context: UnsafeMutableRawPointer?, _ database: UnsafePointer<sqlitebridge.Database>?, _ committed: Bool
) {
  guard let observer = TransactionObserverBox.observer(at: context), let database else { return }
  let db = Database(lent: ObservationAccess.share(database))
  // A reference the observer kept fails with `.misuse` from now on.
  defer { db.close() }
  if committed {
    observer.databaseDidCommit(db)
  } else {
    observer.databaseDidRollback(db)
  }
}

private func isAliveThroughBox(_ context: UnsafeMutableRawPointer?) -> Bool {
  TransactionObserverBox.observer(at: context) != nil
}

private func releaseTransactionObserverBox(_ context: UnsafeMutableRawPointer?) {
  guard let context else { return }
  Unmanaged<TransactionObserverBox>.fromOpaque(context).release()
}
