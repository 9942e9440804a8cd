import Foundation
import SQLiteBridge
import Testing

/// A fetch by key reads the primary key and the rows in one read
/// transaction (the core's FetchHold): the transaction the key lookup opens
/// is the fetch's, and it ends when the fetch does, however it ends. A fetch
/// with `including(all:)` reads its rows and its prefetches in one snapshot.
/// Mirrors Tests/CxxTests/Query/QueryPrimaryKeyCacheTests.cpp.
@Suite("Query fetches: one read transaction each", .serialized)
struct QueryFetchHoldTests {
  struct Item: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "t"
    var id: Int64
    var code: String
  }

  /// Runs a nested fetch by key on the same connection while it decodes.
  struct Nested: FetchableRecord, TableRecord {
    static let databaseTableName = "t"
    nonisolated(unsafe) static var connection: Database?
    var code: String
    var nestedCode: String?
    init(row: RowView) throws {
      code = try row.get("code", as: String.self)
      nestedCode = try Self.connection.flatMap { try Item.fetchOne($0, key: 1)?.code }
    }
  }

  /// Fails to decode a row whose code is "bad".
  struct Picky: FetchableRecord, TableRecord {
    static let databaseTableName = "t"
    struct Refused: Error {}
    init(row: RowView) throws {
      if try row.get("code", as: String.self) == "bad" { throw Refused() }
    }
  }

  /// An author with its books prefetched.
  struct Shelf: FetchableRecord, TableRecord {
    static let databaseTableName = "authors"
    static let books = hasMany(HookedBook.self)
    var name: String
    init(row: RowView) throws { name = try row.get("name", as: String.self) }
  }

  /// A book whose decoding runs `onDecode` once (another connection's write
  /// between a prefetch's rows and the request's) and is counted (the
  /// suite is serialized for these).
  struct HookedBook: FetchableRecord, TableRecord {
    static let databaseTableName = "books"
    nonisolated(unsafe) static var onDecode: (() throws -> Void)?
    nonisolated(unsafe) static var decoded = 0
    var title: String
    init(row: RowView) throws {
      title = try row.get("title", as: String.self)
      Self.decoded += 1
      let hook = Self.onDecode
      Self.onDecode = nil
      try hook?()
    }
  }

  static let keyedSchema =
    "CREATE TABLE t (id INTEGER PRIMARY KEY, code TEXT); INSERT INTO t VALUES (1, 'one'), (2, 'bad')"
  static let librarySchema =
    "CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT);"
    + "CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT, authorId INTEGER REFERENCES authors(id));"

  /// Two connections to one file made by `schema` (rollback journal unless
  /// `journalMode` says), neither waiting on a lock.
  func withConnections(
    _ schema: String = keyedSchema, journalMode: JournalMode? = nil, _ body: (Database, Database) throws -> Void
  ) throws {
    try withTemporaryDirectory { directory in
      var configuration = Configuration()
      configuration.busyTimeout = .zero
      configuration.journalMode = journalMode
      let path = directory + "/test.db"
      let db = try Database(path: path, configuration: configuration)
      try db.executeScript(schema)
      let other = try Database(path: path, configuration: configuration)
      try body(db, other)
    }
  }

  /// Writes the header through `other`: on a rollback-journal file, fails
  /// when `db` left a read transaction open.
  func expectWritable(_ other: Database, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(throws: Never.self, sourceLocation: sourceLocation) {
      try other.execute("PRAGMA user_version = 7")
    }
  }

  @Test("every fetch of a request by key ends its read transaction")
  func everyFetchEndsItsTransaction() throws {
    try withConnections { (db: Database, other: Database) throws in
      #expect(try Item.fetchOne(db, key: 1) == Item(id: 1, code: "one"))
      expectWritable(other)
      #expect(try Item.fetchOne(db, key: 3) == nil)
      expectWritable(other)
      #expect(try Item.filter(keys: [1, 2]).fetchAll(db).map(\.id) == [1, 2])
      expectWritable(other)
      #expect(try Table("t").filter(key: 2).fetchOne(db)?["code"] == "bad")
      expectWritable(other)
      #expect(try Item.filter(key: 1).select(Column("code"), as: String.self).fetchAll(db) == ["one"])
      expectWritable(other)
      #expect(try Item.all().reversed().fetchCount(db) == 2)
      expectWritable(other)
      #expect(try Item.all().reversed().limit(1).fetchOne(db)?.id == 2)
      expectWritable(other)
      #expect(try Item.filter(key: 1).updateAll(db, Column("code").set(to: "uno")) == 1)
      expectWritable(other)
    }
  }

  @Test("a fetch that throws while decoding ends its read transaction")
  func aThrowingDecodeEndsTheTransaction() throws {
    try withConnections { (db: Database, other: Database) throws in
      #expect(throws: Picky.Refused.self) { try Picky.filter(keys: [1, 2]).fetchAll(db) }
      expectWritable(other)
    }
  }

  @Test("a fetch by key inside a record's decoding shares the outer fetch's transaction and ends with it")
  func aNestedFetchEndsWithTheOuterOne() throws {
    try withConnections { (db: Database, other: Database) throws in
      Nested.connection = db
      defer { Nested.connection = nil }
      let nested = try Nested.filter(key: 2).fetchAll(db)
      #expect(nested.map(\.code) == ["bad"])
      #expect(nested.map(\.nestedCode) == ["one"])
      expectWritable(other)
    }
  }

  @Test("a fetch by key on a locked database throws .busy, holds nothing, and works once the lock goes")
  func aLockedDatabase() throws {
    try withConnections { (db: Database, other: Database) throws in
      #expect(try Item.fetchOne(db, key: 1) != nil)  // the key is cached
      try other.execute("BEGIN EXCLUSIVE")
      #expect {
        try Item.fetchOne(db, key: 1)
      } throws: { error in
        (error as? DatabaseError)?.resultCode == .busy
      }
      try other.execute("COMMIT")
      #expect(try Item.fetchOne(db, key: 1)?.code == "one")
      expectWritable(other)
    }
  }

  @Test("inside a transaction a fetch by key is the transaction's")
  func insideATransaction() throws {
    try withConnections { (db: Database, other: Database) throws in
      try db.execute("BEGIN")
      #expect(try Item.fetchOne(db, key: 1) != nil)
      #expect(throws: DatabaseError.self) { try other.execute("PRAGMA user_version = 7") }
      try db.execute("COMMIT")
      expectWritable(other)
    }
  }

  @Test("a request's rows and its including(all:) prefetch come from one snapshot")
  func prefetchAndRowsShareOneSnapshot() throws {
    try withConnections(
      Self.librarySchema + "INSERT INTO authors VALUES (1, 'Ann'); INSERT INTO books VALUES (1, 'A1', 1)",
      journalMode: .wal
    ) { (db: Database, other: Database) throws in
      // While the prefetch decodes, another connection adds an author and
      // its book (WAL: it commits beside the reader).
      HookedBook.onDecode = {
        try other.executeScript("INSERT INTO authors VALUES (2, 'Bob'); INSERT INTO books VALUES (2, 'B1', 2)")
      }
      defer { HookedBook.onDecode = nil }
      let rows = try Shelf.including(all: Shelf.books).order(Column("id")).asRequest(of: Row.self).fetchAll(db)
      #expect(HookedBook.onDecode == nil)  // the write ran
      #expect(rows.map { $0["name"] } == ["Ann"])
      #expect(rows.map { $0.prefetchedRows["books"]?.map { $0["title"] } } == [["A1"]])
      // A new fetch sees both.
      let after = try Shelf.including(all: Shelf.books).order(Column("id")).asRequest(of: Row.self).fetchAll(db)
      #expect(after.map { $0.prefetchedRows["books"]?.map { $0["title"] } } == [["A1"], ["B1"]])
    }
  }

  @Test("fetchOne with including(all:) prefetches for its one row")
  func fetchOnePrefetchesForItsRow() throws {
    try withConnections(
      Self.librarySchema + "INSERT INTO authors VALUES (1, 'Ann'), (2, 'Bob');"
        + "INSERT INTO books VALUES (1, 'A1', 1), (2, 'B1', 2), (3, 'B2', 2)"
    ) { (db: Database, other: Database) throws in
      HookedBook.onDecode = nil
      HookedBook.decoded = 0
      let bob = try Shelf.including(all: Shelf.books).order(Column("id").desc).asRequest(of: Row.self).fetchOne(db)
      #expect(bob?["name"] == "Bob")
      #expect(bob?.prefetchedRows["books"]?.map { $0["title"] } == ["B1", "B2"])
      // Bob's two books only: Ann's is not prefetched.
      #expect(HookedBook.decoded == 2)
      expectWritable(other)
    }
  }
}
