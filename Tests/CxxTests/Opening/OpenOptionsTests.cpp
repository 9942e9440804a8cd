// Open options of Configuration (issue 13): every journal mode (and the mode
// SQLite keeps on an in-memory database), every synchronous level,
// noFollowSymlinks, URI filenames on and off, a shared in-memory database by
// name, and the same options through the by-name constructor, a
// DatabaseQueue and a DatabasePool (which refuses what it cannot honour).
#include <unistd.h>

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
using sqlitebridge::Synchronous;
using namespace sqlitebridge_test;

namespace {

Configuration withJournalMode(JournalMode mode) {
  Configuration configuration;
  configuration.journalMode = mode;
  return configuration;
}

Configuration shared(const std::string& name) {
  Configuration configuration;
  configuration.sharedCacheName = name;
  return configuration;
}

}  // namespace

TEST(OpenOptions, DefaultsLeaveTheFileAloneFollowLinksAndReadUris) {
  const Configuration defaults;
  EXPECT_FALSE(defaults.journalMode.has_value());
  EXPECT_FALSE(defaults.synchronous.has_value());
  EXPECT_FALSE(defaults.noFollowSymlinks);
  EXPECT_TRUE(defaults.uriFilenames);
  EXPECT_FALSE(defaults.sharedCacheName.has_value());
}

// MARK: journalMode

TEST(OpenOptions, EveryJournalModeIsSetAtOpenAndReadsBack) {
  TempDir dir;
  const std::vector<std::pair<JournalMode, std::string>> modes = {
      {JournalMode::Delete, "delete"}, {JournalMode::Truncate, "truncate"}, {JournalMode::Persist, "persist"},
      {JournalMode::Memory, "memory"}, {JournalMode::Wal, "wal"},           {JournalMode::Off, "off"}};
  for (const auto& [mode, name] : modes) {
    Database db = Database::open(dir / (name + ".db"), withJournalMode(mode));
    ASSERT_TRUE(db.isOpen()) << name << ": " << db.error();
    EXPECT_EQ(scalarText(db, "PRAGMA journal_mode"), name);
    // The mode is in force for the first statement already.
    EXPECT_TRUE(db.execute("CREATE TABLE t(x)")) << db.error();
  }
}

TEST(OpenOptions, WalStaysInTheFileAfterReopeningWithoutTheOption) {
  TempDir dir;
  {
    Database db = Database::open(dir / "wal.db", withJournalMode(JournalMode::Wal));
    ASSERT_TRUE(db.isOpen()) << db.error();
    ASSERT_TRUE(db.execute("CREATE TABLE t(x)")) << db.error();
  }
  Database reopened = Database::open(dir / "wal.db", Configuration());
  ASSERT_TRUE(reopened.isOpen()) << reopened.error();
  EXPECT_EQ(scalarText(reopened, "PRAGMA journal_mode"), "wal");
}

TEST(OpenOptions, AModeSQLiteDoesNotKeepFailsTheOpenNamingBoth) {
  // An in-memory database stays in "memory" for every mode but "off".
  Database memory = Database::open(":memory:", withJournalMode(JournalMode::Wal));
  EXPECT_FALSE(memory.isOpen());
  EXPECT_EQ(memory.lastError().resultCode(), ResultCode::Error) << memory.error();
  EXPECT_TRUE(contains(memory.error(), "journal_mode \"wal\" was asked, and SQLite kept \"memory\"")) << memory.error();

  Database deleteMode = Database::open(":memory:", withJournalMode(JournalMode::Delete));
  EXPECT_FALSE(deleteMode.isOpen());
  EXPECT_TRUE(contains(deleteMode.error(), "\"delete\" was asked")) << deleteMode.error();

  for (JournalMode kept : {JournalMode::Memory, JournalMode::Off}) {
    Database db = Database::open(":memory:", withJournalMode(kept));
    EXPECT_TRUE(db.isOpen()) << db.error();
  }
}

TEST(OpenOptions, AReadOnlyConnectionCannotSwitchToWal) {
  TempDir dir;
  ASSERT_TRUE(makeDatabaseFile(dir / "ro.db", "CREATE TABLE t(x);"));
  Configuration configuration = withJournalMode(JournalMode::Wal);
  configuration.readOnly = true;
  Database db = Database::open(dir / "ro.db", configuration);
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().resultCode(), ResultCode::ReadOnly) << db.error();
  EXPECT_TRUE(contains(db.error(), dir / "ro.db")) << db.error();
}

