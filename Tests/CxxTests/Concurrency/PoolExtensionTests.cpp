// A DatabasePool passes vfs, extensions and autoCheckpointPages to every
// connection it opens (issue 27): the writer and each of several readers,
// held open at once so that they are different connections, see the
// extension's function, open through the VFS and have the checkpoint
// setting. An extension that fails fails the pool's open.
#include <mutex>
#include <set>
#include <string>

#include "ExtensionSupport.hpp"
#include "TestSupport.hpp"
#include "ThreadSupport.hpp"

using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::DatabasePool;
using sqlitebridge::ResultCode;
using namespace sqlitebridge_test;

namespace {

// "answer vfs pages" of a connection.
std::string describeConnection(Database& db) {
  return std::to_string(scalarInteger(db, "SELECT bridge_ext_answer()")) + " " + vfsName(db) + " " +
         std::to_string(scalarInteger(db, "PRAGMA wal_autocheckpoint"));
}

}  // namespace

TEST(PoolExtensions, TheWriterAndEveryReaderGetVfsExtensionsAndAutoCheckpoint) {
  TempDir dir;
  constexpr int kReaders = 3;
  Configuration configuration;
  configuration.vfs = "bridge-ext-vfs";
  configuration.extensions = {{testExtensionPath(), kVfsEntryPoint}};
  configuration.autoCheckpointPages = 0;
  configuration.maximumReaderCount = kReaders;
  DatabasePool pool(dir / "pool.db", configuration);
  ASSERT_TRUE(pool.isOpen()) << pool.openError().message;
  EXPECT_EQ(pool.writeWithoutTransaction([](Database& db) { return describeConnection(db); }), "42 bridge-ext-vfs 0");

  // Each reader waits inside its read until all are in: three connections.
  Latch allIn(kReaders);
  Failures failures;
  std::mutex mutex;
  std::set<sqlite3*> handles;
  runThreads(kReaders, [&](int) {
    const std::string seen = pool.read([&](Database& db) {
      if (!allIn.arriveAndWait()) failures.add("the readers did not all start");
      std::lock_guard<std::mutex> lock(mutex);
      handles.insert(db.handle());
      return describeConnection(db);
    });
    if (seen != "42 bridge-ext-vfs 0") failures.add("a reader saw " + seen);
  });
  EXPECT_EQ(failures.text(), "");
  EXPECT_EQ(handles.size(), static_cast<std::size_t>(kReaders));
}

TEST(PoolExtensions, AFailingExtensionFailsThePoolsOpen) {
  TempDir dir;
  Configuration configuration;
  configuration.extensions = {{testExtensionPath(), kFailingEntryPoint}};
  DatabasePool pool(dir / "pool.db", configuration);
  EXPECT_FALSE(pool.isOpen());
  EXPECT_EQ(pool.openError().resultCode(), ResultCode::Error) << pool.openError().message;
  EXPECT_TRUE(contains(pool.openError().message, "bridge_ext refuses to load")) << pool.openError().message;

  configuration.extensions.clear();
  configuration.vfs = "no-such-vfs";
  DatabasePool noVfs(dir / "pool.db", configuration);
  EXPECT_FALSE(noVfs.isOpen());
  EXPECT_EQ(noVfs.openError().resultCode(), ResultCode::CantOpen) << noVfs.openError().message;
}
