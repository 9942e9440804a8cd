// Kill the leader: a client writes 1,000 rows, each in a write block of its
// own, into a three-node cluster whose leader gets SIGKILL after about a
// third. The client must carry on against the new leader by itself, and
// afterwards every write that returned success is there exactly once, every
// write reported in doubt at most once, and nothing else. Then the killed
// node restarts from its data directory and rejoins: three voters again,
// and with another node killed the cluster still commits (the restarted one
// counts in the quorum).
//
// SQLITEBRIDGE_FAILOVER_ROUNDS sets how many rounds (CI: 2; the long run,
// scripts/cluster-failover, 20); each prints its figures.
#include <gtest/gtest.h>
#include <signal.h>

#include <sqlitebridge/cluster/ClusterDatabase.hpp>

#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>

#include "Cluster/ClusterSupport.hpp"

using sqlitebridge::ClusterDatabase;
using sqlitebridge::ClusterMember;
using sqlitebridge::ClusterRole;
using sqlitebridge::Row;
using sqlitebridge::Value;
using sqlitebridge_test::LocalCluster;

namespace {

constexpr int kRows = 1000;
constexpr int kLeadershipLost = 10506;

int rounds() {
  const char* text = std::getenv("SQLITEBRIDGE_FAILOVER_ROUNDS");
  const int parsed = text != nullptr ? std::atoi(text) : 0;
  return parsed > 0 ? parsed : 2;
}

struct Figures {
  int succeeded = 0;
  int inDoubt = 0;
  int failed = 0;
  int lost = 0;        // succeeded, but not there exactly once
  int duplicated = 0;  // in doubt, but there twice or more
  int stray = 0;       // there, but never written or written and failed
};

}  // namespace

TEST(ClusterFailover, KillingTheLeaderLosesNoAcknowledgedWriteAndTheNodeRejoins) {
  SKIP_WITHOUT_DQLITE_NODES();
  Figures total;
  for (int round = 1; round <= rounds(); ++round) {
    LocalCluster cluster;
    std::string problem;
    ASSERT_TRUE(cluster.start(3, problem)) << problem;
    ClusterDatabase db = ClusterDatabase::open("failover", cluster.configuration(60000));
    ASSERT_TRUE(db.isOpen()) << db.lastError().message;
    ASSERT_TRUE(db.execute("CREATE TABLE rows(n INTEGER NOT NULL)")) << db.lastError().message;

    std::vector<char> outcome(kRows, '?');  // s: succeeded, d: in doubt, f: failed
    // The leader dies while the writes go on: a thread of its own kills it
    // as soon as the writer has passed a third, so that the kill lands
    // inside some write, wherever it happens to be.
    std::mutex mutex;
    std::condition_variable passedAThird;
    int killed = -1;
    std::thread killer([&] {
      std::unique_lock<std::mutex> lock(mutex);
      if (!passedAThird.wait_for(lock, std::chrono::minutes(5), [&] { return killed >= 0; })) return;
      cluster.nodes()[static_cast<std::size_t>(killed)].kill(SIGKILL);
    });
    for (int n = 0; n < kRows; ++n) {
      if (n == kRows / 3) {
        const int leader = cluster.indexOf(db.leaderAddress());
        EXPECT_GE(leader, 0) << "connected to " << db.leaderAddress();
        std::lock_guard<std::mutex> lock(mutex);
        killed = leader < 0 ? 0 : leader;
        passedAThird.notify_all();
      }
      sqlitebridge::Error error;
      const bool ok = db.write(
          [n](ClusterDatabase& database) { return database.execute("INSERT INTO rows(n) VALUES (?)", {Value(n)}); },
          &error);
      outcome[static_cast<std::size_t>(n)] = ok ? 's' : error.extendedCode == kLeadershipLost ? 'd' : 'f';
      if (!ok && error.extendedCode != kLeadershipLost) {
        ADD_FAILURE() << "write " << n << " failed: " << error.message;
      }
    }

    killer.join();

    std::vector<Row> counted;
    ASSERT_TRUE(db.execute("SELECT n, count(*) FROM rows GROUP BY n", {}, &counted)) << db.lastError().message;
    std::map<std::int64_t, std::int64_t> present;
    for (const Row& row : counted) present[row.value(0).asInteger()] = row.value(1).asInteger();
    Figures figures;
    for (int n = 0; n < kRows; ++n) {
      const std::int64_t copies = present.count(n) != 0 ? present[n] : 0;
      switch (outcome[static_cast<std::size_t>(n)]) {
        case 's':
          ++figures.succeeded;
          figures.lost += copies == 1 ? 0 : 1;
          break;
        case 'd':
          ++figures.inDoubt;
          figures.duplicated += copies > 1 ? 1 : 0;
          break;
        default:
          ++figures.failed;
          figures.stray += copies > 0 ? 1 : 0;
          break;
      }
      present.erase(n);
    }
    figures.stray += static_cast<int>(present.size());
    std::printf("[failover round %d] succeeded %d, in doubt %d, failed %d; lost %d, duplicated %d, stray %d\n", round,
                figures.succeeded, figures.inDoubt, figures.failed, figures.lost, figures.duplicated, figures.stray);
    std::fflush(stdout);
    EXPECT_EQ(figures.lost, 0);
    EXPECT_EQ(figures.duplicated, 0);
    EXPECT_EQ(figures.stray, 0);
    EXPECT_EQ(figures.succeeded + figures.inDoubt, kRows);

    // The killed node comes back from its directory: three voters again.
    ASSERT_TRUE(cluster.restart(static_cast<std::size_t>(killed), problem)) << problem;
    std::vector<ClusterMember> members;
    ASSERT_TRUE(db.members(members)) << db.lastError().message;
    int voters = 0;
    for (const ClusterMember& member : members) voters += member.role == ClusterRole::Voter ? 1 : 0;
    EXPECT_EQ(voters, 3);
    // It counts: with another node gone, the cluster still commits.
    const int other = cluster.indexOf(db.leaderAddress());
    ASSERT_GE(other, 0);
    ASSERT_NE(other, killed);
    cluster.nodes()[static_cast<std::size_t>(other)].kill(SIGKILL);
    EXPECT_TRUE(db.write([](ClusterDatabase& database) { return database.execute("INSERT INTO rows(n) VALUES (-1)"); }))
        << db.lastError().message;
    std::vector<Row> last;
    ASSERT_TRUE(db.execute("SELECT count(*) FROM rows WHERE n = -1", {}, &last)) << db.lastError().message;
    EXPECT_EQ(last[0].value(0).asInteger(), 1);

    total.succeeded += figures.succeeded;
    total.inDoubt += figures.inDoubt;
    total.failed += figures.failed;
    total.lost += figures.lost;
  }
  std::printf("[failover total] %d rounds: succeeded %d, in doubt %d, failed %d, lost %d\n", rounds(), total.succeeded,
              total.inDoubt, total.failed, total.lost);
}
