import Foundation
import SQLiteBridge
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Hostile input: files and directories")
struct HostileFilesTests {
  static let modes: [OpenMode] = [.readOnly, .readWrite, .readWriteCreate]

  /// A database of many 4096-byte pages at `path`: table `t` (id, payload)
  /// with `rows` rows of 1000 bytes, and an index.
  func makeMultiPageDatabase(at path: String, rows: Int = 200) throws {
    try makeDatabaseFile(
      at: path,
      script: """
        PRAGMA page_size = 4096;
        CREATE TABLE t(id INTEGER PRIMARY KEY, payload TEXT NOT NULL);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
        INSERT INTO t(payload) SELECT printf('%04d', i) || substr(hex(zeroblob(500)), 1, 996) FROM n;
        CREATE INDEX t_payload ON t(payload);
        """)
  }

  /// Reads every row of `t`, by rowid and through the index.
  func readEverything(_ database: Database) throws {
    _ = try database.rows("SELECT * FROM t ORDER BY id")
    _ = try database.rows("SELECT * FROM t INDEXED BY t_payload WHERE payload > ''")
  }

  func isCorruptOrNotADatabase(_ error: DatabaseError?) -> Bool {
    error?.resultCode == .corrupt || error?.resultCode == .notADatabase
  }

  // MARK: Not a database

