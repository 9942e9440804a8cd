// Loadable extensions (issue 27): Database::loadExtension and
// Configuration::extensions on a Database and a DatabaseQueue. Loading goes
// through the C API only: the SQL function load_extension() is refused
// before and after a load. A missing file, a wrong entry point and an init
// that fails are errors naming the path, and fail the open. (A pool's
// writer and readers: Concurrency/PoolExtensionTests.cpp.)
#include <string>

#include "ExtensionSupport.hpp"
#include "TestSupport.hpp"

using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::DatabaseQueue;
using sqlitebridge::Extension;
using sqlitebridge::ResultCode;
using namespace sqlitebridge_test;

namespace {

Configuration withExtensions(std::vector<Extension> extensions) {
  Configuration configuration;
  configuration.extensions = std::move(extensions);
  return configuration;
}

// Whether `SELECT load_extension(path)` fails as "not authorized" (the SQL
// function disabled), without loading anything.
void expectSqlFunctionRefused(Database& db) {
  const std::string sql = "SELECT load_extension('" + testExtensionPath() + "')";
  EXPECT_FALSE(db.execute(sql));
  EXPECT_EQ(db.lastError().resultCode(), ResultCode::Error) << db.error();
  EXPECT_TRUE(contains(db.error(), "not authorized")) << db.error();
}

}  // namespace

TEST(LoadExtension, DefaultEntryPointRegistersTheExtensionsFunction) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_FALSE(db.execute("SELECT bridge_ext_answer()"));
  ASSERT_TRUE(db.loadExtension(testExtensionPath())) << db.error();
  EXPECT_EQ(scalarInteger(db, "SELECT bridge_ext_answer()"), 42);
  EXPECT_FALSE(db.lastError().isError());
}

TEST(LoadExtension, TheSqlFunctionLoadExtensionIsRefusedBeforeAndAfterALoad) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.isOpen()) << db.error();
  expectSqlFunctionRefused(db);
  ASSERT_TRUE(db.loadExtension(testExtensionPath())) << db.error();
  expectSqlFunctionRefused(db);
  // And after a failed load too.
  EXPECT_FALSE(db.loadExtension(testExtensionPath(), kFailingEntryPoint));
  expectSqlFunctionRefused(db);
  // The C API itself is off again between calls.
  int enabled = -1;
  ASSERT_EQ(sqlite3_db_config(db.handle(), SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, -1, &enabled), SQLITE_OK);
  EXPECT_EQ(enabled, 0);
}

TEST(LoadExtension, AnExplicitEntryPointIsCalled) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.loadExtension(testExtensionPath(), "sqlite3_testextension_init")) << db.error();
  EXPECT_EQ(scalarInteger(db, "SELECT bridge_ext_answer()"), 42);
}

TEST(LoadExtension, AMissingFileFailsNamingThePath) {
  TempDir dir;
  Database db = Database::open(":memory:");
  const std::string missing = dir / "missing_extension.so";
  EXPECT_FALSE(db.loadExtension(missing));
  EXPECT_EQ(db.lastError().resultCode(), ResultCode::Error) << db.error();
  EXPECT_TRUE(contains(db.error(), "cannot load the extension \"" + missing + "\"")) << db.error();
  // The connection stays usable.
  EXPECT_EQ(scalarInteger(db, "SELECT 1"), 1);
}

TEST(LoadExtension, AWrongEntryPointFailsNamingPathAndEntryPoint) {
  Database db = Database::open(":memory:");
  EXPECT_FALSE(db.loadExtension(testExtensionPath(), "sqlite3_nosuch_init"));
  EXPECT_EQ(db.lastError().resultCode(), ResultCode::Error) << db.error();
  EXPECT_TRUE(contains(db.error(), testExtensionPath())) << db.error();
  EXPECT_TRUE(contains(db.error(), "(entry point \"sqlite3_nosuch_init\")")) << db.error();
  EXPECT_TRUE(contains(db.error(), "undefined symbol")) << db.error();
  EXPECT_FALSE(db.execute("SELECT bridge_ext_answer()"));
}

TEST(LoadExtension, AnInitThatFailsReportsTheExtensionsMessage) {
  Database db = Database::open(":memory:");
  EXPECT_FALSE(db.loadExtension(testExtensionPath(), kFailingEntryPoint));
  EXPECT_EQ(db.lastError().resultCode(), ResultCode::Error) << db.error();
  EXPECT_TRUE(contains(db.error(), testExtensionPath())) << db.error();
  EXPECT_TRUE(contains(db.error(), "error during initialization: bridge_ext refuses to load")) << db.error();
}

