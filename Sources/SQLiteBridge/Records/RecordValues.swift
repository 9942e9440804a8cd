// The values of one `PersistenceContainer`: a growable buffer that a
// `Database` hands from one write of a record type to the next, so that a
// write neither allocates nor runs the standard library's generic array
// teardown (which costs more than binding the values).

/// A container's values, in column order (copy-on-write through
/// `PersistenceContainer`). Unchecked exclusivity: one container, on one
/// thread, uses it at a time.
@usableFromInline
final class RecordValues {
  @exclusivity(unchecked) @usableFromInline var base: UnsafeMutablePointer<DatabaseValue>
  @exclusivity(unchecked) @usableFromInline var count = 0
  @exclusivity(unchecked) @usableFromInline var capacity: Int
  /// Whether a text or blob value was stored since the last `removeAll`
  /// (only those hold storage to release).
  @exclusivity(unchecked) @usableFromInline var holdsStorage = false

  @usableFromInline
  init(capacity: Int) {
    self.capacity = max(capacity, 4)
    base = .allocate(capacity: self.capacity)
  }

  deinit {
    removeAll()
    base.deallocate()
  }

  /// Appends `value`, growing the buffer when full.
  @inlinable @inline(__always)
  func append(_ value: DatabaseValue) {
    if count == capacity { grow() }
    noteStorage(value)
    (base + count).initialize(to: value)
    count += 1
  }

  /// Replaces the value at `index`.
  @usableFromInline
  func replace(at index: Int, with value: DatabaseValue) {
    noteStorage(value)
    base[index] = value
  }

  @inlinable @inline(__always)
  func noteStorage(_ value: DatabaseValue) {
    switch value {
    case .text, .blob: holdsStorage = true
    default: break
    }
  }

  /// Doubles the capacity.
  @usableFromInline
  func grow() {
    let larger = UnsafeMutablePointer<DatabaseValue>.allocate(capacity: capacity * 2)
    larger.moveInitialize(from: base, count: count)
    base.deallocate()
    base = larger
    capacity *= 2
  }

  /// Empties the buffer, keeping its capacity. Only text and blobs hold
  /// storage to release; the other values need no teardown.
  func removeAll() {
    defer {
      count = 0
      holdsStorage = false
    }
    guard holdsStorage else { return }
    for index in 0..<count {
      switch base[index] {
      case .text, .blob: (base + index).deinitialize(count: 1)
      default: break
      }
    }
  }

  /// A copy holding the same values.
  @usableFromInline
  func copy() -> RecordValues {
    let copy = RecordValues(capacity: capacity)
    copy.base.initialize(from: base, count: count)
    copy.count = count
    copy.holdsStorage = holdsStorage
    return copy
  }
}
