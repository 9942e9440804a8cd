import CxxStdlib
import SQLiteBridgeCore

// Running a request: the core renders it and lends the cached statement for
// its text with every argument bound; Swift steps it as any statement.

extension QueryInterfaceRequest {
  typealias Statement = sqlitebridge.interop.RequestStatement

  /// The statement `kind` of the request, lent from `db`'s cache, bound.
  @usableFromInline
  func lend(
    _ db: Database, _ kind: sqlitebridge.interop.RequestStatement,
    _ assignments: sqlitebridge.interop.AssignmentList = .init()
  ) throws -> sqlitebridge.Statement {
    var statement = sqlitebridge.Statement()
    let lent = withUnsafePointer(to: assignments) { assignments in
      Building.lend(&db.core, core, kind, assignments.pointee, &statement)
    }
    guard lent else { throw db.lastError }
    return statement
  }

  /// The SQL the request runs (`fetchAll`), with its arguments.
  ///
  /// - Throws: as the request's fetches do, before anything runs.
  public func makeSQL(_ db: Database) throws -> SQL {
    var rendered = sqlitebridge.SQL()
    guard Building.render(&db.core, core, .Select, .init(), &rendered) else { throw db.lastError }
    return withUnsafePointer(to: &rendered) { sql in
      let count = Building.argumentCount(sql.pointee)
      return SQL(
        sql: String(Building.text(sql.pointee)),
        arguments: (0..<count).map { DatabaseValue(Building.argument(sql.pointee, $0)) })
    }
  }

  /// The number of rows the request returns (`SELECT COUNT(*)`, over the
  /// request as a subquery when it is distinct, grouped, limited or selects
  /// its own columns).
  ///
  /// - Throws: as the type's documentation says.
  public func fetchCount(_ db: Database) throws -> Int {
    var statement = try lend(db, .Count)
    var count: Int64 = 0
    try db.forEachRow(of: &statement) { row in count = try row.get(0, as: Int64.self) }
    return Int(count)
  }

  /// Deletes the rows of the request's table that the request returns (its
  /// filters, joins, grouping and limit; order and selection change
  /// nothing); returns how many went.
  ///
  /// - Throws: as the type's documentation says, and SQLite's error for a
  ///   broken constraint (nothing is deleted then).
  @discardableResult
  public func deleteAll(_ db: Database) throws -> Int {
    var statement = try lend(db, .Delete)
    while try db.step(&statement) {}
    return db.changes
  }

  /// Sets `assignments` in the rows the request returns (chosen as
  /// `deleteAll` chooses them); returns how many changed.
  ///
  /// - Throws: as the type's documentation says; `.misuse` for no
  ///   assignment; SQLite's error for a broken constraint (no row changes
  ///   then).
  @discardableResult
  public func updateAll(_ db: Database, _ assignments: ColumnAssignment...) throws -> Int {
    try updateAll(db, assignments)
  }

  /// `updateAll(_:_:)` with the assignments in an array.
  ///
  /// - Throws: as `updateAll(_:_:)`.
  @discardableResult
  public func updateAll(_ db: Database, _ assignments: [ColumnAssignment]) throws -> Int {
    var list = sqlitebridge.interop.AssignmentList()
    for assignment in assignments {
      _ = Building.appendAssignment(&list, std.string(assignment.column), assignment.value.core)
    }
    var statement = try lend(db, .Update, list)
    while try db.step(&statement) {}
    return db.changes
  }
}

extension QueryInterfaceRequest where RowDecoder: FetchableRecord {
  /// Every row the request returns, each built with `init(row:)`.
  /// (Inlinable: the caller's module specializes the loop for its record
  /// type, as `Database.fetch` does.)
  ///
  /// - Throws: as the type's documentation says, and whatever `init(row:)`
  ///   throws (which ends the fetch).
  @inlinable
  public func fetchAll(_ db: Database) throws -> [RowDecoder] {
    if hasAssociations { return try fetchWithAssociations(db, .Select) { try RowDecoder(row: $0) } }
    var statement = try lend(db, .Select)
    return try db.fetchRecords(RowDecoder.self, &statement)
  }

  /// The first row the request returns (`LIMIT 1` within its own limit), or
  /// nil.
  ///
  /// - Throws: as `fetchAll(_:)`.
  @inlinable
  public func fetchOne(_ db: Database) throws -> RowDecoder? {
    if hasAssociations { return try fetchWithAssociations(db, .SelectOne) { try RowDecoder(row: $0) }.first }
    var statement = try lend(db, .SelectOne)
    return try db.fetchFirstRecord(RowDecoder.self, &statement)
  }
}

extension QueryInterfaceRequest where RowDecoder == Row {
  /// Every row the request returns, all columns kept.
  ///
  /// - Throws: as the type's documentation says.
  public func fetchAll(_ db: Database) throws -> [Row] {
    if hasAssociations { return try fetchWithAssociations(db, .Select) { $0.copy() } }
    var statement = try lend(db, .Select)
    return try db.rows(&statement)
  }

  /// The first row the request returns, or nil.
  ///
  /// - Throws: as `fetchAll(_:)`.
  public func fetchOne(_ db: Database) throws -> Row? {
    if hasAssociations { return try fetchWithAssociations(db, .SelectOne) { $0.copy() }.first }
    var statement = try lend(db, .SelectOne)
    return try db.rows(&statement).first
  }
}

extension QueryInterfaceRequest where RowDecoder: DatabaseValueConvertible {
  /// The first column of every row the request returns, as `RowDecoder`.
  ///
  /// - Throws: as the type's documentation says; `.mismatch` naming the
  ///   column for a value that does not convert (NULL converts only to an
  ///   optional).
  public func fetchAll(_ db: Database) throws -> [RowDecoder] {
    var statement = try lend(db, .Select)
    var result: [RowDecoder] = []
    try db.forEachRow(of: &statement) { row in result.append(try row.get(0, as: RowDecoder.self)) }
    return result
  }

  /// The first column of the first row, or nil when there is no row.
  ///
  /// - Throws: as `fetchAll(_:)`.
  public func fetchOne(_ db: Database) throws -> RowDecoder? {
    var statement = try lend(db, .SelectOne)
    var value: RowDecoder?
    try db.forEachRow(of: &statement) { row in value = try row.get(0, as: RowDecoder.self) }
    return value
  }
}
