import SQLiteBridgeCore

/// The current row inside `forEachRow` (or an `executeScript` row callback),
/// read straight from the statement: nothing is copied until asked for.
///
/// Valid only during the call it is passed to; `copy()` makes a `Row` that
/// may outlive it.
public struct RowView {
  @usableFromInline let statement: UnsafePointer<sqlitebridge.Statement>
  @usableFromInline let columns: ColumnTable
  /// `columns.count`, kept here so that a read checks its index without
  /// loading it from the table.
  @usableFromInline let columnCount: Int32
  /// The statement's column this view's column 0 is (0, or where an
  /// included association's scope starts). With `columnCount`, one word:
  /// the view stays three words, passed in registers.
  @usableFromInline let offset: Int32

  @usableFromInline
  init(statement: UnsafePointer<sqlitebridge.Statement>, columns: ColumnTable, offset: Int32 = 0) {
    self.statement = statement
    self.columns = columns
    self.columnCount = columns.count
    self.offset = offset
  }

  /// The included associations' scopes and prefetched rows, for a row of a
  /// request with associations; nil otherwise.
  @usableFromInline var scoping: RowScoping? { columns.scoping }

  /// Number of columns.
  @inlinable public var count: Int { Int(columnCount) }

  /// The name SQL gives column `index` (alias or column name). Traps when
  /// `index` is out of range.
  public func columnName(_ index: Int) -> String { columns.names[index] }

  /// The value of column `index`. Traps when `index` is out of range, as an
  /// array does.
  @inlinable @inline(__always)
  public subscript(index: Int) -> DatabaseValue {
    precondition(index >= 0 && index < count, "RowView index \(index) out of range (\(count) columns)")
    return DatabaseValue(statement.pointee.column(offset &+ Int32(index)))
  }

  /// The value of the leftmost column named `name` (ASCII case-insensitive);
  /// nil when no column has that name.
  @inlinable
  public subscript(name: String) -> DatabaseValue? {
    columns.index(of: name).map { self[$0] }
  }

  /// The row, copied, with every column kept in order (and its scopes and
  /// prefetched rows).
  public func copy() -> Row {
    var row = Row(
      columnNames: columns.names,
      values: (0..<Int32(columns.count)).map { DatabaseValue(statement.pointee.column(offset &+ $0)) })
    if scoping != nil {
      row.scopes = scopes
      row.prefetchedRows = prefetchedRows
    }
    return row
  }
}
