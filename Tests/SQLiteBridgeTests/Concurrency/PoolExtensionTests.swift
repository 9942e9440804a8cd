import Foundation
import SQLiteBridge
import Testing

/// A `DatabasePool` passes `vfs`, `extensions` and `autoCheckpointPages` to
/// every connection it opens (issue 27): the writer and each of several
/// readers, held at once so that they are different connections, see the
/// extension's functions, open through the VFS and have the checkpoint
/// setting; an extension that fails fails the pool's open.
/// (PoolExtensionTests.cpp checks the same in C++.)
@Suite(
  "Pool extensions",
  .disabled(if: TestExtension.path == nil, TestExtension.unavailableReason))
struct PoolExtensionTests {
  /// The extension's answer, the VFS and the auto-checkpoint setting of a
  /// connection.
  private static func describe(_ database: Database) throws -> [DatabaseValue] {
    [
      try scalar(database, "SELECT bridge_ext_answer()"), try scalar(database, "SELECT bridge_ext_vfs()"),
      try scalar(database, "PRAGMA wal_autocheckpoint"),
    ]
  }

  private static let expected: [DatabaseValue] = [.integer(42), .text("bridge-ext-vfs"), .integer(0)]

  @Test func theWriterAndEveryReaderGetVfsExtensionsAndAutoCheckpoint() throws {
    let extensionPath = try #require(TestExtension.path)
    try withTemporaryDirectory { directory in
      let readers = 3
      var configuration = Configuration()
      configuration.vfs = "bridge-ext-vfs"
      configuration.extensions = [SQLiteExtension(path: extensionPath, entryPoint: TestExtension.vfsEntryPoint)]
      configuration.autoCheckpointPages = 0
      configuration.maximumReaderCount = readers
      let pool = try DatabasePool(path: directory + "/pool.db", configuration: configuration)
      #expect(try pool.writeWithoutTransaction { try Self.describe($0) } == Self.expected)

      // Each reader waits inside its read until all are in: three connections.
      let allIn = Latch(readers)
      let seen = Locked<[[DatabaseValue]]>([])
      let threads = (0..<readers).map { index in
        TestThread("reader \(index)") {
          do {
            let description = try pool.read { database in
              if !allIn.arriveAndWait() { Issue.record("the readers did not all start") }
              return try Self.describe(database)
            }
            seen.withLock { $0.append(description) }
          } catch {
            Issue.record("reader \(index): \(error)")
          }
        }
      }
      for thread in threads { thread.join() }
      #expect(seen.current == Array(repeating: Self.expected, count: readers))
    }
  }

  @Test func aFailingExtensionFailsThePoolsOpen() throws {
    let extensionPath = try #require(TestExtension.path)
    try withTemporaryDirectory { directory in
      var configuration = Configuration()
      configuration.extensions = [SQLiteExtension(path: extensionPath, entryPoint: TestExtension.failingEntryPoint)]
      let error = databaseError { _ = try DatabasePool(path: directory + "/pool.db", configuration: configuration) }
      #expect(error?.resultCode == .error)
      #expect(error?.message.contains("bridge_ext refuses to load") == true, "\(String(describing: error))")
    }
  }
}
