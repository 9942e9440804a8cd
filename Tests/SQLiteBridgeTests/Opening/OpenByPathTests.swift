import Foundation
import SQLiteBridge
import Testing

@Suite("Database(path:mode:)")
struct OpenByPathTests {
  @Test func memoryDatabaseWorksAndHasAnEmptyPath() throws {
    let database = try Database(path: ":memory:")
    #expect(database.path == "")
    try database.execute("CREATE TABLE t(x)")
    try database.execute("INSERT INTO t(x) VALUES (1)")
    #expect(try database.execute("SELECT x FROM t") == [["x": 1]])
  }

  @Test func inMemoryURIHasAnEmptyPathToo() throws {
    let database = try Database(path: "file:scratch?mode=memory")
    #expect(database.path == "")
    try database.execute("CREATE TABLE t(x)")
  }

  @Test func memoryDatabasesAreIndependent() throws {
    let first = try Database(path: ":memory:")
    let second = try Database(path: ":memory:")
    try first.execute("CREATE TABLE t(x)")
    #expect(try tableNames(first) == ["t"])
    #expect(try tableNames(second).isEmpty)
  }

  @Test func readWriteCreateCreatesTheFile() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/new.db"
      let database = try Database(path: path, mode: .readWriteCreate)
      #expect(fileExists(path))
      #expect(database.path == path)
      try database.execute("CREATE TABLE t(x)")
      try database.execute("INSERT INTO t(x) VALUES ('kept')")
      let reopened = try Database(path: path, mode: .readWrite)
      #expect(try reopened.execute("SELECT x FROM t") == [["x": "kept"]])
    }
  }

  @Test func defaultModeCreatesTheFile() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/default.db"
      let database = try Database(path: path)
      #expect(fileExists(path))
      try database.execute("CREATE TABLE t(x)")
      #expect(try tableNames(database) == ["t"])
    }
  }

  @Test func readWriteOnAMissingFileThrowsCantOpenAndCreatesNothing() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/missing.db"
      let error = try #require(throws: DatabaseError.self) { _ = try Database(path: path, mode: .readWrite) }
      #expect(error.resultCode == .cantOpen)
      #expect(error.message.contains(path))
      #expect(try directoryContents(directory).isEmpty)
    }
  }

  @Test func readOnlyOnAMissingFileThrowsCantOpen() throws {
    try withTemporaryDirectory { directory in
      let error = try #require(throws: DatabaseError.self) {
        _ = try Database(path: directory + "/missing.db", mode: .readOnly)
      }
      #expect(error.resultCode == .cantOpen)
      #expect(try directoryContents(directory).isEmpty)
    }
  }

  @Test func createInAMissingDirectoryThrowsCantOpen() throws {
    try withTemporaryDirectory { directory in
      let error = try #require(throws: DatabaseError.self) {
        _ = try Database(path: directory + "/no/such/dir/x.db", mode: .readWriteCreate)
      }
      #expect(error.resultCode == .cantOpen)
      #expect(try directoryContents(directory).isEmpty)
    }
  }

  @Test func readOnlyReadsButRefusesWritesAndKeepsTheData() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/data.db"
      try makeDatabaseFile(at: path, script: "CREATE TABLE t(x); INSERT INTO t(x) VALUES (1), (2);")
      let before = try fileBytes(path)

      let database = try Database(path: path, mode: .readOnly)
      #expect(try database.rows("SELECT x FROM t ORDER BY x").map(\.values) == [[1], [2]])
      for sql in ["INSERT INTO t(x) VALUES (3)", "UPDATE t SET x = 0", "DELETE FROM t", "CREATE TABLE u(y)"] {
        let error = try #require(throws: DatabaseError.self) { try database.execute(sql) }
        #expect(error.resultCode == .readOnly, "\(sql)")
        #expect(error.sql == sql)
      }
      let scriptError = try #require(throws: DatabaseError.self) { try database.executeScript("DROP TABLE t") }
      #expect(scriptError.resultCode == .readOnly)

      #expect(try database.rows("SELECT x FROM t ORDER BY x").map(\.values) == [[1], [2]])
      #expect(try tableNames(database) == ["t"])
      #expect(try fileBytes(path) == before)
    }
  }

  @Test func readWriteOpensAnExistingFileForWriting() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/data.db"
      try makeDatabaseFile(at: path, script: "CREATE TABLE t(x)")
      let database = try Database(path: path, mode: .readWrite)
      try database.execute("INSERT INTO t(x) VALUES (1)")
      #expect(database.changes == 1)
      #expect(database.path == path)
    }
  }

  @Test(arguments: [OpenMode.readOnly, .readWrite, .readWriteCreate])
  func fileThatIsNotADatabaseThrowsNotADatabaseAndIsLeftAlone(_ mode: OpenMode) throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/garbage.db"
      let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
      try garbage.write(to: URL(fileURLWithPath: path))
      let error = try #require(throws: DatabaseError.self) { _ = try Database(path: path, mode: mode) }
      #expect(error.resultCode == .notADatabase)
      #expect(try fileBytes(path) == garbage)
      #expect(try directoryContents(directory) == ["garbage.db"])
    }
  }

  @Test func twoConnectionsToOneFileSeeEachOthersCommits() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/shared.db"
      let first = try Database(path: path)
      let second = try Database(path: path)
      try first.execute("CREATE TABLE t(x)")
      try first.execute("INSERT INTO t(x) VALUES (42)")
      #expect(try second.execute("SELECT x FROM t") == [["x": 42]])
    }
  }
}
