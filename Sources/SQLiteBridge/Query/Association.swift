import CxxStdlib
import SQLiteBridgeCore

/// A relation from the rows of `Origin`'s table to those of `Destination`'s,
/// declared once on the origin type (`static let author = belongsTo(Author.self)`)
/// and used by requests: `Book.including(required: Book.author)`.
///
/// The foreign key comes from the schema when the request runs, unless the
/// association gives one (`using:`); none, or several, matching throws
/// `DatabaseError` naming both tables. An association's key (default: the
/// destination's `databaseTableName`) names its scope in fetched rows
/// (`row.scopes["author"]`), its prefetched rows, and the property a
/// `Decodable` record decodes it into.
public protocol Association: Sendable {
  /// The type the association starts from.
  associatedtype Origin
  /// The type it reaches.
  associatedtype Destination
  /// The core's association (the library's own; do not conform other types).
  var associationCore: AssociationCore { get }
  /// The association made from `associationCore`.
  init(associationCore: AssociationCore)
}

/// The core's association behind an `Association` value (immutable; copies
/// share it).
public struct AssociationCore: @unchecked Sendable {
  let core: sqlitebridge.Association
  /// Whether an association included with it selects columns (a request
  /// that only joins it still has scopes then).
  let selectsNested: Bool

  init(core: sqlitebridge.Association, selectsNested: Bool = false) {
    self.core = core
    self.selectsNested = selectsNested
  }

  /// `core`, with what this one includes.
  func with(_ core: sqlitebridge.Association) -> AssociationCore {
    AssociationCore(core: core, selectsNested: selectsNested)
  }
}

/// The columns of a foreign key, for an association the schema does not
/// declare (or declares more than once): `originColumns` are the columns of
/// the table that holds the key (the child: the book, for both
/// `Book.belongsTo(Author.self)` and `Author.hasMany(Book.self)`),
/// `destinationColumns` the columns they reference (nil: the other table's
/// primary key).
public struct ForeignKey: Sendable, Hashable {
  /// The child's columns.
  public var originColumns: [String]
  /// The referenced columns (nil: the primary key).
  public var destinationColumns: [String]?

  /// A foreign key from `originColumns` to `destinationColumns`.
  public init(_ originColumns: [String], to destinationColumns: [String]? = nil) {
    self.originColumns = originColumns
    self.destinationColumns = destinationColumns
  }
}

/// A name for a table of a request, to reach an associated table's columns
/// from the request's own filter or ordering:
/// `let author = TableAlias(name: "a")`,
/// `Book.joining(required: Book.author.aliased(author)).filter(author[Column("name")] == "Ann")`.
public struct TableAlias: Sendable, Hashable {
  /// The name the table takes in the SQL.
  public let name: String

  /// An alias called `name` (two tables of one request under one alias
  /// throw `.misuse` when the request runs).
  public init(name: String) {
    self.name = name
  }

  /// `"name"."column"`.
  public subscript(_ column: Column) -> SQLExpression {
    SQLExpression(sqlitebridge.interop.QueryBuilding.qualifiedColumn(std.string(name), std.string(column.name)))
  }

  /// `"name"."column"`.
  public subscript(_ column: String) -> SQLExpression { self[Column(column)] }
}

extension Association {
  /// The association's key: its scope, its prefetched rows' and a
  /// `Decodable` property's name.
  public var key: String { String(associationCore.core.key()) }

  /// The same association under `key`.
  public func forKey(_ key: String) -> Self {
    Self(associationCore: associationCore.with(associationCore.core.forKey(std.string(key))))
  }

  /// The same association whose table is called `alias` in the SQL.
  public func aliased(_ alias: TableAlias) -> Self {
    Self(associationCore: associationCore.with(associationCore.core.aliased(std.string(alias.name))))
  }

  /// Keeps the destination rows where `predicate` holds (in the JOIN's ON
  /// clause: an optional association keeps its origin rows). Columns refer
  /// to the destination.
  public func filter(_ predicate: some SQLExpressible) -> Self {
    Self(associationCore: associationCore.with(associationCore.core.filter(predicate.sqlExpression.core)))
  }

  /// Orders the destination's rows (after the request's own orderings;
  /// prefetched rows by these alone).
  public func order(_ orderings: any SQLOrderingTerm...) -> Self {
    let list = QueryInterfaceRequest<Row>.list(orderings.map(\.orderingCore))
    return Self(associationCore: associationCore.with(associationCore.core.order(list)))
  }

  /// The destination's selected columns (default: all).
  public func select(_ selection: any SQLSelectable...) -> Self {
    let list = QueryInterfaceRequest<Row>.list(selection.map(\.selectionCore))
    return Self(associationCore: associationCore.with(associationCore.core.select(list)))
  }

  // MARK: Associations of the destination

  /// Joins `association` (of this one's destination) with it, INNER JOIN,
  /// and selects its columns after this one's, as the scope
  /// `association.key` of this one's scope (`row.scopes["book"]?.scopes["author"]`;
  /// a `Decodable` record's nested property): `Review.including(required:
  /// Review.book.including(required: Book.author))`. Under an association
  /// only joined, the scope is the request row's own.
  public func including<A: Association>(required association: A) -> Self where A.Origin == Destination {
    nesting(association, .IncludingRequired, selects: true)
  }

  /// `including(required:)` with a LEFT JOIN: rows without a match are kept
  /// (the scope is absent; an optional property is nil).
  public func including<A: Association>(optional association: A) -> Self where A.Origin == Destination {
    nesting(association, .IncludingOptional, selects: true)
  }

  /// Joins `association` (INNER JOIN) with this one without selecting it:
  /// a filter on the associated table.
  public func joining<A: Association>(required association: A) -> Self where A.Origin == Destination {
    nesting(association, .JoiningRequired, selects: false)
  }

