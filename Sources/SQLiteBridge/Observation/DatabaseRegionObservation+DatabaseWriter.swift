// Region observations started on "a database" (`some DatabaseWriter`): each
// call is the queue's or the pool's own `start(in:...)`.

extension DatabaseRegionObservation {
  /// Starts watching `writer`'s commits, exactly as
  /// `start(in:onError:onChange:)` with its `DatabaseQueue` or
  /// `DatabasePool` does.
  ///
  /// - Throws: `DatabaseError`, as on a queue or a pool; `.misuse` too when
  ///   `writer` is neither a `DatabaseQueue` nor a `DatabasePool`. Nothing
  ///   is observed then.
  public func start(
    in writer: some DatabaseWriter, onError: @escaping @Sendable (any Error) -> Void,
    onChange: @escaping @Sendable (Database) -> Void
  ) throws -> DatabaseCancellable {
    switch CoreWriter(writer) {
    case .queue(let queue): return try start(in: queue, onError: onError, onChange: onChange)
    case .pool(let pool): return try start(in: pool, onError: onError, onChange: onChange)
    case nil: throw CoreWriter.unsupported(writer)
    }
  }
}
