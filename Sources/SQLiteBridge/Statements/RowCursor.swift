import CxxStdlib
import SQLiteBridgeCore

/// The rows of one statement, one at a time (`Database.cursor`):
/// `while let row = try cursor.next() { … }`. Stopping early (`break`) is
/// fine: the statement goes back to the statement cache, reset, when the
/// cursor is released or has handed out its last row, so nothing keeps
/// running. Not `Sendable`: it belongs to its `Database`.
public final class RowCursor {
  let database: Database
  /// The statement while rows remain; nil once done, failed or released.
  private var statement: UnsafeMutablePointer<sqlitebridge.Statement>?
  private var columns: ColumnTable?

  /// The result columns' names, in order.
  public let columnNames: [String]

  init(database: Database, statement: consuming sqlitebridge.Statement) {
    self.database = database
    let storage = UnsafeMutablePointer<sqlitebridge.Statement>.allocate(capacity: 1)
    storage.initialize(to: statement)
    columnNames = (0..<storage.pointee.columnCount()).map { String(storage.pointee.columnName($0)) }
    self.statement = storage
  }

  deinit { release() }

  /// The next row, read in place: the view is valid until the next call.
  /// nil once every row was read (and from then on).
  ///
  /// - Throws: `DatabaseError` when a step fails; the cursor is done then.
  public func next() throws -> RowView? {
    guard let statement else { return nil }
    let hasRow: Bool
    do {
      hasRow = try database.step(&statement.pointee)
    } catch {
      release()
      throw error
    }
    guard hasRow else {
      release()
      return nil
    }
    // Read after the first step, as forEachRow does (a statement SQLite
    // re-prepared after a schema change knows its real columns then).
    let table = columns ?? ColumnTable(statement.pointee)
    columns = table
    return RowView(statement: UnsafePointer(statement), columns: table)
  }

  /// Gives the statement back to the cache (reset) now.
  private func release() {
    guard let statement else { return }
    statement.deinitialize(count: 1)
    statement.deallocate()
    self.statement = nil
  }
}
