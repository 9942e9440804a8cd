import SQLiteBridge
import SQLiteBridgeCluster

/// `version`: the SQLite library in use, whether this build can encrypt
/// (what a script asks before it passes `--key-file`), whether it runs
/// dqlite nodes (before it starts `node`), and the options the engine was
/// compiled with (`PRAGMA compile_options`, space-separated), and the
/// SQLCipher version of an encrypting build ("cipher: none" otherwise).
enum VersionCommand {
  static func run(_ arguments: inout Arguments) throws {
    try arguments.finish()
    print("SQLite \(Database.sqliteVersion)")
    print("encryption: \(Database.isEncryptionAvailable ? "available" : "unavailable")")
    print("dqlite node: \(ClusterNode.isAvailable ? "available" : "unavailable")")
    print("options: " + Database.compileOptions().joined(separator: " "))
    print("cipher: " + (Database.cipherVersion.map { "SQLCipher \($0)" } ?? "none"))
  }
}
