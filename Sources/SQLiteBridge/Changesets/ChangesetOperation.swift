import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// One change a ``Changeset`` holds: a row inserted, updated or deleted
/// (``Changeset/operations()`` lists them).
///
/// The values are one per column of the table, in the table's order. A
/// column with no value recorded is `nil`, never confused with SQL NULL
/// (`.null`): an update leaves out the columns it did not change (but for
/// the primary key), and a patchset keeps only the key of a deleted row.
public struct ChangesetOperation: Sendable, Hashable {
  /// The table, as the changeset names it.
  public var table: String
  /// What happened to the row.
  public var kind: ChangeKind
  /// Whether the change was recorded as indirect
  /// (``DatabaseSession/isIndirect``, or made by a trigger or a foreign key
  /// action).
  public var isIndirect: Bool
  /// The row's values before the change, one per column; empty for an
  /// insert; `nil` for a column with no value recorded.
  public var oldValues: [DatabaseValue?]
  /// The row's values after the change, one per column; empty for a
  /// delete; `nil` for a column an update did not change.
  public var newValues: [DatabaseValue?]
  /// Which columns make the table's primary key, one flag per column.
  public var primaryKey: [Bool]

  /// An operation with these fields (for comparing with the ones a
  /// changeset lists). Never fails.
  public init(
    table: String, kind: ChangeKind, isIndirect: Bool, oldValues: [DatabaseValue?], newValues: [DatabaseValue?],
    primaryKey: [Bool]
  ) {
    self.table = table
    self.kind = kind
    self.isIndirect = isIndirect
    self.oldValues = oldValues
    self.newValues = newValues
    self.primaryKey = primaryKey
  }

  /// A copy of the core's operation, read in place. (A column with no
  /// value is `.none`, spelled out: a bare `nil` would be
  /// `DatabaseValue(nilLiteral:)`, SQL NULL.)
  init(_ operation: UnsafePointer<sqlitebridge.ChangesetOperation>) {
    table = String(operation.pointee.table)
    kind = ChangeKind(operation.pointee.kind)
    isIndirect = operation.pointee.isIndirect
    oldValues = (0..<ChangesetInterop.oldValueCount(operation)).map { index -> DatabaseValue? in
      guard ChangesetInterop.hasOldValue(operation, index) else { return .none }
      return DatabaseValue(ChangesetInterop.oldValue(operation, index))
    }
    newValues = (0..<ChangesetInterop.newValueCount(operation)).map { index -> DatabaseValue? in
      guard ChangesetInterop.hasNewValue(operation, index) else { return .none }
      return DatabaseValue(ChangesetInterop.newValue(operation, index))
    }
    primaryKey = (0..<ChangesetInterop.columnCount(operation)).map { ChangesetInterop.isPrimaryKey(operation, $0) }
  }
}
