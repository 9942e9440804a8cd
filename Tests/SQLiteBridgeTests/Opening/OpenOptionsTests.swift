import Foundation
import SQLiteBridge
import Testing

/// The open options of `Configuration` from Swift: every journal mode (and
/// the mode SQLite keeps on an in-memory database), every synchronous level,
/// `noFollowSymlinks`, URI filenames on and off, a shared in-memory database
/// by name, and the same options through the by-name initializer, a
/// `DatabaseQueue` and a `DatabasePool` (which refuses what it cannot
/// honour). (OpenOptionsTests.cpp checks the same in C++.)
@Suite("Open options")
struct OpenOptionsTests {
  /// A name no other test uses, as the tests of a process run in parallel
  /// and shared in-memory databases are process-wide.
  private func uniqueName(_ base: String) -> String { "\(base)-\(UUID().uuidString)" }

  private func shared(_ name: String) -> Configuration {
    var configuration = Configuration()
    configuration.sharedCacheName = name
    return configuration
  }

  private func journal(_ mode: JournalMode) -> Configuration {
    var configuration = Configuration()
    configuration.journalMode = mode
    return configuration
  }

  @Test func theDefaultsAreTheCores() {
    let defaults = Configuration()
    #expect(defaults.journalMode == nil)
    #expect(defaults.synchronous == nil)
    #expect(!defaults.noFollowSymlinks)
    #expect(defaults.uriFilenames)
    #expect(defaults.sharedCacheName == nil)
  }

  // MARK: journalMode

  @Test(arguments: [JournalMode.delete, .truncate, .persist, .memory, .wal, .off])
  func everyJournalModeIsSetAtOpenAndReadsBack(mode: JournalMode) throws {
    try withTemporaryDirectory { directory in
      let database = try Database(path: directory + "/\(mode.rawValue).db", configuration: journal(mode))
      #expect(try scalar(database, "PRAGMA journal_mode") == .text(mode.rawValue))
      try database.execute("CREATE TABLE t(x)")
    }
  }