  /// Joins `association` (LEFT JOIN) with this one without selecting it.
  public func joining<A: Association>(optional association: A) -> Self where A.Origin == Destination {
    nesting(association, .JoiningOptional, selects: false)
  }

  private func nesting<A: Association>(_ association: A, _ kind: sqlitebridge.IncludeKind, selects: Bool) -> Self {
    Self(
      associationCore: AssociationCore(
        core: associationCore.core.including(association.associationCore.core, kind),
        selectsNested: associationCore.selectsNested || selects || association.associationCore.selectsNested))
  }
}

/// The origin holds a foreign key to the destination (a book belongs to its
/// author): `Book.belongsTo(Author.self)`.
public struct BelongsToAssociation<Origin, Destination>: Association {
  /// The core's association.
  public let associationCore: AssociationCore
  /// The association made from `associationCore` (the library's own use).
  public init(associationCore: AssociationCore) { self.associationCore = associationCore }
}

/// The destination holds a foreign key to the origin, one row per origin
/// row (an author's profile): `Author.hasOne(Profile.self)`.
public struct HasOneAssociation<Origin, Destination>: Association {
  /// The core's association.
  public let associationCore: AssociationCore
  /// The association made from `associationCore` (the library's own use).
  public init(associationCore: AssociationCore) { self.associationCore = associationCore }
}

/// The destination holds a foreign key to the origin, many rows per origin
/// row (an author's books): `Author.hasMany(Book.self)`.
public struct HasManyAssociation<Origin, Destination>: Association {
  /// The core's association.
  public let associationCore: AssociationCore
  /// The association made from `associationCore` (the library's own use).
  public init(associationCore: AssociationCore) { self.associationCore = associationCore }

  /// The number of the destination's rows for the origin row (a correlated
  /// `COUNT(*)`), for `annotated(with:)`, `filter` and `having`:
  /// `Author.having(Author.books.count > 2)`.
  public var count: SQLExpression { SQLExpression(associationCore.core.count()) }

  /// Whether the origin row has none of the destination's rows (`NOT
  /// EXISTS`).
  public var isEmpty: SQLExpression { SQLExpression(associationCore.core.isEmpty()) }
}

extension TableRecord {
  static func association<A: Association>(
    _ kind: sqlitebridge.AssociationKind, _ table: String, key: String?, using foreignKey: ForeignKey?
  ) -> A {
    var core = sqlitebridge.interop.QueryBuilding.association(
      kind, std.string(table), foreignKey != nil, Database.stringList(foreignKey?.originColumns ?? []),
      Database.stringList(foreignKey?.destinationColumns ?? []))
    if let key { core = core.forKey(std.string(key)) }
    return A(associationCore: AssociationCore(core: core))
  }

  /// The association through this table's foreign key to `destination`'s
  /// (key: `destination`'s table name unless `key` gives one; foreign key:
  /// the schema's, unless `using` gives one).
  public static func belongsTo<D: TableRecord>(
    _ destination: D.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
  ) -> BelongsToAssociation<Self, D> {
    association(.BelongsTo, D.databaseTableName, key: key, using: foreignKey)
  }

  /// The association through `destination`'s foreign key to this table,
  /// one row.
  public static func hasOne<D: TableRecord>(
    _ destination: D.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
  ) -> HasOneAssociation<Self, D> {
    association(.HasOne, D.databaseTableName, key: key, using: foreignKey)
  }

  /// The association through `destination`'s foreign key to this table,
  /// many rows.
  public static func hasMany<D: TableRecord>(
    _ destination: D.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
  ) -> HasManyAssociation<Self, D> {
    association(.HasMany, D.databaseTableName, key: key, using: foreignKey)
  }

  /// `all().including(required: association)`.
  public static func including<A: Association>(required association: A) -> QueryInterfaceRequest<Self>
  where A.Origin == Self {
    all().including(required: association)
  }

  /// `all().including(optional: association)`.
  public static func including<A: Association>(optional association: A) -> QueryInterfaceRequest<Self>
  where A.Origin == Self {
    all().including(optional: association)
  }

  /// `all().including(all: association)`.
  public static func including<A: Association>(all association: A) -> QueryInterfaceRequest<Self>
  where A.Origin == Self {
    all().including(all: association)
  }

  /// `all().joining(required: association)`.
  public static func joining<A: Association>(required association: A) -> QueryInterfaceRequest<Self>
  where A.Origin == Self {
    all().joining(required: association)
  }

  /// `all().joining(optional: association)`.
  public static func joining<A: Association>(optional association: A) -> QueryInterfaceRequest<Self>
  where A.Origin == Self {
    all().joining(optional: association)
  }

  /// `all().annotated(with: selection…)`.
  public static func annotated(with selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> {
    all().annotated(with: selection)
  }

  /// `all().having(predicate)`.
  public static func having(_ predicate: some SQLExpressible) -> QueryInterfaceRequest<Self> {
    all().having(predicate)
  }
}

extension TableRecord where Self: PersistableRecord {
  /// The request for the rows `association` reaches from this record (found
  /// by its primary key, from `encode(to:)`): `author.request(for:
  /// Author.books)`. A key column `encode(to:)` does not set is NULL, and
  /// the request then finds nothing.
  public func request<A: Association>(for association: A) -> QueryInterfaceRequest<A.Destination>
  where A.Origin == Self {
    var container = PersistenceContainer()
    encode(to: &container)
    var origin = QueryInterfaceRequest<Self>(table: Self.databaseTableName)
    for key in Self.primaryKey {
      origin = origin.filter(Column(key) == SQLExpression(value: container[key] ?? .null))
    }
    return QueryInterfaceRequest(core: origin.core.associated(association.associationCore.core))
  }
}
