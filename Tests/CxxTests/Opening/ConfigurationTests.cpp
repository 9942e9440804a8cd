// Configuration at open: foreign keys enforced by default (and off when
// asked), read-only opens by path and by name, the defaults.
#include <string>

#include "TestSupport.hpp"

using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::ResultCode;
using namespace sqlitebridge_test;

namespace {

constexpr const char* kParentChild =
    "CREATE TABLE parent(id INTEGER PRIMARY KEY);"
    "CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id));";

class ConfigurationAtOpen : public DocumentsAndBundle {};

}  // namespace

TEST(ConfigurationDefaults, AreFiveSecondsForeignKeysReadWriteAndFiveReaders) {
  const Configuration defaults;
  EXPECT_EQ(defaults.busyTimeoutMilliseconds, 5000);
  EXPECT_TRUE(defaults.foreignKeys);
  EXPECT_FALSE(defaults.readOnly);
  EXPECT_EQ(defaults.maximumReaderCount, 5);
}

TEST_F(ConfigurationAtOpen, ForeignKeysAreEnforcedByDefaultEveryWayADatabaseOpens) {
  Database byPath = Database::open(docs("a.db"));
  Database configured = Database::open(docs("b.db"), Configuration());
  Database byName("c.db", kParentChild, location());
  for (Database* db : {&byPath, &configured, &byName}) {
    ASSERT_TRUE(db->isOpen()) << db->error();
    EXPECT_EQ(scalarInteger(*db, "PRAGMA foreign_keys"), 1);
    if (db != &byName) ASSERT_TRUE(db->executeScript(kParentChild)) << db->error();
    EXPECT_FALSE(db->execute("INSERT INTO child VALUES (1, 42)"));
    EXPECT_EQ(db->lastError().extendedCode, SQLITE_CONSTRAINT_FOREIGNKEY) << db->error();
  }
}

TEST_F(ConfigurationAtOpen, ForeignKeysOffWhenAsked) {
  Configuration configuration;
  configuration.foreignKeys = false;
  Database db = Database::open(docs("off.db"), configuration);
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(scalarInteger(db, "PRAGMA foreign_keys"), 0);
  ASSERT_TRUE(db.executeScript(kParentChild));
  EXPECT_TRUE(db.execute("INSERT INTO child VALUES (1, 42)")) << db.error();
  Database byName("off-by-name.db", kParentChild, location(), configuration);
  EXPECT_EQ(scalarInteger(byName, "PRAGMA foreign_keys"), 0);
}

TEST_F(ConfigurationAtOpen, ReadOnlyByPathReadsRefusesWritesAndNeverCreates) {
  ASSERT_TRUE(makeDatabaseFile(docs("ro.db"), "CREATE TABLE t(x); INSERT INTO t VALUES (7);"));
  Configuration configuration;
  configuration.readOnly = true;
  Database db = Database::open(docs("ro.db"), configuration);
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(scalarInteger(db, "SELECT x FROM t"), 7);
  EXPECT_FALSE(db.execute("INSERT INTO t VALUES (8)"));
  EXPECT_EQ(db.lastError().resultCode(), ResultCode::ReadOnly) << db.error();

  Database missing = Database::open(docs("missing.db"), configuration);
  EXPECT_FALSE(missing.isOpen());
  EXPECT_EQ(missing.lastError().resultCode(), ResultCode::CantOpen) << missing.error();
  EXPECT_FALSE(fileExists(docs("missing.db")));
}

TEST_F(ConfigurationAtOpen, ReadOnlyByNameNeitherCopiesNorCreatesButOpensAnExistingCopy) {
  ASSERT_TRUE(makeDatabaseFile(bundle("seed.db"), "CREATE TABLE t(x); INSERT INTO t VALUES (1);"));
  Configuration configuration;
  configuration.readOnly = true;
  for (const char* name : {"seed.db", "new.db"}) {
    Database db(name, "CREATE TABLE t(x)", location(), configuration);
    EXPECT_FALSE(db.isOpen()) << name;
    EXPECT_EQ(db.lastError().resultCode(), ResultCode::CantOpen) << db.error();
    EXPECT_NE(db.error().find("read-only"), std::string::npos) << db.error();
  }
  EXPECT_TRUE(listDirectory(docs_).empty());
  {
    Database writable("seed.db", "", location());
    ASSERT_TRUE(writable.isOpen()) << writable.error();
  }
  Database db("seed.db", "", location(), configuration);
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(scalarInteger(db, "SELECT x FROM t"), 1);
  EXPECT_FALSE(db.execute("DELETE FROM t"));
  EXPECT_EQ(db.lastError().resultCode(), ResultCode::ReadOnly);
}

// Configuration::fullFsync (issue 36): on by default on Apple platforms,
// where fsync leaves data in the drive's cache, off elsewhere; when on,
// every connection (by path, by name, a queue's, a pool's writer and
// readers) has PRAGMA fullfsync and checkpoint_fullfsync set at open.
TEST(ConfigurationDefaults, FullFsyncIsOnByDefaultOnApplePlatformsOnly) {
#if defined(__APPLE__)
  EXPECT_TRUE(Configuration().fullFsync);
#else
  EXPECT_FALSE(Configuration().fullFsync);
#endif
}

TEST_F(ConfigurationAtOpen, FullFsyncSetsBothPragmasOnEveryConnection) {
  const auto both = [](Database& db) {
    return std::to_string(scalarInteger(db, "PRAGMA fullfsync")) +
           std::to_string(scalarInteger(db, "PRAGMA checkpoint_fullfsync"));
  };
  for (bool on : {true, false}) {
    Configuration configuration;
    configuration.fullFsync = on;
    const std::string expected = on ? "11" : "00";
    Database byPath = Database::open(root_ / (on ? "on.db" : "off.db"), configuration);
    ASSERT_TRUE(byPath.isOpen()) << byPath.error();
    EXPECT_EQ(both(byPath), expected);
    Database byName(on ? "name-on.db" : "name-off.db", "CREATE TABLE t(x)", location(), configuration);
    ASSERT_TRUE(byName.isOpen()) << byName.error();
    EXPECT_EQ(both(byName), expected);
    sqlitebridge::DatabaseQueue queue(root_ / "queue.db", configuration);
    ASSERT_TRUE(queue.isOpen()) << queue.openError().message;
    EXPECT_EQ(queue.read(both), expected);
    sqlitebridge::DatabasePool pool(root_ / "pool.db", configuration);
    ASSERT_TRUE(pool.isOpen()) << pool.openError().message;
    EXPECT_EQ(pool.writeWithoutTransaction(both), expected);
    EXPECT_EQ(pool.read(both), expected);
  }
}
