// The columns a `PersistableRecord` writes. Filled by `encode(to:)` once per
// insert, update, save or delete, so it is made to be cheap: values sit in
// a buffer the `Database` reuses from one write to the next, and while the record sets the columns its
// type set last time, in the same order (the usual case), no name is
// searched or stored: each one is compared with the one expected next.

/// The columns a `PersistableRecord` writes, in the order it sets them,
/// each with its value: `container["title"] = .text(title)` (or, for any
/// `DatabaseValueConvertible` value, `container["title"] = title`).
///
/// Names are matched as SQLite matches them (ASCII case ignored): setting a
/// column already set replaces its value in place, keeping its first
/// position and spelling. Setting `nil` stores NULL, as GRDB's container
/// does: the column stays in the statement (an INSERT then writes NULL,
/// not the column's DEFAULT). Reading a column never set gives nil.
public struct PersistenceContainer {
  /// The columns the cached plan of this record type and operation was
  /// made for (empty when there is none yet).
  @usableFromInline let planColumns: [String]
  /// The values, in column order (shared by copies until one changes).
  @usableFromInline var storage: RecordValues
  /// The column names, once they differ from `planColumns`; nil while
  /// every column set so far is the plan's next one (then the names are
  /// `planColumns[..<storage.count]`).
  @usableFromInline var ownColumns: [String]?
  /// The first error a default `encode(to:)` met (an `Encodable` value that
  /// does not encode as a row); the write throws it and runs nothing.
  @usableFromInline var error: (any Error)?
  /// The encoding storage the default `encode(to:)` of an `Encodable`
  /// record fills this container through, lent (not owned: the plan entry
  /// keeps it) by the `Database` writing the record; nil when it has none
  /// for the type yet.
  var lentEncoding: Unmanaged<RowEncodingStorage>?
  /// The storage a default `encode(to:)` made because none was lent, for
  /// the `Database` to keep with the plan; nil otherwise.
  var madeEncoding: RowEncodingStorage?

  /// An empty container.
  public init() {
    planColumns = []
    storage = RecordValues(capacity: 4)
  }

  /// An empty container expecting `planColumns`, filling `storage` (which
  /// must be empty).
  init(planColumns: [String], storage: RecordValues, lentEncoding: Unmanaged<RowEncodingStorage>? = nil) {
    self.planColumns = planColumns
    self.storage = storage
    self.lentEncoding = lentEncoding
  }

  /// The values set, in column order.
  var values: [DatabaseValue] { Array(UnsafeBufferPointer(start: storage.base, count: storage.count)) }

  /// The value of `column` (ASCII case-insensitive); nil when it was never
  /// set. Setting replaces the value of a column already set, in place, or
  /// adds the column at the end; setting nil stores NULL.
  @inlinable
  public subscript(_ column: String) -> DatabaseValue? {
    get { index(of: column).map { storage.base[$0] } }
    @inline(__always) set { set(newValue ?? .null, column) }
  }

  /// The value of `column` as `Value`; nil when it was never set or does not
  /// convert (see `DatabaseValueConvertible`). Setting stores
  /// `newValue.databaseValue` (nil stores NULL), as the `DatabaseValue?`
  /// subscript does, so `container["title"] = title` works for any
  /// `DatabaseValueConvertible` value.
  @inlinable
  public subscript<Value: DatabaseValueConvertible>(_ column: String) -> Value? {
    get { index(of: column).flatMap { Value.fromDatabaseValue(storage.base[$0]) } }
    @inline(__always) set { set(newValue?.databaseValue ?? .null, column) }
  }

  /// The column names, in order.
  public var columns: [String] { ownColumns ?? Array(planColumns[..<storage.count]) }

  /// The number of columns set.
  public var count: Int { storage.count }

  /// Sets `column` to `value`: the plan's next column is appended after one
  /// comparison of two (usually small) strings.
  @inlinable @inline(__always)
  mutating func set(_ value: DatabaseValue, _ column: String) {
    if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    let next = storage.count
    if ownColumns == nil, next < planColumns.count, planColumns[next] == column {
      storage.append(value)
    } else {
      setOffPlan(value, column)
    }
  }

  /// Whether every column set so far is the plan's next one (then the
  /// names are `planColumns[..<count]`).
  var isOnPlan: Bool {
    @inline(__always) get { ownColumns == nil }
  }

  /// Appends `value` as the plan's next column, which the caller knows it
  /// is (the container is on plan, and the column is
  /// `planColumns[count]`).
  @inline(__always)
  mutating func appendPlanned(_ value: DatabaseValue) {
    if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    storage.append(value)
  }

  /// Sets `column` when it is not the plan's next one: replaces the value of
  /// a column already set (ASCII case ignored) or appends it.
  @usableFromInline
  mutating func setOffPlan(_ value: DatabaseValue, _ column: String) {
    if ownColumns == nil { ownColumns = Array(planColumns[..<storage.count]) }
    if let index = index(of: column) {
      storage.replace(at: index, with: value)
    } else {
      ownColumns!.append(column)
      storage.append(value)
    }
  }

  /// The position of `column` among the columns set (exact spelling first,
  /// then ASCII case ignored, as the core compares identifiers), or nil.
  @usableFromInline
  func index(of column: String) -> Int? {
    let names = ownColumns ?? Array(planColumns[..<storage.count])
    if let index = names.firstIndex(of: column) { return index }
    // Folding ASCII case keeps the length: only names of the same length
    // are asked of the core.
    let length = column.utf8.count
    return names.firstIndex { $0.utf8.count == length && Identifier.same($0, column) }
  }

  /// Whether the columns set are exactly the plan's, in its order.
  var matchesPlan: Bool {
    guard let ownColumns else { return storage.count == planColumns.count }
    return ownColumns == planColumns
  }
}
