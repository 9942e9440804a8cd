// A short sync simulation inside the suite: three devices in this process
// make random edits (Tests/SyncSimulation/RandomEdits.hpp) and sync at
// random moments, one of them offline for long stretches; then every
// device syncs until nothing moves, and the copies must have converged
// (Tests/SyncSimulation/Convergence.hpp). The long run, with device
// processes killed mid-sync, is scripts/sync-simulation.
#include <gtest/gtest.h>

#include <sqlitebridge/DatabaseSyncHub.hpp>
#include <sqlitebridge/Sync.hpp>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "../../SyncSimulation/Convergence.hpp"
#include "../../SyncSimulation/RandomEdits.hpp"
#include "SyncTestSupport.hpp"

using namespace sqlitebridge;
using namespace sqlitebridge_test;
using namespace sqlitebridge_simulation;

namespace {

void simulate(std::uint64_t seed, int deviceCount, int edits) {
  TempDir dir;
  auto hub = std::make_shared<DatabaseSyncHub>(dir / "hub.sqlite");
  ASSERT_FALSE(hub->error().isError()) << hub->error();
  std::vector<std::unique_ptr<SyncDevice>> devices;
  std::vector<DeviceFile> files;
  for (int i = 0; i < deviceCount; ++i) {
    const std::string name = "device" + std::to_string(i);
    files.push_back({name, dir / (name + ".sqlite")});
    devices.push_back(std::make_unique<SyncDevice>(files.back().path, name, hub));
    ASSERT_FALSE(devices.back()->engine.error().isError()) << devices.back()->engine.error();
  }
  std::mt19937_64 random(seed);
  std::vector<std::int64_t> serials(deviceCount, 0);
  std::int64_t conflicts = 0;
  for (int step = 0; step < edits; ++step) {
    const int index = static_cast<int>(random() % deviceCount);
    SyncDevice& device = *devices[index];
    Error error;
    const bool committed = device.queue.write(
        [&](Database& db) { return run(db, randomEdit(db, files[index].name, serials[index], random)); }, &error);
    // An edit may meet a constraint (a tag under a note deleted meanwhile
    // is still possible inside one device only when the statements of one
    // edit collide): then nothing of it is committed.
    if (!committed) ASSERT_EQ(error.code, SQLITE_CONSTRAINT) << error;
    // Device 0 is offline for long stretches: it syncs rarely.
    const bool online = index != 0 || random() % 10 == 0;
    if (online && random() % 4 == 0) conflicts += static_cast<std::int64_t>(device.sync().conflicts.size());
  }
  // Everyone syncs until a whole pass moves nothing.
  for (int pass = 0; pass < deviceCount + 2; ++pass) {
    std::int64_t moved = 0;
    for (auto& device : devices) {
      const SyncReport report = device->sync();
      moved += report.pushed + report.pulled;
    }
    if (moved == 0) break;
  }
  const std::vector<std::string> problems =
      convergenceProblems(files, dir / "hub.sqlite", readFile(fixturePath("sync/schema.sql")));
  EXPECT_TRUE(problems.empty()) << "seed " << seed << ": " << problems.front();
  ::testing::Test::RecordProperty("conflicts", std::to_string(conflicts));
}

TEST(SyncSimulation, ThreeDevicesEditingAndSyncingAtRandomConverge) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  for (std::uint64_t seed : {1u, 2u, 3u}) ASSERT_NO_FATAL_FAILURE(simulate(seed, 3, 150));
}

}  // namespace
