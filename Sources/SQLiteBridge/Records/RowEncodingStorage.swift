import Foundation

// What encoding an `Encodable` row keeps: where its columns go, the first
// deferred error, the JSON encoders of its columns, and, kept from record to
// record of one type, the keyed container and which key sets which of the
// plan's columns. A `Database` keeps one per record type and plan
// (`RecordPlanEntry.encoding`), so a record of a known shape is encoded with
// no allocation, no metadata lookup and no coding key's `stringValue`.

/// Where an `Encodable` value's columns go while it is encoded (a
/// `PersistenceContainer`), the first error a non-throwing `Encoder` call
/// had to defer, and the JSON encoders of its columns. A `Database` keeps
/// one per record type and plan (`RecordPlanEntry.encoding`) and reuses it
/// for every record written with that plan: the JSON encoders are asked for
/// once, the keyed container is made once, and each key is matched with the
/// plan's column by its bits (see `slots`).
final class RowEncodingStorage {
  let keyEncoding: KeyEncodingStrategy
  /// The record type whose hook gives the JSON encoders (nil: the default
  /// one, for every column).
  let record: (any PersistableRecord.Type)?
  /// `record`'s identity (nil: none).
  let recordID: ObjectIdentifier?
  /// The container being filled, while `encode(_:into:)` runs; nil
  /// otherwise. (Unchecked
  /// exclusivity, as for every `var` here: one encoding, on one thread,
  /// uses a storage at a time.)
  @exclusivity(unchecked) private var target: UnsafeMutablePointer<PersistenceContainer>?
  @exclusivity(unchecked) private(set) var error: (any Error)?
  /// The JSON encoder of each column that needed one, asked of `record`'s
  /// hook once per column for as long as the storage is kept.
  @exclusivity(unchecked) private var jsonEncoders: [(column: String, encoder: JSONEncoder)] = []
  /// The keyed container of the last `Key` type asked for (a `KeyedContainerCache<KeyedEncodingContainer<Key>>`), reused by every
  /// record. It refers to this storage without owning it (see
  /// `RowKeyedEncodingContainer`), so there is no cycle.
  @exclusivity(unchecked) private var cachedKeyType: ObjectIdentifier?
  @exclusivity(unchecked) private var cachedContainer: AnyObject?
  /// The key seen setting the plan's column at each position, on an earlier
  /// record: while a record sets its columns in the plan's order, the key
  /// at position `i` with the same type and bits sets `planColumns[i]`
  /// again, so its value is appended without asking for its name. Made for
  /// the plan columns in `slotsPlan` (held, so that the array's storage, by
  /// which they are recognized, stays theirs).
  @exclusivity(unchecked) private var slots: [Slot] = []
  @exclusivity(unchecked) private var slotsPlan: [String] = []

  /// A key recognized by its bits (see `CodingKeyBits`).
  private struct Slot {
    var type: ObjectIdentifier
    var bits: UInt64
  }

  init(keyEncoding: KeyEncodingStrategy, record: (any PersistableRecord.Type)? = nil) {
    self.keyEncoding = keyEncoding
    self.record = record
    recordID = record.map { ObjectIdentifier($0) }
  }

  /// Whether a value is being encoded here now (a storage serves one
  /// value at a time: a write of the same type inside an `encode(to:)`
  /// gets a storage of its own).
  var isEncoding: Bool { target != nil }

  /// Encodes `value` into `container`, one column per key of its keyed
  /// container (set as `container[column] = value` sets it). An error,
  /// thrown by `value.encode(to:)` or deferred by a non-throwing call, is
  /// left in `container.error` (the first one wins) with the columns set so
  /// far. The encoder and containers handed to `value` must not outlive the
  /// call (as for any `Encoder`).
  func encode<T: Encodable>(_ value: T, into container: inout PersistenceContainer) {
    error = nil
    if !Self.sameStorage(container.planColumns, slotsPlan) {
      slots.removeAll(keepingCapacity: true)
      slotsPlan = container.planColumns
    }
    var thrown: (any Error)?
    withUnsafeMutablePointer(to: &container) { pointer in
      target = pointer
      defer { target = nil }
      do {
        try value.encode(to: RowEncoder(storage: self))
      } catch {
        thrown = error
      }
    }
    if let failure = thrown ?? error { container.error = container.error ?? failure }
  }