// MARK: synchronous

TEST(OpenOptions, EverySynchronousLevelReadsBack) {
  TempDir dir;
  const std::vector<std::pair<Synchronous, int>> levels = {
      {Synchronous::Off, 0}, {Synchronous::Normal, 1}, {Synchronous::Full, 2}, {Synchronous::Extra, 3}};
  for (const auto& [level, number] : levels) {
    Configuration configuration;
    configuration.synchronous = level;
    Database db = Database::open(dir / "sync.db", configuration);
    ASSERT_TRUE(db.isOpen()) << db.error();
    EXPECT_EQ(scalarInteger(db, "PRAGMA synchronous"), number);
  }
}

TEST(OpenOptions, SynchronousIsKeptWhenTheJournalModeSwitchesToWal) {
  TempDir dir;
  Configuration configuration = withJournalMode(JournalMode::Wal);
  configuration.synchronous = Synchronous::Off;
  Database db = Database::open(dir / "wal-sync.db", configuration);
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(scalarText(db, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(scalarInteger(db, "PRAGMA synchronous"), 0);
}

// MARK: noFollowSymlinks

TEST(OpenOptions, NoFollowSymlinksRefusesALinkThatOpensWithoutIt) {
  TempDir dir;
  ASSERT_TRUE(makeDatabaseFile(dir / "real.db", "CREATE TABLE t(x); INSERT INTO t VALUES (5);"));
  ASSERT_EQ(::symlink((dir / "real.db").c_str(), (dir / "link.db").c_str()), 0);
  ASSERT_EQ(::symlink(dir.path().c_str(), (dir / "linked-dir").c_str()), 0);
  Configuration configuration;
  configuration.noFollowSymlinks = true;
  for (const std::string& path : {dir / "link.db", dir / "linked-dir/real.db"}) {
    Database refused = Database::open(path, configuration);
    EXPECT_FALSE(refused.isOpen()) << path;
    EXPECT_EQ(refused.lastError().extendedCode, 1550 /* SQLITE_CANTOPEN_SYMLINK */) << refused.error();
    EXPECT_EQ(refused.lastError().resultCode(), ResultCode::CantOpen);
    EXPECT_TRUE(contains(refused.error(), "noFollowSymlinks")) << refused.error();
    EXPECT_TRUE(contains(refused.error(), path)) << refused.error();

    Database followed = Database::open(path, Configuration());
    ASSERT_TRUE(followed.isOpen()) << followed.error();
    EXPECT_EQ(scalarInteger(followed, "SELECT x FROM t"), 5);
  }
  Database direct = Database::open(dir / "real.db", configuration);
  ASSERT_TRUE(direct.isOpen()) << direct.error();
  EXPECT_EQ(scalarInteger(direct, "SELECT x FROM t"), 5);
}

// MARK: uriFilenames

TEST(OpenOptions, UriFilenamesReadAFileUriWithItsParameters) {
  TempDir dir;
  ASSERT_TRUE(makeDatabaseFile(dir / "uri.db", "CREATE TABLE t(x); INSERT INTO t VALUES (3);"));
  Database db = Database::open("file:" + dir / "uri.db?mode=ro", Configuration());
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(scalarInteger(db, "SELECT x FROM t"), 3);
  EXPECT_FALSE(db.execute("INSERT INTO t VALUES (4)"));
  EXPECT_EQ(db.lastError().resultCode(), ResultCode::ReadOnly) << db.error();
}

TEST(OpenOptions, WithoutUriFilenamesAFileColonPathIsAPlainRelativeName) {
  TempDir dir;
  WorkingDirectory here(dir.path());
  Configuration configuration;
  configuration.uriFilenames = false;
  {
    Database db = Database::open("file:plain.db?mode=ro", configuration);
    ASSERT_TRUE(db.isOpen()) << db.error();
    EXPECT_TRUE(db.execute("CREATE TABLE t(x)")) << db.error();  // not read-only: no URI parameter was read
    EXPECT_EQ(db.path(), "file:plain.db?mode=ro");
  }
  EXPECT_EQ(listDirectory(dir.path()), std::vector<std::string>{"file:plain.db?mode=ro"});

  // "file:" + an absolute path names the directory "file:" of the working
  // directory, which is not there: nothing is created at the absolute path.
  Database absolute = Database::open("file:" + dir / "abs.db", configuration);
  EXPECT_FALSE(absolute.isOpen());
  EXPECT_EQ(absolute.lastError().resultCode(), ResultCode::CantOpen) << absolute.error();
  EXPECT_FALSE(fileExists(dir / "abs.db"));

  // With URIs read (the default) the same path opens the absolute file.
  Database uri = Database::open("file:" + dir / "abs.db", Configuration());
  ASSERT_TRUE(uri.isOpen()) << uri.error();
  EXPECT_TRUE(fileExists(dir / "abs.db"));
}

// MARK: sharedCacheName

TEST(OpenOptions, ASharedInMemoryDatabaseIsSeenByEveryConnectionOfItsName) {
  Database first = Database::open(":memory:", shared("notes"));
  ASSERT_TRUE(first.isOpen()) << first.error();
  Database second = Database::open("", shared("notes"));
  ASSERT_TRUE(second.isOpen()) << second.error();
  Database other = Database::open(":memory:", shared("other"));
  ASSERT_TRUE(other.isOpen()) << other.error();
  Database plain = Database::open(":memory:", Configuration());

  ASSERT_TRUE(first.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (42);")) << first.error();
  EXPECT_EQ(scalarInteger(second, "SELECT x FROM t"), 42);
  EXPECT_TRUE(first.path().empty());
  for (Database* unrelated : {&other, &plain}) {
    EXPECT_EQ(scalarInteger(*unrelated, "SELECT count(*) FROM sqlite_master"), 0);
  }
}

TEST(OpenOptions, ASharedDatabaseLivesWhileOneConnectionIsOpen) {
  {
    Database db = Database::open(":memory:", shared("short-lived"));
    ASSERT_TRUE(db.executeScript("CREATE TABLE t(x)")) << db.error();
  }
  Database later = Database::open(":memory:", shared("short-lived"));
  EXPECT_EQ(scalarInteger(later, "SELECT count(*) FROM sqlite_master"), 0);
}

TEST(OpenOptions, SharedCacheNamesThatNeedEscapingAreWholeNames) {
  const std::string names[] = {"a b?mode=ro&cache=private#x", "100%", "dir/name", "ünïcode"};
  for (const std::string& name : names) {
    Database writer = Database::open(":memory:", shared(name));
    ASSERT_TRUE(writer.isOpen()) << name << ": " << writer.error();
    ASSERT_TRUE(writer.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (1);")) << writer.error();
    Database reader = Database::open(":memory:", shared(name));
    EXPECT_EQ(scalarInteger(reader, "SELECT count(*) FROM t"), 1) << name;
  }
  // A name is not cut at '?': "a b" is another database.
  Database prefix = Database::open(":memory:", shared("a b"));
  EXPECT_EQ(scalarInteger(prefix, "SELECT count(*) FROM sqlite_master"), 0);
}

TEST(OpenOptions, SharedCacheNameRefusesAPathAnEmptyNameAndANulByte) {
  TempDir dir;
  Database withPath = Database::open(dir / "file.db", shared("x"));
  EXPECT_FALSE(withPath.isOpen());
  EXPECT_EQ(withPath.lastError().resultCode(), ResultCode::Misuse) << withPath.error();
  EXPECT_TRUE(contains(withPath.error(), "must be \"\" or \":memory:\"")) << withPath.error();
  EXPECT_FALSE(fileExists(dir / "file.db"));
  for (const std::string& name : {std::string(), std::string("a\0b", 3)}) {
    Database db = Database::open(":memory:", shared(name));
    EXPECT_FALSE(db.isOpen());
    EXPECT_EQ(db.lastError().resultCode(), ResultCode::Misuse) << db.error();
  }
}

TEST(OpenOptions, AReadOnlySharedConnectionReadsButRefusesWrites) {
  Database writer = Database::open(":memory:", shared("ro-shared"));
  ASSERT_TRUE(writer.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (9);")) << writer.error();
  Configuration configuration = shared("ro-shared");
  configuration.readOnly = true;
  Database reader = Database::open(":memory:", configuration);
  ASSERT_TRUE(reader.isOpen()) << reader.error();
  EXPECT_EQ(scalarInteger(reader, "SELECT x FROM t"), 9);
  EXPECT_FALSE(reader.execute("INSERT INTO t VALUES (10)"));
  EXPECT_EQ(reader.lastError().resultCode(), ResultCode::ReadOnly) << reader.error();
}

// MARK: Every way a database opens

TEST_F(DocumentsAndBundle, OpenOptionsApplyToTheByNameConstructor) {
  Configuration configuration = withJournalMode(JournalMode::Wal);
  configuration.synchronous = Synchronous::Normal;
  Database created("made.db", "CREATE TABLE t(x)", location(), configuration);
  ASSERT_TRUE(created.isOpen()) << created.error();
  EXPECT_EQ(scalarText(created, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(scalarInteger(created, "PRAGMA synchronous"), 1);

  Database sharedByName("made.db", "CREATE TABLE t(x)", location(), shared("x"));
  EXPECT_FALSE(sharedByName.isOpen());
  EXPECT_EQ(sharedByName.lastError().resultCode(), ResultCode::Misuse) << sharedByName.error();
}

TEST(OpenOptions, ADatabaseQueueHonoursThemIncludingASharedCache) {
  TempDir dir;
  Configuration configuration = withJournalMode(JournalMode::Truncate);
  configuration.synchronous = Synchronous::Extra;
  DatabaseQueue queue(dir / "queue.db", configuration);
  ASSERT_TRUE(queue.isOpen()) << queue.openError().message;
  EXPECT_EQ(queue.read([](Database& db) { return scalarText(db, "PRAGMA journal_mode"); }), "truncate");
  EXPECT_EQ(queue.read([](Database& db) { return scalarInteger(db, "PRAGMA synchronous"); }), 3);

  DatabaseQueue sharedQueue(":memory:", shared("queue-shared"));
  ASSERT_TRUE(sharedQueue.isOpen()) << sharedQueue.openError().message;
  Error error;
  ASSERT_TRUE(sharedQueue.write(
      [](Database& db) { return db.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (7);"); }, &error))
      << error.message;
  Database outside = Database::open(":memory:", shared("queue-shared"));
  EXPECT_EQ(scalarInteger(outside, "SELECT x FROM t"), 7);
}

TEST(OpenOptions, ADatabasePoolTakesWalAndSynchronousForEveryConnection) {
  TempDir dir;
  Configuration configuration = withJournalMode(JournalMode::Wal);
  configuration.synchronous = Synchronous::Off;
  DatabasePool pool(dir / "pool.db", configuration);
  ASSERT_TRUE(pool.isOpen()) << pool.openError().message;
  EXPECT_EQ(pool.writeWithoutTransaction([](Database& db) { return scalarInteger(db, "PRAGMA synchronous"); }), 0);
  EXPECT_EQ(pool.read([](Database& db) { return scalarInteger(db, "PRAGMA synchronous"); }), 0);
  EXPECT_EQ(pool.read([](Database& db) { return scalarText(db, "PRAGMA journal_mode"); }), "wal");
}

TEST(OpenOptions, ADatabasePoolRefusesAnotherJournalModeAndASharedCache) {
  TempDir dir;
  for (JournalMode mode :
       {JournalMode::Delete, JournalMode::Truncate, JournalMode::Persist, JournalMode::Memory, JournalMode::Off}) {
    DatabasePool pool(dir / "pool.db", withJournalMode(mode));
    EXPECT_FALSE(pool.isOpen());
    EXPECT_EQ(pool.openError().resultCode(), ResultCode::Misuse) << pool.openError().message;
    EXPECT_TRUE(contains(pool.openError().message, "WAL")) << pool.openError().message;
  }
  EXPECT_FALSE(fileExists(dir / "pool.db"));
  DatabasePool sharedPool(":memory:", shared("pool-shared"));
  EXPECT_FALSE(sharedPool.isOpen());
  EXPECT_EQ(sharedPool.openError().resultCode(), ResultCode::Misuse) << sharedPool.openError().message;
  EXPECT_TRUE(contains(sharedPool.openError().message, "DatabaseQueue")) << sharedPool.openError().message;
}
