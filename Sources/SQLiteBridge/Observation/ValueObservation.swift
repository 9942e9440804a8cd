import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// A value that follows the database: `fetch` runs once when the observation
/// starts (the initial value), then again after each commit that changes
/// what the last fetch read (the C++ `sqlitebridge::observeValue`, which
/// owns every rule below).
///
/// What a fetch read is recorded per fetch (SQLite's authorizer names the
/// tables and columns each statement reads, views resolved), so a fetch
/// whose reads depend on the data stays correct. Promises:
/// - the first value delivered is the initial value; values come one at a
///   time, in commit order, never older than one delivered before (several
///   commits may give one value);
/// - after the last commit that changes the region, the last value delivered
///   equals a fresh fetch;
/// - a commit that does not change the region causes no fetch;
/// - in a `DatabasePool`, fetches run on reader connections, in a read
///   transaction that starts after the commit it answers: a slow fetch never
///   blocks a writer;
/// - with `removeDuplicates()`, a value equal to the previous one is dropped;
/// - an error thrown by `fetch` is delivered to `onError` and ends the
///   observation.
///
/// Commits by other connections and processes on the same file are seen
/// only with `Configuration.externalChangeCheckInterval` set on the queue
/// or pool (as changes of the whole database).
public struct ValueObservation<Value: Sendable>: Sendable {
  let fetch: @Sendable (Database) throws -> Value
  let isDuplicate: (@Sendable (Value, Value) -> Bool)?

  /// Observes what `fetch` returns. `fetch` must read only the `Database` it
  /// is given (which is lent for the call: keeping it makes every later call
  /// throw `.misuse`) and must not use the queue or pool.
  public static func tracking(_ fetch: @escaping @Sendable (Database) throws -> Value) -> ValueObservation<Value> {
    ValueObservation(fetch: fetch, isDuplicate: nil)
  }

  /// The same observation, which drops a value equal (`==`) to the one
  /// delivered before it.
  public func removeDuplicates() -> ValueObservation<Value> where Value: Equatable {
    ValueObservation(fetch: fetch, isDuplicate: { $0 == $1 })
  }

  /// Starts observing the queue's database.
  ///
  /// Threads: `fetch`, `onChange` and `onError` run one at a time, on the
  /// queue's own thread, after the connection went back, so `onChange` and
  /// `onError` may use the queue (never the calling thread, except for a
  /// start that fails).
  ///
  /// Failures never throw: a queue that is not open, or a start from inside
  /// one of the queue's own blocks (`.misuse`, "reentrant access"), calls
  /// `onError` at once, on the calling thread, and the cancellable is
  /// inactive. After an error (from the fetch, or the connection's) nothing
  /// else is called.
  public func start(
    in queue: DatabaseQueue, onError: @escaping @Sendable (any Error) -> Void,
    onChange: @escaping @Sendable (Value) -> Void
  ) -> DatabaseCancellable {
    start(onError: onError, onChange: onChange) {
      ObservationStartAccess.startValueInQueue(queue.core, $0)
    }
  }

  /// Starts observing the pool's database: fetches run on the pool's
  /// reader connections; `fetch`, `onChange` and `onError` run one at a
  /// time (for this observation), on threads the pool owns, never on the
  /// writer while it holds the write lock, `onChange` and `onError` after
  /// the reader went back (so they may use the pool). Fails as
  /// `start(in:onError:onChange:)` on a queue does.
  public func start(
    in pool: DatabasePool, onError: @escaping @Sendable (any Error) -> Void,
    onChange: @escaping @Sendable (Value) -> Void
  ) -> DatabaseCancellable {
    start(onError: onError, onChange: onChange) {
      ObservationStartAccess.startValueInPool(pool.core, $0)
    }
  }

