import Foundation
import SQLiteBridge
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Identifiers written to break out of quoting or a bound value: each must
/// stay a name, never run as SQL.
let hostileIdentifiers = [
  "victims; DROP TABLE victims; --",
  "victims\"; DROP TABLE victims; --",
  "victims\"\"; DROP TABLE victims; --",
  "victims'); DROP TABLE victims; --",
  "x' OR '1'='1",
  "victims) UNION SELECT name FROM sqlite_master --",
  "victims]; DROP TABLE victims; --",
  "`victims`; DROP TABLE victims; --",
  "\"victims\"",
  "'victims'",
  "[victims]",
  // A qualified name of a schema that does not hold victims (`main.victims`
  // is victims itself: schema calls accept qualified names).
  "temp.victims",
  "victims /* comment */",
  "victims -- comment",
  "victims\n; DROP TABLE victims",
  "?1",
  ":name",
  "vïctims ✓",
]

/// `identifier` quoted for SQL, for tests that make hostile names on purpose.
func quoted(_ identifier: String) -> String {
  "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// A database holding `victims` (index, trigger) and `audit`, in a fresh
/// directory, to check that nothing a hostile name did changed either.
struct VictimDatabase {
  let database: Database
  let directory: String

  static let schema = """
    CREATE TABLE victims(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
    CREATE INDEX victims_name ON victims(name);
    CREATE TABLE audit(msg TEXT);
    CREATE TRIGGER victims_audit AFTER INSERT ON victims BEGIN INSERT INTO audit VALUES (new.name); END;
    INSERT INTO victims(name) VALUES ('alice'), ('bob'), ('carol');
    """

  init(in directory: String) throws {
    self.directory = directory
    database = try Database(path: directory + "/victims.db")
    try database.executeScript(Self.schema)
  }

  /// Schema and every row of both tables.
  func state() throws -> [String] {
    var lines = try schemaSnapshot(database).map { object in
      object.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "|")
    }
    lines += try tableSnapshot(database, "victims").map { "\($0.values)" }
    lines += try tableSnapshot(database, "audit").map { "\($0.values)" }
    return lines
  }

  /// Nothing ran: same state, no transaction, sound file, no stray files.
  func expectUntouched(since before: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(try state() == before, sourceLocation: sourceLocation)
    #expect(!database.isInTransaction, sourceLocation: sourceLocation)
    #expect(try scalar(database, "PRAGMA integrity_check") == "ok", sourceLocation: sourceLocation)
    #expect(try directoryContents(directory) == ["victims.db"], sourceLocation: sourceLocation)
  }
}

@Suite("Hostile input: identifiers and database names")
struct HostileNamesTests {
  // MARK: Schema calls

  @Test func hostileTableNamesAreMissingTablesForEverySchemaCall() throws {
    try withTemporaryDirectory { directory in
      let victims = try VictimDatabase(in: directory)
      let database = victims.database
      let before = try victims.state()
      for name in hostileIdentifiers {
        let columns = databaseError { _ = try database.tableColumns(name) }
        #expect(columns?.resultCode == .error, "\(name)")
        #expect(columns?.message.contains("no such table") == true, "\(name): \(columns?.message ?? "")")
        let has = databaseError { _ = try database.hasTableColumn(name, "name") }
        #expect(has?.resultCode == .error, "\(name)")
        let update = databaseError {
          try database.updateTable(create: "CREATE TABLE victims(id INTEGER PRIMARY KEY, name TEXT, x)", name: name)
        }
        #expect(update?.resultCode == .error, "\(name)")
        // As a column name it is simply not a column: false, no error.
        #expect(try database.hasTableColumn("victims", name) == false, "\(name)")
      }
      try victims.expectUntouched(since: before)
    }
  }

