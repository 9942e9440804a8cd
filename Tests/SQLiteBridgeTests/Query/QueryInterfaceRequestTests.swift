import Foundation
import SQLiteBridge
import Testing

/// The Swift face of the query interface (issue 40): requests built from
/// typed pieces give what the same SQL written by hand gives; values are
/// bound and names quoted; errors name what failed. Mirrors
/// Tests/CxxTests/Query/QueryFetchTests.cpp and QueryRequestFeatureTests.cpp.
@Suite("Query interface requests")
struct QueryInterfaceRequestTests {
  struct Author: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "authors"
    var id: Int64
    var name: String
    var country: String?
  }

  struct Book: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "books"
    var id: Int64
    var title: String
    var year: Int64?
    var authorId: Int64?
  }

  /// A record with a hand-written `init(row:)`, not Decodable.
  struct Title: FetchableRecord, TableRecord {
    static let databaseTableName = "books"
    var text: String
    init(row: RowView) throws { text = try row.get("title", as: String.self) }
  }

  static let schema = """
    CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT, country TEXT);
    CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT, year INTEGER, authorId INTEGER REFERENCES authors(id));
    CREATE TABLE pairs (a INTEGER, b INTEGER, PRIMARY KEY (a, b));
    CREATE TABLE codes (code TEXT PRIMARY KEY, label TEXT) WITHOUT ROWID;
    INSERT INTO authors VALUES (1, 'Ann', 'FR'), (2, 'Bob', 'US'), (3, 'Cid', NULL);
    INSERT INTO books VALUES (1, 'A1', 1990, 1), (2, 'A2', 2001, 1), (3, 'B1', 2010, 2), (4, 'Orphan', NULL, NULL);
    INSERT INTO codes VALUES ('a', 'A'), ('b', 'B');
    """

  func library() throws -> Database {
    let db = try Database(path: ":memory:")
    try db.executeScript(Self.schema)
    return db
  }

  @Test("filters, orderings and limits give the hand-written SQL's rows")
  func fetchMatchesHandWrittenSQL() throws {
    let db = try library()
    #expect(
      try Book.filter(Column("year") > 2000).order(Column("title").desc).fetchAll(db)
        == (try db.fetch(Book.self, "SELECT * FROM books WHERE year > 2000 ORDER BY title DESC")))
    #expect(
      try Book.filter(Column("year") == nil).fetchAll(db).map(\.id) == [4])
    #expect(
      try Book.filter(Column("year") != nil && Column("authorId") == 1).fetchAll(db).map(\.id) == [1, 2])
    #expect(
      try Book.filter([1, 3].contains(Column("id")) || Column("title").like("Orph%")).order(Column("id"))
        .fetchAll(db).map(\.id) == [1, 3, 4])
    #expect(try Book.filter(!(Column("id") < 3)).fetchAll(db).map(\.id) == [3, 4])
    #expect(try Book.order(Column("year").ascNullsLast).fetchAll(db).map(\.id) == [1, 2, 3, 4])
    #expect(try Book.order(Column("year").descNullsFirst).fetchAll(db).map(\.id) == [4, 3, 2, 1])
    #expect(try Book.order(Column("id")).limit(2, offset: 1).fetchAll(db).map(\.id) == [2, 3])
    #expect(try Book.all().order(Column("id")).reversed().limit(1).fetchAll(db).map(\.id) == [4])
    #expect(try Book.all().reversed().fetchAll(db).map(\.id) == [4, 3, 2, 1])
    // Column == Column builds SQL; in a Bool context it is Equatable's.
    #expect(try Book.filter(Column("id") == Column("authorId")).fetchAll(db).map(\.id) == [1])
    #expect(Column("id") == Column("id"))
    #expect(Set([Column("a"), Column("a"), Column("b")]).count == 2)
    // Swift's own operators still win on plain values.
    let sum = 1 + 2
    let optional: Int? = 5
    let same = optional == 5
    #expect(sum == 3 && same && abs(-2) == 2 && min(1, 2) == 1)
  }

  @Test("records, rows and values decode from a request")
  func decodingTargets() throws {
    let db = try library()
    #expect(try Book.fetchAll(db).count == 4)
    #expect(try Book.fetchOne(db, key: 3)?.title == "B1")
    #expect(try Book.fetchOne(db, key: 99) == nil)
    #expect(try Title.order(Column("id")).fetchAll(db).map(\.text) == ["A1", "A2", "B1", "Orphan"])
    #expect(try Title.all().order(Column("id").desc).fetchOne(db)?.text == "Orphan")
    let rows = try Table("authors").order(Column("id")).fetchAll(db)
    #expect(rows.map { $0["name"] } == [.text("Ann"), .text("Bob"), .text("Cid")])
    #expect(try Table("authors").filter(key: 2).fetchOne(db)?["name"] == .text("Bob"))
    #expect(
      try Book.select(Column("title"), as: String.self).order(Column("id")).fetchAll(db) == [
        "A1", "A2", "B1", "Orphan",
      ])
    #expect(try Book.select(max(Column("year")), as: Int64.self).fetchOne(db) == 2010)
    #expect(try Book.select(Column("year"), as: Int64?.self).filter(key: 4).fetchOne(db) == .some(nil))
    #expect(try Book.all().asRequest(of: Row.self).filter(key: 1).fetchOne(db)?["title"] == .text("A1"))
    // A value that does not convert: `.mismatch` naming the column.
    #expect {
      try Book.select(Column("title"), as: Int64.self).fetchAll(db)
    } throws: { error in
      (error as? DatabaseError)?.resultCode == .mismatch
        && (error as? DatabaseError)?.message.contains("title") == true
    }
  }

  @Test("filter(key:) uses the schema's primary key; several key columns are an error naming them")
  func filterByKey() throws {
    let db = try library()
    #expect(try Book.filter(key: 3).makeSQL(db).sql == #"SELECT * FROM "books" WHERE "id" = ?"#)
    #expect(try Book.filter(keys: [1, 3, 99]).fetchAll(db).map(\.id) == [1, 3])
    #expect(try Book.filter(keys: [Int]()).fetchAll(db).isEmpty)
    #expect(try Book.filter(key: Int?.none).fetchAll(db).isEmpty)
    #expect(try Table("codes").filter(key: "b").fetchOne(db)?["label"] == .text("B"))
    #expect {
      try Table("pairs").filter(key: 1).fetchAll(db)
    } throws: { error in
      let error = error as? DatabaseError
      return error?.resultCode == .misuse && error?.message.contains(#""pairs" has 2 columns ("a", "b")"#) == true
    }
    #expect {
      try Table("nowhere").filter(key: 1).fetchAll(db)
    } throws: { error in
      (error as? DatabaseError)?.message.contains("nowhere") == true
    }
  }

  @Test("the primary key a request renders with follows a schema change (the core's cache)")
  func primaryKeyAfterASchemaChange() throws {
    let db = try library()
    #expect(try Table("codes").filter(key: "b").makeSQL(db).sql == #"SELECT * FROM "codes" WHERE "code" = ?"#)
    try db.executeScript(
      "DROP TABLE codes; CREATE TABLE codes (code TEXT, label TEXT PRIMARY KEY) WITHOUT ROWID;"
        + "INSERT INTO codes VALUES ('a', 'B');")
    #expect(try Table("codes").filter(key: "B").makeSQL(db).sql == #"SELECT * FROM "codes" WHERE "label" = ?"#)
    #expect(try Table("codes").filter(key: "B").fetchOne(db)?["code"] == "a")
  }

  /// A selection and an ordering type of the caller's own, which the core
  /// cannot render.
  struct OwnTerm: SQLSelectable, SQLOrderingTerm {}

  @Test("a selection or ordering of a type the query interface does not know throws .misuse naming it")
  func unknownTermsAreMisuse() throws {
    let db = try library()
    for request in [Book.select(OwnTerm()), Book.order(OwnTerm())] {
      #expect {
        try request.fetchAll(db)
      } throws: { error in
        (error as? DatabaseError)?.resultCode == .misuse
          && (error as? DatabaseError)?.message.contains("OwnTerm is not") == true
      }
      #expect(throws: DatabaseError.self) { try request.makeSQL(db) }
    }
    #expect(try Book.fetchCount(db) == 4)
  }

  @Test("fetchCount, deleteAll and updateAll act on what the request selects")
  func countDeleteUpdate() throws {
    let db = try library()
    #expect(try Book.fetchCount(db) == 4)
    #expect(try Book.filter(Column("year") > 2000).fetchCount(db) == 2)
    #expect(try Book.all().limit(2, offset: 3).fetchCount(db) == 1)
    #expect(try Author.select(Column("country")).distinct().fetchCount(db) == 3)
    #expect(
      try Book.filter(Column("year") < 2005).updateAll(db, Column("year").set(to: Column("year") + 1)) == 2)
    #expect(try db.rows("SELECT year FROM books ORDER BY id").map { $0[0] } == [1991, 2002, 2010, nil])
    #expect(
      try Book.order(Column("id").desc).limit(1).updateAll(db, Column("title").set(to: "x\"'; DROP TABLE books; --"))
        == 1)
    #expect(try Book.fetchOne(db, key: 4)?.title == "x\"'; DROP TABLE books; --")
    #expect {
      try Book.all().updateAll(db, [])
    } throws: { error in
      (error as? DatabaseError)?.resultCode == .misuse
    }
    #expect(try Book.filter(Column("authorId") == nil).deleteAll(db) == 1)
    #expect(try Book.order(Column("id")).limit(1).deleteAll(db) == 1)
    #expect(try Book.fetchAll(db).map(\.id) == [2, 3])
    #expect(try Book.deleteAll(db) == 2)
    #expect(try Book.fetchCount(db) == 0)
  }

  @Test("annotations, aggregates, grouping and having")
  func annotationsAndAggregates() throws {
    let db = try library()
    let request = Book.all().annotated(with: (Column("year") + 1).forKey("next")).order(Column("id"))
    #expect(try request.makeSQL(db).sql == #"SELECT *, "year" + ? AS "next" FROM "books" ORDER BY "id""#)
    #expect(
      try request.asRequest(of: Row.self).fetchAll(db).map { $0["next"] ?? .text("missing") } == [
        1991, 2002, 2011, .null,
      ])
    let grouped = Table("books").select(Column("authorId"), count(Column("id")).forKey("n"))
      .filter(Column("authorId") != nil).group(Column("authorId")).having(count(Column("id")) > 1)
    #expect(try grouped.fetchAll(db).map { [$0["authorId"], $0["n"]] } == [[1, 2]])
    #expect(
      try Table("books").select(
        count(AllColumns()), count(distinct: Column("authorId")), sum(Column("year")), total(Column("year")),
        average(Column("id")), min(Column("year")), max(Column("title"))
      ).fetchOne(db).map(\.values) == [4, 2, 6001, 6001.0, 2.5, 1990, "Orphan"])
    #expect(
      try Table("books").select(length(Column("title")), abs(-Column("id")), -(-Column("id")))
        .filter(key: 3).fetchOne(db).map(\.values) == [2, 3, 3])
    // An aggregate in a filter: SQLite's error when the request runs.
    #expect {
      try Book.filter(count(Column("id")) > 1).fetchAll(db)
    } throws: { error in
      (error as? DatabaseError)?.message.contains("misuse of aggregate") == true
    }
  }

  @Test("matching binds the FTS5 pattern; nil matches nothing")
  func matching() throws {
    let db = try library()
    try db.executeScript(
      "CREATE VIRTUAL TABLE docs USING fts5(body); INSERT INTO docs VALUES ('red apple'), ('green pear'), ('red pear');"
    )
    let red = Table("docs").all().matching(FTS5Pattern(rawPattern: "red"))
    #expect(try red.makeSQL(db).sql == #"SELECT * FROM "docs" WHERE "docs" MATCH ?"#)
    #expect(try red.fetchCount(db) == 2)
    #expect(try red.matching(FTS5Pattern(matchingAllTokensIn: "pear")).fetchAll(db).map { $0["body"] } == ["red pear"])
    #expect(try Table("docs").all().matching(nil).fetchCount(db) == 0)
    #expect(throws: DatabaseError.self) {
      try Table("docs").all().matching(FTS5Pattern(rawPattern: "'); DROP TABLE docs; --")).fetchAll(db)
    }
    #expect(try Table("docs").fetchCount(db) == 3)
  }

  @Test("hostile names and values never reach the SQL text; the table stays intact")
  func hostile() throws {
    let db = try library()
    let table = #"odd"; DROP TABLE books; --"#
    let column = "col'); DELETE FROM books; --"
    try db.execute(literal: "CREATE TABLE \(identifier: table) (id INTEGER PRIMARY KEY, \(identifier: column) TEXT)")
    try db.execute(literal: "INSERT INTO \(identifier: table) VALUES (1, 'x'' OR 1=1 --')")
    let request = Table(table).filter(Column(column) == "x' OR 1=1 --").select(Column(column).forKey(column))
    let sql = try request.makeSQL(db)
    #expect(!sql.sql.contains("x' OR"))
    #expect(sql.arguments == [.text("x' OR 1=1 --")])
    #expect(try request.fetchAll(db).map { $0[column] } == [.text("x' OR 1=1 --")])
    #expect(try Table(table).filter(Column(column) == "nothing' OR '1'='1").fetchCount(db) == 0)
    #expect(try Book.fetchCount(db) == 4)
  }

  @Test("a missing table, a closed database: errors, thrown by the fetch")
  func errors() throws {
    let db = try library()
    // Building never touches the database.
    let request = Table("nowhere").filter(Column("a") == 1).order(Column("a")).limit(3)
    #expect {
      try request.fetchAll(db)
    } throws: { error in
      (error as? DatabaseError)?.message.contains("no such table: nowhere") == true
    }
    db.close()
    #expect {
      try Book.fetchAll(db)
    } throws: { error in
      (error as? DatabaseError)?.resultCode == .misuse
    }
  }
}
