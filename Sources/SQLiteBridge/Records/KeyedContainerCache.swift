// A keyed container kept for reuse by the row decoder (one per query) and
// the row encoder (one per record type and plan): making one costs generic
// metadata lookups and an allocation, on every row or record otherwise.

/// Holds a keyed container for reuse (see `RowDecodingContext.keyedContainer`
/// and `RowEncodingStorage.keyedContainer`). Generic over the container type
/// itself, not its key: copying a `KeyedDecodingContainer<Key>` in code
/// generic over `Key` asks the runtime for that type's metadata (a hash
/// lookup, once per row), while in `copy()` the container's type is a
/// generic argument of the class, read from the object itself.
final class KeyedContainerCache<Container> {
  let container: Container
  init(_ container: Container) { self.container = container }

  /// A copy of the container. Not inlined: inlined into generic code, it
  /// would ask for the metadata again.
  @inline(never)
  func copy() -> Container { container }
}