  /// Starts the core's observation with `begin`, which gets the callbacks
  /// and the box (retained once for the core, which releases it).
  private func start(
    onError: @escaping @Sendable (any Error) -> Void, onChange: @escaping @Sendable (Value) -> Void,
    _ begin: (sqlitebridge.interop.ValueObservationCallbacks) -> sqlitebridge.interop.ObservationToken
  ) -> DatabaseCancellable {
    let box = ValueObservationBox(self, onError: onError, onChange: onChange)
    var callbacks = sqlitebridge.interop.ValueObservationCallbacks()
    callbacks.fetch = fetchThroughBox
    callbacks.deliver = deliverThroughBox
    callbacks.fail = failThroughBox
    callbacks.release = releaseValueObservationBox
    callbacks.box = Unmanaged.passRetained(box as ValueObservationBoxBase).toOpaque()
    return DatabaseCancellable(begin(callbacks))
  }

  /// The values, as an async sequence (see `AsyncValueObservation`): each
  /// iteration starts an observation of the queue.
  public func values(in queue: DatabaseQueue) -> AsyncValueObservation<Value> {
    AsyncValueObservation { onError, onChange in start(in: queue, onError: onError, onChange: onChange) }
  }

  /// The values, as an async sequence: each iteration starts an observation
  /// of the pool.
  public func values(in pool: DatabasePool) -> AsyncValueObservation<Value> {
    AsyncValueObservation { onError, onChange in start(in: pool, onError: onError, onChange: onChange) }
  }
}

/// What the core holds of an observation (non-generic, for the C functions).
class ValueObservationBoxBase {
  func fetch(_ database: UnsafePointer<sqlitebridge.Database>) -> ObservationStartAccess.Fetched { .Failed }
  func deliver() {}
  func fail(_ error: sqlitebridge.Error) {}
}

/// An observation's fetch, callbacks and state. The core calls `fetch`,
/// `deliver` and `fail` one at a time (under its observation's callback
/// lock), which orders every access to the mutable state.
private final class ValueObservationBox<Value: Sendable>: ValueObservationBoxBase, @unchecked Sendable {
  let observation: ValueObservation<Value>
  let onError: @Sendable (any Error) -> Void
  let onChange: @Sendable (Value) -> Void
  /// The value the last `Changed` fetch kept, until delivered.
  var pending: Value?
  /// The last value delivered, kept only to remove duplicates.
  var delivered: Value?
  /// What the failed fetch threw, delivered instead of the core's error.
  var thrown: (any Error)?

  init(
    _ observation: ValueObservation<Value>, onError: @escaping @Sendable (any Error) -> Void,
    onChange: @escaping @Sendable (Value) -> Void
  ) {
    self.observation = observation
    self.onError = onError
    self.onChange = onChange
  }

  override func fetch(_ database: UnsafePointer<sqlitebridge.Database>) -> ObservationStartAccess.Fetched {
    do {
      let value = try withLentDatabase(database, observation.fetch)
      if let isDuplicate = observation.isDuplicate, let delivered, isDuplicate(delivered, value) { return .Same }
      pending = value
      return .Changed
    } catch {
      thrown = error
      return .Failed
    }
  }

  override func deliver() {
    guard let value = pending else { return }
    pending = nil
    if observation.isDuplicate != nil { delivered = value }
    onChange(value)
  }

  override func fail(_ error: sqlitebridge.Error) {
    let reported = thrown ?? DatabaseError(error)
    thrown = nil
    onError(reported)
  }
}

private func box(at context: UnsafeMutableRawPointer?) -> ValueObservationBoxBase? {
  context.map { Unmanaged<ValueObservationBoxBase>.fromOpaque($0).takeUnretainedValue() }
}

private func fetchThroughBox(
  _ context: UnsafeMutableRawPointer?, _ database: UnsafePointer<sqlitebridge.Database>?
) -> ObservationStartAccess.Fetched {
  guard let box = box(at: context), let database else { return .Failed }
  return box.fetch(database)
}

private func deliverThroughBox(_ context: UnsafeMutableRawPointer?) {
  box(at: context)?.deliver()
}

private func failThroughBox(_ context: UnsafeMutableRawPointer?, _ error: UnsafePointer<sqlitebridge.Error>?) {
  box(at: context)?.fail(ObservationStartAccess.error(error))
}

private func releaseValueObservationBox(_ context: UnsafeMutableRawPointer?) {
  guard let context else { return }
  Unmanaged<ValueObservationBoxBase>.fromOpaque(context).release()
}