  @Test func walStaysInTheFileAfterReopeningWithoutTheOption() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/wal.db"
      do {
        let database = try Database(path: path, configuration: journal(.wal))
        try database.execute("CREATE TABLE t(x)")
      }
      let reopened = try Database(path: path, configuration: Configuration())
      #expect(try scalar(reopened, "PRAGMA journal_mode") == "wal")
    }
  }

  @Test func aModeSQLiteDoesNotKeepFailsTheOpenNamingBoth() throws {
    let error = databaseError { _ = try Database(path: ":memory:", configuration: journal(.wal)) }
    #expect(error?.resultCode == .error)
    #expect(
      error?.message.contains("journal_mode \"wal\" was asked, and SQLite kept \"memory\"") == true,
      "\(String(describing: error))")
    for kept in [JournalMode.memory, .off] {
      let database = try Database(path: ":memory:", configuration: journal(kept))
      #expect(try scalar(database, "PRAGMA journal_mode") == .text(kept.rawValue))
    }
  }

  @Test func aReadOnlyConnectionCannotSwitchToWal() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/ro.db"
      try makeDatabaseFile(at: path, script: "CREATE TABLE t(x)")
      var configuration = journal(.wal)
      configuration.readOnly = true
      let error = databaseError { _ = try Database(path: path, configuration: configuration) }
      #expect(error?.resultCode == .readOnly, "\(String(describing: error))")
    }
  }

  // MARK: synchronous

  @Test(arguments: zip([Synchronous.off, .normal, .full, .extra], [Int64(0), 1, 2, 3]))
  func everySynchronousLevelReadsBack(level: Synchronous, number: Int64) throws {
    try withTemporaryDirectory { directory in
      var configuration = Configuration()
      configuration.synchronous = level
      let database = try Database(path: directory + "/sync.db", configuration: configuration)
      #expect(try scalar(database, "PRAGMA synchronous") == .integer(number))
    }
  }

  // MARK: noFollowSymlinks

  @Test func noFollowSymlinksRefusesALinkThatOpensWithoutIt() throws {
    try withTemporaryDirectory { directory in
      let real = directory + "/real.db"
      try makeDatabaseFile(at: real, script: "CREATE TABLE t(x); INSERT INTO t VALUES (5);")
      try FileManager.default.createSymbolicLink(atPath: directory + "/link.db", withDestinationPath: real)
      var configuration = Configuration()
      configuration.noFollowSymlinks = true
      let error = databaseError { _ = try Database(path: directory + "/link.db", configuration: configuration) }
      #expect(error?.resultCode == .cantOpen)
      #expect(error?.extendedCode == 1550, "SQLITE_CANTOPEN_SYMLINK: \(String(describing: error))")
      #expect(error?.message.contains("noFollowSymlinks") == true, "\(String(describing: error))")

      let followed = try Database(path: directory + "/link.db", configuration: Configuration())
      #expect(try scalar(followed, "SELECT x FROM t") == .integer(5))
      let direct = try Database(path: real, configuration: configuration)
      #expect(try scalar(direct, "SELECT x FROM t") == .integer(5))
    }
  }

  // MARK: uriFilenames

  @Test func uriFilenamesReadAFileUriWithItsParameters() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/uri.db"
      try makeDatabaseFile(at: path, script: "CREATE TABLE t(x); INSERT INTO t VALUES (3);")
      let database = try Database(path: "file:\(path)?mode=ro", configuration: Configuration())
      #expect(try scalar(database, "SELECT x FROM t") == .integer(3))
      let error = databaseError { try database.execute("INSERT INTO t VALUES (4)") }
      #expect(error?.resultCode == .readOnly)
    }
  }

  @Test func withoutUriFilenamesAFileColonPathIsAPlainRelativeName() throws {
    var configuration = Configuration()
    configuration.uriFilenames = false
    // Relative to the working directory, which the tests share: a unique name,
    // removed afterwards.
    let name = "file:\(uniqueName("sqlitebridge-open-options")).db?mode=ro"
    let inWorkingDirectory = FileManager.default.currentDirectoryPath + "/" + name
    defer { try? FileManager.default.removeItem(atPath: inWorkingDirectory) }
    do {
      let database = try Database(path: name, configuration: configuration)
      try database.execute("CREATE TABLE t(x)")  // not read-only: no URI parameter was read
      #expect(database.path == name)
    }
    #expect(fileExists(inWorkingDirectory))

    try withTemporaryDirectory { directory in
      // "file:" + an absolute path names the directory "file:" of the working
      // directory, which is not there: nothing is made at the absolute path.
      let error = databaseError { _ = try Database(path: "file:\(directory)/abs.db", configuration: configuration) }
      #expect(error?.resultCode == .cantOpen)
      #expect(!fileExists(directory + "/abs.db"))
      _ = try Database(path: "file:\(directory)/abs.db", configuration: Configuration())
      #expect(fileExists(directory + "/abs.db"))
    }
  }

  // MARK: sharedCacheName

  @Test func aSharedInMemoryDatabaseIsSeenByEveryConnectionOfItsName() throws {
    let name = uniqueName("notes")
    let first = try Database(path: ":memory:", configuration: shared(name))
    let second = try Database(path: "", configuration: shared(name))
    let other = try Database(path: ":memory:", configuration: shared(uniqueName("other")))
    try first.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (42);")
    #expect(try scalar(second, "SELECT x FROM t") == .integer(42))
    #expect(try scalar(other, "SELECT count(*) FROM sqlite_master") == .integer(0))
    #expect(first.path.isEmpty)
  }

  @Test(arguments: ["a b?mode=ro&cache=private#x", "100%", "dir/name", "ünïcode"])
  func sharedCacheNamesThatNeedEscapingAreWholeNames(base: String) throws {
    let name = base + uniqueName("")
    let writer = try Database(path: ":memory:", configuration: shared(name))
    try writer.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (1);")
    let reader = try Database(path: ":memory:", configuration: shared(name))
    #expect(try scalar(reader, "SELECT count(*) FROM t") == .integer(1))
  }

  @Test func sharedCacheNameRefusesAPathAnEmptyNameAndANul() throws {
    try withTemporaryDirectory { directory in
      let error = databaseError { _ = try Database(path: directory + "/file.db", configuration: shared("x")) }
      #expect(error?.resultCode == .misuse)
      #expect(error?.message.contains("must be \"\" or \":memory:\"") == true, "\(String(describing: error))")
      #expect(!fileExists(directory + "/file.db"))
    }
    for name in ["", "a\0b"] {
      let error = databaseError { _ = try Database(path: ":memory:", configuration: shared(name)) }
      #expect(error?.resultCode == .misuse, "\(String(describing: error))")
    }
  }

  @Test func aReadOnlySharedConnectionReadsButRefusesWrites() throws {
    let name = uniqueName("ro-shared")
    let writer = try Database(path: ":memory:", configuration: shared(name))
    try writer.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (9);")
    var configuration = shared(name)
    configuration.readOnly = true
    let reader = try Database(path: ":memory:", configuration: configuration)
    #expect(try scalar(reader, "SELECT x FROM t") == .integer(9))
    let error = databaseError { try reader.execute("INSERT INTO t VALUES (10)") }
    #expect(error?.resultCode == .readOnly)
  }

  // MARK: Every way a database opens

  @Test func theByNameInitializerHonoursThem() throws {
    try withLocationDirectories { _, documents, _ in
      var configuration = journal(.wal)
      configuration.synchronous = .normal
      let location = DatabaseLocation(documentsDirectory: documents)
      let database = try Database(
        name: "made.db", createSQL: "CREATE TABLE t(x)", location: location, configuration: configuration)
      #expect(try scalar(database, "PRAGMA journal_mode") == "wal")
      #expect(try scalar(database, "PRAGMA synchronous") == .integer(1))
    }
  }

  @Test func aDatabaseQueueHonoursThemIncludingASharedCache() throws {
    try withTemporaryDirectory { directory in
      var configuration = journal(.truncate)
      configuration.synchronous = .extra
      let queue = try DatabaseQueue(path: directory + "/queue.db", configuration: configuration)
      #expect(try queue.read { try scalar($0, "PRAGMA journal_mode") } == "truncate")
      #expect(try queue.read { try scalar($0, "PRAGMA synchronous") } == .integer(3))
    }
    let name = uniqueName("queue-shared")
    let queue = try DatabaseQueue(path: ":memory:", configuration: shared(name))
    try queue.write { try $0.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (7);") }
    let outside = try Database(path: ":memory:", configuration: shared(name))
    #expect(try scalar(outside, "SELECT x FROM t") == .integer(7))
  }

  @Test func aDatabasePoolTakesWalAndSynchronousForEveryConnection() throws {
    try withTemporaryDirectory { directory in
      var configuration = journal(.wal)
      configuration.synchronous = .off
      let pool = try DatabasePool(path: directory + "/pool.db", configuration: configuration)
      #expect(try pool.writeWithoutTransaction { try scalar($0, "PRAGMA synchronous") } == .integer(0))
      #expect(try pool.read { try scalar($0, "PRAGMA synchronous") } == .integer(0))
      #expect(try pool.read { try scalar($0, "PRAGMA journal_mode") } == "wal")
    }
  }

  @Test func aDatabasePoolRefusesAnotherJournalModeAndASharedCache() throws {
    try withTemporaryDirectory { directory in
      for mode in [JournalMode.delete, .truncate, .persist, .memory, .off] {
        let error = databaseError { _ = try DatabasePool(path: directory + "/pool.db", configuration: journal(mode)) }
        #expect(error?.resultCode == .misuse)
        #expect(error?.message.contains("WAL") == true, "\(String(describing: error))")
      }
      #expect(!fileExists(directory + "/pool.db"))
    }
    let error = databaseError { _ = try DatabasePool(path: ":memory:", configuration: shared(uniqueName("pool"))) }
    #expect(error?.resultCode == .misuse)
    #expect(error?.message.contains("DatabaseQueue") == true, "\(String(describing: error))")
  }
}
