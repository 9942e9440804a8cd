import Foundation
import SQLiteBridge
import Testing

/// `fileSize()` and `removeDatabase` from Swift. (DatabaseFilesTests.cpp
/// checks the same, and a lock held by another process.)
@Suite("Database files")
struct DatabaseFilesTests {
  private let create = "CREATE TABLE notes(id INTEGER PRIMARY KEY, body BLOB)"

  private func fileLength(_ path: String) throws -> Int64 {
    Int64(try fileBytes(path).count)
  }

  @Test func fileSizeCountsTheFileAndItsWalAndGrows() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/size.db"
      let database = try Database(path: path)
      let empty = try database.fileSize()
      try database.executeScript(
        create + """
          ;
          WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
            INSERT INTO notes(body) SELECT randomblob(2000) FROM n;
          """)
      let filled = try database.fileSize()
      #expect(filled > empty + 400_000)
      #expect(filled == (try fileLength(path)))

      #expect(try scalar(database, "PRAGMA journal_mode = WAL") == .text("wal"))
      try database.execute("PRAGMA wal_autocheckpoint = 0")
      try database.execute("UPDATE notes SET body = randomblob(2000)")
      let wal = try fileLength(path + "-wal")
      #expect(wal > 400_000)
      #expect(try database.fileSize() == (try fileLength(path)) + wal)
    }
  }

  @Test func fileSizeIsZeroInMemoryAndFailsWhenClosed() throws {
    for path in [":memory:", ""] {
      let database = try Database(path: path)
      try database.execute(create)
      try database.execute("INSERT INTO notes(body) VALUES (randomblob(10000))")
      #expect(try database.fileSize() == 0)
      database.close()
      let closed = try #require(throws: DatabaseError.self) { try database.fileSize() }
      #expect(closed.resultCode == .misuse)
    }
  }

  @Test func removeByNameRefusesWhileOpenThenLeavesNothingBehind() throws {
    try withLocationDirectories { root, documents, bundle in
      let location = DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle)
      try makeDatabaseFile(at: documents + "/keep.db", script: create)
      do {
        let database = try Database(name: "notes.db", createSQL: create, location: location)
        #expect(try scalar(database, "PRAGMA journal_mode = WAL") == .text("wal"))
        try database.execute("INSERT INTO notes(body) VALUES ('x')")
        let busy = try #require(throws: DatabaseError.self) {
          try Database.removeDatabase(name: "notes.db", location: location)
        }
        #expect(busy.resultCode == .busy)
        #expect(busy.message.contains("open in this process"))
        #expect(fileExists(documents + "/notes.db-wal"))
        let byPath = try #require(throws: DatabaseError.self) {
          try Database.removeDatabase(atPath: documents + "/notes.db")
        }
        #expect(byPath.resultCode == .busy)
        database.close()
      }
      try Database.removeDatabase(name: "notes.db", location: location)
      #expect(try directoryContents(documents) == ["keep.db"])
      try Database.removeDatabase(name: "notes.db", location: location)  // nothing left: nothing to do
      try Database.removeDatabase(atPath: documents + "/keep.db")
      #expect(try directoryContents(documents) == [])
      #expect(try directoryContents(root) == ["bundle", "documents"])
    }
  }

  @Test func removeRefusesBadNamesAndPaths() throws {
    try withLocationDirectories { root, documents, _ in
      let location = DatabaseLocation(documentsDirectory: documents)
      try makeDatabaseFile(at: root + "/outside.db", script: create)
      for name in ["../outside.db", "", "..", "a/b.db", "x.db-wal", "a\0b"] {
        let error = try #require(throws: DatabaseError.self) {
          try Database.removeDatabase(name: name, location: location)
        }
        #expect(error.resultCode == .misuse, "\(name)")
        #expect(error.message.contains("invalid database name"))
      }
      #expect(fileExists(root + "/outside.db"))
      for path in ["", ":memory:", "file:a.db?mode=rwc", documents + "/a\0b"] {
        let error = try #require(throws: DatabaseError.self) { try Database.removeDatabase(atPath: path) }
        #expect(error.resultCode == .misuse, "\(path)")
      }
      try FileManager.default.createDirectory(atPath: documents + "/dir.db", withIntermediateDirectories: false)
      let directory = try #require(throws: DatabaseError.self) {
        try Database.removeDatabase(name: "dir.db", location: location)
      }
      #expect(directory.resultCode == .ioError)
      #expect(fileExists(documents + "/dir.db"))
    }
  }
}
