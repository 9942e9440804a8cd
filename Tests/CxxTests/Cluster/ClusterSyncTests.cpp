// Sync through a hub on a real dqlite cluster: the hub's own rules against
// three node processes (conditional appends, refusals, reading back), then
// four device processes editing and syncing through it while the leader
// gets SIGKILL several times, each time as a device is about to push (a
// latch between that device and the test): no entry twice, none lost,
// every copy converged (Tests/SyncSimulation/Convergence.hpp).
//
// SQLITEBRIDGE_SYNC_KILLS sets how many leader kills (default 3).
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlitebridge/DatabaseQueue.hpp>
#include <sqlitebridge/DatabaseSyncHub.hpp>
#include <sqlitebridge/Session.hpp>
#include <sqlitebridge/Sync.hpp>
#include <sqlitebridge/cluster/ClusterSyncHub.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "../../SyncSimulation/Convergence.hpp"
#include "../../SyncSimulation/RandomEdits.hpp"
#include "Changesets/ChangesetTestSupport.hpp"
#include "Cluster/ClusterSupport.hpp"
#include "FixtureSupport.hpp"

using namespace sqlitebridge;
using namespace sqlitebridge_simulation;
using sqlitebridge_test::LocalCluster;

namespace {

const std::vector<std::string> kSyncedTables{"notes", "tags", "counters"};
// SQLITE_IOERR_LEADERSHIP_LOST: a commit whose outcome is unknown.
constexpr int kLeadershipLost = 10506;

std::string schemaText() {
  std::ifstream file(sqlitebridge_test::fixturePath("sync/schema.sql"));
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

int kills() {
  const char* text = std::getenv("SQLITEBRIDGE_SYNC_KILLS");
  const int parsed = text != nullptr ? std::atoi(text) : 0;
  return parsed > 0 ? parsed : 3;
}

// A changeset inserting note `id` (made on a scratch database).
Changeset noteInsert(const std::string& id) {
  Database db = Database::open(":memory:");
  db.executeScript(schemaText());
  Session session(db, "main");
  session.attach("notes");
  db.execute("INSERT INTO notes(id, title) VALUES (?, 'x')", std::vector<Value>{Value(id)});
  Changeset changes;
  session.changeset(changes);
  return changes;
}

SyncEntry entryOf(const std::string& device, std::int64_t sequence, const Changeset& changeset) {
  SyncEntry entry;
  entry.device = device;
  entry.sequence = sequence;
  entry.changeset = changeset;
  return entry;
}

// Reads one byte from `fd` within `milliseconds`; false when none came.
bool readByte(int fd, int milliseconds) {
  pollfd entry{fd, POLLIN, 0};
  char byte = 0;
  return ::poll(&entry, 1, milliseconds) > 0 && ::read(fd, &byte, 1) == 1;
}

// One device process: `rounds` times, a few random edits then a sync
// through its own client of the cluster. When `toTest` >= 0, every third
// sync tells the test it is about to push (a byte on `toTest`) and waits
// for the test's byte on `fromTest` (the leader killed meanwhile). A sync
// that fails (the leader lost: in doubt, or no leader yet) is tried again
// by the next round. Writes how many syncs succeeded and how many failed
// in doubt (or for want of a leader) to `<path>.tally`. Exits 0 when every
// round ran; 1 on a failure a lost leader does not explain.
[[noreturn]] void runDevice(const std::string& path, const std::string& name, const ClusterConfiguration& cluster,
                            int rounds, std::uint64_t seed, int toTest, int fromTest) {
  DatabaseQueue queue(path);
  auto hub = std::make_shared<ClusterSyncHub>(ClusterDatabase::open("sync-hub", cluster));
  SyncEngine engine(queue, kSyncedTables, name, hub);
  if (hub->error().isError() || engine.error().isError()) {
    std::fprintf(stderr, "%s: %s %s\n", name.c_str(), hub->error().message.c_str(), engine.error().message.c_str());
    std::_Exit(1);
  }
  std::mt19937_64 random(seed);
  std::int64_t serial = static_cast<std::int64_t>(seed % 1000) * 1000000;
  int syncs = 0;
  int succeeded = 0;
  int inDoubt = 0;
  int otherwise = 0;
  for (int round = 0; round < rounds; ++round) {
    const int edits = 1 + static_cast<int>(random() % 4);
    for (int i = 0; i < edits; ++i) {
      queue.write([&](Database& db) { return run(db, randomEdit(db, name, serial, random)); });
    }
    ++syncs;
    const bool handshake = toTest >= 0 && syncs % 3 == 0;
    SyncRound step(engine);
    bool told = false;
    while (step.step() == SyncRound::Step::Pull || step.step() == SyncRound::Step::Push) {
      Error error;
      if (step.step() == SyncRound::Step::Pull) {
        std::vector<SyncEntry> page;
        if (hub->entries(step.after(), step.limit(), page, &error)) {
          step.pulled(page);
        } else {
          step.hubFailed(error);
        }
        continue;
      }
      if (handshake && !told) {
        told = true;
        if (::write(toTest, "p", 1) != 1 || !readByte(fromTest, 120000)) std::_Exit(1);
      }
      bool appended = false;
      if (hub->append(step.entriesToPush(), step.after(), appended, &error)) {
        step.pushed(appended);
      } else {
        step.hubFailed(error);
      }
    }
    if (step.step() == SyncRound::Step::Failed) {
      const Error error = step.error();
      // What a leader lost mid-call leaves: in doubt, no leader yet, a
      // transaction the old leader took along, a busy local file.
      const bool explained = error.code == SQLITE_IOERR || error.code == SQLITE_CANTOPEN ||
                             error.code == SQLITE_ABORT || error.code == SQLITE_BUSY || error.code == SQLITE_PROTOCOL;
      if (!explained) {
        std::fprintf(stderr, "%s: sync failed: %d %s\n", name.c_str(), error.extendedCode, error.message.c_str());
        std::_Exit(1);
      }
      ++(error.extendedCode == kLeadershipLost ? inDoubt : otherwise);
    } else {
      ++succeeded;
    }
  }
  std::ofstream(path + ".tally") << succeeded << " " << inDoubt << " " << otherwise << "\n";
  if (toTest >= 0) {
    if (::write(toTest, "d", 1) != 1) std::_Exit(1);
  }
  std::_Exit(0);
}

// After a failure: the devices' files and the log, operation by operation,
// into $TMPDIR/sqlitebridge-cluster-sync-failure (printed).
void keepForDiagnosis(const std::vector<DeviceFile>& devices, SyncHub& hub) {
  const char* base = std::getenv("TMPDIR");
  const std::string folder =
      std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/sqlitebridge-cluster-sync-failure";
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  for (const DeviceFile& device : devices) {
    std::filesystem::copy_file(device.path, folder + "/" + device.name + ".sqlite");
  }
  std::ofstream out(folder + "/log.txt");
  std::vector<SyncEntry> log;
  hub.entries(0, SIZE_MAX, log, nullptr);
  for (const SyncEntry& entry : log) {
    out << entry.position << " " << entry.device << " " << entry.sequence << "\n";
    std::vector<ChangesetOperation> operations;
    entry.changeset.operations(operations);
    for (const ChangesetOperation& operation : operations) {
      out << "  " << operation.table << " " << static_cast<int>(operation.kind)
          << (operation.isIndirect ? " indirect" : "");
      for (const auto& value : operation.oldValues) out << " old:" << (value ? value->asText() : "-");
      for (const auto& value : operation.newValues) out << " new:" << (value ? value->asText() : "-");
      out << "\n";
    }
  }
  std::printf("[cluster sync] kept for diagnosis in %s\n", folder.c_str());
}

}  // namespace

TEST(ClusterSyncHub, AppendsOnlyAfterTheLastPositionNeverTwiceAndReadsBack) {
  SKIP_WITHOUT_DQLITE_NODES();
  SKIP_WITHOUT_SESSION_EXTENSION();
  LocalCluster cluster;
  std::string problem;
  ASSERT_TRUE(cluster.start(3, problem)) << problem;
  ClusterSyncHub hub(ClusterDatabase::open("hub", cluster.configuration()));
  ASSERT_FALSE(hub.error().isError()) << hub.error().message;
  const Changeset first = noteInsert("a");
  const Changeset second = noteInsert("b");
  bool appended = false;
  Error error;
  ASSERT_TRUE(hub.append({entryOf("phone", 1, first), entryOf("phone", 2, Changeset())}, 0, appended, &error))
      << error.message;
  EXPECT_TRUE(appended);
  // The log moved: appends after 0 or 1 append nothing.
  ASSERT_TRUE(hub.append({entryOf("laptop", 1, second)}, 1, appended, &error)) << error.message;
  EXPECT_FALSE(appended);
  // The same (device, sequence) is refused, naming where it is.
  EXPECT_FALSE(hub.append({entryOf("phone", 2, second)}, 2, appended, &error));
  EXPECT_EQ(error.extendedCode, SQLITE_CONSTRAINT_UNIQUE);
  EXPECT_NE(error.message.find("position 2"), std::string::npos) << error.message;
  ASSERT_TRUE(hub.append({entryOf("laptop", 1, second)}, 2, appended, &error)) << error.message;
  EXPECT_TRUE(appended);
  std::vector<SyncEntry> read;
  ASSERT_TRUE(hub.entries(1, 10, read, &error)) << error.message;
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].position, 2);
  EXPECT_TRUE(read[0].changeset.isEmpty());
  EXPECT_EQ(read[1].device, "laptop");
  EXPECT_EQ(read[1].changeset, second);
  std::int64_t last = 0;
  ASSERT_TRUE(hub.lastPosition(last, &error));
  EXPECT_EQ(last, 3);
  // A table of another shape is not a log.
  ClusterDatabase other = ClusterDatabase::open("hub", cluster.configuration());
  ASSERT_TRUE(other.execute("CREATE TABLE elsewhere(a, b)")) << other.lastError().message;
  ClusterSyncHub wrong(std::move(other), "elsewhere");
  EXPECT_EQ(wrong.error().code, SQLITE_ERROR);
  EXPECT_NE(wrong.error().message.find("not a hub's log"), std::string::npos) << wrong.error().message;
}

