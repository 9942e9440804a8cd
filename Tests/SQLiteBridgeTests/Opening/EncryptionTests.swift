import Foundation
import SQLiteBridge
import Testing

/// Encryption from Swift (issue 15): `Configuration.key`,
/// `Database.changeKey` and `Database.isEncryptionAvailable`. The default
/// build (system SQLite) refuses a key before any file is made; the
/// SQLCipher build (`swift build --traits SQLCipher`) encrypts. Each test
/// runs in the build it belongs to. (EncryptionTests.cpp checks the same in
/// C++.)
@Suite("Encryption")
struct EncryptionTests {
  /// Text written into the databases, looked for in their files' bytes.
  static let marker = "plaintext-marker-4f1d9c-the-diary-of-a-patient"
  static let wrongKeyMessage = "the key is wrong, or the file is not an encrypted database"

  private func keyed(_ key: String?) -> Configuration {
    var configuration = Configuration()
    configuration.key = key
    return configuration
  }

  /// Creates a table holding the marker in a database opened with `key`.
  private func writeMarker(_ database: Database) throws {
    try database.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT)")
    try database.execute("INSERT INTO notes(body) VALUES (?)", [.text(Self.marker)])
  }

  /// The marker read back through `database`.
  private func readMarker(_ database: Database) throws -> DatabaseValue {
    try scalar(database, "SELECT body FROM notes")
  }

  /// Makes `<directory>/secret.db` holding the marker, encrypted with
  /// "correct horse"; returns its path.
  private func encryptedMarkerFile(in directory: String) throws -> String {
    let path = directory + "/secret.db"
    try writeMarker(try Database(path: path, configuration: keyed("correct horse")))
    return path
  }

  private func holdsMarker(_ bytes: Data) -> Bool {
    bytes.range(of: Data(Self.marker.utf8)) != nil
  }

  // MARK: Both builds

  @Test func configurationHasNoKeyByDefault() {
    #expect(Configuration().key == nil)
    #expect(keyed("k") != Configuration())
  }

  @Test func anEmptyKeyThrowsMisuseAndMakesNoFile() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/empty-key.db"
      let error = databaseError { _ = try Database(path: path, configuration: keyed("")) }
      #expect(error?.resultCode == .misuse, "\(String(describing: error))")
      #expect(!fileExists(path))
    }
  }

  @Test func changeKeyOnADatabaseOpenedWithoutAKeyThrowsMisuse() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/plain.db"
      let database = try Database(path: path)
      try writeMarker(database)
      let error = databaseError { try database.changeKey("new key") }
      #expect(error?.resultCode == .misuse, "\(String(describing: error))")
      #expect(try readMarker(database) == .text(Self.marker))
      database.close()
      #expect(holdsMarker(try fileBytes(path)))
    }
  }

  // MARK: The default build (system SQLite)

  /// Both builds: the SQLCipher version is there exactly when the build
  /// encrypts, and it is SQLCipher 4.
  @Test func cipherVersionNamesSQLCipher4ExactlyInTheEncryptingBuild() {
    if Database.isEncryptionAvailable {
      #expect(Database.cipherVersion?.hasPrefix("4.") == true, "\(String(describing: Database.cipherVersion))")
    } else {
      #expect(Database.cipherVersion == nil)
    }
  }

  @Test(.disabled(if: Database.isEncryptionAvailable, "the SQLCipher build encrypts"))
  func theDefaultBuildCannotEncrypt() {
    #expect(!Database.isEncryptionAvailable)
  }

  @Test(.disabled(if: Database.isEncryptionAvailable, "the SQLCipher build encrypts"))
  func aKeyThrowsMisuseAndMakesNoFileInTheDefaultBuild() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/secret.db"
      let error = databaseError { _ = try Database(path: path, configuration: keyed("secret")) }
      #expect(error?.resultCode == .misuse)
      #expect(error?.message.contains("SQLCipher") == true, "\(String(describing: error))")
      #expect(!fileExists(path))
      let contents = try directoryContents(directory)
      #expect(contents.isEmpty, "\(contents)")
    }
  }

  @Test(.disabled(if: Database.isEncryptionAvailable, "the SQLCipher build encrypts"))
  func aQueueAndAPoolWithAKeyThrowMisuseAndMakeNoFileInTheDefaultBuild() throws {
    try withTemporaryDirectory { directory in
      let queueError = databaseError { _ = try DatabaseQueue(path: directory + "/q.db", configuration: keyed("k")) }
      #expect(queueError?.resultCode == .misuse)
      let poolError = databaseError { _ = try DatabasePool(path: directory + "/p.db", configuration: keyed("k")) }
      #expect(poolError?.resultCode == .misuse)
      let contents = try directoryContents(directory)
      #expect(contents.isEmpty, "\(contents)")
    }
  }

  @Test(.disabled(if: Database.isEncryptionAvailable, "the SQLCipher build encrypts"))
  func changeKeyThrowsMisuseInTheDefaultBuild() throws {
    let database = try memoryDatabase()
    let error = databaseError { try database.changeKey("new key") }
    #expect(error?.resultCode == .misuse)
    #expect(error?.message.contains("SQLCipher") == true, "\(String(describing: error))")
  }

  // MARK: The SQLCipher build

  @Test(.enabled(if: Database.isEncryptionAvailable, "needs the SQLCipher build"))
  func createEncryptedThenReopenWithTheKey() throws {
    try withTemporaryDirectory { directory in
      let path = try encryptedMarkerFile(in: directory)
      let reopened = try Database(path: path, configuration: keyed("correct horse"))
      #expect(try readMarker(reopened) == .text(Self.marker))
    }
  }

  @Test(.enabled(if: Database.isEncryptionAvailable, "needs the SQLCipher build"))
  func aWrongKeyThrowsNotADatabaseSayingSo() throws {
    try withTemporaryDirectory { directory in
      let path = try encryptedMarkerFile(in: directory)
      let error = databaseError { _ = try Database(path: path, configuration: keyed("battery staple")) }
      #expect(error?.resultCode == .notADatabase)
      #expect(error?.message.hasPrefix(Self.wrongKeyMessage) == true, "\(String(describing: error))")
      #expect(error?.message.contains(path) == true)
    }
  }

  @Test(.enabled(if: Database.isEncryptionAvailable, "needs the SQLCipher build"))
  func noKeyOnAnEncryptedFileThrowsNotADatabase() throws {
    try withTemporaryDirectory { directory in
      let path = try encryptedMarkerFile(in: directory)
      let error = databaseError { _ = try Database(path: path) }
      #expect(error?.resultCode == .notADatabase)
      #expect(error?.message.contains("Configuration.key") == true, "\(String(describing: error))")
    }
  }

  @Test(.enabled(if: Database.isEncryptionAvailable, "needs the SQLCipher build"))
  func aPlainFileOpenedWithAKeyThrowsNotADatabase() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/plain.db"
      try writeMarker(try Database(path: path))
      let error = databaseError { _ = try Database(path: path, configuration: keyed("correct horse")) }
      #expect(error?.resultCode == .notADatabase)
      #expect(error?.message.hasPrefix(Self.wrongKeyMessage) == true, "\(String(describing: error))")
      #expect(try readMarker(try Database(path: path)) == .text(Self.marker))
    }
  }

  @Test(.enabled(if: Database.isEncryptionAvailable, "needs the SQLCipher build"))
  func theFileOnDiskDoesNotHoldThePlaintextNorDoesItsWAL() throws {
    try withTemporaryDirectory { directory in
      // The same writes, plain and encrypted, in WAL mode: the plain files
      // hold the marker (so the check can fail), the encrypted ones do not.
      for (name, key) in [("plain.db", nil), ("secret.db", "correct horse")] as [(String, String?)] {
        let path = directory + "/" + name
        var configuration = keyed(key)
        configuration.journalMode = .wal
        let database = try Database(path: path, configuration: configuration)
        try writeMarker(database)
        let wal = try fileBytes(path + "-wal")
        #expect(!wal.isEmpty)
        database.close()
        let main = try fileBytes(path)
        #expect(holdsMarker(wal) == (key == nil), "\(name)-wal")
        #expect(holdsMarker(main) == (key == nil), "\(name)")
      }
    }
  }

  @Test(.enabled(if: Database.isEncryptionAvailable, "needs the SQLCipher build"))
  func changeKeyThenOnlyTheNewKeyOpens() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/secret.db"
      let database = try Database(path: path, configuration: keyed("old key"))
      try writeMarker(database)
      try database.changeKey("new key")
      #expect(try readMarker(database) == .text(Self.marker))  // still usable
      try database.execute("INSERT INTO notes(body) VALUES ('after')")
      database.close()
      let old = databaseError { _ = try Database(path: path, configuration: keyed("old key")) }
      #expect(old?.resultCode == .notADatabase)
      let reopened = try Database(path: path, configuration: keyed("new key"))
      #expect(try scalar(reopened, "SELECT count(*) FROM notes") == .integer(2))
      #expect(!holdsMarker(try fileBytes(path)))
    }
  }

  @Test(.enabled(if: Database.isEncryptionAvailable, "needs the SQLCipher build"))
  func changeKeyInWALMode() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/secret.db"
      var configuration = keyed("old key")
      configuration.journalMode = .wal
      let database = try Database(path: path, configuration: configuration)
      try writeMarker(database)
      try database.changeKey("new key")
      try database.execute("INSERT INTO notes(body) VALUES ('after')")
      database.close()
      #expect(
        databaseError { _ = try Database(path: path, configuration: keyed("old key")) }?.resultCode == .notADatabase)
      let reopened = try Database(path: path, configuration: keyed("new key"))
      #expect(try scalar(reopened, "PRAGMA journal_mode") == .text("wal"))
      #expect(try scalar(reopened, "SELECT count(*) FROM notes") == .integer(2))
    }
  }

  @Test(.enabled(if: Database.isEncryptionAvailable, "needs the SQLCipher build"))
  func changeKeyInsideATransactionOrWithAnEmptyKeyThrowsMisuseAndChangesNothing() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/secret.db"
      let database = try Database(path: path, configuration: keyed("old key"))
      try writeMarker(database)
      try database.execute("BEGIN")
      let inTransaction = databaseError { try database.changeKey("new key") }
      #expect(inTransaction?.resultCode == .misuse, "\(String(describing: inTransaction))")
      try database.execute("COMMIT")
      let empty = databaseError { try database.changeKey("") }
      #expect(empty?.resultCode == .misuse, "\(String(describing: empty))")
      database.close()
      let reopened = try Database(path: path, configuration: keyed("old key"))
      #expect(try readMarker(reopened) == .text(Self.marker))
    }
  }

  @Test(.enabled(if: Database.isEncryptionAvailable, "needs the SQLCipher build"))
  func aQueueOpensItsConnectionWithTheKey() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/queue.db"
      let queue = try DatabaseQueue(path: path, configuration: keyed("queue key"))
      try queue.write { try writeMarker($0) }
      #expect(try queue.read { try readMarker($0) } == .text(Self.marker))
      #expect(
        databaseError { _ = try DatabaseQueue(path: path, configuration: keyed("wrong")) }?.resultCode == .notADatabase)
      #expect(!holdsMarker(try fileBytes(path)))
    }
  }

  @Test(.enabled(if: Database.isEncryptionAvailable, "needs the SQLCipher build"))
  func aPoolOpensItsWriterAndReadersWithTheKey() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/pool.db"
      let pool = try DatabasePool(path: path, configuration: keyed("pool key"))
      try pool.write { try writeMarker($0) }
      #expect(try pool.read { try readMarker($0) } == .text(Self.marker))  // a reader connection
      #expect(
        databaseError { _ = try DatabasePool(path: path, configuration: keyed("wrong")) }?.resultCode == .notADatabase)
      #expect(!holdsMarker(try fileBytes(path)))
      #expect(!holdsMarker(try fileBytes(path + "-wal")))
    }
  }

  /// SQLCipher 4 is built with snapshots: a snapshot's own connection and
  /// the readers that open it are keyed like the pool's.
  @Test(.enabled(if: Database.isEncryptionAvailable, "needs the SQLCipher build"))
  func anEncryptedPoolsSnapshotKeepsItsStateAcrossACommit() throws {
    #expect(DatabaseSnapshot.isAvailable, "the SQLCipher 4 engine is built with SQLITE_ENABLE_SNAPSHOT")
    try withTemporaryDirectory { directory in
      let pool = try DatabasePool(path: directory + "/pool.db", configuration: keyed("pool key"))
      try pool.write { try writeMarker($0) }
      let snapshot = try pool.makeSnapshot()
      try pool.write { try $0.execute("DELETE FROM notes") }
      #expect(try snapshot.read { try readMarker($0) } == .text(Self.marker))
      #expect(try pool.read { try scalar($0, "SELECT count(*) FROM notes") } == .integer(0))
    }
  }

  /// A Swift `String` key is its UTF-8 bytes, all of them: a NUL character
  /// does not end it.
  @Test(.enabled(if: Database.isEncryptionAvailable, "needs the SQLCipher build"))
  func aKeyWithANULCharacterUsesEveryByte() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/nul.db"
      try writeMarker(try Database(path: path, configuration: keyed("before\u{0}after")))
      for wrong in ["before", "before\u{0}other"] {
        let error = databaseError { _ = try Database(path: path, configuration: keyed(wrong)) }
        #expect(error?.resultCode == .notADatabase, "\(wrong.debugDescription)")
      }
      #expect(try readMarker(try Database(path: path, configuration: keyed("before\u{0}after"))) == .text(Self.marker))
    }
  }

  /// By name: a database created from its script is encrypted with the key
  /// (later opens need it); a plain bundled copy is copied as it is, so a
  /// key cannot read it.
  @Test(.enabled(if: Database.isEncryptionAvailable, "needs the SQLCipher build"))
  func byNameTheCreatedDatabaseIsEncryptedAndAPlainBundleIsNot() throws {
    try withTemporaryDirectory { documents in
      try withTemporaryDirectory { bundle in
        let location = DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle)
        let create = "CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('\(Self.marker)');"
        _ = try Database(name: "notes.db", createSQL: create, location: location, configuration: keyed("correct horse"))
        #expect(!holdsMarker(try fileBytes(documents + "/notes.db")))
        let again = try Database(name: "notes.db", location: location, configuration: keyed("correct horse"))
        #expect(try readMarker(again) == .text(Self.marker))
        let wrong = databaseError {
          _ = try Database(name: "notes.db", location: location, configuration: keyed("battery staple"))
        }
        #expect(wrong?.resultCode == .notADatabase)

        _ = try Database(path: bundle + "/seed.db").execute("CREATE TABLE t(x)")
        let copied = databaseError {
          _ = try Database(name: "seed.db", location: location, configuration: keyed("correct horse"))
        }
        #expect(copied?.resultCode == .notADatabase)
        #expect(copied?.message.hasPrefix(Self.wrongKeyMessage) == true, "\(String(describing: copied))")
      }
    }
  }
}
