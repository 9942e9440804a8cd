/// The values of a `ValueObservation` as an async sequence
/// (`ValueObservation.values(in:)`): each iteration starts its own
/// observation, whose first element is the initial value, then one element
/// per value the observation delivers, in order (none is dropped: values
/// wait in an unbounded buffer until the iteration takes them). An error
/// the fetch throws is thrown by the iteration, which then ends. The
/// iteration ends, and its observation is cancelled, when the iterating
/// task is cancelled or the iteration is left.
public struct AsyncValueObservation<Value: Sendable>: AsyncSequence, Sendable {
  /// Each element is one value the observation delivered.
  public typealias Element = Value

  /// Starts the observation with the two callbacks.
  let start:
    @Sendable (_ onError: @escaping @Sendable (any Error) -> Void, _ onChange: @escaping @Sendable (Value) -> Void) ->
      DatabaseCancellable

  /// Starts an observation that feeds the iterator.
  public func makeAsyncIterator() -> Iterator {
    let (stream, continuation) = AsyncThrowingStream<Value, any Error>.makeStream()
    let cancellable = start({ continuation.finish(throwing: $0) }, { continuation.yield($0) })
    // The stream ends when the task is cancelled or the iterator is gone:
    // the observation ends with it.
    continuation.onTermination = { _ in cancellable.cancel() }
    return Iterator(base: stream.makeAsyncIterator())
  }

  /// The iterator of one observation.
  public struct Iterator: AsyncIteratorProtocol {
    var base: AsyncThrowingStream<Value, any Error>.Iterator

    /// The next value; nil once the task is cancelled; throws what the fetch
    /// threw (or the connection's error), after which it returns nil.
    public mutating func next() async throws -> Value? { try await base.next() }
  }
}
