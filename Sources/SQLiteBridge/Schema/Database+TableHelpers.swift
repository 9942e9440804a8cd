import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

// Table helpers, for people who would rather not write SQL. The core writes
// every statement (`interop::TableHelperAccess`, the text `Database::insert`,
// `update`, `remove` and `select` run in C++): identifiers quoted, so any
// name, however hostile, is just a name; values bound. `whereSQL` is caller
// SQL (an expression, put in parentheses) whose `?` parameters take
// `arguments`.
extension Database {
  /// `INSERT OR <onConflict> INTO "table" ("column", ...) VALUES (?, ...)`,
  /// the columns and values in the literal's order; no values inserts
  /// `DEFAULT VALUES`. Returns the new row's rowid, or 0 when `.ignore`
  /// skipped the row.
  ///
  /// - Throws: `DatabaseError` with `.misuse` when the table or a column
  ///   name holds NUL (nothing runs); SQLite's error for a missing table or
  ///   column or a broken constraint (`.constraintUnique`, ...; what the
  ///   statement or transaction keeps then is `onConflict`'s rule).
  @discardableResult
  public func insert(into table: String, _ values: NamedArguments, onConflict: ConflictResolution = .abort) throws
    -> Int64
  {
    var sql = std.string()
    let elements = values.elements
    guard
      sqlitebridge.interop.TableHelperAccess.insertSQL(
        &core, std.string(table), Self.stringList(elements.map(\.0)), onConflict.cxx, &sql)
    else { throw lastError }
    try execute(String(sql), elements.map(\.1))
    return sqlitebridge.interop.TableHelperAccess.insertedRowID(core)
  }

  /// `UPDATE "table" SET "column" = ?, ... WHERE (whereSQL)`, the `values`
  /// bound first, then `arguments` to `whereSQL`'s parameters. Returns the
  /// number of rows changed.
  ///
  /// - Throws: `DatabaseError` with `.misuse`, changing nothing, when
  ///   `values` is empty, `whereSQL` is empty or only whitespace (write
  ///   `"1"` to update every row), or a name holds NUL; `.range` when
  ///   `arguments` do not match `whereSQL`'s parameters; SQLite's error
  ///   otherwise.
  @discardableResult
  public func update(
    _ table: String, set values: NamedArguments, where whereSQL: String, _ arguments: [DatabaseValue] = []
  )
    throws -> Int
  {
    var sql = std.string()
    let elements = values.elements
    guard
      sqlitebridge.interop.TableHelperAccess.updateSQL(
        &core, std.string(table), Self.stringList(elements.map(\.0)), std.string(whereSQL), &sql)
    else { throw lastError }
    try execute(String(sql), elements.map(\.1) + arguments)
    return changes
  }

  /// `DELETE FROM "table" WHERE (whereSQL)`. Returns the number of rows
  /// deleted.
  ///
  /// - Throws: `DatabaseError` with `.misuse`, deleting nothing, when
  ///   `whereSQL` is empty or only whitespace (write `"1"` to delete every
  ///   row) or the table name holds NUL; as `update` otherwise.
  @discardableResult
  public func delete(from table: String, where whereSQL: String, _ arguments: [DatabaseValue] = []) throws -> Int {
    var sql = std.string()
    guard sqlitebridge.interop.TableHelperAccess.deleteSQL(&core, std.string(table), std.string(whereSQL), &sql)
    else { throw lastError }
    try execute(String(sql), arguments)
    return changes
  }

  /// `SELECT "table"."column" AS "column", ... FROM "table" [WHERE
  /// (whereSQL)] [ORDER BY "table"."column", ...] [LIMIT ?]`, every row as a
  /// dictionary keyed by the column names as given (all of them for `*`),
  /// like `execute`. No columns selects `*`; nil (or empty)
  /// `whereSQL` reads every row. `orderBy` holds column names only, each
  /// sorted ascending (write SQL with `execute` for DESC or expressions);
  /// `limit` is bound after `arguments`.
  ///
  /// - Throws: `DatabaseError` with `.misuse` when a name holds NUL or
  ///   `limit` is negative; `.error` for a missing table or column ("no such
  ///   column": qualified, a name is never taken for a string, as SQLite
  ///   takes an unknown double-quoted name).
  public func select(
    _ columns: [String] = [], from table: String, where whereSQL: String? = nil, _ arguments: [DatabaseValue] = [],
    orderBy: [String] = [], limit: Int? = nil
  ) throws -> [[String: DatabaseValue]] {
    var parts = sqlitebridge.interop.SelectParts()
    parts.columns = Self.stringList(columns)
    parts.table = std.string(table)
    parts.whereSQL = std.string(whereSQL ?? "")
    parts.orderBy = Self.stringList(orderBy)
    parts.hasLimit = limit != nil
    parts.limit = Int64(limit ?? 0)
    var sql = std.string()
    guard sqlitebridge.interop.TableHelperAccess.selectSQL(&core, parts, &sql) else { throw lastError }
    return try execute(String(sql), limit.map { arguments + [.integer(Int64($0))] } ?? arguments)
  }

  /// `CREATE TABLE [IF NOT EXISTS] "name" (columns...)`.
  ///
  /// - Throws: `DatabaseError` with `.misuse`, creating nothing, when
  ///   `columns` is empty or a column is not a valid `ColumnDefinition` (see
  ///   there); SQLite's error when the table exists (without `ifNotExists`)
  ///   or SQLite refuses the definition.
  public func createTable(_ name: String, ifNotExists: Bool = false, _ columns: [ColumnDefinition]) throws {
    var list = sqlitebridge.interop.ColumnDefinitionList()
    for column in columns { list.push_back(try column.cxx()) }
    guard core.createTable(std.string(name), list, ifNotExists) else { throw lastError }
  }

  /// `ALTER TABLE "table" ADD COLUMN column`.
  ///
  /// - Throws: `DatabaseError` with `.misuse` for a column that is not a
  ///   valid `ColumnDefinition`; SQLite's error when ALTER TABLE cannot add
  ///   it (a PRIMARY KEY or UNIQUE column, NOT NULL without a default, a
  ///   missing table).
  public func addColumn(_ column: ColumnDefinition, to table: String) throws {
    guard core.addColumn(try column.cxx(), std.string(table)) else { throw lastError }
  }

  /// `DROP TABLE [IF EXISTS] "name"`.
  ///
  /// - Throws: `DatabaseError` with `.misuse` when the name holds NUL;
  ///   SQLite's error when the table does not exist (without `ifExists`).
  public func dropTable(_ name: String, ifExists: Bool = false) throws {
    guard core.dropTable(std.string(name), ifExists) else { throw lastError }
  }

  /// `names` as the core's list of strings.
  static func stringList(_ names: [String]) -> sqlitebridge.interop.StringList {
    var list = sqlitebridge.interop.StringList()
    list.reserve(names.count)
    for name in names { list.push_back(std.string(name)) }
    return list
  }
}
