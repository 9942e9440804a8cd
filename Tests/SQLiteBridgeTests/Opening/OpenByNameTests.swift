import Foundation
import SQLiteBridge
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Database(name:createSQL:location:)")
struct OpenByNameTests {
  private let notesSQL = """
    CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL);
    CREATE INDEX notes_title ON notes(title);
    INSERT INTO notes(title) VALUES ('first'), ('second');
    """

  private func titles(_ database: Database) throws -> [DatabaseValue] {
    try database.rows("SELECT title FROM notes ORDER BY id").map { $0[0] }
  }

  // MARK: Bundle copy

  @Test func firstOpenCopiesTheBundledDatabase() throws {
    try withLocationDirectories { _, documents, bundle in
      try makeDatabaseFile(
        at: bundle + "/notes.db",
        script: "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT); INSERT INTO notes(title) VALUES ('bundled');")
      let bundleBytes = try fileBytes(bundle + "/notes.db")

      let database = try Database(
        name: "notes.db", createSQL: "CREATE TABLE never(x)",
        location: DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle))

      #expect(database.path == documents + "/notes.db")
      #expect(try titles(database) == ["bundled"])
      #expect(try tableNames(database) == ["notes"], "createSQL must not run when a bundled copy exists")
      #expect(try fileBytes(documents + "/notes.db") == bundleBytes)
      #expect(try directoryContents(documents) == ["notes.db"], "no temporary file is left behind")
    }
  }

  @Test func writesGoToTheCopyAndLeaveTheBundleUntouched() throws {
    try withLocationDirectories { _, documents, bundle in
      try makeDatabaseFile(
        at: bundle + "/notes.db",
        script: "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT); INSERT INTO notes(title) VALUES ('bundled');")
      let bundleBytes = try fileBytes(bundle + "/notes.db")
      let location = DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle)

      do {
        let database = try Database(name: "notes.db", location: location)
        try database.execute("INSERT INTO notes(title) VALUES ('local')")
      }

      #expect(try fileBytes(bundle + "/notes.db") == bundleBytes)
      #expect(try directoryContents(bundle) == ["notes.db"])
      let bundled = try Database(path: bundle + "/notes.db", mode: .readOnly)
      #expect(try titles(bundled) == ["bundled"])
    }
  }

  @Test func laterOpensReuseTheWritableCopyAndNeverCopyAgain() throws {
    try withLocationDirectories { _, documents, bundle in
      try makeDatabaseFile(
        at: bundle + "/notes.db",
        script: "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT); INSERT INTO notes(title) VALUES ('bundled');")
      let location = DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle)
      do {
        let database = try Database(name: "notes.db", location: location)
        try database.execute("INSERT INTO notes(title) VALUES ('local')")
      }
      // A newer bundle must not replace the user's copy.
      try FileManager.default.removeItem(atPath: bundle + "/notes.db")
      try makeDatabaseFile(
        at: bundle + "/notes.db",
        script: "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT); INSERT INTO notes(title) VALUES ('v2');")

      let reopened = try Database(name: "notes.db", location: location)
      #expect(try titles(reopened) == ["bundled", "local"])
      #expect(try directoryContents(documents) == ["notes.db"])
    }
  }

  @Test func bundleDirectoryWithoutTheNameFallsBackToCreating() throws {
    try withLocationDirectories { _, documents, bundle in
      try makeDatabaseFile(at: bundle + "/other.db", script: "CREATE TABLE other(x)")
      let database = try Database(
        name: "notes.db", createSQL: notesSQL,
        location: DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle))
      #expect(try titles(database) == ["first", "second"])
      #expect(try tableNames(database) == ["notes"])
      #expect(try directoryContents(documents) == ["notes.db"])
      #expect(try directoryContents(bundle) == ["other.db"])
    }
  }

  @Test func missingBundleDirectoryFallsBackToCreating() throws {
    try withLocationDirectories { root, documents, _ in
      let database = try Database(
        name: "notes.db", createSQL: notesSQL,
        location: DatabaseLocation(documentsDirectory: documents, bundleDirectory: root + "/no-such-bundle"))
      #expect(try titles(database) == ["first", "second"])
    }
  }

  // MARK: Creation

  @Test func noBundleCreatesTheDatabaseAndRunsEveryCreateStatement() throws {
    try withLocationDirectories { _, documents, _ in
      let database = try Database(
        name: "notes.db", createSQL: notesSQL, location: DatabaseLocation(documentsDirectory: documents))
      #expect(database.path == documents + "/notes.db")
      #expect(fileExists(documents + "/notes.db"))
      #expect(try titles(database) == ["first", "second"])
      #expect(try scalar(database, "SELECT count(*) FROM sqlite_master WHERE name = 'notes_title'") == .integer(1))
      #expect(try directoryContents(documents) == ["notes.db"], "no temporary or journal file is left behind")
    }
  }

  @Test func laterOpensNeverRunCreateSQLAgain() throws {
    try withLocationDirectories { _, documents, _ in
      let location = DatabaseLocation(documentsDirectory: documents)
      do {
        let database = try Database(name: "notes.db", createSQL: notesSQL, location: location)
        try database.execute("DELETE FROM notes WHERE title = 'first'")
      }
      let reopened = try Database(name: "notes.db", createSQL: notesSQL, location: location)
      #expect(try titles(reopened) == ["second"])
      let withOtherScript = try Database(name: "notes.db", createSQL: "CREATE TABLE extra(x)", location: location)
      #expect(try tableNames(withOtherScript) == ["notes"])
    }
  }

  @Test func nilCreateSQLMakesAnEmptyDatabase() throws {
    try withLocationDirectories { _, documents, _ in
      let database = try Database(name: "empty.db", location: DatabaseLocation(documentsDirectory: documents))
      #expect(fileExists(documents + "/empty.db"))
      #expect(try scalar(database, "SELECT count(*) FROM sqlite_master") == .integer(0))
      try database.execute("CREATE TABLE later(x)")
      #expect(try tableNames(database) == ["later"])
    }
  }

  @Test(arguments: [
    "CREATE TABLE notes(id INTEGER PRIMARY KEY); INSERT INTO missing VALUES (1);",
    "CREATE TABLE notes(id INTEGER PRIMARY KEY); CREATE TABLE oops(",
    "CREATE TABLE notes(id INTEGER PRIMARY KEY); INSERT INTO notes(id) VALUES (1); INSERT INTO notes(id) VALUES (1);",
  ])
  func failingCreateSQLThrowsAndLeavesNoFileBehind(_ createSQL: String) throws {
    try withLocationDirectories { root, documents, bundle in
      let location = DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle)
      let error = try #require(throws: DatabaseError.self) {
        _ = try Database(name: "notes.db", createSQL: createSQL, location: location)
      }
      #expect(error.resultCode == .error || error.resultCode == .constraint)
      #expect(!error.message.isEmpty)
      #expect(try directoryContents(documents).isEmpty, "no database, journal or temporary file may remain")
      #expect(try directoryContents(root) == ["bundle", "documents"])

      // Nothing half-made blocks a later, correct creation.
      let database = try Database(name: "notes.db", createSQL: notesSQL, location: location)
      #expect(try titles(database) == ["first", "second"])
    }
  }

  @Test func failingCreateSQLReportsTheFailingStatement() throws {
    try withLocationDirectories { _, documents, _ in
      let error = try #require(throws: DatabaseError.self) {
        _ = try Database(
          name: "notes.db", createSQL: "CREATE TABLE a(x); INSERT INTO missing VALUES (1); CREATE TABLE b(y);",
          location: DatabaseLocation(documentsDirectory: documents))
      }
      #expect(error.resultCode == .error)
      #expect(error.message.contains("no such table: missing"))
      #expect(error.sql?.contains("INSERT INTO missing") == true)
    }
  }

  // MARK: Names

  @Test(arguments: ["", ".", "..", "a/b", "a\\b", "a\u{0}b", "../escape.db", "/abs.db", "sub/"])
  func invalidNameThrowsCantOpenAndCreatesNothing(_ name: String) throws {
    try withLocationDirectories { root, documents, bundle in
      try makeDatabaseFile(at: bundle + "/seed.db", script: "CREATE TABLE seed(x)")
      let error = try #require(throws: DatabaseError.self) {
        _ = try Database(
          name: name, createSQL: "CREATE TABLE t(x)",
          location: DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle))
      }
      #expect(error.resultCode == .cantOpen)
      #expect(error.extendedResultCode == .cantOpen)
      #expect(error.sql == nil)
      #expect(error.message.contains("invalid database name"))
      #expect(try directoryContents(documents).isEmpty)
      #expect(try directoryContents(bundle) == ["seed.db"])
      #expect(try directoryContents(root) == ["bundle", "documents"])
    }
  }

  @Test(arguments: ["a..b.db", "..hidden", "name with spaces.db", "ünïcode-📒.db", "no-extension"])
  func unusualButValidNamesOpen(_ name: String) throws {
    try withLocationDirectories { _, documents, _ in
      let database = try Database(
        name: name, createSQL: "CREATE TABLE t(x)", location: DatabaseLocation(documentsDirectory: documents))
      #expect(database.path == documents + "/" + name)
      #expect(try directoryContents(documents) == [name])
      #expect(try tableNames(database) == ["t"])
    }
  }

  // MARK: Documents directory

  @Test func missingDocumentsDirectoryThrowsAndIsNotCreated() throws {
    try withTemporaryDirectory { root in
      let documents = root + "/missing"
      let error = try #require(throws: DatabaseError.self) {
        _ = try Database(
          name: "notes.db", createSQL: "CREATE TABLE t(x)", location: DatabaseLocation(documentsDirectory: documents))
      }
      #expect(error.resultCode == .cantOpen)
      #expect(error.sql == nil)
      #expect(!fileExists(documents))
      #expect(try directoryContents(root).isEmpty)
    }
  }

  @Test func emptyDocumentsDirectoryThrowsCantOpen() throws {
    let error = try #require(throws: DatabaseError.self) {
      _ = try Database(name: "notes.db", location: DatabaseLocation(documentsDirectory: ""))
    }
    #expect(error.resultCode == .cantOpen)
  }

  @Test func documentsPathThatIsAFileThrowsCantOpen() throws {
    try withTemporaryDirectory { root in
      let file = root + "/plain-file"
      try Data("x".utf8).write(to: URL(fileURLWithPath: file))
      let error = try #require(throws: DatabaseError.self) {
        _ = try Database(name: "notes.db", location: DatabaseLocation(documentsDirectory: file))
      }
      #expect(error.resultCode == .cantOpen)
      #expect(try fileBytes(file) == Data("x".utf8))
    }
  }

  /// Runs `body` with a directory this process cannot write to. Root ignores
  /// permission bits, so as root "/proc" (never writable) stands in.
  private func withUnwritableDirectory(_ body: (String) throws -> Void) throws {
    if getuid() == 0 {
      try body("/proc")
      return
    }
    try withTemporaryDirectory { root in
      let directory = root + "/read-only"
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
      try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: directory)
      defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory) }
      try body(directory)
      #expect(try directoryContents(directory).isEmpty)
    }
  }

  @Test func unwritableDocumentsDirectoryThrowsWhenCreating() throws {
    try withUnwritableDirectory { documents in
      let name = "sqlitebridge-test-\(UUID().uuidString).db"
      let error = try #require(throws: DatabaseError.self) {
        _ = try Database(
          name: name, createSQL: "CREATE TABLE t(x)", location: DatabaseLocation(documentsDirectory: documents))
      }
      #expect(error.resultCode == .cantOpen)
      #expect(!fileExists(documents + "/" + name))
    }
  }

  @Test func unwritableDocumentsDirectoryThrowsWhenCopyingTheBundle() throws {
    try withTemporaryDirectory { bundle in
      let name = "sqlitebridge-test-\(UUID().uuidString).db"
      try makeDatabaseFile(at: bundle + "/" + name, script: "CREATE TABLE t(x)")
      try withUnwritableDirectory { documents in
        let error = try #require(throws: DatabaseError.self) {
          _ = try Database(
            name: name, location: DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle))
        }
        #expect(error.resultCode == .cantOpen)
        #expect(!fileExists(documents + "/" + name))
      }
      #expect(try directoryContents(bundle) == [name])
    }
  }

  @Test func existingFileThatIsNotADatabaseThrowsNotADatabaseAndIsLeftAlone() throws {
    try withLocationDirectories { _, documents, bundle in
      let path = documents + "/notes.db"
      let garbage = Data(String(repeating: "this is not an SQLite database. ", count: 200).utf8)
      try garbage.write(to: URL(fileURLWithPath: path))
      try makeDatabaseFile(at: bundle + "/notes.db", script: "CREATE TABLE notes(x)")

      let error = try #require(throws: DatabaseError.self) {
        _ = try Database(
          name: "notes.db", createSQL: "CREATE TABLE t(x)",
          location: DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle))
      }
      #expect(error.resultCode == .notADatabase)
      #expect(try fileBytes(path) == garbage)
      #expect(try directoryContents(documents) == ["notes.db"])
    }
  }

  @Test func bundledFileThatIsNotADatabaseThrowsAndLeavesNoCopyBehind() throws {
    try withLocationDirectories { _, documents, bundle in
      let seed = bundle + "/notes.db"
      try Data("not a database at all".utf8).write(to: URL(fileURLWithPath: seed))
      let location = DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle)
      let error = try #require(throws: DatabaseError.self) { _ = try Database(name: "notes.db", location: location) }
      #expect(error.resultCode == .notADatabase)
      #expect(try directoryContents(documents) == [])
      // With the bad copy gone, a corrected bundle is copied on the next open.
      try FileManager.default.removeItem(atPath: seed)
      try makeDatabaseFile(at: seed, script: "CREATE TABLE notes(x); INSERT INTO notes VALUES (7)")
      let database = try Database(name: "notes.db", location: location)
      #expect(try database.execute("SELECT x FROM notes") == [["x": 7]])
    }
  }

  // MARK: Default location

  private func resolved(_ path: String) -> String {
    URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
  }

  @Test func defaultLocationIsTheCurrentAndExecutableDirectories() throws {
    let location = DatabaseLocation.default
    #if os(Linux)
      #expect(resolved(location.documentsDirectory) == resolved(FileManager.default.currentDirectoryPath))
      let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
      let expectedBundle = URL(fileURLWithPath: resolved(executable)).deletingLastPathComponent().path
      let bundle = try #require(location.bundleDirectory)
      #expect(resolved(bundle) == resolved(expectedBundle))
    #else
      #expect(location.documentsDirectory.hasSuffix("/Documents"))
    #endif
  }

  @Test func locationKeepsTheDirectoriesItIsGiven() {
    #expect(DatabaseLocation(documentsDirectory: "/x").bundleDirectory == nil)
    #expect(DatabaseLocation(documentsDirectory: "/x", bundleDirectory: "/y").bundleDirectory == "/y")
  }

  /// Leaves in `directory` what a first open killed midway leaves: a
  /// temporary file named as the library names them (owner `pid`) and its
  /// journal, last written `idle` seconds ago. Returns their names.
  private func leaveTemporaryFiles(in directory: String, owner pid: Int32, idle: TimeInterval, tag: Int) throws
    -> [String]
  {
    let base = ".sqlitebridge-\(pid)-\(tag)-123456789.tmp"
    return try [base, base + "-journal"].map { name in
      let path = directory + "/" + name
      try Data(repeating: 0x78, count: 4096).write(to: URL(fileURLWithPath: path))  // a half-written copy
      try FileManager.default.setAttributes([.modificationDate: Date() - idle], ofItemAtPath: path)
      return name
    }
  }

  @Test func aFirstOpenSweepsTheTemporaryFilesOfAKilledFirstOpenAndKeepsLiveOnes() throws {
    try withTemporaryDirectory { documents in
      // No process has this id: it is above every system's pid limit (Linux
      // allows at most 2^22). (Foundation's Process would leak in
      // `swift test --sanitize=address`.)
      let goneID: Int32 = 999_999_999
      #expect(kill(goneID, 0) == -1 && errno == ESRCH)
      let stale = try leaveTemporaryFiles(in: documents, owner: goneID, idle: 120, tag: 1)
      // Its owner might live in another pid namespace sharing the directory.
      let recent = try leaveTemporaryFiles(in: documents, owner: goneID, idle: 5, tag: 2)
      // Ours: another thread may be copying right now.
      let live = try leaveTemporaryFiles(in: documents, owner: getpid(), idle: 7200, tag: 3)
      // Idle for a day: abandoned whoever the owner (process ids are reused).
      let ancient = try leaveTemporaryFiles(in: documents, owner: getpid(), idle: 25 * 3600, tag: 4)
      let database = try Database(
        name: "made.db", createSQL: "CREATE TABLE t(x)", location: DatabaseLocation(documentsDirectory: documents))
      #expect(try database.tableColumns("t") == ["x"])
      let left = Set(try FileManager.default.contentsOfDirectory(atPath: documents))
      #expect(left == Set(["made.db"] + recent + live))
      #expect(left.isDisjoint(with: stale + ancient))
    }
  }
}
