import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// Schema introspection. Every rule is the core's (`Database::tableExists`
/// and the calls after it): names match ignoring ASCII case and are bound or
/// quoted, so any name is just a name; an unqualified name is looked for in
/// temp, main, then attached schemas; a name that names nothing as it is but
/// starts with `schema.` for a schema of this connection (`main`, `temp`, an
/// ATTACHed one) names the rest in that schema (`aux.t`), while a table
/// itself called "aux.t" wins as it is.
extension Database {
  /// Whether a table (ordinary, virtual or a virtual table's shadow table;
  /// SQLite's own `sqlite_schema` and `sqlite_sequence` too) is called
  /// `name`.
  ///
  /// - Throws: `DatabaseError` only on a real failure (`.misuse` when
  ///   closed); a missing table is `false`.
  public func tableExists(_ name: String) throws -> Bool {
    try answer(core.tableExists(std.string(name)))
  }

  /// Whether a view is called `name`.
  ///
  /// - Throws: as `tableExists(_:)`.
  public func viewExists(_ name: String) throws -> Bool {
    try answer(core.viewExists(std.string(name)))
  }

  /// Whether a trigger is called `name`.
  ///
  /// - Throws: as `tableExists(_:)`.
  public func triggerExists(_ name: String) throws -> Bool {
    try answer(core.triggerExists(std.string(name)))
  }

  /// Whether an index (one CREATE INDEX made, or one of a UNIQUE or PRIMARY
  /// KEY constraint) is called `name`.
  ///
  /// - Throws: as `tableExists(_:)`.
  public func indexExists(_ name: String) throws -> Bool {
    try answer(core.indexExists(std.string(name)))
  }

  /// The names of the tables of the main schema (ordinary and virtual ones),
  /// sorted by their UTF-8 bytes (SQLite's BINARY order). Left out: SQLite's
  /// own tables (`sqlite_*`), the shadow tables of virtual tables, views,
  /// and the tables of temp and attached schemas.
  ///
  /// - Throws: `DatabaseError` (`.misuse` when closed).
  public func tableNames() throws -> [String] {
    var names = sqlitebridge.interop.StringList()
    guard core.tableNames(&names) else { throw lastError }
    return (0..<names.size()).map { String(names[$0]) }
  }

  /// The columns of table (or view) `table` in declaration order, hidden
  /// and generated ones included.
  ///
  /// - Throws: `DatabaseError` with `.error` ("no such table: <table>")
  ///   when there is none; `.misuse` when closed.
  public func columns(in table: String) throws -> [ColumnInfo] {
    var list = sqlitebridge.interop.ColumnInfoList()
    guard core.columns(std.string(table), &list) else { throw lastError }
    return (0..<list.size()).map { ColumnInfo(list[$0]) }
  }

  /// The primary key of `table`: its columns in key order (WITHOUT ROWID
  /// tables too), or `["rowid"]` for a table without a declared primary key.
  ///
  /// - Throws: `DatabaseError` with `.error` ("no such table: <table>")
  ///   when no table (a view is not one) has that name.
  public func primaryKey(of table: String) throws -> [String] {
    var key = sqlitebridge.interop.StringList()
    guard core.primaryKey(std.string(table), &key) else { throw lastError }
    return (0..<key.size()).map { String(key[$0]) }
  }

  /// The indexes of `table`, sorted by name: those of CREATE INDEX and those
  /// SQLite made for UNIQUE and PRIMARY KEY constraints (not an INTEGER
  /// PRIMARY KEY, which is the rowid itself).
  ///
  /// - Throws: as `primaryKey(of:)`.
  public func indexes(on table: String) throws -> [IndexInfo] {
    var list = sqlitebridge.interop.IndexInfoList()
    guard core.indexes(std.string(table), &list) else { throw lastError }
    return (0..<list.size()).map { IndexInfo(list[$0]) }
  }

  /// The foreign keys of `table`, one entry per key (several columns
  /// grouped), in SQLite's id order (the last declared first): entry `i` is
  /// the key a `ForeignKeyViolation.foreignKeyIndex` of `i` names.
  ///
  /// - Throws: as `primaryKey(of:)`.
  public func foreignKeys(of table: String) throws -> [ForeignKeyInfo] {
    var list = sqlitebridge.interop.ForeignKeyInfoList()
    guard core.foreignKeys(std.string(table), &list) else { throw lastError }
    return (0..<list.size()).map { ForeignKeyInfo(list[$0]) }
  }

  /// Runs `PRAGMA integrity_check` (every schema of the connection) and
  /// returns what it finds (at most 100 lines, SQLite's default); `[]` when
  /// the database is sound.
  ///
  /// - Throws: `DatabaseError` only when the check cannot run (`.misuse`
  ///   when closed, `.corrupt` or `.notADatabase` when SQLite cannot even
  ///   read the schema).
  public func integrityCheck() throws -> [String] {
    var problems = sqlitebridge.interop.StringList()
    guard core.integrityCheck(&problems) else { throw lastError }
    return (0..<problems.size()).map { String(problems[$0]) }
  }

  /// Runs `PRAGMA foreign_key_check` (every table of the main schema,
  /// whether or not foreign keys are enforced) and returns the rows that
  /// break a foreign key; `[]` when none does.
  ///
  /// - Throws: `DatabaseError` only when the check cannot run (`.misuse`
  ///   when closed).
  public func foreignKeyCheck() throws -> [ForeignKeyViolation] {
    var list = sqlitebridge.interop.ForeignKeyViolationList()
    guard core.foreignKeyCheck(&list) else { throw lastError }
    return (0..<list.size()).map { ForeignKeyViolation(list[$0]) }
  }

  /// An exists check's answer: false with the core's error clear is "no".
  private func answer(_ found: Bool) throws -> Bool {
    if !found, core.lastError().code != 0 { throw lastError }
    return found
  }
}
