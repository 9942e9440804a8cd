/// A table named at run time, for requests without a record type:
/// `Table("notes").filter(Column("pinned") == true).fetchAll(db)` gives
/// `[Row]`; `Table<Note>("archive")` decodes `Note`s from another table.
public struct Table<RowDecoder>: Sendable {
  /// The table's name (any name: it is quoted).
  public let tableName: String

  /// The table called `tableName`, its rows decoded as `RowDecoder`.
  public init(_ tableName: String, as type: RowDecoder.Type = RowDecoder.self) {
    self.tableName = tableName
  }

  /// Every row of the table.
  public func all() -> QueryInterfaceRequest<RowDecoder> { QueryInterfaceRequest(table: tableName) }

  /// `all().filter(predicate)`.
  public func filter(_ predicate: some SQLExpressible) -> QueryInterfaceRequest<RowDecoder> {
    all().filter(predicate)
  }

  /// `all().filter(key: key)`.
  public func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<RowDecoder> {
    all().filter(key: key)
  }

  /// `all().order(orderings…)`.
  public func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<RowDecoder> {
    all().order(orderings)
  }

  /// `all().select(selection…)`.
  public func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<RowDecoder> {
    all().select(selection)
  }

  /// `all().limit(limit, offset: offset)`.
  public func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<RowDecoder> {
    all().limit(limit, offset: offset)
  }

  /// The number of rows of the table.
  ///
  /// - Throws: `DatabaseError`: "no such table" when it does not exist.
  public func fetchCount(_ db: Database) throws -> Int { try all().fetchCount(db) }

  /// Deletes every row; returns how many went.
  ///
  /// - Throws: as `fetchCount(_:)`, and SQLite's error for a broken
  ///   constraint.
  @discardableResult
  public func deleteAll(_ db: Database) throws -> Int { try all().deleteAll(db) }
}

extension Table where RowDecoder == Row {
  /// The table called `tableName`, its rows as `Row`s.
  public init(_ tableName: String) {
    self.tableName = tableName
  }
}
