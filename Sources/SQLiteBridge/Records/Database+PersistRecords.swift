import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

// Writing records. The core writes each statement and runs each rule
// (`interop::RecordAccess`: which columns an UPDATE sets and matches, what
// a missing row is, what `save` does); Swift encodes the record into a
// `PersistenceContainer` and binds its values through `recordBinder` when
// the core asks.

extension Database {
  /// Inserts `record` as a new row of `T.databaseTableName`:
  /// `INSERT OR <onConflict> INTO "table" ("c", ...) VALUES (?, ...)` with
  /// every column `encode(to:)` sets (`DEFAULT VALUES` for none). Returns
  /// the new row's rowid, or 0 when `.ignore` skipped the row.
  ///
  /// - Throws: the error a default `encode(to:)` kept (an `EncodingError`),
  ///   before anything runs; `DatabaseError` with `.misuse` when the table
  ///   or a column name holds NUL; SQLite's error for a missing table or
  ///   column or a broken constraint (`.constraintUnique`, ...; what the
  ///   statement keeps then is `onConflict`'s rule).
  @discardableResult
  public func insert<T: PersistableRecord>(_ record: T, onConflict: ConflictResolution = .abort) throws -> Int64 {
    try write(record, .Insert, onConflict: onConflict).rowID
  }

  /// Updates the row whose primary key (`T.primaryKey`) holds `record`'s key
  /// values: `UPDATE "table" SET "c" = ?, ... WHERE "k" = ? AND ...`, every
  /// other column `encode(to:)` sets.
  ///
  /// - Throws: `DatabaseError` with `.notFound` when no row has that key
  ///   (the message names the table and the key, e.g. `update of a record
  ///   of "notes": no row has the key "id" = 7`); `.misuse` when the record
  ///   does not set a key column or `T.primaryKey` is empty (nothing runs);
  ///   a kept encoding error, and SQLite's errors, as `insert`.
  public func update<T: PersistableRecord>(_ record: T) throws {
    _ = try write(record, .Update, onConflict: .abort)
  }

  /// Updates `record`'s row, as `update`, or, when no row has its key (a
  /// NULL key never matches one), inserts it, as `insert`.
  ///
  /// - Throws: `DatabaseError` with `.misuse` when the record does not set
  ///   a key column or `T.primaryKey` is empty; a kept encoding error, and
  ///   SQLite's errors, as `insert`.
  public func save<T: PersistableRecord>(_ record: T) throws {
    _ = try write(record, .Save, onConflict: .abort)
  }

  /// Deletes the row whose primary key holds `record`'s key values
  /// (`DELETE FROM "table" WHERE "k" = ? AND ...`). Returns false when no
  /// row had that key.
  ///
  /// - Throws: `DatabaseError` with `.misuse` when the record does not set
  ///   a key column or `T.primaryKey` is empty; a kept encoding error, and
  ///   SQLite's errors, as `insert`.
  @discardableResult
  public func delete<T: PersistableRecord>(_ record: T) throws -> Bool {
    try write(record, .Delete, onConflict: .abort).changed
  }

  /// Encodes `record`, finds (or makes) the plan for its columns and has
  /// the core run it, binding from the container's values.
  func write<T: PersistableRecord>(
    _ record: T, _ operation: sqlitebridge.RecordOperation, onConflict: ConflictResolution
  ) throws -> (rowID: Int64, changed: Bool) {
    let key = RecordPlanKey(T.self, operation, onConflict)
    var container: PersistenceContainer
    // The encoding storage the type's plans share (a new plan keeps it).
    var encoding: RowEncodingStorage?
    if let cached = recordPlans.entry(key) {
      // The last write's buffer, emptied but with its capacity: no
      // allocation; and the encoding storage of an Encodable record (its
      // JSON encoders and keys already known), lent.
      container = PersistenceContainer(
        planColumns: cached.columns, storage: cached.takeSpare() ?? RecordValues(capacity: cached.columns.count),
        lentEncoding: cached.encoding.map { Unmanaged.passUnretained($0) })
      withExtendedLifetime(cached) { record.encode(to: &container) }
      if cached.encoding == nil { cached.encoding = container.madeEncoding }
      encoding = cached.encoding
      if container.error == nil, container.matchesPlan { return try run(cached, &container) }
    } else {
      container = PersistenceContainer(planColumns: [], storage: RecordValues(capacity: 8))
      record.encode(to: &container)
    }
    if let error = container.error { throw error }
    let entry = try recordPlan(T.self, operation, onConflict: onConflict, columns: container.columns)
    if entry.encoding == nil { entry.encoding = encoding ?? container.madeEncoding }
    return try run(entry, &container)
  }

  /// Has the core run `entry`'s plan with `container`'s values, then keeps
  /// the emptied buffer for the next write.
  @inline(__always)
  private func run(_ entry: RecordPlanEntry, _ container: inout PersistenceContainer) throws -> (
    rowID: Int64, changed: Bool
  ) {
    var rowID: Int64 = 0
    var changed = false
    let ran = sqlitebridge.interop.RecordAccess.run(
      &core, entry.plan.pointee, recordBinder, UnsafeMutableRawPointer(container.storage.base), &rowID, &changed)
    // Reused only when no copy of the container shares it.
    if isKnownUniquelyReferenced(&container.storage) {
      container.storage.removeAll()
      entry.spare = container.storage
    }
    guard ran else { throw lastError }
    return (rowID, changed)
  }
}

/// Binds the values of a container (`context`: its first value) to the
/// statement the core lends: value `columns[i]` to parameter `i + 1`.
let recordBinder: sqlitebridge.RecordBinder = { context, statement, columns, count in
  guard count > 0 else { return true }
  guard let context, let statement, let columns else { return false }
  let values = context.assumingMemoryBound(to: DatabaseValue.self)
  for i in 0..<count {
    let value = values + Int(columns[i])
    let index = Int32(truncatingIfNeeded: i + 1)
    // Integers bind without copying the value out first.
    if case .integer(let integer) = value.pointee {
      guard statement.pointee.bindInteger(index, integer) else { return false }
    } else {
      guard statement.pointee.bind(value.pointee, at: index) else { return false }
    }
  }
  return true
}
