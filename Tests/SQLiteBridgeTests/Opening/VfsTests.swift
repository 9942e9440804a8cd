import Foundation
import SQLiteBridge
import Testing

/// `Configuration.vfs` from Swift (issue 27): a built-in VFS is used for the
/// file (as the test extension's `bridge_ext_vfs()` reports it, and as
/// `unix-dotfile`'s lock directory shows), an unregistered one throws
/// `.cantOpen` naming it before any file is made, and a VFS that a
/// configured extension registers serves that same open. (VfsTests.cpp
/// checks the same in C++.)
@Suite("VFS selection")
struct VfsTests {
  private func withVfs(_ vfs: String?, extensions: [SQLiteExtension] = []) -> Configuration {
    var configuration = Configuration()
    configuration.vfs = vfs
    configuration.extensions = extensions
    return configuration
  }

  @Test func nilUsesTheDefaultVfs() throws {
    #expect(Configuration().vfs == nil)
    try withTemporaryDirectory { directory in
      let database = try Database(path: directory + "/a.db", configuration: withVfs(nil))
      try database.execute("CREATE TABLE t(x)")
    }
  }

  @Test(.disabled(if: TestExtension.path == nil, TestExtension.unavailableReason))
  func aBuiltInVfsOpensTheFileThroughIt() throws {
    let extensionPath = try #require(TestExtension.path)
    try withTemporaryDirectory { directory in
      for vfs in ["unix-dotfile", "unix-none"] {
        let database = try Database(
          path: directory + "/\(vfs).db", configuration: withVfs(vfs, extensions: [.init(path: extensionPath)]))
        #expect(try scalar(database, "SELECT bridge_ext_vfs()") == .text(vfs))
        try database.execute("CREATE TABLE t(x)")
        try database.execute("INSERT INTO t VALUES (5)")
        #expect(try scalar(database, "SELECT x FROM t") == .integer(5))
      }
      let plain = try Database(
        path: directory + "/plain.db", configuration: withVfs(nil, extensions: [.init(path: extensionPath)]))
      #expect(try scalar(plain, "SELECT bridge_ext_vfs()") != .text("unix-dotfile"))
    }
  }

  @Test func unixDotfileLocksWithADotLockDirectory() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/a.db"
      let database = try Database(path: path, configuration: withVfs("unix-dotfile"))
      try database.execute("CREATE TABLE t(x)")
      try database.execute("BEGIN IMMEDIATE")
      // unix-dotfile holds its lock as the directory "<file>.lock".
      #expect(fileExists(path + ".lock"))
      try database.execute("ROLLBACK")
      #expect(!fileExists(path + ".lock"))

      let plain = try Database(path: directory + "/b.db", configuration: withVfs(nil))
      try plain.execute("CREATE TABLE t(x)")
      try plain.execute("BEGIN IMMEDIATE")
      #expect(!fileExists(directory + "/b.db.lock"))
      try plain.execute("ROLLBACK")
    }
  }

  @Test func anUnregisteredVfsThrowsCantOpenNamingItBeforeAnyFileIsMade() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/a.db"
      let error = databaseError { _ = try Database(path: path, configuration: withVfs("no-such-vfs")) }
      #expect(error?.resultCode == .cantOpen)
      #expect(
        error?.message.contains("no VFS named \"no-such-vfs\" is registered") == true, "\(String(describing: error))")
      let queueError = databaseError { _ = try DatabaseQueue(path: path, configuration: withVfs("no-such-vfs")) }
      #expect(queueError?.resultCode == .cantOpen)
      let poolError = databaseError { _ = try DatabasePool(path: path, configuration: withVfs("no-such-vfs")) }
      #expect(poolError?.resultCode == .cantOpen)
      #expect(databaseError { _ = try Database(path: path, configuration: withVfs("unix\0x")) }?.resultCode == .misuse)
      #expect(!fileExists(path))
    }
  }

  @Test(.disabled(if: TestExtension.path == nil, TestExtension.unavailableReason))
  func aVfsRegisteredByAConfiguredExtensionServesThatOpen() throws {
    let extensionPath = try #require(TestExtension.path)
    try withTemporaryDirectory { directory in
      let configuration = withVfs(
        "bridge-ext-vfs", extensions: [.init(path: extensionPath, entryPoint: TestExtension.vfsEntryPoint)])
      let database = try Database(path: directory + "/a.db", configuration: configuration)
      #expect(try scalar(database, "SELECT bridge_ext_vfs()") == "bridge-ext-vfs")
      #expect(try scalar(database, "SELECT bridge_ext_answer()") == .integer(42))
    }
  }

  @Test(.disabled(if: TestExtension.path == nil, TestExtension.unavailableReason))
  func extensionsThatDoNotRegisterTheVfsStillThrowCantOpen() throws {
    let extensionPath = try #require(TestExtension.path)
    try withTemporaryDirectory { directory in
      let path = directory + "/a.db"
      let error = databaseError {
        _ = try Database(path: path, configuration: withVfs("no-such-vfs", extensions: [.init(path: extensionPath)]))
      }
      #expect(error?.resultCode == .cantOpen)
      #expect(
        error?.message.contains("the configured extensions did not register it") == true,
        "\(String(describing: error))")
      #expect(!fileExists(path))
    }
  }
}