TEST(LoadExtension, AnEmptyPathOrANulByteIsMisuseAndAClosedDatabaseToo) {
  Database db = Database::open(":memory:");
  EXPECT_FALSE(db.loadExtension(""));
  EXPECT_EQ(db.lastError().resultCode(), ResultCode::Misuse) << db.error();
  EXPECT_FALSE(db.loadExtension(testExtensionPath() + std::string("\0x", 2)));
  EXPECT_EQ(db.lastError().resultCode(), ResultCode::Misuse) << db.error();
  EXPECT_FALSE(db.loadExtension(testExtensionPath(), std::string("sqlite3_\0init", 13)));
  EXPECT_EQ(db.lastError().resultCode(), ResultCode::Misuse) << db.error();
  db.close();
  EXPECT_FALSE(db.loadExtension(testExtensionPath()));
  EXPECT_EQ(db.lastError().resultCode(), ResultCode::Misuse) << db.error();
}

TEST(LoadExtension, ConfiguredExtensionsAreLoadedAtEveryOpenInOrder) {
  TempDir dir;
  const Configuration configuration =
      withExtensions({{testExtensionPath(), ""}, {testExtensionPath(), "sqlite3_testextension_init"}});
  for (int round = 0; round < 2; ++round) {
    Database db = Database::open(dir / "a.db", configuration);
    ASSERT_TRUE(db.isOpen()) << db.error();
    EXPECT_EQ(scalarInteger(db, "SELECT bridge_ext_answer()"), 42);
    expectSqlFunctionRefused(db);
  }
  // Not on a connection opened without them.
  Database plain = Database::open(dir / "a.db", Configuration());
  EXPECT_FALSE(plain.execute("SELECT bridge_ext_answer()"));
}

TEST(LoadExtension, AConfiguredExtensionThatFailsFailsTheOpen) {
  TempDir dir;
  const std::string missing = dir / "missing_extension.so";
  Database noFile = Database::open(dir / "a.db", withExtensions({{missing, ""}}));
  EXPECT_FALSE(noFile.isOpen());
  EXPECT_EQ(noFile.lastError().resultCode(), ResultCode::Error) << noFile.error();
  EXPECT_TRUE(contains(noFile.error(), missing)) << noFile.error();

  // Loaded in order: the first loads, the second fails the open.
  Database failing = Database::open(
      dir / "a.db", withExtensions({{testExtensionPath(), ""}, {testExtensionPath(), kFailingEntryPoint}}));
  EXPECT_FALSE(failing.isOpen());
  EXPECT_EQ(failing.lastError().resultCode(), ResultCode::Error) << failing.error();
  EXPECT_TRUE(contains(failing.error(), "bridge_ext refuses to load")) << failing.error();

  Database wrongEntry = Database::open(dir / "a.db", withExtensions({{testExtensionPath(), "sqlite3_nosuch_init"}}));
  EXPECT_FALSE(wrongEntry.isOpen());
  EXPECT_TRUE(contains(wrongEntry.error(), "sqlite3_nosuch_init")) << wrongEntry.error();

  // An empty path is refused before any file is made.
  Database empty = Database::open(dir / "b.db", withExtensions({{"", ""}}));
  EXPECT_FALSE(empty.isOpen());
  EXPECT_EQ(empty.lastError().resultCode(), ResultCode::Misuse) << empty.error();
  EXPECT_FALSE(fileExists(dir / "b.db"));
}

TEST(LoadExtension, ADatabaseQueueLoadsThemAndFailsToOpenWhenOneFails) {
  TempDir dir;
  DatabaseQueue queue(dir / "queue.db", withExtensions({{testExtensionPath(), ""}}));
  ASSERT_TRUE(queue.isOpen()) << queue.openError().message;
  EXPECT_EQ(queue.read([](Database& db) { return scalarInteger(db, "SELECT bridge_ext_answer()"); }), 42);

  DatabaseQueue failing(dir / "queue.db", withExtensions({{testExtensionPath(), kFailingEntryPoint}}));
  EXPECT_FALSE(failing.isOpen());
  EXPECT_EQ(failing.openError().resultCode(), ResultCode::Error) << failing.openError().message;
  EXPECT_TRUE(contains(failing.openError().message, "bridge_ext refuses to load")) << failing.openError().message;
}
