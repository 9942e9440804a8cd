import CxxStdlib
import SQLiteBridgeCore

extension Database {
  /// Whether this build can encrypt: true when the core was built against
  /// SQLCipher (the package trait `SQLCipher`, CMake
  /// `SQLITEBRIDGE_SQLCIPHER=ON`), false in the default build on the system
  /// SQLite, where a `Configuration.key` throws `.misuse` at open before any
  /// file is made. The core answers (`Database::isEncryptionAvailable`).
  public static var isEncryptionAvailable: Bool {
    sqlitebridge.Database.isEncryptionAvailable()
  }

  /// The version of SQLCipher this build links ("4.19.0"; its
  /// `PRAGMA cipher_version`), nil in the default build. The core answers
  /// (`Database::cipherVersion`).
  public static var cipherVersion: String? {
    let version = String(sqlitebridge.Database.cipherVersion())
    return version.isEmpty ? nil : version
  }

  /// Re-encrypts the open database with `key` (SQLCipher's `sqlite3_rekey`):
  /// every page is rewritten, and from then on only `key` opens the file
  /// (its UTF-8 bytes all count, a NUL character included). The connection
  /// stays open and usable.
  ///
  /// - Throws: `DatabaseError`, changing nothing, with `.misuse` when the
  ///   database is closed, `key` is empty, a transaction is open, the
  ///   database was opened without a key (SQLCipher cannot encrypt a plain
  ///   database in place: open a new one with `Configuration.key` and copy
  ///   the data into it), or this build cannot encrypt (see
  ///   `isEncryptionAvailable`). When the rewrite fails (SQLite's error:
  ///   `.ioError`, `.full`, `.busy`, …; `.ioError` too when SQLCipher
  ///   reports success but the file does not open with `key`), the file
  ///   keeps its old key and the connection is closed (its cipher no longer
  ///   matches the file), the message saying so: open it again.
  public func changeKey(_ key: String) throws {
    guard core.changeKey(std.string(key)) else { throw lastError }
  }
}
