// Configuration::cipherCompatibility (issue 39): a database written by
// SQLCipher 3 (Tests/Fixtures/sqlcipher3.db, written by Debian's `sqlcipher`
// 3.4.1 shell with scripts/make-sqlcipher3-fixture; SQLITEBRIDGE_SQLCIPHER3_DB
// names a freshly written one instead) opens with a key and compatibility 3,
// and moves to SQLCipher 4's format with sqlcipher_export as
// docs/encryption.md says. (CipherCompatibilityTests.swift checks the same
// from Swift.)
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "FixtureSupport.hpp"
#include "TestSupport.hpp"

using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::DatabasePool;
using sqlitebridge::ResultCode;
using namespace sqlitebridge_test;

namespace {

const std::string kSQLCipher3Key = "sqlcipher 3 passphrase";

/// The SQLCipher 3 database the tests open: a fresh one when CI wrote it
/// with Debian's shell, else the committed fixture.
std::string sqlcipher3Database() {
  const char* fresh = std::getenv("SQLITEBRIDGE_SQLCIPHER3_DB");
  return fresh != nullptr && *fresh != '\0' ? std::string(fresh) : fixturePath("sqlcipher3.db");
}

Configuration keyed(const std::string& key, std::optional<int> compatibility = std::nullopt) {
  Configuration configuration;
  configuration.key = key;
  configuration.cipherCompatibility = compatibility;
  return configuration;
}

std::vector<std::string> notes(Database& db) { return dump(db, "SELECT body FROM notes ORDER BY id"); }

const std::vector<std::string> kNotes = {"body=text:written by SQLCipher 3.4.1", "body=text:second note"};

}  // namespace

TEST(CipherCompatibility, WithoutAKeyFailsWithMisuseBeforeAnyFileIsMade) {
  TempDir dir;
  Configuration configuration;
  configuration.cipherCompatibility = 3;
  Database db = Database::open(dir / "plain.db", configuration);
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().resultCode(), ResultCode::Misuse);
  EXPECT_TRUE(contains(db.lastError().message, "cipherCompatibility needs Configuration.key"))
      << db.lastError().message;
  EXPECT_FALSE(std::filesystem::exists(dir / "plain.db"));
}

TEST(CipherCompatibility, OutsideOneToFourFailsWithMisuseBeforeAnyFileIsMade) {
  TempDir dir;
  for (const int version : {0, 5, -1}) {
    Database db = Database::open(dir / "secret.db", keyed("key", version));
    EXPECT_FALSE(db.isOpen());
    EXPECT_EQ(db.lastError().resultCode(), ResultCode::Misuse) << version;
    // The default build refuses the key itself first.
    if (Database::isEncryptionAvailable()) {
      EXPECT_TRUE(contains(db.lastError().message, "cipherCompatibility is " + std::to_string(version)))
          << db.lastError().message;
    }
    EXPECT_FALSE(std::filesystem::exists(dir / "secret.db"));
  }
}

TEST(CipherCompatibility, ASQLCipher3DatabaseOpensWithCompatibility3AndNotWithoutIt) {
  if (!Database::isEncryptionAvailable()) GTEST_SKIP() << "needs the SQLCipher build (preset sqlcipher)";
  TempDir dir;
  const std::string path = dir / "v3.db";
  std::filesystem::copy_file(sqlcipher3Database(), path);
  {
    Database db = Database::open(path, keyed(kSQLCipher3Key));
    EXPECT_FALSE(db.isOpen());
    EXPECT_EQ(db.lastError().resultCode(), ResultCode::NotADB);
    EXPECT_TRUE(contains(db.lastError().message, "cipherCompatibility")) << db.lastError().message;
  }
  {
    Database db = Database::open(path, keyed(kSQLCipher3Key, 3));
    ASSERT_TRUE(db.isOpen()) << db.error();
    EXPECT_EQ(notes(db), kNotes);
    // It writes in SQLCipher 3's format: the file still opens with 3 only.
    ASSERT_TRUE(db.execute("INSERT INTO notes(body) VALUES ('added by SQLCipher 4')")) << db.error();
  }
  Database wrongKey = Database::open(path, keyed("another passphrase", 3));
  EXPECT_EQ(wrongKey.lastError().resultCode(), ResultCode::NotADB);
  Database again = Database::open(path, keyed(kSQLCipher3Key, 3));
  ASSERT_TRUE(again.isOpen()) << again.error();
  EXPECT_EQ(scalarInteger(again, "SELECT count(*) FROM notes"), 3);
  // A pool opens every connection with it.
  DatabasePool pool(path, keyed(kSQLCipher3Key, 3));
  ASSERT_TRUE(pool.isOpen()) << pool.openError().message;
  std::int64_t count = 0;
  ASSERT_TRUE(pool.read([&](Database& db) {
    count = scalarInteger(db, "SELECT count(*) FROM notes");
    return true;
  }));
  EXPECT_EQ(count, 3);
}

TEST(CipherCompatibility, SQLCipherExportMovesASQLCipher3DatabaseToSQLCipher4) {
  if (!Database::isEncryptionAvailable()) GTEST_SKIP() << "needs the SQLCipher build (preset sqlcipher)";
  TempDir dir;
  const std::string path = dir / "v3.db";
  const std::string migrated = dir / "v4.db";
  std::filesystem::copy_file(sqlcipher3Database(), path);
  {
    // docs/encryption.md: the way a SQLCipher 3 database moves to 4.
    Database db = Database::open(path, keyed(kSQLCipher3Key, 3));
    ASSERT_TRUE(db.isOpen()) << db.error();
    ASSERT_TRUE(db.execute("ATTACH DATABASE ? AS migrated KEY ?", migrated, std::string("new passphrase")))
        << db.error();
    ASSERT_TRUE(db.execute("SELECT sqlcipher_export('migrated')")) << db.error();
    ASSERT_TRUE(db.execute("DETACH DATABASE migrated")) << db.error();
  }
  Database v4 = Database::open(migrated, keyed("new passphrase"));
  ASSERT_TRUE(v4.isOpen()) << v4.error();
  EXPECT_EQ(notes(v4), kNotes);
  EXPECT_EQ(scalarText(v4, "PRAGMA cipher_version").substr(0, 2), "4.");
  ASSERT_TRUE(v4.execute("INSERT INTO notes(body) VALUES ('after the move')")) << v4.error();
  // SQLCipher 3's settings no longer read it: it is in SQLCipher 4's format.
  Database asV3 = Database::open(migrated, keyed("new passphrase", 3));
  EXPECT_EQ(asV3.lastError().resultCode(), ResultCode::NotADB);
}
