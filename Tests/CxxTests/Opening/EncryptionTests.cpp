// Encryption (issue 15): Configuration::key, Database::changeKey and
// Database::isEncryptionAvailable. The default build (system SQLite) refuses
// a key before any file is made; the SQLCipher build
// (SQLITEBRIDGE_SQLCIPHER=ON, preset sqlcipher) encrypts. Each test skips
// in the build it does not belong to. (EncryptionTests.swift checks the same
// from Swift.)
#include <string>
#include <utility>
#include <vector>

#include "TestSupport.hpp"

using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::DatabasePool;
using sqlitebridge::DatabaseQueue;
using sqlitebridge::Error;
using sqlitebridge::JournalMode;
using sqlitebridge::ResultCode;
using namespace sqlitebridge_test;

namespace {

/// Text written into the databases, looked for in their files' bytes.
const std::string kMarker = "plaintext-marker-4f1d9c-the-diary-of-a-patient";
const std::string kWrongKeyMessage = "the key is wrong, or the file is not an encrypted database";

Configuration keyed(std::string key) {
  Configuration configuration;
  configuration.key = std::move(key);
  return configuration;
}

bool startsWith(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

/// Creates a table holding the marker.
void writeMarker(Database& db) {
  ASSERT_TRUE(db.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT)")) << db.error();
  ASSERT_TRUE(db.execute("INSERT INTO notes(body) VALUES (?)", kMarker)) << db.error();
}

/// Creates the marker table in a queue's or pool's write block.
bool storeMarker(Database& db) {
  return db.execute("CREATE TABLE notes(body TEXT)") && db.execute("INSERT INTO notes VALUES (?)", kMarker);
}

/// The marker read back, in a queue's or pool's read block.
std::string readMarker(Database& db) { return scalarText(db, "SELECT body FROM notes"); }

/// Creates the file at `path` with the marker, encrypted with `key`.
void makeEncrypted(const std::string& path, const std::string& key) {
  Database db = Database::open(path, keyed(key));
  ASSERT_TRUE(db.isOpen()) << db.error();
  writeMarker(db);
}

/// The result code of opening `path` with `configuration` (Ok when it opens).
ResultCode openResult(const std::string& path, const Configuration& configuration, std::string* message = nullptr) {
  Database db = Database::open(path, configuration);
  if (message != nullptr) *message = db.lastError().message;
  return db.isOpen() ? ResultCode::OK : db.lastError().resultCode();
}

#define SKIP_UNLESS_ENCRYPTED() \
  if (!Database::isEncryptionAvailable()) GTEST_SKIP() << "needs the SQLCipher build (preset sqlcipher)"
#define SKIP_IF_ENCRYPTED() \
  if (Database::isEncryptionAvailable()) GTEST_SKIP() << "the SQLCipher build encrypts"

}  // namespace

// MARK: Both builds

TEST(Encryption, ConfigurationHasNoKeyByDefault) { EXPECT_FALSE(Configuration().key.has_value()); }

TEST(Encryption, AnEmptyKeyFailsWithMisuseAndMakesNoFile) {
  TempDir dir;
  std::string message;
  EXPECT_EQ(openResult(dir / "empty-key.db", keyed(""), &message), ResultCode::Misuse) << message;
  EXPECT_FALSE(fileExists(dir / "empty-key.db"));
}

TEST(Encryption, ChangeKeyOnADatabaseOpenedWithoutAKeyFailsWithMisuse) {
  TempDir dir;
  {
    Database db = Database::open(dir / "plain.db");
    ASSERT_TRUE(db.isOpen()) << db.error();
    writeMarker(db);
    EXPECT_FALSE(db.changeKey("new key"));
    EXPECT_EQ(db.lastError().resultCode(), ResultCode::Misuse) << db.error();
    EXPECT_EQ(scalarText(db, "SELECT body FROM notes"), kMarker);
  }
  EXPECT_TRUE(contains(readFile(dir / "plain.db"), kMarker));
}

TEST(Encryption, ChangeKeyOnAClosedDatabaseFailsWithMisuse) {
  Database db = Database::open(":memory:");
  db.close();
  EXPECT_FALSE(db.changeKey("new key"));
  EXPECT_EQ(db.lastError().resultCode(), ResultCode::Misuse) << db.error();
}

// MARK: The default build (system SQLite)

// Both builds: the SQLCipher version is there exactly when the build
// encrypts, and it is SQLCipher 4.
TEST(Encryption, CipherVersionNamesSQLCipher4ExactlyInTheEncryptingBuild) {
  const std::string version = Database::cipherVersion();
  if (Database::isEncryptionAvailable()) {
    EXPECT_TRUE(startsWith(version, "4.")) << version;
  } else {
    EXPECT_EQ(version, "");
  }
}

TEST(Encryption, TheDefaultBuildCannotEncrypt) {
  SKIP_IF_ENCRYPTED();
  EXPECT_FALSE(Database::isEncryptionAvailable());
}

TEST(Encryption, AKeyFailsWithMisuseAndMakesNoFileInTheDefaultBuild) {
  SKIP_IF_ENCRYPTED();
  TempDir dir;
  std::string message;
  EXPECT_EQ(openResult(dir / "secret.db", keyed("secret"), &message), ResultCode::Misuse) << message;
  EXPECT_TRUE(contains(message, "SQLCipher")) << message;
  EXPECT_TRUE(listDirectory(dir.path()).empty());
}

TEST(Encryption, AQueueAndAPoolWithAKeyFailWithMisuseAndMakeNoFileInTheDefaultBuild) {
  SKIP_IF_ENCRYPTED();
  TempDir dir;
  DatabaseQueue queue(dir / "q.db", keyed("k"));
  EXPECT_FALSE(queue.isOpen());
  EXPECT_EQ(queue.openError().resultCode(), ResultCode::Misuse) << queue.openError().message;
  DatabasePool pool(dir / "p.db", keyed("k"));
  EXPECT_FALSE(pool.isOpen());
  EXPECT_EQ(pool.openError().resultCode(), ResultCode::Misuse) << pool.openError().message;
  EXPECT_TRUE(listDirectory(dir.path()).empty());
}

TEST(Encryption, ChangeKeyFailsWithMisuseInTheDefaultBuild) {
  SKIP_IF_ENCRYPTED();
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.isOpen());
  EXPECT_FALSE(db.changeKey("new key"));
  EXPECT_EQ(db.lastError().resultCode(), ResultCode::Misuse) << db.error();
  EXPECT_TRUE(contains(db.lastError().message, "SQLCipher")) << db.error();
}