  @Test func namesHoldingNulAreNotCutShort() throws {
    try withTemporaryDirectory { directory in
      let victims = try VictimDatabase(in: directory)
      let database = victims.database
      let before = try victims.state()
      let name = "victims\0; DROP TABLE victims"
      #expect(databaseError { _ = try database.tableColumns(name) }?.resultCode == .error)
      #expect(databaseError { _ = try database.hasTableColumn(name, "name") }?.resultCode == .error)
      #expect(try database.hasTableColumn("victims", "name\0x") == false)
      #expect(
        databaseError { try database.updateTable(create: "CREATE TABLE victims(id, name, x)", name: name) }?.resultCode
          == .error)
      try victims.expectUntouched(since: before)
    }
  }

  @Test func tablesWithHostileNamesWorkAsNamesThroughEverySchemaCall() throws {
    try withTemporaryDirectory { directory in
      let victims = try VictimDatabase(in: directory)
      let database = victims.database
      for name in hostileIdentifiers {
        let column = name + " col"
        try database.executeScript(
          """
          CREATE TABLE \(quoted(name))(id INTEGER PRIMARY KEY, \(quoted(column)) TEXT);
          CREATE INDEX \(quoted(name + " index")) ON \(quoted(name))(\(quoted(column)));
          INSERT INTO \(quoted(name))(\(quoted(column))) VALUES ('kept 1'), ('kept 2');
          """)
        #expect(try database.tableColumns(name) == ["id", column], "\(name)")
        #expect(try database.hasTableColumn(name, column), "\(name)")
        try database.updateTable(
          create: "CREATE TABLE \(quoted(name))(id INTEGER PRIMARY KEY, \(quoted(column)) TEXT, added INT DEFAULT 7)",
          name: name)
        let rows = try database.rows("SELECT \(quoted(column)), added FROM \(quoted(name)) ORDER BY id")
        #expect(rows.map(\.values) == [["kept 1", 7], ["kept 2", 7]], "\(name)")
        #expect(
          try scalar(database, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?", [.text(name)])
            == .text(name + " index"))
      }
      #expect(try tableSnapshot(database, "victims").map { $0[1] } == ["alice", "bob", "carol"])
      #expect(try scalar(database, "PRAGMA integrity_check") == "ok")
    }
  }

  // MARK: insert(_:into:)

  struct Person: Encodable {
    var name: String
  }

  @Test func insertQuotesHostileTableNames() throws {
    try withTemporaryDirectory { directory in
      let victims = try VictimDatabase(in: directory)
      let database = victims.database
      let before = try victims.state()
      for name in hostileIdentifiers {
        // No such table: SQLite's error, and nothing else ran.
        let error = databaseError { try database.insert(Person(name: "mallory"), into: name) }
        #expect(error?.resultCode == .error, "\(name)")
        #expect(error?.message.contains("no such table") == true, "\(name): \(error?.message ?? "")")
      }
      try victims.expectUntouched(since: before)
      // Made on purpose, each is exactly the table written to.
      for name in hostileIdentifiers {
        try database.execute("CREATE TABLE \(quoted(name))(name TEXT)")
        try database.insert(Person(name: "row of \(name)"), into: name)
        #expect(try scalar(database, "SELECT name FROM \(quoted(name))") == .text("row of \(name)"))
      }
      #expect(try tableSnapshot(database, "victims").map { $0[1] } == ["alice", "bob", "carol"])
    }
  }

  @Test func insertQuotesHostileColumnNames() throws {
    try withTemporaryDirectory { directory in
      let victims = try VictimDatabase(in: directory)
      let database = victims.database
      let before = try victims.state()
      for key in hostileIdentifiers {
        // A dictionary's keys become the columns.
        let error = databaseError { try database.insert([key: "mallory"], into: "victims") }
        #expect(error?.resultCode == .error, "\(key)")
        #expect(error?.message.contains("no column named") == true, "\(key): \(error?.message ?? "")")
      }
      let nul = databaseError { try database.insert(["name\0\"); DROP TABLE victims; --": "x"], into: "victims") }
      #expect(nul?.resultCode == .error)
      #expect(nul?.message.contains("NUL") == true, "\(nul?.message ?? "")")
      let nulTable = databaseError { try database.insert(Person(name: "x"), into: "victims\0; DROP TABLE victims") }
      #expect(nulTable?.resultCode == .error)
      try victims.expectUntouched(since: before)
      // Made on purpose, each is exactly the column written to.
      try database.execute("CREATE TABLE wide(id INTEGER PRIMARY KEY)")
      for key in hostileIdentifiers {
        try database.execute("ALTER TABLE wide ADD COLUMN \(quoted(key)) TEXT")
      }
      for key in hostileIdentifiers {
        try database.insert([key: "value of \(key)"], into: "wide")
        let id = database.lastInsertRowID
        #expect(
          try scalar(database, "SELECT \(quoted(key)) FROM wide WHERE id = ?", [.integer(id)])
            == .text("value of \(key)"))
      }
      #expect(try tableSnapshot(database, "victims").map { $0[1] } == ["alice", "bob", "carol"])
    }
  }

  // MARK: Named arguments

  @Test func hostileNamedArgumentKeysMatchNoParameterAndNothingRuns() throws {
    try withTemporaryDirectory { directory in
      let victims = try VictimDatabase(in: directory)
      let database = victims.database
      let before = try victims.state()
      let insert = "INSERT INTO victims(name) VALUES (:name)"
      for key in hostileIdentifiers + ["name\0; DROP TABLE victims"] where key != ":name" {
        let alone = databaseError { try database.execute(insert, NamedArguments([(key, "mallory")])) }
        #expect(alone?.resultCode == .range, "\(key)")
        let beside = databaseError {
          try database.execute(insert, NamedArguments([("name", "mallory"), (key, "eve")]))
        }
        #expect(beside?.resultCode == .range, "\(key)")
      }
      try victims.expectUntouched(since: before)
    }
  }

  // MARK: SQL holding NUL

  @Test func sqlAfterANulCharacterIsNeverSilentlyDropped() throws {
    try withTemporaryDirectory { directory in
      let victims = try VictimDatabase(in: directory)
      let database = victims.database
      let before = try victims.state()
      #expect(
        databaseError { try database.execute("SELECT count(*) FROM victims\0; DROP TABLE victims") }?.resultCode
          == .misuse)
      #expect(
        databaseError { try database.execute("INSERT INTO victims(name) VALUES ('m')\0junk") }?.resultCode == .misuse)
      #expect(databaseError { try database.executeScript("SELECT 1;\0DROP TABLE victims;") }?.resultCode == .misuse)
      // SQLite's text ends at a NUL, so a comment does too: what follows it
      // is never skipped as comment text.
      let inComments = [
        "INSERT INTO victims(name) VALUES ('m'); /* \0 */ DROP TABLE victims",
        "INSERT INTO victims(name) VALUES ('m') -- note\0\nDROP TABLE victims",
        "INSERT INTO victims(name) VALUES ('m') /* note */\0",
      ]
      for sql in inComments {
        #expect(databaseError { try database.execute(sql) }?.resultCode == .misuse, "\(sql.debugDescription)")
        #expect(databaseError { try database.validateSQL(sql) }?.resultCode == .misuse, "\(sql.debugDescription)")
      }
      #expect(try database.execute("SELECT 1; /* unterminated") == [["1": 1]])
      try victims.expectUntouched(since: before)
    }
  }

  // MARK: Database names

  @Test func traversalAndAbsoluteNamesFailWithCantOpenAndCreateNothing() throws {
    try withLocationDirectories { root, documents, bundle in
      try makeDatabaseFile(at: root + "/x.db", script: "CREATE TABLE precious(v); INSERT INTO precious VALUES (1);")
      try makeDatabaseFile(at: bundle + "/x.db", script: "CREATE TABLE bundled(v);")
      let precious = try fileBytes(root + "/x.db")
      let etcHadIt = fileExists("/etc/x.db")
      let location = DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle)
      let names = [
        "../x.db", "/etc/x.db", "a/../../x.db", "..", ".", "", "./x.db", "documents/../x.db",
        "../../../../../../../../etc/x.db", "x.db/", "/", "..\\x.db", "a\\..\\..\\x.db", root + "/x.db",
        "x.db\0/../../x.db", "\0", "../x.db\0",
      ]
      for name in names {
        let error = databaseError {
          _ = try Database(name: name, createSQL: "CREATE TABLE made(v)", location: location)
        }
        #expect(error?.resultCode == .cantOpen, "\(name.debugDescription)")
        #expect(error?.message.contains("invalid database name") == true, "\(error?.message ?? "")")
      }
      for length in [248, 256, 1000] {
        let error = databaseError {
          _ = try Database(name: String(repeating: "n", count: length), createSQL: "", location: location)
        }
        #expect(error?.resultCode == .cantOpen, "length \(length)")
      }
      // UTF-8 bytes count, not characters: 124 two-byte characters are 248 bytes.
      let wide = databaseError { _ = try Database(name: String(repeating: "é", count: 124), location: location) }
      #expect(wide?.resultCode == .cantOpen)
      for name in ["notes.db-journal", "notes.db-wal", "notes.db-shm", ".sqlitebridge-1-2-3.tmp"] {
        #expect(databaseError { _ = try Database(name: name, location: location) }?.resultCode == .cantOpen, "\(name)")
      }
      #expect(try directoryContents(documents) == [])
      #expect(try directoryContents(root) == ["bundle", "documents", "x.db"])
      #expect(try directoryContents(bundle) == ["x.db"])
      #expect(try fileBytes(root + "/x.db") == precious)
      #expect(fileExists("/etc/x.db") == etcHadIt)
    }
  }

  @Test func namesSQLiteCouldReadAsUrisOrMemoryAreFilesInTheDocumentsDirectory() throws {
    try withLocationDirectories { _, documents, bundle in
      let location = DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle)
      let names = [":memory:", "file:x.db", "file:x.db?mode=memory", "file::memory:", "x.db;DROP TABLE t", "%2e%2e"]
      for name in names {
        do {
          let database = try Database(
            name: name, createSQL: "CREATE TABLE t(v); INSERT INTO t VALUES ('on disk')", location: location)
          #expect(database.path == documents + "/" + name)
        }
        let again = try Database(name: name, location: location)
        #expect(try scalar(again, "SELECT v FROM t") == "on disk", "\(name)")
      }
      #expect(try directoryContents(documents) == names.sorted())
    }
  }

  @Test func pathsAndDirectoriesHoldingNulAreRefusedNotCutShort() throws {
    try withLocationDirectories { root, documents, bundle in
      try makeDatabaseFile(at: root + "/x.db", script: "CREATE TABLE precious(v);")
      let precious = try fileBytes(root + "/x.db")
      for mode in [OpenMode.readOnly, .readWrite, .readWriteCreate] {
        let existing = databaseError { _ = try Database(path: root + "/x.db\0.evil", mode: mode) }
        #expect(existing?.resultCode == .cantOpen)
        let created = databaseError { _ = try Database(path: documents + "/new.db\0", mode: mode) }
        #expect(created?.resultCode == .cantOpen)
      }
      let badDocuments = databaseError {
        _ = try Database(
          name: "made.db", location: DatabaseLocation(documentsDirectory: documents + "\0/..", bundleDirectory: bundle))
      }
      #expect(badDocuments?.resultCode == .cantOpen)
      let badBundle = databaseError {
        _ = try Database(
          name: "x.db", location: DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle + "\0/.."))
      }
      #expect(badBundle?.resultCode == .cantOpen)
      #expect(try directoryContents(documents) == [])
      #expect(try fileBytes(root + "/x.db") == precious)
    }
  }
}
