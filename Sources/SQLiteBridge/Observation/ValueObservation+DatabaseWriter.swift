// Value observations started on "a database" (`some DatabaseWriter`): each
// call is the queue's or the pool's own `start(in:...)` / `values(in:)`.

extension ValueObservation {
  /// Starts observing `writer`'s database, exactly as
  /// `start(in:onError:onChange:)` with its `DatabaseQueue` or
  /// `DatabasePool` does (threads, coalescing, errors).
  ///
  /// Failures never throw: as on a queue or a pool, `onError` is called at
  /// once, on the calling thread, and the cancellable is inactive; also
  /// (with `.misuse`) when `writer` is neither a `DatabaseQueue` nor a
  /// `DatabasePool`.
  public func start(
    in writer: some DatabaseWriter, onError: @escaping @Sendable (any Error) -> Void,
    onChange: @escaping @Sendable (Value) -> Void
  ) -> DatabaseCancellable {
    switch CoreWriter(writer) {
    case .queue(let queue): return start(in: queue, onError: onError, onChange: onChange)
    case .pool(let pool): return start(in: pool, onError: onError, onChange: onChange)
    case nil:
      onError(CoreWriter.unsupported(writer))
      return .inactive()
    }
  }

  /// The values observed in `writer`'s database, as an async sequence, as
  /// `values(in:)` with its `DatabaseQueue` or `DatabasePool` gives them.
  /// On a writer that is neither, the iteration throws `.misuse`.
  public func values(in writer: some DatabaseWriter) -> AsyncValueObservation<Value> {
    switch CoreWriter(writer) {
    case .queue(let queue): return values(in: queue)
    case .pool(let pool): return values(in: pool)
    case nil:
      let error = CoreWriter.unsupported(writer)
      return AsyncValueObservation { onError, _ in
        onError(error)
        return .inactive()
      }
    }
  }
}