  @Test func aFileThatIsNotADatabaseFailsWithNotADbInEveryModeAndIsUntouched() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/notes.db"
      let garbage = Data(String(repeating: "This is a text file, not an SQLite database.\n", count: 200).utf8)
      try garbage.write(to: URL(fileURLWithPath: path))
      for mode in Self.modes {
        let error = databaseError { _ = try Database(path: path, mode: mode) }
        #expect(error?.resultCode == .notADatabase)
        #expect(error?.message.contains("not a database") == true, "\(error?.message ?? "")")
      }
      let byName = databaseError {
        _ = try Database(
          name: "notes.db", createSQL: "CREATE TABLE t(x)", location: DatabaseLocation(documentsDirectory: directory))
      }
      #expect(byName?.resultCode == .notADatabase)
      #expect(try fileBytes(path) == garbage)
      #expect(try directoryContents(directory) == ["notes.db"])
    }
  }

  @Test func aBundledFileThatIsNotADatabaseIsNotLeftAsTheCopy() throws {
    try withLocationDirectories { _, documents, bundle in
      let garbage = Data(repeating: 0x47, count: 10_000)
      try garbage.write(to: URL(fileURLWithPath: bundle + "/notes.db"))
      let error = databaseError {
        _ = try Database(
          name: "notes.db", location: DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle))
      }
      #expect(error?.resultCode == .notADatabase)
      #expect(try fileBytes(bundle + "/notes.db") == garbage)
      #expect(try directoryContents(documents) == [])
    }
  }

  // MARK: Truncated and corrupted

  @Test func aTruncatedDatabaseFailsClearlyAndIsNotMadeWorse() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/cut.db"
      try makeMultiPageDatabase(at: path)
      let whole = try fileBytes(path)
      #expect(whole.count > 40 * 4096)
      for size in [whole.count / 2, 3 * 4096, whole.count / 2 + 1000] {
        let cut = whole.prefix(size)
        try cut.write(to: URL(fileURLWithPath: path))
        for mode in Self.modes {
          do {
            let database = try Database(path: path, mode: mode)
            let error = databaseError { try readEverything(database) }
            #expect(isCorruptOrNotADatabase(error), "cut at \(size): \(String(describing: error))")
          } catch let error as DatabaseError {
            #expect(isCorruptOrNotADatabase(error), "cut at \(size): \(error)")
          }
        }
        #expect(try fileBytes(path) == cut, "opening and reading must not change the file")
        #expect(try directoryContents(directory) == ["cut.db"])
      }
    }
  }

  @Test func aCorruptedTablePageFailsWithCorruptAndIsNotMadeWorse() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/bad.db"
      try makeMultiPageDatabase(at: path)
      let root: Int
      do {
        let database = try Database(path: path)
        guard case .integer(let page) = try scalar(database, "SELECT rootpage FROM sqlite_master WHERE name = 't'")
        else { throw DatabaseError(code: 1, message: "no root page") }
        root = Int(page)
      }
      var bytes = try fileBytes(path)
      // The root page's b-tree header: type, free block, cells, content, right child.
      bytes.replaceSubrange(((root - 1) * 4096)..<((root - 1) * 4096 + 12), with: Data(repeating: 0xFF, count: 12))
      try bytes.write(to: URL(fileURLWithPath: path))
      for mode in Self.modes {
        let database = try Database(path: path, mode: mode)  // page 1 is intact
        let error = databaseError { _ = try database.rows("SELECT * FROM t ORDER BY id") }
        #expect(error?.resultCode == .corrupt, "\(String(describing: error))")
        #expect(try scalar(database, "SELECT count(*) FROM sqlite_master") == 2)
      }
      #expect(try fileBytes(path) == bytes, "opening and reading must not change the file")
      #expect(try directoryContents(directory) == ["bad.db"])
    }
  }

  @Test func aDamagedHeaderFailsWithNotADbAndIsUntouched() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/header.db"
      try makeMultiPageDatabase(at: path, rows: 20)
      var bytes = try fileBytes(path)
      bytes.replaceSubrange(0..<6, with: Data("XXXXXX".utf8))
      try bytes.write(to: URL(fileURLWithPath: path))
      for mode in Self.modes {
        #expect(databaseError { _ = try Database(path: path, mode: mode) }?.resultCode == .notADatabase)
      }
      #expect(try fileBytes(path) == bytes)
    }
  }

  // MARK: Unwritable documents directory

  @Test func anUnwritableDocumentsDirectoryFailsWithCantOpenAndCreatesNothing() throws {
    try withTemporaryDirectory { root in
      // Root ignores permission bits: it gets /proc, where nobody can create
      // files.
      let locked: String
      if geteuid() == 0 {
        locked = "/proc"
      } else {
        locked = root + "/locked"
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
        chmod(locked, 0o555)
      }
      defer { if locked != "/proc" { chmod(locked, 0o755) } }
      let error = databaseError {
        _ = try Database(
          name: "notes.db", createSQL: "CREATE TABLE t(x)", location: DatabaseLocation(documentsDirectory: locked))
      }
      #expect(error?.resultCode == .cantOpen)
      #expect(!fileExists(locked + "/notes.db"))
      #expect(databaseError { _ = try Database(path: locked + "/direct.db") }?.resultCode == .cantOpen)
      #expect(!fileExists(locked + "/direct.db"))
      // A documents "directory" below a regular file.
      try Data("not a directory".utf8).write(to: URL(fileURLWithPath: root + "/plain-file"))
      let below = databaseError {
        _ = try Database(name: "notes.db", location: DatabaseLocation(documentsDirectory: root + "/plain-file/docs"))
      }
      #expect(below?.resultCode == .cantOpen)
      #expect(databaseError { _ = try Database(path: root + "/plain-file/direct.db") }?.resultCode == .cantOpen)
      #expect(try fileBytes(root + "/plain-file") == Data("not a directory".utf8))
    }
  }

  @Test func anExistingDatabaseInAReadOnlyDirectoryOpensAndKeepsItsData() throws {
    try withTemporaryDirectory { root in
      let documents = root + "/documents"
      try FileManager.default.createDirectory(atPath: documents, withIntermediateDirectories: false)
      try makeDatabaseFile(
        at: documents + "/notes.db", script: "CREATE TABLE notes(v); INSERT INTO notes VALUES ('kept');")
      let bytes = try fileBytes(documents + "/notes.db")
      chmod(documents, 0o555)
      defer { chmod(documents, 0o755) }
      do {
        let database = try Database(
          name: "notes.db", createSQL: "CREATE TABLE never(x)",
          location: DatabaseLocation(documentsDirectory: documents))
        #expect(try scalar(database, "SELECT v FROM notes") == "kept")
        if geteuid() != 0 {
          // A write needs a journal beside the file, which cannot be created.
          let error = databaseError { try database.execute("INSERT INTO notes VALUES ('lost')") }
          #expect(error?.resultCode == .cantOpen || error?.resultCode == .readOnly, "\(String(describing: error))")
          #expect(!database.isInTransaction)
          #expect(try scalar(database, "SELECT count(*) FROM notes") == 1)
        }
      }
      if geteuid() != 0 { #expect(try fileBytes(documents + "/notes.db") == bytes) }
      #expect(try directoryContents(documents) == ["notes.db"])
    }
  }

  // MARK: Permissions under the umask

  @Test func filesAreCreatedNoWiderThanTheUmaskAllows() throws {
    for mask: mode_t in [0o077, 0o027] {
      try withLocationDirectories { _, documents, bundle in
        try makeDatabaseFile(at: bundle + "/seed.db", script: "CREATE TABLE t(v); INSERT INTO t VALUES ('seed');")
        chmod(bundle + "/seed.db", 0o666)  // the seed itself is wide open
        let location = DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle)
        let previous = umask(mask)
        defer { _ = umask(previous) }
        let created = try Database(name: "created.db", createSQL: "CREATE TABLE t(v)", location: location)
        let copied = try Database(name: "seed.db", location: location)
        let byPath = try Database(path: documents + "/by-path.db")
        try byPath.execute("CREATE TABLE t(v)")
        try copied.execute("PRAGMA journal_mode = WAL")
        try copied.execute("INSERT INTO t VALUES ('wal')")
        for name in ["created.db", "seed.db", "by-path.db", "seed.db-wal", "seed.db-shm"] {
          let attributes = try FileManager.default.attributesOfItem(atPath: documents + "/" + name)
          let permissions = (attributes[.posixPermissions] as? NSNumber)?.uint16Value ?? 0o7777
          #expect(permissions & UInt16(mask) == 0, "\(name): \(String(permissions, radix: 8)) under \(mask)")
          #expect(permissions & 0o600 == 0o600, "\(name)")
        }
        #expect(try scalar(created, "SELECT count(*) FROM t") == 0)
        #expect(try scalar(copied, "SELECT group_concat(v) FROM t") == "seed,wal")
      }
    }
  }
}
