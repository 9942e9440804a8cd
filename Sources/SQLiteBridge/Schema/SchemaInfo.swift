import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// One column of a table or view, as `Database.columns(in:)` reports it
/// (from SQLite's `PRAGMA table_xinfo`).
public struct ColumnInfo: Sendable, Equatable {
  /// The name as declared (its case kept).
  public let name: String
  /// The declared type as written (`INTEGER`, `VARCHAR(20)`, ...); empty
  /// when none was declared.
  public let declaredType: String
  /// Whether the column is declared NOT NULL.
  public let isNotNull: Bool
  /// The SQL text of the column's DEFAULT (`'x'`, `0`,
  /// `CURRENT_TIMESTAMP`, ...); nil when it has none.
  public let defaultValueSQL: String?
  /// The column's position in the primary key, 1-based; 0 when it is not
  /// part of it.
  public let primaryKeyIndex: Int
  /// Whether `PRAGMA table_info` leaves the column out: a hidden column of a
  /// virtual table, or a generated column (VIRTUAL or STORED).
  public let isHidden: Bool

  /// Makes a description of a column (to compare with what
  /// `columns(in:)` reports, say).
  public init(
    name: String, declaredType: String, isNotNull: Bool = false, defaultValueSQL: String? = nil,
    primaryKeyIndex: Int = 0, isHidden: Bool = false
  ) {
    self.name = name
    self.declaredType = declaredType
    self.isNotNull = isNotNull
    self.defaultValueSQL = defaultValueSQL
    self.primaryKeyIndex = primaryKeyIndex
    self.isHidden = isHidden
  }

  init(_ column: sqlitebridge.ColumnInfo) {
    self.init(
      name: String(column.name), declaredType: String(column.declaredType), isNotNull: column.isNotNull,
      defaultValueSQL: column.defaultValueSQL.value.map(String.init), primaryKeyIndex: Int(column.primaryKeyIndex),
      isHidden: column.isHidden)
  }
}

/// Why an index exists (`origin` in SQLite's `PRAGMA index_list`).
public enum IndexOrigin: Sendable, Equatable {
  /// A CREATE INDEX statement.
  case createIndex
  /// A UNIQUE constraint of the table.
  case uniqueConstraint
  /// The PRIMARY KEY of the table (an INTEGER PRIMARY KEY is the rowid
  /// itself and has no index).
  case primaryKey

  init(_ origin: sqlitebridge.IndexOrigin) {
    switch origin {
    case .UniqueConstraint: self = .uniqueConstraint
    case .PrimaryKey: self = .primaryKey
    default: self = .createIndex
    }
  }
}

/// One index of a table, as `Database.indexes(on:)` reports it.
public struct IndexInfo: Sendable, Equatable {
  /// The index's name (`sqlite_autoindex_<table>_<n>` for the indexes of
  /// constraints).
  public let name: String
  /// The indexed columns in key order; an empty string for an
  /// expression (`CREATE INDEX i ON t(a + 1)`).
  public let columns: [String]
  /// Whether the index is UNIQUE.
  public let isUnique: Bool
  /// What made the index.
  public let origin: IndexOrigin

  /// Makes a description of an index.
  public init(name: String, columns: [String], isUnique: Bool, origin: IndexOrigin) {
    self.name = name
    self.columns = columns
    self.isUnique = isUnique
    self.origin = origin
  }

  init(_ index: sqlitebridge.IndexInfo) {
    self.init(
      name: String(index.name), columns: strings(index.columns), isUnique: index.isUnique,
      origin: IndexOrigin(index.origin))
  }
}

/// One foreign key of a table, as `Database.foreignKeys(of:)` reports it (a
/// key over several columns is one entry).
public struct ForeignKeyInfo: Sendable, Equatable {
  /// The referenced table, as the REFERENCES clause names it.
  public let destinationTable: String
  /// The referencing columns of this table, in key order.
  public let columns: [String]
  /// The referenced columns, in the same order; empty when the key
  /// references the destination's primary key implicitly (`REFERENCES p`).
  public let destinationColumns: [String]
  /// The ON UPDATE action: "NO ACTION", "RESTRICT", "SET NULL", "SET
  /// DEFAULT" or "CASCADE".
  public let onUpdate: String
  /// The ON DELETE action, as `onUpdate`.
  public let onDelete: String

  /// Makes a description of a foreign key.
  public init(
    destinationTable: String, columns: [String], destinationColumns: [String], onUpdate: String = "NO ACTION",
    onDelete: String = "NO ACTION"
  ) {
    self.destinationTable = destinationTable
    self.columns = columns
    self.destinationColumns = destinationColumns
    self.onUpdate = onUpdate
    self.onDelete = onDelete
  }

  init(_ key: sqlitebridge.ForeignKeyInfo) {
    self.init(
      destinationTable: String(key.destinationTable), columns: strings(key.columns),
      destinationColumns: strings(key.destinationColumns), onUpdate: String(key.onUpdate),
      onDelete: String(key.onDelete))
  }
}

/// One row that breaks a foreign key, as `Database.foreignKeyCheck()`
/// reports it (from `PRAGMA foreign_key_check`).
public struct ForeignKeyViolation: Sendable, Equatable {
  /// The table holding the row.
  public let table: String
  /// The row's rowid; nil for a WITHOUT ROWID table.
  public let rowID: Int64?
  /// The table the broken key references.
  public let destinationTable: String
  /// Which foreign key of `table` is broken: its position in
  /// `foreignKeys(of: table)` (SQLite's foreign key id).
  public let foreignKeyIndex: Int

  /// Makes a description of a violation.
  public init(table: String, rowID: Int64?, destinationTable: String, foreignKeyIndex: Int) {
    self.table = table
    self.rowID = rowID
    self.destinationTable = destinationTable
    self.foreignKeyIndex = foreignKeyIndex
  }

  init(_ violation: sqlitebridge.ForeignKeyViolation) {
    self.init(
      table: String(violation.table), rowID: violation.rowID.value.map(Int64.init),
      destinationTable: String(violation.destinationTable),
      foreignKeyIndex: Int(violation.foreignKeyIndex))
  }
}

/// A C++ list of strings as a Swift array.
private func strings(_ list: sqlitebridge.interop.StringList) -> [String] {
  (0..<list.size()).map { String(list[$0]) }
}
