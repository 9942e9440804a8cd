import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

// The record statements a `Database` planned, per record type and
// operation: the core writes each plan once (`interop::RecordAccess::plan`)
// and every later record of that type and shape reuses it, so a write costs
// one comparison of its columns with the plan's, not a new SQL text.

/// What one plan is for: a record type, an operation and, for inserts and
/// saves, the conflict resolution.
struct RecordPlanKey: Hashable {
  let type: ObjectIdentifier
  let operation: UInt8
  let conflict: UInt8

  init(_ type: Any.Type, _ operation: sqlitebridge.RecordOperation, _ conflict: ConflictResolution) {
    self.type = ObjectIdentifier(type)
    self.operation = UInt8(truncatingIfNeeded: operation.rawValue)
    switch conflict {
    case .abort: self.conflict = 0
    case .replace: self.conflict = 1
    case .ignore: self.conflict = 2
    case .fail: self.conflict = 3
    case .rollback: self.conflict = 4
    }
  }
}

/// One plan of the core, for records whose columns are `columns`.
final class RecordPlanEntry {
  /// The record columns the plan was made for, in order.
  let columns: [String]
  /// The core's plan, kept at a fixed address: passed by reference on every
  /// run, never copied.
  let plan: UnsafeMutablePointer<sqlitebridge.RecordPlan>
  /// The plan's statement as a Swift string (for the queries Swift steps).
  let sql: String
  /// The values buffer kept between writes, so a container reuses it
  /// instead of allocating.
  @exclusivity(unchecked) var spare: RecordValues?
  /// The encoding storage of an `Encodable` record type's default
  /// `encode(to:)`, kept between writes with its JSON encoders, keyed
  /// container and keys (lent to each record's container); nil for a type
  /// that encodes itself (or before the first write).
  @exclusivity(unchecked) var encoding: RowEncodingStorage?

  init(columns: [String], plan: consuming sqlitebridge.RecordPlan) {
    self.columns = columns
    self.plan = .allocate(capacity: 1)
    self.plan.initialize(to: plan)
    sql = String(self.plan.pointee.sql)
  }

  /// The kept buffer (empty), now the caller's; nil when there is none.
  @inline(__always)
  func takeSpare() -> RecordValues? {
    let taken = spare
    spare = nil
    return taken
  }

  deinit {
    plan.deinitialize(count: 1)
    plan.deallocate()
  }
}

/// A `Database`'s record plans. The last one used is checked first, so a
/// loop writing records of one type does not hash.
final class RecordPlanCache {
  @exclusivity(unchecked) private var entries: [RecordPlanKey: RecordPlanEntry] = [:]
  @exclusivity(unchecked) private var lastKey: RecordPlanKey?
  @exclusivity(unchecked) private var lastEntry: RecordPlanEntry?

  /// The plan for `key`, or nil.
  @inline(__always)
  func entry(_ key: RecordPlanKey) -> RecordPlanEntry? {
    if let lastEntry, lastKey == key { return lastEntry }
    guard let entry = entries[key] else { return nil }
    lastKey = key
    lastEntry = entry
    return entry
  }

  /// Keeps `entry` as the plan for `key`, replacing the one before.
  func store(_ entry: RecordPlanEntry, for key: RecordPlanKey) {
    entries[key] = entry
    lastKey = key
    lastEntry = entry
  }
}

extension Database {
  /// The cached plan for `operation` on records of `type` with `columns`,
  /// or a new one the core writes (and the cache keeps, replacing the plan
  /// for other columns).
  ///
  /// - Throws: `DatabaseError` as the core reports it: `.misuse` when the
  ///   type declares no primary key for an operation that needs one, when
  ///   `columns` lacks a key column, or when a name holds NUL.
  func recordPlan<T: PersistableRecord>(
    _ type: T.Type, _ operation: sqlitebridge.RecordOperation, onConflict: ConflictResolution = .abort,
    columns: [String]
  ) throws -> RecordPlanEntry {
    let key = RecordPlanKey(type, operation, onConflict)
    if let entry = recordPlans.entry(key), entry.columns == columns { return entry }
    var plan = sqlitebridge.RecordPlan()
    guard
      sqlitebridge.interop.RecordAccess.plan(
        &core, operation, std.string(T.databaseTableName), Self.stringList(columns), Self.stringList(T.primaryKey),
        onConflict.cxx, &plan)
    else { throw lastError }
    let entry = RecordPlanEntry(columns: columns, plan: plan)
    recordPlans.store(entry, for: key)
    return entry
  }
}