// MARK: The SQLCipher build

TEST(Encryption, CreateEncryptedThenReopenWithTheKey) {
  SKIP_UNLESS_ENCRYPTED();
  TempDir dir;
  makeEncrypted(dir / "secret.db", "correct horse");
  Database db = Database::open(dir / "secret.db", keyed("correct horse"));
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(scalarText(db, "SELECT body FROM notes"), kMarker);
}

TEST(Encryption, AWrongKeyFailsWithNotADatabaseSayingSo) {
  SKIP_UNLESS_ENCRYPTED();
  TempDir dir;
  makeEncrypted(dir / "secret.db", "correct horse");
  std::string message;
  EXPECT_EQ(openResult(dir / "secret.db", keyed("battery staple"), &message), ResultCode::NotADB) << message;
  EXPECT_TRUE(startsWith(message, kWrongKeyMessage)) << message;
  EXPECT_TRUE(contains(message, dir / "secret.db")) << message;
}

TEST(Encryption, NoKeyOnAnEncryptedFileFailsWithNotADatabase) {
  SKIP_UNLESS_ENCRYPTED();
  TempDir dir;
  makeEncrypted(dir / "secret.db", "correct horse");
  std::string message;
  EXPECT_EQ(openResult(dir / "secret.db", Configuration(), &message), ResultCode::NotADB) << message;
  EXPECT_TRUE(contains(message, "Configuration.key")) << message;
}

TEST(Encryption, APlainFileOpenedWithAKeyFailsWithNotADatabase) {
  SKIP_UNLESS_ENCRYPTED();
  TempDir dir;
  {
    Database plain = Database::open(dir / "plain.db");
    writeMarker(plain);
  }
  std::string message;
  EXPECT_EQ(openResult(dir / "plain.db", keyed("correct horse"), &message), ResultCode::NotADB) << message;
  EXPECT_TRUE(startsWith(message, kWrongKeyMessage)) << message;
  Database plain = Database::open(dir / "plain.db");
  EXPECT_EQ(scalarText(plain, "SELECT body FROM notes"), kMarker);
}

