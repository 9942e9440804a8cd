// Configuration::vfs (issue 27): a built-in VFS is used for the file (as
// SQLITE_FCNTL_VFSNAME reports), an unregistered one fails the open with
// SQLITE_CANTOPEN naming it before any file is made, and a VFS that a
// configured extension registers is available to that same open.
#include <string>

#include "ExtensionSupport.hpp"
#include "TestSupport.hpp"

using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::DatabaseQueue;
using sqlitebridge::ResultCode;
using namespace sqlitebridge_test;

namespace {

Configuration withVfs(const std::string& vfs) {
  Configuration configuration;
  configuration.vfs = vfs;
  return configuration;
}

}  // namespace

TEST(Vfs, EmptyUsesTheDefaultVfs) {
  TempDir dir;
  EXPECT_TRUE(Configuration().vfs.empty());
  Database db = Database::open(dir / "a.db", Configuration());
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(vfsName(db), sqlite3_vfs_find(nullptr)->zName);
}

TEST(Vfs, ABuiltInVfsOpensTheFileThroughIt) {
  TempDir dir;
  for (const std::string vfs : {"unix-dotfile", "unix-none"}) {
    ASSERT_NE(sqlite3_vfs_find(vfs.c_str()), nullptr) << vfs << " is not built in here";
    Database db = Database::open(dir / (vfs + ".db"), withVfs(vfs));
    ASSERT_TRUE(db.isOpen()) << vfs << ": " << db.error();
    EXPECT_EQ(vfsName(db), vfs);
    ASSERT_TRUE(db.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (5);")) << db.error();
    EXPECT_EQ(scalarInteger(db, "SELECT x FROM t"), 5);
  }
}

TEST(Vfs, AnUnregisteredVfsFailsTheOpenWithCantOpenNamingIt) {
  TempDir dir;
  Database db = Database::open(dir / "a.db", withVfs("no-such-vfs"));
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().resultCode(), ResultCode::CantOpen) << db.error();
  EXPECT_TRUE(contains(db.error(), "no VFS named \"no-such-vfs\" is registered")) << db.error();
  EXPECT_FALSE(fileExists(dir / "a.db"));

  DatabaseQueue queue(dir / "a.db", withVfs("no-such-vfs"));
  EXPECT_FALSE(queue.isOpen());
  EXPECT_EQ(queue.openError().resultCode(), ResultCode::CantOpen) << queue.openError().message;

  Database nul = Database::open(dir / "a.db", withVfs(std::string("unix\0x", 6)));
  EXPECT_FALSE(nul.isOpen());
  EXPECT_EQ(nul.lastError().resultCode(), ResultCode::Misuse) << nul.error();
  EXPECT_FALSE(fileExists(dir / "a.db"));
}

TEST(Vfs, AVfsRegisteredByAConfiguredExtensionServesThatOpen) {
  TempDir dir;
  Configuration configuration = withVfs("bridge-ext-vfs");
  configuration.extensions = {{testExtensionPath(), kVfsEntryPoint}};
  Database db = Database::open(dir / "a.db", configuration);
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(vfsName(db), "bridge-ext-vfs");
  EXPECT_EQ(scalarInteger(db, "SELECT bridge_ext_answer()"), 42);
}

TEST(Vfs, ExtensionsThatDoNotRegisterTheVfsStillFailWithCantOpen) {
  TempDir dir;
  Configuration configuration = withVfs("no-such-vfs");
  configuration.extensions = {{testExtensionPath(), ""}};
  Database db = Database::open(dir / "a.db", configuration);
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().resultCode(), ResultCode::CantOpen) << db.error();
  EXPECT_TRUE(contains(db.error(), "the configured extensions did not register it")) << db.error();
  EXPECT_FALSE(fileExists(dir / "a.db"));

  // An extension that fails while being loaded for the VFS fails the open with its error.
  configuration.extensions = {{testExtensionPath(), kFailingEntryPoint}};
  Database failing = Database::open(dir / "a.db", configuration);
  EXPECT_FALSE(failing.isOpen());
  EXPECT_EQ(failing.lastError().resultCode(), ResultCode::Error) << failing.error();
  EXPECT_TRUE(contains(failing.error(), "bridge_ext refuses to load")) << failing.error();
  EXPECT_FALSE(fileExists(dir / "a.db"));
}
