import Foundation
import SQLiteBridge
import Testing

/// Loadable extensions from Swift (issue 27): `Database.loadExtension` and
/// `Configuration.extensions` on a `Database` and a `DatabaseQueue`. The SQL
/// function `load_extension()` is refused before and after a load; a missing
/// file, a wrong entry point and an init that fails throw errors naming the
/// path, and fail the open. (LoadExtensionTests.cpp checks the same in C++;
/// a pool's writer and readers: PoolExtensionTests.swift.)
@Suite(
  "Loadable extensions",
  .disabled(if: TestExtension.path == nil, TestExtension.unavailableReason))
struct LoadExtensionTests {
  private var extensionPath: String { TestExtension.path ?? "" }

  private func withExtensions(_ extensions: [SQLiteExtension]) -> Configuration {
    var configuration = Configuration()
    configuration.extensions = extensions
    return configuration
  }

  /// `SELECT load_extension(path)` fails as "not authorized": the SQL
  /// function stays disabled.
  private func expectSqlFunctionRefused(_ database: Database, sourceLocation: SourceLocation = #_sourceLocation) {
    let error = databaseError(sourceLocation: sourceLocation) {
      _ = try database.execute("SELECT load_extension(?)", [.text(extensionPath)])
    }
    #expect(error?.resultCode == .error, sourceLocation: sourceLocation)
    #expect(
      error?.message.contains("not authorized") == true, "\(String(describing: error))",
      sourceLocation: sourceLocation)
  }

  @Test func theDefaultsLoadNothing() {
    #expect(Configuration().extensions.isEmpty)
    let plain = SQLiteExtension(path: "/x/y.so")
    #expect(plain.entryPoint == nil)
    #expect(plain == SQLiteExtension(path: "/x/y.so", entryPoint: nil))
    #expect(plain != SQLiteExtension(path: "/x/y.so", entryPoint: "e"))
  }

  @Test func theDefaultEntryPointRegistersTheExtensionsFunction() throws {
    let database = try memoryDatabase()
    #expect(throws: DatabaseError.self) { try database.execute("SELECT bridge_ext_answer()") }
    try database.loadExtension(path: extensionPath)
    #expect(try scalar(database, "SELECT bridge_ext_answer()") == .integer(42))
  }

  @Test func anExplicitEntryPointIsCalled() throws {
    let database = try memoryDatabase()
    try database.loadExtension(path: extensionPath, entryPoint: "sqlite3_testextension_init")
    #expect(try scalar(database, "SELECT bridge_ext_answer()") == .integer(42))
  }

  @Test func theSqlFunctionLoadExtensionIsRefusedBeforeAndAfterALoad() throws {
    let database = try memoryDatabase()
    expectSqlFunctionRefused(database)
    try database.loadExtension(path: extensionPath)
    expectSqlFunctionRefused(database)
    _ = databaseError { try database.loadExtension(path: extensionPath, entryPoint: TestExtension.failingEntryPoint) }
    expectSqlFunctionRefused(database)
  }

  @Test func aMissingFileThrowsNamingThePath() throws {
    try withTemporaryDirectory { directory in
      let database = try memoryDatabase()
      let missing = directory + "/missing_extension.so"
      let error = databaseError { try database.loadExtension(path: missing) }
      #expect(error?.resultCode == .error)
      #expect(
        error?.message.contains("cannot load the extension \"\(missing)\"") == true, "\(String(describing: error))")
      #expect(try scalar(database, "SELECT 1") == .integer(1))
    }
  }

  @Test func aWrongEntryPointThrowsNamingPathAndEntryPoint() throws {
    let database = try memoryDatabase()
    let error = databaseError { try database.loadExtension(path: extensionPath, entryPoint: "sqlite3_nosuch_init") }
    #expect(error?.resultCode == .error)
    #expect(error?.message.contains(extensionPath) == true, "\(String(describing: error))")
    #expect(error?.message.contains("(entry point \"sqlite3_nosuch_init\")") == true, "\(String(describing: error))")
  }

  @Test func anInitThatFailsThrowsTheExtensionsMessage() throws {
    let database = try memoryDatabase()
    let error = databaseError {
      try database.loadExtension(path: extensionPath, entryPoint: TestExtension.failingEntryPoint)
    }
    #expect(error?.resultCode == .error)
    #expect(error?.message.contains(extensionPath) == true, "\(String(describing: error))")
    #expect(
      error?.message.contains("error during initialization: bridge_ext refuses to load") == true,
      "\(String(describing: error))")
  }

  @Test func anEmptyPathANulAndAClosedDatabaseAreMisuse() throws {
    let database = try memoryDatabase()
    #expect(databaseError { try database.loadExtension(path: "") }?.resultCode == .misuse)
    #expect(databaseError { try database.loadExtension(path: extensionPath + "\0x") }?.resultCode == .misuse)
    #expect(
      databaseError { try database.loadExtension(path: extensionPath, entryPoint: "sqlite3_\0init") }?.resultCode
        == .misuse)
    database.close()
    #expect(databaseError { try database.loadExtension(path: extensionPath) }?.resultCode == .misuse)
  }

  @Test func configuredExtensionsAreLoadedAtEveryOpenInOrder() throws {
    try withTemporaryDirectory { directory in
      let configuration = withExtensions([
        SQLiteExtension(path: extensionPath),
        SQLiteExtension(path: extensionPath, entryPoint: "sqlite3_testextension_init"),
      ])
      for _ in 0..<2 {
        let database = try Database(path: directory + "/a.db", configuration: configuration)
        #expect(try scalar(database, "SELECT bridge_ext_answer()") == .integer(42))
        expectSqlFunctionRefused(database)
      }
      let plain = try Database(path: directory + "/a.db", configuration: Configuration())
      #expect(throws: DatabaseError.self) { try plain.execute("SELECT bridge_ext_answer()") }
    }
  }

  @Test func aConfiguredExtensionThatFailsFailsTheOpen() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/a.db"
      let missing = directory + "/missing_extension.so"
      let noFile = databaseError { _ = try Database(path: path, configuration: withExtensions([.init(path: missing)])) }
      #expect(noFile?.resultCode == .error)
      #expect(noFile?.message.contains(missing) == true, "\(String(describing: noFile))")

      let failing = databaseError {
        _ = try Database(
          path: path,
          configuration: withExtensions([
            .init(path: extensionPath), .init(path: extensionPath, entryPoint: TestExtension.failingEntryPoint),
          ]))
      }
      #expect(failing?.resultCode == .error)
      #expect(failing?.message.contains("bridge_ext refuses to load") == true, "\(String(describing: failing))")

      let empty = databaseError {
        _ = try Database(path: directory + "/b.db", configuration: withExtensions([.init(path: "")]))
      }
      #expect(empty?.resultCode == .misuse)
      #expect(!fileExists(directory + "/b.db"))
    }
  }

  @Test func aDatabaseQueueLoadsThemAndFailsToOpenWhenOneFails() throws {
    try withTemporaryDirectory { directory in
      let queue = try DatabaseQueue(
        path: directory + "/queue.db", configuration: withExtensions([.init(path: extensionPath)]))
      #expect(try queue.read { try scalar($0, "SELECT bridge_ext_answer()") } == .integer(42))
      let error = databaseError {
        _ = try DatabaseQueue(
          path: directory + "/queue.db",
          configuration: withExtensions([.init(path: extensionPath, entryPoint: TestExtension.failingEntryPoint)]))
      }
      #expect(error?.resultCode == .error)
      #expect(error?.message.contains("bridge_ext refuses to load") == true, "\(String(describing: error))")
    }
  }
}
