// An independent client and an independent server (go-dqlite, Debian's
// go-dqlite package): its `dqlite` shell reads what our client wrote to our
// nodes, and our client reads and writes a cluster of its `dqlite-demo`
// nodes. Skipped, saying what is missing, without them.
#include <gtest/gtest.h>

#include <sqlitebridge/cluster/ClusterDatabase.hpp>

#include <memory>
#include <sstream>

#include "Cluster/ClusterSupport.hpp"

using sqlitebridge::ClusterConfiguration;
using sqlitebridge::ClusterDatabase;
using sqlitebridge::ClusterMember;
using sqlitebridge::Row;
using sqlitebridge::Value;
using sqlitebridge_test::findProgram;
using sqlitebridge_test::LocalCluster;
using sqlitebridge_test::SpawnedProcess;

namespace {

// The lines the dqlite shell printed for `sql` ("a|b|c"), prompts removed.
std::vector<std::string> shellLines(const std::string& servers, const std::string& database, const std::string& sql) {
  const std::string output =
      sqlitebridge_test::runWithInput({findProgram("dqlite"), "-s", servers, database}, sql + "\n");
  std::vector<std::string> lines;
  std::stringstream stream(output);
  for (std::string line; std::getline(stream, line);) {
    while (line.rfind("dqlite> ", 0) == 0) line = line.substr(8);
    if (!line.empty() && line != "dqlite>") lines.push_back(line);
  }
  return lines;
}

}  // namespace

TEST(GoDqliteInterop, TheDqliteShellReadsWhatOurClientWroteToOurNodes) {
  SKIP_WITHOUT_DQLITE_NODES();
  if (findProgram("dqlite").empty())
    GTEST_SKIP() << "go-dqlite's dqlite shell is not installed (apt-get install go-dqlite)";
  LocalCluster cluster;
  std::string problem;
  ASSERT_TRUE(cluster.start(3, problem)) << problem;
  ClusterDatabase db = ClusterDatabase::open("shared", cluster.configuration());
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  ASSERT_TRUE(db.execute("CREATE TABLE t(a INTEGER, b TEXT, c REAL)"));
  ASSERT_TRUE(db.write([](ClusterDatabase& database) {
    return database.execute("INSERT INTO t VALUES (?, ?, ?)", {Value(1), Value("one way"), Value(2.5)}) &&
           database.execute("INSERT INTO t VALUES (?, ?, ?)", {Value(-7), Value("ünïcode"), Value(-0.25)});
  })) << db.lastError().message;
  std::string servers;
  for (const std::string& server : cluster.configuration().servers) servers += (servers.empty() ? "" : ",") + server;
  const std::vector<std::string> lines = shellLines(servers, "shared", "SELECT a, b, c FROM t ORDER BY a;");
  EXPECT_EQ(lines, (std::vector<std::string>{"-7|ünïcode|-0.25", "1|one way|2.5"}));
}

TEST(GoDqliteInterop, OurClientReadsAndWritesAClusterOfDqliteDemoNodes) {
  const std::string demo = findProgram("dqlite-demo");
  if (demo.empty()) GTEST_SKIP() << "go-dqlite's dqlite-demo is not installed (apt-get install go-dqlite)";
  sqlitebridge_test::TempDir directory;
  std::vector<std::string> addresses;
  std::vector<std::unique_ptr<SpawnedProcess>> nodes;
  for (int i = 0; i < 3; ++i) {
    addresses.push_back("127.0.0.1:" + std::to_string(sqlitebridge_test::freePort()));
    std::vector<std::string> arguments = {demo,
                                          "--api",
                                          "127.0.0.1:" + std::to_string(sqlitebridge_test::freePort()),
                                          "--db",
                                          addresses.back(),
                                          "--dir",
                                          directory.makeSubdirectory("demo" + std::to_string(i))};
    if (i > 0) {
      arguments.push_back("--join");
      arguments.push_back(addresses[0]);
    }
    nodes.push_back(std::make_unique<SpawnedProcess>(arguments));
    ASSERT_TRUE(nodes.back()->isRunning());
  }
  ClusterConfiguration configuration;
  configuration.servers = addresses;
  configuration.retryTimeoutMilliseconds = 60000;
  ClusterDatabase db = ClusterDatabase::open("ours", configuration);
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  // go-dqlite's application joins its nodes in the background: wait (at
  // most a minute) until the leader lists all three.
  std::vector<ClusterMember> members;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  while (db.members(members) && members.size() < 3 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(members.size(), 3u) << db.lastError().message;
  ASSERT_TRUE(db.execute("CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT, data BLOB)")) << db.lastError().message;
  ASSERT_TRUE(db.write([](ClusterDatabase& database) {
    for (int i = 1; i <= 100; ++i) {
      if (!database.execute("INSERT INTO items(name, data) VALUES (?, ?)",
                            {Value("item " + std::to_string(i)), Value::fromBlob("\x00\x01", 2)})) {
        return false;
      }
    }
    return true;
  })) << db.lastError().message;
  std::vector<Row> rows;
  ASSERT_TRUE(db.execute("SELECT count(*), max(name), min(id) FROM items", {}, &rows)) << db.lastError().message;
  EXPECT_EQ(rows[0].value(0).asInteger(), 100);
  EXPECT_EQ(rows[0].value(1).asText(), "item 99");
  EXPECT_EQ(rows[0].value(2).asInteger(), 1);
  ClusterMember leader;
  ASSERT_TRUE(db.leader(leader)) << db.lastError().message;
  EXPECT_EQ(leader.address, db.leaderAddress());
  // And go-dqlite's own shell sees our rows on its nodes.
  if (!findProgram("dqlite").empty()) {
    const std::vector<std::string> lines = shellLines(addresses[0], "ours", "SELECT count(*) FROM items;");
    EXPECT_EQ(lines, (std::vector<std::string>{"100"}));
  }
}
