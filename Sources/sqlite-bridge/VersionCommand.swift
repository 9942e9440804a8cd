import SQLiteBridge

/// `version`: the SQLite library in use and whether this build can encrypt
/// (what a script asks before it passes `--key-file`).
enum VersionCommand {
  static func run(_ arguments: inout Arguments) throws {
    try arguments.finish()
    print("SQLite \(Database.sqliteVersion)")
    print("encryption: \(Database.isEncryptionAvailable ? "available" : "unavailable")")
  }
}