TEST(Encryption, TheFileOnDiskDoesNotHoldThePlaintextNorDoesItsWal) {
  SKIP_UNLESS_ENCRYPTED();
  TempDir dir;
  // The same writes, plain and encrypted, in WAL mode: the plain files hold
  // the marker (so the check can fail), the encrypted ones do not.
  for (const auto& [name, key] :
       std::vector<std::pair<std::string, std::string>>{{"plain.db", ""}, {"secret.db", "correct horse"}}) {
    SCOPED_TRACE(name);
    Configuration configuration;
    if (!key.empty()) configuration.key = key;
    configuration.journalMode = JournalMode::Wal;
    std::string wal;
    {
      Database db = Database::open(dir / name, configuration);
      ASSERT_TRUE(db.isOpen()) << db.error();
      writeMarker(db);
      wal = readFile(dir / name + "-wal");
      EXPECT_FALSE(wal.empty());
    }
    EXPECT_EQ(contains(wal, kMarker), key.empty());
    EXPECT_EQ(contains(readFile(dir / name), kMarker), key.empty());
  }
}

TEST(Encryption, ChangeKeyThenOnlyTheNewKeyOpens) {
  SKIP_UNLESS_ENCRYPTED();
  TempDir dir;
  {
    Database db = Database::open(dir / "secret.db", keyed("old key"));
    ASSERT_TRUE(db.isOpen()) << db.error();
    writeMarker(db);
    ASSERT_TRUE(db.changeKey("new key")) << db.error();
    EXPECT_EQ(scalarText(db, "SELECT body FROM notes"), kMarker);  // still usable
    ASSERT_TRUE(db.execute("INSERT INTO notes(body) VALUES ('after')")) << db.error();
  }
  EXPECT_EQ(openResult(dir / "secret.db", keyed("old key")), ResultCode::NotADB);
  Database reopened = Database::open(dir / "secret.db", keyed("new key"));
  ASSERT_TRUE(reopened.isOpen()) << reopened.error();
  EXPECT_EQ(scalarInteger(reopened, "SELECT count(*) FROM notes"), 2);
  EXPECT_FALSE(contains(readFile(dir / "secret.db"), kMarker));
}