TEST(ClusterSync, FourDevicesConvergeWhileTheLeaderIsKilledAsOneOfThemPushes) {
  SKIP_WITHOUT_DQLITE_NODES();
  SKIP_WITHOUT_SESSION_EXTENSION();
  LocalCluster cluster;
  std::string problem;
  ASSERT_TRUE(cluster.start(3, problem)) << problem;
  const ClusterConfiguration configuration = cluster.configuration(60000);
  sqlitebridge_test::TempDir dir;
  const std::string schema = schemaText();
  std::vector<DeviceFile> devices;
  for (int i = 0; i < 4; ++i) {
    devices.push_back({"device" + std::to_string(i), dir / ("device" + std::to_string(i) + ".sqlite")});
    Database db = Database::open(devices.back().path);
    ASSERT_TRUE(db.execute("PRAGMA journal_mode = WAL") && db.executeScript(schema)) << db.lastError().message;
  }
  ClusterDatabase watcher = ClusterDatabase::open("sync-hub", configuration);
  ASSERT_TRUE(watcher.isOpen()) << watcher.lastError().message;
  int toTest[2];
  int fromTest[2];
  ASSERT_EQ(::pipe(toTest), 0);
  ASSERT_EQ(::pipe(fromTest), 0);
  const int rounds = 3 * kills() + 3;
  std::vector<pid_t> children;
  for (int i = 0; i < 4; ++i) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(toTest[0]);
      ::close(fromTest[1]);
      runDevice(devices[i].path, devices[i].name, configuration, rounds, 1000 + i, i == 0 ? toTest[1] : -1,
                i == 0 ? fromTest[0] : -1);
    }
    children.push_back(pid);
  }
  ::close(toTest[1]);
  ::close(fromTest[0]);
  // Device 0 says "p" before each of its pushes we kill at, "d" when done.
  int killed = 0;
  while (killed < kills()) {
    pollfd entry{toTest[0], POLLIN, 0};
    char byte = 0;
    ASSERT_GT(::poll(&entry, 1, 300000), 0) << "device0 did not reach a push in time";
    ASSERT_EQ(::read(toTest[0], &byte, 1), 1);
    if (byte == 'd') break;
    // Asking the members connects the watcher to the current leader.
    std::vector<ClusterMember> members;
    ASSERT_TRUE(watcher.members(members)) << watcher.lastError().message;
    const int index = cluster.indexOf(watcher.leaderAddress());
    ASSERT_GE(index, 0) << "leader " << watcher.leaderAddress();
    cluster.nodes()[static_cast<std::size_t>(index)].kill(SIGKILL);
    ++killed;
    ASSERT_EQ(::write(fromTest[1], "g", 1), 1);
    // Back before the next kill, so that two of three nodes stay up.
    ASSERT_TRUE(cluster.restart(static_cast<std::size_t>(index), problem)) << problem;
  }
  // The rest of device 0's handshakes, answered at once.
  for (;;) {
    pollfd entry{toTest[0], POLLIN, 0};
    char byte = 0;
    if (::poll(&entry, 1, 300000) <= 0 || ::read(toTest[0], &byte, 1) != 1 || byte == 'd') break;
    ASSERT_EQ(::write(fromTest[1], "g", 1), 1);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "device process status " << status;
  }
  ::close(toTest[0]);
  ::close(fromTest[1]);
  // Everyone syncs until a whole pass moves nothing.
  auto hub = std::make_shared<ClusterSyncHub>(ClusterDatabase::open("sync-hub", configuration));
  ASSERT_FALSE(hub->error().isError()) << hub->error().message;
  std::string failure;
  ASSERT_GT(syncUntilNothingMoves(devices, hub, 8, failure), 0) << failure;
  std::int64_t entries = 0;
  ASSERT_TRUE(hub->lastPosition(entries));
  const std::vector<std::string> problems = convergenceProblems(devices, *hub, schema);
  if (!problems.empty()) keepForDiagnosis(devices, *hub);
  int succeeded = 0;
  int inDoubt = 0;
  int otherwise = 0;
  for (const DeviceFile& device : devices) {
    std::ifstream tally(device.path + ".tally");
    int a = 0, b = 0, c = 0;
    tally >> a >> b >> c;
    succeeded += a;
    inDoubt += b;
    otherwise += c;
  }
  std::printf(
      "[cluster sync] 4 devices, %d rounds each, leader killed %d times: syncs succeeded %d, failed in doubt %d, "
      "failed otherwise (no leader yet, a transaction gone with the old leader) %d; %lld log entries, problems %zu\n",
      rounds, killed, succeeded, inDoubt, otherwise, static_cast<long long>(entries), problems.size());
  for (const std::string& line : problems) ADD_FAILURE() << line;
  EXPECT_EQ(killed, kills());
  EXPECT_GT(entries, 0);
}

