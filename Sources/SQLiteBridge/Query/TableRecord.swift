/// A type that stands for one table: its requests start here
/// (`Note.filter(Column("pinned") == true).fetchAll(db)`).
/// `PersistableRecord` refines it.
public protocol TableRecord {
  /// The table the type stands for (any name: it is quoted).
  static var databaseTableName: String { get }
}

extension TableRecord {
  /// Every row of the table (`SELECT * FROM "table"`).
  public static func all() -> QueryInterfaceRequest<Self> {
    QueryInterfaceRequest(table: databaseTableName)
  }

  /// `all().filter(predicate)`.
  public static func filter(_ predicate: some SQLExpressible) -> QueryInterfaceRequest<Self> {
    all().filter(predicate)
  }

  /// `all().filter(key: key)`: the row whose primary key (from the schema)
  /// is `key`.
  public static func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<Self> {
    all().filter(key: key)
  }

  /// `all().filter(keys: keys)`.
  public static func filter(keys: some Sequence<some DatabaseValueConvertible>) -> QueryInterfaceRequest<Self> {
    all().filter(keys: keys)
  }

  /// `all().order(orderings…)`.
  public static func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<Self> {
    all().order(orderings)
  }

  /// `all().select(selection…)`.
  public static func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> {
    all().select(selection)
  }

  /// `all().select(selection…, as: type)`: `Note.select(Column("title"), as:
  /// String.self)`.
  public static func select<T>(_ selection: any SQLSelectable..., as type: T.Type) -> QueryInterfaceRequest<T> {
    QueryInterfaceRequest<T>(core: all().select(selection).core)
  }

  /// `all().limit(limit, offset: offset)`.
  public static func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<Self> {
    all().limit(limit, offset: offset)
  }

  /// `all().matching(pattern)` (the table is an FTS5 table).
  public static func matching(_ pattern: FTS5Pattern?) -> QueryInterfaceRequest<Self> {
    all().matching(pattern)
  }

  /// The number of rows of the table.
  ///
  /// - Throws: `DatabaseError`: SQLite's "no such table" when it does not
  ///   exist, `.misuse` on a closed database.
  public static func fetchCount(_ db: Database) throws -> Int {
    try all().fetchCount(db)
  }

  /// Deletes every row of the table; returns how many went.
  ///
  /// - Throws: as `fetchCount(_:)`, and SQLite's error for a broken
  ///   constraint (nothing is deleted then).
  @discardableResult
  public static func deleteAll(_ db: Database) throws -> Int {
    try all().deleteAll(db)
  }
}

extension FetchableRecord where Self: TableRecord {
  /// Every row of the table, each built with `init(row:)`.
  ///
  /// - Throws: as `QueryInterfaceRequest.fetchAll(_:)`.
  public static func fetchAll(_ db: Database) throws -> [Self] {
    try all().fetchAll(db)
  }

  /// The row whose primary key (from the schema) is `key`, or nil.
  ///
  /// - Throws: as `QueryInterfaceRequest.fetchOne(_:)`, and `.misuse`
  ///   naming the table when its primary key has several columns.
  public static func fetchOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Self? {
    try all().filter(key: key).fetchOne(db)
  }
}
