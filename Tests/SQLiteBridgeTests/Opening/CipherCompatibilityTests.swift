import Foundation
import SQLiteBridge
import Testing

/// `Configuration.cipherCompatibility` from Swift (issue 39): a database
/// written by SQLCipher 3 (`Tests/Fixtures/sqlcipher3.db`, written by
/// Debian's `sqlcipher` 3.4.1 shell with scripts/make-sqlcipher3-fixture;
/// `SQLITEBRIDGE_SQLCIPHER3_DB` names a freshly written one instead) opens
/// with a key and compatibility 3, and moves to SQLCipher 4's format with
/// `sqlcipher_export` as the encryption article says.
/// (CipherCompatibilityTests.cpp checks the same in C++.)
@Suite("Cipher compatibility")
struct CipherCompatibilityTests {
  static let sqlcipher3Key = "sqlcipher 3 passphrase"
  static let notes: [DatabaseValue] = [.text("written by SQLCipher 3.4.1"), .text("second note")]

  /// The SQLCipher 3 database the tests open.
  static var sqlcipher3Database: String {
    if let fresh = ProcessInfo.processInfo.environment["SQLITEBRIDGE_SQLCIPHER3_DB"], !fresh.isEmpty { return fresh }
    return fixturePath("sqlcipher3.db")
  }

  private func keyed(_ key: String?, compatibility: Int? = nil) -> Configuration {
    var configuration = Configuration()
    configuration.key = key
    configuration.cipherCompatibility = compatibility
    return configuration
  }

  private func bodies(_ database: Database) throws -> [DatabaseValue] {
    try database.execute("SELECT body FROM notes ORDER BY id").map { $0["body"] ?? .null }
  }

  @Test func withoutAKeyThrowsMisuseAndMakesNoFile() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/plain.db"
      let error = databaseError { _ = try Database(path: path, configuration: keyed(nil, compatibility: 3)) }
      #expect(error?.resultCode == .misuse, "\(String(describing: error))")
      #expect(error?.message.contains("cipherCompatibility needs Configuration.key") == true)
      #expect(!fileExists(path))
    }
  }

  @Test(arguments: [0, 5, -1, Int.max])
  func outsideOneToFourThrowsMisuseAndMakesNoFile(version: Int) throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/secret.db"
      let error = databaseError { _ = try Database(path: path, configuration: keyed("key", compatibility: version)) }
      #expect(error?.resultCode == .misuse, "\(String(describing: error))")
      if Database.isEncryptionAvailable {
        #expect(error?.message.contains("cipherCompatibility is ") == true, "\(String(describing: error))")
      }
      #expect(!fileExists(path))
    }
  }

  @Test(.enabled(if: Database.isEncryptionAvailable, "needs the SQLCipher build"))
  func aSQLCipher3DatabaseOpensWithCompatibility3AndNotWithoutIt() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/v3.db"
    try FileManager.default.copyItem(atPath: Self.sqlcipher3Database, toPath: path)
    let refused = databaseError { _ = try Database(path: path, configuration: keyed(Self.sqlcipher3Key)) }
    #expect(refused?.resultCode == .notADatabase, "\(String(describing: refused))")
    #expect(refused?.message.contains("cipherCompatibility") == true, "\(String(describing: refused))")

    let database = try Database(path: path, configuration: keyed(Self.sqlcipher3Key, compatibility: 3))
    #expect(try bodies(database) == Self.notes)
    try database.execute("INSERT INTO notes(body) VALUES ('added by SQLCipher 4')")
    database.close()

    let wrongKey = databaseError {
      _ = try Database(path: path, configuration: keyed("another passphrase", compatibility: 3))
    }
    #expect(wrongKey?.resultCode == .notADatabase)
    // A pool opens every connection with it.
    let pool = try DatabasePool(path: path, configuration: keyed(Self.sqlcipher3Key, compatibility: 3))
    let count = try await pool.read { try scalar($0, "SELECT count(*) FROM notes") }
    #expect(count == .integer(3))
  }

  @Test(.enabled(if: Database.isEncryptionAvailable, "needs the SQLCipher build"))
  func sqlcipherExportMovesASQLCipher3DatabaseToSQLCipher4() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/v3.db"
      let migrated = directory + "/v4.db"
      try FileManager.default.copyItem(atPath: Self.sqlcipher3Database, toPath: path)
      // The encryption article: the way a SQLCipher 3 database moves to 4.
      let database = try Database(path: path, configuration: keyed(Self.sqlcipher3Key, compatibility: 3))
      try database.execute("ATTACH DATABASE ? AS migrated KEY ?", [.text(migrated), .text("new passphrase")])
      try database.execute("SELECT sqlcipher_export('migrated')")
      try database.execute("DETACH DATABASE migrated")
      database.close()

      let v4 = try Database(path: migrated, configuration: keyed("new passphrase"))
      #expect(try bodies(v4) == Self.notes)
      let version = try scalar(v4, "PRAGMA cipher_version")
      guard case .text(let text) = version else {
        Issue.record("PRAGMA cipher_version gave \(version)")
        return
      }
      #expect(text.hasPrefix("4."), "\(text)")
      v4.close()
      let asV3 = databaseError {
        _ = try Database(path: migrated, configuration: keyed("new passphrase", compatibility: 3))
      }
      #expect(asV3?.resultCode == .notADatabase, "\(String(describing: asV3))")
    }
  }
}