// The figures the README gives: for 1, 100 and 10,000 rows inserted in one
// transaction on device A, the bytes per changed row of the pending
// changeset, the time of A's sync (push) and of B's (pull and apply), with
// a SQLite-file hub and with the cluster's. B's copy must equal A's. The
// times are this build's (the README's come from a release build).
TEST(ClusterSync, RoundTimesAndBytesPerChangedRowForBothHubs) {
  SKIP_WITHOUT_DQLITE_NODES();
  SKIP_WITHOUT_SESSION_EXTENSION();
  LocalCluster cluster;
  std::string problem;
  ASSERT_TRUE(cluster.start(3, problem)) << problem;
  sqlitebridge_test::TempDir dir;
  const std::string schema = schemaText();
  for (const char* kind : {"file", "cluster"}) {
    for (int rows : {1, 100, 10000}) {
      const std::string tag = std::string(kind) + std::to_string(rows);
      std::shared_ptr<SyncHub> hub;
      if (std::string(kind) == "file") {
        hub = std::make_shared<DatabaseSyncHub>(dir / (tag + "-hub.sqlite"));
      } else {
        hub = std::make_shared<ClusterSyncHub>(ClusterDatabase::open("figures", cluster.configuration(60000)),
                                               "log_" + tag);
      }
      std::vector<std::unique_ptr<DatabaseQueue>> queues;
      std::vector<std::unique_ptr<SyncEngine>> engines;
      for (const char* name : {"a", "b"}) {
        const std::string path = dir / (tag + "-" + name + ".sqlite");
        {
          Database db = Database::open(path);
          ASSERT_TRUE(db.execute("PRAGMA journal_mode = WAL") && db.executeScript(schema)) << db.lastError().message;
        }
        queues.push_back(std::make_unique<DatabaseQueue>(path));
        engines.push_back(std::make_unique<SyncEngine>(*queues.back(), kSyncedTables, name, hub));
        ASSERT_FALSE(engines.back()->error().isError()) << engines.back()->error().message;
      }
      Error error;
      ASSERT_TRUE(queues[0]->write(
          [&](Database& db) {
            for (int i = 0; i < rows; ++i) {
              if (!db.execute("INSERT INTO notes(id, title, body) VALUES (?, ?, ?)", "note-" + std::to_string(i),
                              "a title of some words " + std::to_string(i), "a body, a little longer than the title")) {
                return false;
              }
            }
            return true;
          },
          &error))
          << error.message;
      const std::int64_t bytes = queues[0]->read([](Database& db) {
        Row row;
        db.execute("SELECT sum(length(changeset)) FROM sqlitebridge_sync_pending", row);
        return row.value(0).asInteger();
      });
      SyncReport report;
      const auto start = std::chrono::steady_clock::now();
      ASSERT_TRUE(engines[0]->sync(report, &error)) << error.message;
      const auto pushed = std::chrono::steady_clock::now();
      ASSERT_TRUE(engines[1]->sync(report, &error)) << error.message;
      const auto pulled = std::chrono::steady_clock::now();
      EXPECT_EQ(report.pulled, 1);
      const auto copy = [](DatabaseQueue& queue) { return queue.read([](Database& db) { return syncedRows(db); }); };
      EXPECT_EQ(copy(*queues[0]), copy(*queues[1]));
      const auto ms = [](auto from, auto to) { return std::chrono::duration<double, std::milli>(to - from).count(); };
      std::printf("[sync figures] hub %-7s rows %6d: %7.1f bytes/row, push %9.2f ms, pull and apply %9.2f ms\n", kind,
                  rows, static_cast<double>(bytes) / rows, ms(start, pushed), ms(pushed, pulled));
      std::fflush(stdout);
    }
  }
}
