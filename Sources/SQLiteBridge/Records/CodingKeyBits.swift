// Recognizing a coding key without asking for its `stringValue` (a call
// through two witness tables and a string retain and release, per property
// and row). A synthesized `CodingKeys` enum is plain data: the same key type
// with the same bits is the same key. Used by the row decoder (the column a
// key names) and the row encoder (the plan column a key sets).

/// The bits of a plain-data coding key.
enum CodingKeyBits {
  /// The bits of `key` when its type is plain data of at most 8 bytes
  /// (zero-extended), nil otherwise.
  @inline(__always)
  static func of<Key>(_ key: Key) -> UInt64? {
    guard _isPOD(Key.self) else { return nil }
    // unsafeBitCast reads the value in place (`withUnsafeBytes(of:)` was not
    // inlined here and cost more than the `stringValue` it replaces). A
    // synthesized `CodingKeys` enum is one byte: tested first.
    let size = MemoryLayout<Key>.size
    if size == 1 { return UInt64(unsafeBitCast(key, to: UInt8.self)) }
    switch size {
    case 0: return 0
    case 2: return UInt64(unsafeBitCast(key, to: UInt16.self))
    case 4: return UInt64(unsafeBitCast(key, to: UInt32.self))
    case 8: return unsafeBitCast(key, to: UInt64.self)
    default: return nil
    }
  }
}