  /// Whether `a` and `b` share their storage (then they are equal).
  private static func sameStorage(_ a: [String], _ b: [String]) -> Bool {
    a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress && a.count == b.count }
    }
  }

  /// The keyed container for `Key`, made once per key type and kept.
  func keyedContainer<Key: CodingKey>(_ type: Key.Type) -> KeyedEncodingContainer<Key> {
    if cachedKeyType == ObjectIdentifier(type), let cachedContainer {
      return unsafeDowncast(cachedContainer, to: KeyedContainerCache<KeyedEncodingContainer<Key>>.self).copy()
    }
    return makeKeyedContainer(type)
  }

  /// A new keyed container for `Key`, cached. Apart from `keyedContainer`:
  /// a local container there made every call ask for the container type's
  /// metadata.
  @inline(never)
  private func makeKeyedContainer<Key: CodingKey>(_ type: Key.Type) -> KeyedEncodingContainer<Key> {
    let container = KeyedEncodingContainer(RowKeyedEncodingContainer<Key>(storage: self))
    cachedKeyType = ObjectIdentifier(type)
    cachedContainer = KeyedContainerCache(container)
    return container
  }

  /// The JSON encoder of column `column`: the record type's, asked once per
  /// column, or the default one.
  func jsonEncoder(forColumn column: String) -> JSONEncoder {
    if let found = jsonEncoders.first(where: { $0.column == column }) { return found.encoder }
    let encoder = record?.databaseJSONEncoder(for: column) ?? JSONColumns.defaultEncoder()
    jsonEncoders.append((column, encoder))
    return encoder
  }

  /// Sets the column for `key`; a key encoded again replaces its value.
  /// The key that set the plan's column at this position on an earlier
  /// record costs a comparison of its bits; another one is named.
  @inline(__always)
  func set<Key: CodingKey>(_ value: DatabaseValue, forKey key: Key) {
    guard let target else { return }
    let position = target.pointee.count
    if isPlanned(key, at: position, in: target) {
      target.pointee.appendPlanned(value)
      return
    }
    setNamed(value, forKey: key, at: position)
  }

  /// Whether `key` is the key seen setting the plan's column at `position`
  /// on an earlier record, while `target` is still on its plan.
  @inline(__always)
  private func isPlanned<Key: CodingKey>(
    _ key: Key, at position: Int, in target: UnsafeMutablePointer<PersistenceContainer>
  ) -> Bool {
    guard position < slots.count, target.pointee.isOnPlan, let bits = CodingKeyBits.of(key) else { return false }
    return slots[position].type == ObjectIdentifier(Key.self) && slots[position].bits == bits
  }

  /// Sets the column `key` names and, when that was the plan's column at
  /// `position`, remembers the key there.
  @inline(never)
  private func setNamed<Key: CodingKey>(_ value: DatabaseValue, forKey key: Key, at position: Int) {
    guard let target else { return }
    target.pointee.set(value, keyEncoding.columnName(forKey: key.stringValue))
    guard target.pointee.isOnPlan, target.pointee.count == position + 1, position <= slots.count,
      let bits = CodingKeyBits.of(key)
    else { return }
    let slot = Slot(type: ObjectIdentifier(Key.self), bits: bits)
    if position == slots.count { slots.append(slot) } else { slots[position] = slot }
  }

  /// The plan's column that `key` sets at the current position, when it is
  /// the key seen there on an earlier record (see `set`); nil otherwise.
  func plannedColumn<Key: CodingKey>(forKey key: Key) -> String? {
    guard let target else { return nil }
    let position = target.pointee.count
    return isPlanned(key, at: position, in: target) ? slotsPlan[position] : nil
  }

  /// Records `description` as the error `insert` throws (the first one wins).
  func fail(_ value: Any, codingPath: [any CodingKey], _ description: String) {
    guard error == nil else { return }
    error = EncodingError.invalidValue(
      value, EncodingError.Context(codingPath: codingPath, debugDescription: description))
  }
}
