import Foundation
import SQLiteBridge
import Testing

/// Associations from Swift (issue 40): belongsTo / hasOne / hasMany,
/// required and optional, `including(all:)` prefetched with one extra
/// query, counts in annotations, filters and HAVING, filters on associated
/// tables, self-joins and two associations to one table; rows, `Row.scopes`
/// and `Decodable` records. Mirrors Tests/CxxTests/Query/QueryAssociationTests.cpp.
@Suite("Query interface associations")
struct QueryAssociationTests {
  struct Author: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "authors"
    static let books = hasMany(Book.self)
    static let profile = hasOne(Profile.self, key: "profile")
    var id: Int64
    var name: String
    var country: String?
  }

  struct Book: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "books"
    static let author = belongsTo(Author.self, key: "author")
    var id: Int64
    var title: String
    var year: Int64?
    var authorId: Int64?
  }

  struct Profile: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "profiles"
    var id: Int64
    var authorId: Int64
    var bio: String
  }

  struct Person: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "people"
    static let manager = belongsTo(Person.self, key: "manager")
    static let reports = hasMany(Person.self, key: "reports")
    var id: Int64
    var name: String
    var managerId: Int64?
  }

  struct Translation: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "translations"
    static let author = belongsTo(Author.self, key: "author", using: ForeignKey(["authorId"]))
    static let translator = belongsTo(Author.self, key: "translator", using: ForeignKey(["translatorId"], to: ["id"]))
    var id: Int64
  }

  /// A book with its author, decoded from the author's scope.
  struct BookInfo: Decodable, FetchableRecord, Equatable {
    var book: Book
    var author: Author
  }

  /// A book and its author when it has one.
  struct OptionalAuthorInfo: Decodable, FetchableRecord, Equatable {
    var title: String
    var author: Author?
  }

  /// An author with every book, prefetched.
  struct AuthorInfo: Decodable, FetchableRecord, Equatable {
    var name: String
    var books: [Book]
  }

  /// A translation with both of its authors (the same table twice).
  struct TranslationInfo: Decodable, FetchableRecord {
    var id: Int64
    var author: Author
    var translator: Author?
  }

  /// A record with a hand-written `init(row:)` reading a scope, as a copied
  /// `Row` and as a view the included records are built from.
  struct Titled: FetchableRecord {
    var title: String
    var authorName: String?
    var author: Author?
    var named: AuthorName?
    init(row: RowView) throws {
      title = try row.get("title", as: String.self)
      authorName = row.scopes["author"]?["name"].flatMap { String.fromDatabaseValue($0) }
      author = try row.scope("author").map(Author.init(row:))  // Decodable's init(row:)
      named = try row.scope("author").map(AuthorName.init(row:))
    }
  }

  /// Reads by index and by name: in a scope's view, column 0 is the scope's.
  struct AuthorName: FetchableRecord, Equatable {
    var id: Int64
    var name: String
    init(id: Int64, name: String) {
      self.id = id
      self.name = name
    }
    init(row: RowView) throws {
      id = try row.get(0, as: Int64.self)
      name = try row.get("name", as: String.self)
      precondition(row.count == 3 && row[1] == .text(name))
    }
  }

  /// A book with its author and the author's profile (nested scopes).
  struct BookWithAuthorProfile: Decodable, FetchableRecord {
    struct AuthorWithProfile: Decodable {
      var name: String
      var profile: Profile?
    }
    var title: String
    var author: AuthorWithProfile
  }

  /// The same nested scope read by hand, from the author's scope's view.
  struct HandBook: FetchableRecord {
    var title: String
    var bio: String?
    init(row: RowView) throws {
      title = try row.get("title", as: String.self)
      bio = try row.scope("author")?.scope("profile").map { try $0.get("bio", as: String.self) }
    }
  }

  func library() throws -> Database {
    let db = try Database(path: ":memory:")
    try db.executeScript(
      """
      CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT);
      CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL, year INTEGER, authorId INTEGER REFERENCES authors(id));
      CREATE TABLE profiles (id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL UNIQUE REFERENCES authors, bio TEXT NOT NULL);
      CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL, managerId INTEGER REFERENCES people(id));
      CREATE TABLE translations (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES authors(id),
        translatorId INTEGER REFERENCES authors(id));
      INSERT INTO authors VALUES (1, 'Ann', 'FR'), (2, 'Bob', 'US'), (3, 'Cid', NULL);
      INSERT INTO books VALUES (1, 'A1', 1990, 1), (2, 'A2', 2001, 1), (3, 'B1', 2010, 2), (4, 'Orphan', NULL, NULL);
      INSERT INTO profiles VALUES (1, 2, 'Bob''s bio');
      INSERT INTO people VALUES (1, 'Boss', NULL), (2, 'Mid', 1), (3, 'Low', 2), (4, 'Solo', NULL);
      INSERT INTO translations VALUES (1, 1, 2), (2, 2, NULL);
      """)
    return db
  }

  @Test("including(required:) selects the scope; a Decodable record decodes it by key")
  func includingRequired() throws {
    let db = try library()
    let request = Book.including(required: Book.author).order(Column("id"))
    #expect(
      try request.makeSQL(db).sql
        == #"SELECT "books".*, "authors".* FROM "books" JOIN "authors" ON "authors"."id" = "books"."authorId" ORDER BY "books"."id""#
    )
    let rows = try request.asRequest(of: Row.self).fetchAll(db)
    #expect(rows.count == 3)
    #expect(rows[0]["title"] == "A1")
    #expect(rows[0].scopes["author"]?["name"] == "Ann")
    #expect(rows[2].scopes["author"]?.columnNames == ["id", "name", "country"])
    let infos = try request.asRequest(of: BookInfo.self).fetchAll(db)
    #expect(infos.map(\.book.id) == [1, 2, 3])
    #expect(infos.map(\.author.name) == ["Ann", "Ann", "Bob"])
    let titled = try request.asRequest(of: Titled.self).fetchAll(db)
    #expect(titled.map(\.authorName) == ["Ann", "Ann", "Bob"])
    #expect(titled.map(\.author?.id) == [1, 1, 2])
    #expect(
      titled.map(\.named) == [
        AuthorName(id: 1, name: "Ann"), AuthorName(id: 1, name: "Ann"), AuthorName(id: 2, name: "Bob"),
      ])
    // Optional: no view where the book has no author.
    let orphans = try Book.including(optional: Book.author).order(Column("id")).asRequest(of: Titled.self)
      .fetchAll(db)
    #expect(orphans.map(\.author?.name) == ["Ann", "Ann", "Bob", nil])
  }

  @Test("including(optional:) keeps rows without a match: no scope, a nil property")
  func includingOptional() throws {
    let db = try library()
    let request = Book.including(optional: Book.author).order(Column("id"))
    let rows = try request.asRequest(of: Row.self).fetchAll(db)
    #expect(rows.count == 4)
    #expect(rows[3].scopes["author"] == nil)
    let infos = try request.asRequest(of: OptionalAuthorInfo.self).fetchAll(db)
    #expect(infos.map(\.author?.name) == ["Ann", "Ann", "Bob", nil])
    // The association's own filter joins in its ON clause: rows stay.
    let american = try Book.including(optional: Book.author.filter(Column("country") == "US")).order(Column("id"))
      .asRequest(of: OptionalAuthorInfo.self).fetchAll(db)
    #expect(american.map(\.author?.name) == [nil, nil, "Bob", nil])
    // hasOne, optional.
    let profiles = try Author.including(optional: Author.profile).order(Column("id")).asRequest(of: Row.self)
      .fetchAll(db)
    #expect(profiles.map { $0.scopes["profile"]?["bio"] } == [nil, "Bob's bio", nil])
  }

  @Test("joining filters on an associated table without selecting it; a TableAlias reaches its columns")
  func joining() throws {
    let db = try library()
    #expect(
      try Book.joining(required: Book.author.filter(Column("name") == "Ann")).fetchAll(db).map(\.id) == [1, 2])
    let author = TableAlias(name: "a")
    let request = Book.joining(required: Book.author.aliased(author)).filter(author[Column("country")] == "US")
    #expect(
      try request.makeSQL(db).sql
        == #"SELECT "books".* FROM "books" JOIN "authors" AS "a" ON "a"."id" = "books"."authorId" WHERE "a"."country" = ?"#
    )
    #expect(try request.fetchAll(db).map(\.id) == [3])
    #expect(try Book.joining(optional: Book.author).fetchCount(db) == 4)
  }

  @Test("including(all:) prefetches every parent's rows with one more query")
  func includingAll() throws {
    let db = try library()
    final class Statements { var sql: [String] = [] }
    let statements = Statements()
    // The selects the fetch runs (the schema lookups aside).
    db.trace(.statements) { event in
      if event.sql.hasPrefix("SELECT"), !event.sql.contains("pragma_") { statements.sql.append(event.sql) }
    }
    let authors = try Author.including(all: Author.books.order(Column("year").desc)).order(Column("id"))
      .asRequest(of: AuthorInfo.self).fetchAll(db)
    #expect(authors.map(\.name) == ["Ann", "Bob", "Cid"])
    #expect(authors.map { $0.books.map(\.title) } == [["A2", "A1"], ["B1"], []])
    // Two statements for three parents: the request and its one prefetch.
    #expect(statements.sql.count == 2, "\(statements.sql)")
    db.trace(.statements, nil)
    let rows = try Author.including(all: Author.books).filter(key: 1).asRequest(of: Row.self).fetchAll(db)
    #expect(rows.first?.prefetchedRows["books"]?.map { $0["title"] } == ["A1", "A2"])
    #expect(rows.first?.prefetchedRows["books"]?.first?.columnNames == ["id", "title", "year", "authorId"])
    // A selection without the key the prefetch matches on: the core adds it
    // after the other columns, and the rows do not show it.
    let named = try Author.select(Column("name")).including(all: Author.books).order(Column("id"))
      .asRequest(of: Row.self).fetchAll(db)
    #expect(named.map(\.columnNames) == [["name"], ["name"], ["name"]])
    #expect(named.map { $0.prefetchedRows["books"]?.count } == [2, 1, 0])
    let infos = try Author.select(Column("name")).including(all: Author.books).order(Column("id"))
      .asRequest(of: AuthorInfo.self).fetchAll(db)
    #expect(infos.map { $0.books.count } == [2, 1, 0])
    // A to-one association is not prefetched.
    #expect {
      try Book.including(all: Book.author).fetchAll(db)
    } throws: { error in
      (error as? DatabaseError)?.resultCode == .misuse
        && (error as? DatabaseError)?.message.contains("needs a hasMany") == true
    }
  }

  @Test("an association's own associations nest: their scopes are their parent's, in rows and in records")
  func nestedAssociations() throws {
    let db = try library()
    let request = Book.including(required: Book.author.including(optional: Author.profile)).order(Column("id"))
    #expect(
      try request.makeSQL(db).sql
        == #"SELECT "books".*, "authors".*, "profiles".* FROM "books" JOIN "authors" ON "authors"."id" = "books"."authorId" LEFT JOIN "profiles" ON "profiles"."authorId" = "authors"."id" ORDER BY "books"."id""#
    )
    let rows = try request.asRequest(of: Row.self).fetchAll(db)
    #expect(rows.map { $0.scopes.keys.sorted() } == [["author"], ["author"], ["author"]])
    #expect(rows.map { $0.scopes["author"]?["name"] } == ["Ann", "Ann", "Bob"])
    #expect(rows.map { $0.scopes["author"]?.scopes["profile"]?["bio"] } == [nil, nil, "Bob's bio"])
    let books = try request.asRequest(of: BookWithAuthorProfile.self).fetchAll(db)
    #expect(books.map(\.author.name) == ["Ann", "Ann", "Bob"])
    #expect(books.map { $0.author.profile?.bio } == [nil, nil, "Bob's bio"])
    #expect(try request.asRequest(of: HandBook.self).fetchAll(db).map(\.bio) == [nil, nil, "Bob's bio"])
    // Under an association only joined, the nested scope is the row's own.
    let joined = try Book.joining(
      required: Book.author.filter(Column("country") == "US").including(required: Author.profile)
    ).asRequest(of: Row.self).fetchAll(db)
    #expect(joined.map { $0["title"] } == ["B1"])
    #expect(joined.map { $0.scopes["profile"]?["bio"] } == ["Bob's bio"])
    #expect(joined.first?.columnNames == ["id", "title", "year", "authorId", "id", "authorId", "bio"])
  }

  @Test("counts annotate, filter and HAVING; isEmpty")
  func counts() throws {
    let db = try library()
    let counted = try Author.annotated(with: Author.books.count.forKey("bookCount")).order(Column("id"))
      .asRequest(of: Row.self).fetchAll(db)
    #expect(counted.map { $0["bookCount"] } == [2, 1, 0])
    #expect(try Author.having(Author.books.count > 1).fetchAll(db).map(\.name) == ["Ann"])
    #expect(try Author.filter(Author.books.isEmpty).fetchAll(db).map(\.name) == ["Cid"])
    #expect(
      try Author.filter(Author.books.filter(Column("year") > 2005).count == 1).fetchAll(db).map(\.name) == ["Bob"])
    let reports = try Person.select(Column("name"), Person.reports.count.forKey("n")).order(Column("id"))
      .asRequest(of: Row.self).fetchAll(db)
    #expect(reports.map { $0["n"] } == [1, 1, 0, 0])
  }

  @Test("self-joins and two associations to one table take their keys as names")
  func selfJoinsAndTwoAssociations() throws {
    let db = try library()
    let managers = try Person.including(optional: Person.manager).order(Column("id")).asRequest(of: Row.self)
      .fetchAll(db)
    #expect(managers.map { $0.scopes["manager"]?["name"] } == [nil, "Boss", "Mid", nil])
    let request = Translation.including(required: Translation.author)
      .including(optional: Translation.translator).order(Column("id"))
    #expect(try request.makeSQL(db).sql.contains(#"LEFT JOIN "authors" AS "translator""#))
    let infos = try request.asRequest(of: TranslationInfo.self).fetchAll(db)
    #expect(infos.map(\.author.name) == ["Ann", "Bob"])
    #expect(infos.map(\.translator?.name) == ["Bob", nil])
  }

  @Test("request(for:) reaches an association's rows from one record")
  func requestFor() throws {
    let db = try library()
    let ann = try #require(try Author.fetchOne(db, key: 1))
    #expect(try ann.request(for: Author.books).order(Column("id")).fetchAll(db).map(\.title) == ["A1", "A2"])
    let b1 = try #require(try Book.fetchOne(db, key: 3))
    #expect(try b1.request(for: Book.author).fetchOne(db)?.name == "Bob")
    let mid = try #require(try Person.fetchOne(db, key: 2))
    #expect(try mid.request(for: Person.reports).fetchAll(db).map(\.name) == ["Low"])
    #expect(try mid.request(for: Person.manager).fetchAll(db).map(\.name) == ["Boss"])
  }

  @Test("what the schema cannot decide throws an error naming both tables")
  func schemaErrors() throws {
    let db = try library()
    try db.execute("CREATE TABLE loose (id INTEGER PRIMARY KEY, authorId INTEGER)")
    struct Loose: TableRecord, FetchableRecord {
      static let databaseTableName = "loose"
      init(row: RowView) throws {}
    }
    #expect {
      try Loose.including(required: Loose.belongsTo(Author.self)).fetchAll(db)
    } throws: { error in
      (error as? DatabaseError)?.message.contains(#"no foreign key joins "loose" and "authors""#) == true
    }
    struct Untyped: TableRecord, FetchableRecord {
      static let databaseTableName = "translations"
      init(row: RowView) throws {}
    }
    #expect {
      try Untyped.including(required: Untyped.belongsTo(Author.self)).fetchAll(db)
    } throws: { error in
      (error as? DatabaseError)?.message.contains(#"2 foreign keys join "translations" and "authors""#) == true
    }
    #expect {
      try Book.including(required: Book.author).including(optional: Book.author).fetchAll(db)
    } throws: { error in
      (error as? DatabaseError)?.resultCode == .misuse
    }
  }
}