TEST(Encryption, ChangeKeyInWalMode) {
  SKIP_UNLESS_ENCRYPTED();
  TempDir dir;
  {
    Configuration configuration = keyed("old key");
    configuration.journalMode = JournalMode::Wal;
    Database db = Database::open(dir / "secret.db", configuration);
    ASSERT_TRUE(db.isOpen()) << db.error();
    writeMarker(db);
    ASSERT_TRUE(db.changeKey("new key")) << db.error();
    ASSERT_TRUE(db.execute("INSERT INTO notes(body) VALUES ('after')")) << db.error();
  }
  EXPECT_EQ(openResult(dir / "secret.db", keyed("old key")), ResultCode::NotADB);
  Database reopened = Database::open(dir / "secret.db", keyed("new key"));
  ASSERT_TRUE(reopened.isOpen()) << reopened.error();
  EXPECT_EQ(scalarText(reopened, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(scalarInteger(reopened, "SELECT count(*) FROM notes"), 2);
}

TEST(Encryption, ChangeKeyInsideATransactionOrWithAnEmptyKeyFailsWithMisuseAndChangesNothing) {
  SKIP_UNLESS_ENCRYPTED();
  TempDir dir;
  {
    Database db = Database::open(dir / "secret.db", keyed("old key"));
    ASSERT_TRUE(db.isOpen()) << db.error();
    writeMarker(db);
    ASSERT_TRUE(db.execute("BEGIN"));
    EXPECT_FALSE(db.changeKey("new key"));
    EXPECT_EQ(db.lastError().resultCode(), ResultCode::Misuse) << db.error();
    ASSERT_TRUE(db.execute("COMMIT")) << db.error();
    EXPECT_FALSE(db.changeKey(""));
    EXPECT_EQ(db.lastError().resultCode(), ResultCode::Misuse) << db.error();
  }
  Database reopened = Database::open(dir / "secret.db", keyed("old key"));
  ASSERT_TRUE(reopened.isOpen()) << reopened.error();
  EXPECT_EQ(scalarText(reopened, "SELECT body FROM notes"), kMarker);
}

TEST(Encryption, AQueueOpensItsConnectionWithTheKey) {
  SKIP_UNLESS_ENCRYPTED();
  TempDir dir;
  {
    DatabaseQueue queue(dir / "queue.db", keyed("queue key"));
    ASSERT_TRUE(queue.isOpen()) << queue.openError().message;
    Error error;
    ASSERT_TRUE(queue.write(storeMarker, &error)) << error.message;
    EXPECT_EQ(queue.read(readMarker), kMarker);
    DatabaseQueue wrong(dir / "queue.db", keyed("wrong"));
    EXPECT_EQ(wrong.openError().resultCode(), ResultCode::NotADB) << wrong.openError().message;
  }
  EXPECT_FALSE(contains(readFile(dir / "queue.db"), kMarker));
}

TEST(Encryption, APoolOpensItsWriterAndReadersWithTheKey) {
  SKIP_UNLESS_ENCRYPTED();
  TempDir dir;
  DatabasePool pool(dir / "pool.db", keyed("pool key"));
  ASSERT_TRUE(pool.isOpen()) << pool.openError().message;
  Error error;
  ASSERT_TRUE(pool.write(storeMarker, &error)) << error.message;
  // A reader connection, opened with the key too.
  EXPECT_EQ(pool.read(readMarker), kMarker);
  DatabasePool wrong(dir / "pool.db", keyed("wrong"));
  EXPECT_EQ(wrong.openError().resultCode(), ResultCode::NotADB) << wrong.openError().message;
  EXPECT_FALSE(contains(readFile(dir / "pool.db"), kMarker));
  EXPECT_FALSE(contains(readFile(dir / "pool.db-wal"), kMarker));
}

// SQLCipher 4 is built with snapshots: a snapshot's own connection and the
// readers that open it are keyed like the pool's.
TEST(Encryption, AnEncryptedPoolsSnapshotKeepsItsStateAcrossACommit) {
  SKIP_UNLESS_ENCRYPTED();
  ASSERT_TRUE(sqlitebridge::snapshotsAvailable()) << "the SQLCipher 4 engine is built with SQLITE_ENABLE_SNAPSHOT";
  TempDir dir;
  DatabasePool pool(dir / "pool.db", keyed("pool key"));
  ASSERT_TRUE(pool.isOpen()) << pool.openError().message;
  Error error;
  ASSERT_TRUE(pool.write(storeMarker, &error)) << error.message;
  sqlitebridge::DatabaseSnapshot snapshot;
  ASSERT_TRUE(pool.makeSnapshot(snapshot, &error)) << error.message;
  ASSERT_TRUE(pool.write([](Database& db) { return db.execute("DELETE FROM notes"); }, &error)) << error.message;
  std::string seen;
  ASSERT_TRUE(snapshot.read(
      [&](Database& db) {
        seen = readMarker(db);
        return true;
      },
      &error))
      << error.message;
  EXPECT_EQ(seen, kMarker);
  EXPECT_EQ(pool.read([](Database& db) { return scalarInteger(db, "SELECT count(*) FROM notes"); }), 0);
}

TEST(Encryption, AKeyWithANulByteUsesEveryByte) {
  SKIP_UNLESS_ENCRYPTED();
  TempDir dir;
  const std::string key("before\0after", 12);
  makeEncrypted(dir / "nul.db", key);
  EXPECT_EQ(openResult(dir / "nul.db", keyed("before")), ResultCode::NotADB);
  EXPECT_EQ(openResult(dir / "nul.db", keyed(std::string("before\0other", 12))), ResultCode::NotADB);
  EXPECT_EQ(openResult(dir / "nul.db", keyed(key)), ResultCode::OK);
}

TEST(Encryption, ByNameTheCreatedDatabaseIsEncryptedAndAPlainBundleIsNot) {
  SKIP_UNLESS_ENCRYPTED();
  TempDir documents;
  TempDir bundle;
  sqlitebridge::Location location;
  location.documentsDirectory = documents.path();
  location.bundleDirectory = bundle.path();
  // Created from the script: encrypted with the key, later opens need it.
  {
    Database db("notes.db", "CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('" + kMarker + "');", location,
                keyed("correct horse"));
    ASSERT_TRUE(db.isOpen()) << db.error();
  }
  EXPECT_FALSE(contains(readFile(documents / "notes.db"), kMarker));
  {
    Database again("notes.db", "", location, keyed("correct horse"));
    ASSERT_TRUE(again.isOpen()) << again.error();
    std::vector<sqlitebridge::Row> rows;
    ASSERT_TRUE(again.execute("SELECT body FROM notes", &rows)) << again.error();
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].value(0).asText(), kMarker);
  }
  Database wrong("notes.db", "", location, keyed("battery staple"));
  EXPECT_FALSE(wrong.isOpen());
  EXPECT_EQ(wrong.lastError().resultCode(), ResultCode::NotADB);
  // A plain bundled database is copied as it is: a key cannot read it.
  {
    Database seed = Database::open(bundle / "seed.db");
    ASSERT_TRUE(seed.execute("CREATE TABLE t(x)")) << seed.error();
  }
  Database copied("seed.db", "", location, keyed("correct horse"));
  EXPECT_FALSE(copied.isOpen());
  EXPECT_EQ(copied.lastError().resultCode(), ResultCode::NotADB);
  EXPECT_TRUE(startsWith(copied.lastError().message, kWrongKeyMessage)) << copied.lastError().message;
}
