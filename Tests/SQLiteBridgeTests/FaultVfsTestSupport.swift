import Foundation
import SQLiteBridge
import Testing

/// The power-loss harness's fault VFS as a loadable extension
/// (`Tests/Fixtures/faultvfs/fault_vfs_extension.cpp`), compiled once per test
/// process with a C++ compiler and loaded into a control connection: it
/// registers the VFS `powerloss` for the process, and its SQL functions arm a
/// fault (the N-th read, write, sync, truncate or lock fails with an I/O
/// error or a full disk) and disarm it.
enum FaultVfs {
  static let name = "powerloss"

  /// The built extension's path, or why it could not be built.
  static let build: Result<String, BuildFailure> = buildLoadableExtension(
    source: "faultvfs/fault_vfs_extension.cpp", fileName: "fault_vfs_extension.so",
    compilers: ["c++", "clang++", "g++"], toolchainCompiler: "/opt/swift/usr/bin/clang++", arguments: ["-std=c++17"])

  /// Why the tests that need it are disabled (empty when they are not).
  static var unavailableReason: Comment {
    switch build {
    case .success: return ""
    case .failure(let failure): return Comment(rawValue: failure.reason)
    }
  }

  /// A connection with the extension loaded: the VFS is registered, and its
  /// functions arm faults. Created on first use, kept for the process.
  private static let control: Result<DatabaseQueue, Error> = Result {
    var configuration = Configuration()
    configuration.extensions = [SQLiteExtension(path: try build.get(), entryPoint: "sqlite3_faultvfs_init")]
    return try DatabaseQueue(path: ":memory:", configuration: configuration)
  }

  /// Registers the VFS (loading the extension on first use).
  static func register() throws { _ = try control.get() }

  /// From now on the `at`-th call of `kind` ("read", "write", "sync",
  /// "truncate", "lock") fails, with a full disk when `full`, and every later
  /// one too when `persistent`.
  static func fail(_ kind: String, at: Int, full: Bool = false, persistent: Bool = false) throws {
    try control.get().writeWithoutTransaction { db in
      try db.execute(
        "SELECT powerloss_fault(?, ?, ?, ?)",
        [.text(kind), .integer(Int64(at)), .integer(full ? 1 : 0), .integer(persistent ? 1 : 0)])
    }
  }

  /// Every call succeeds again.
  static func disarm() throws {
    try control.get().writeWithoutTransaction { db in try db.execute("SELECT powerloss_disarm()") }
  }

  /// How many calls the armed fault failed (-1 when the extension answers
  /// something else).
  static func faults() throws -> Int64 {
    let rows = try control.get().writeWithoutTransaction { db in try db.execute("SELECT powerloss_faults() AS n") }
    guard case .integer(let count)? = rows.first?["n"] else { return -1 }
    return count
  }

  /// A configuration that opens through the VFS.
  static func configuration() throws -> Configuration {
    try register()
    var configuration = Configuration()
    configuration.vfs = name
    return configuration
  }
}
