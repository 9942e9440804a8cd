// The client's rules where only a scripted node can force the moment: what
// is sent again after NOT_LEADER or a lost connection, what is reported in
// doubt, when a write block runs again, and how a hostile or silent server
// fails the call in time. FakeDqliteServer stands in for the node; the real
// nodes' behaviour is checked in ClusterDatabaseTests and
// ClusterFailoverTests.
#include <gtest/gtest.h>

#include <sqlitebridge/cluster/ClusterDatabase.hpp>

#include <atomic>
#include <chrono>
#include <memory>

#include "Cluster/FakeDqliteServer.hpp"

using sqlitebridge::ClusterConfiguration;
using sqlitebridge::ClusterDatabase;
using sqlitebridge::Row;
using sqlitebridge::Value;
using sqlitebridge_test::FakeDqliteServer;
using sqlitebridge_test::through;
using Reply = FakeDqliteServer::Reply;

namespace {

constexpr int kNotLeader = 10250;
constexpr int kLeadershipLost = 10506;

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

/// A healthy one-node fake that closes the connection instead of answering
/// EXEC number `at` (counted from 1 in `execs`, over every connection).
std::unique_ptr<FakeDqliteServer> closingAtExec(std::atomic<int>& execs, int at) {
  auto self = std::make_shared<FakeDqliteServer*>(nullptr);
  auto server = std::make_unique<FakeDqliteServer>(
      [&execs, at, self](int, std::uint8_t type, const std::vector<std::uint8_t>& body) {
        if (type == FakeDqliteServer::kExec && ++execs == at) return FakeDqliteServer::close();
        return (*self)->healthy(type, body);
      });
  *self = server.get();
  return server;
}

}  // namespace

TEST(ClusterRetryRules, AWriteAnsweredNotLeaderIsSentAgainAndAppliedOnce) {
  std::atomic<int> execs{0};
  FakeDqliteServer* self = nullptr;
  FakeDqliteServer server([&](int, std::uint8_t type, const std::vector<std::uint8_t>& body) {
    if (type == FakeDqliteServer::kExec && execs++ == 0) return FakeDqliteServer::failure(kNotLeader, "not leader");
    return self->healthy(type, body);
  });
  self = &server;
  ClusterDatabase db = ClusterDatabase::open("app", through(server));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  ASSERT_TRUE(db.execute("INSERT INTO t VALUES (?)", {Value(1)})) << db.lastError().message;
  EXPECT_EQ(execs.load(), 2);  // refused once (not applied), then applied once
  EXPECT_EQ(db.lastInsertRowId(), 1);
  EXPECT_EQ(db.changes(), 1);
}

TEST(ClusterRetryRules, AWriteWhoseConnectionBreaksAfterSendingIsInDoubtAndNeverSentAgain) {
  std::atomic<int> execs{0};
  FakeDqliteServer* self = nullptr;
  FakeDqliteServer server([&](int, std::uint8_t type, const std::vector<std::uint8_t>& body) {
    if (type == FakeDqliteServer::kExec && execs++ == 0) return FakeDqliteServer::close();
    return self->healthy(type, body);
  });
  self = &server;
  ClusterDatabase db = ClusterDatabase::open("app", through(server));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  EXPECT_FALSE(db.execute("INSERT INTO t VALUES (?)", {Value(1)}));
  EXPECT_EQ(db.lastError().extendedCode, kLeadershipLost) << db.lastError().message;
  EXPECT_EQ(db.lastError().message.rfind("outcome in doubt", 0), 0u) << db.lastError().message;
  EXPECT_EQ(execs.load(), 1);
  // The client carries on: the next write reconnects.
  EXPECT_TRUE(db.execute("INSERT INTO t VALUES (?)", {Value(2)})) << db.lastError().message;
  EXPECT_EQ(execs.load(), 2);
}

TEST(ClusterRetryRules, LeadershipLostOnAWriteIsInDoubt) {
  FakeDqliteServer* self = nullptr;
  FakeDqliteServer server([&](int, std::uint8_t type, const std::vector<std::uint8_t>& body) {
    if (type == FakeDqliteServer::kExec) return FakeDqliteServer::failure(kLeadershipLost, "disk I/O error");
    return self->healthy(type, body);
  });
  self = &server;
  ClusterDatabase db = ClusterDatabase::open("app", through(server));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  EXPECT_FALSE(db.execute("DELETE FROM t"));
  EXPECT_EQ(db.lastError().extendedCode, kLeadershipLost);
  EXPECT_NE(db.lastError().message.find("outcome in doubt"), std::string::npos) << db.lastError().message;
  EXPECT_EQ(server.count(FakeDqliteServer::kExec), 1);
}

TEST(ClusterRetryRules, AReadWhoseConnectionBreaksIsRunAgain) {
  std::atomic<int> queries{0};
  FakeDqliteServer* self = nullptr;
  FakeDqliteServer server([&](int, std::uint8_t type, const std::vector<std::uint8_t>& body) {
    if (type == FakeDqliteServer::kQuery && self->sqlOf(body) == "SELECT n FROM t" && queries++ == 0) {
      return FakeDqliteServer::close();
    }
    return self->healthy(type, body);
  });
  self = &server;
  ClusterDatabase db = ClusterDatabase::open("app", through(server));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  std::vector<Row> rows;
  ASSERT_TRUE(db.execute("SELECT n FROM t", {}, &rows)) << db.lastError().message;
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].value("n").asInteger(), 1);
  EXPECT_EQ(queries.load(), 2);
}

TEST(ClusterRetryRules, AResultCutOffBetweenItsMessagesIsReadAgainWhole) {
  std::atomic<int> queries{0};
  FakeDqliteServer* self = nullptr;
  FakeDqliteServer server([&](int, std::uint8_t type, const std::vector<std::uint8_t>& body) {
    if (type == FakeDqliteServer::kQuery && self->sqlOf(body) == "SELECT n FROM t") {
      // The first time: one message announcing more, then silence cut short.
      if (queries++ == 0) {
        Reply first = FakeDqliteServer::integers({1, 2}, true);
        std::vector<std::uint8_t> bytes(8, 0);
        const std::uint32_t words = static_cast<std::uint32_t>(first.body.size() / 8);
        for (int i = 0; i < 4; ++i) bytes[i] = static_cast<std::uint8_t>(words >> (8 * i));
        bytes[4] = 7;
        bytes.insert(bytes.end(), first.body.begin(), first.body.end());
        bytes.push_back(1);  // a stray byte of the next message, then the fake hangs up
        return FakeDqliteServer::thenClose(FakeDqliteServer::raw(bytes));
      }
      return FakeDqliteServer::integers({1, 2, 3});
    }
    return self->healthy(type, body);
  });
  self = &server;
  ClusterDatabase db = ClusterDatabase::open("app", through(server, 2000));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  std::vector<Row> rows;
  ASSERT_TRUE(db.execute("SELECT n FROM t", {}, &rows)) << db.lastError().message;
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[2].value(0).asInteger(), 3);
  EXPECT_EQ(queries.load(), 2);
}

TEST(ClusterRetryRules, AWriteBlockRunsAgainWhenTheLeaderGoesBeforeCommit) {
  std::atomic<int> execs{0};
  FakeDqliteServer* self = nullptr;
  FakeDqliteServer server([&](int, std::uint8_t type, const std::vector<std::uint8_t>& body) {
    // BEGIN, INSERT, COMMIT are EXECs: the first INSERT meets a leader that
    // stepped down.
    if (type == FakeDqliteServer::kExec && ++execs == 2) return FakeDqliteServer::failure(kNotLeader, "not leader");
    return self->healthy(type, body);
  });
  self = &server;
  ClusterDatabase db = ClusterDatabase::open("app", through(server));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  int runs = 0;
  const bool committed = db.write([&](ClusterDatabase& database) {
    ++runs;
    return database.execute("INSERT INTO t VALUES (1)");
  });
  EXPECT_TRUE(committed) << db.lastError().message;
  EXPECT_EQ(runs, 2);
  EXPECT_EQ(execs.load(), 5);  // BEGIN, INSERT refused; BEGIN, INSERT, COMMIT
  EXPECT_FALSE(db.isInTransaction());
}

TEST(ClusterRetryRules, ACommitWhoseOutcomeIsUnknownFailsInDoubtAndTheBlockIsNotRunAgain) {
  std::atomic<int> execs{0};
  // EXEC 3: COMMIT
  auto server = closingAtExec(execs, 3);
  ClusterDatabase db = ClusterDatabase::open("app", through(*server));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  int runs = 0;
  sqlitebridge::Error error;
  const bool committed = db.write(
      [&](ClusterDatabase& database) {
        ++runs;
        return database.execute("INSERT INTO t VALUES (1)");
      },
      &error);
  EXPECT_FALSE(committed);
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(error.extendedCode, kLeadershipLost) << error.message;
  EXPECT_EQ(execs.load(), 3);
  EXPECT_FALSE(db.isInTransaction());
  EXPECT_TRUE(db.execute("SELECT 1")) << db.lastError().message;  // carries on
}

TEST(ClusterRetryRules, AStatementAfterTheTransactionWasLostFailsUntilRolledBack) {
  std::atomic<int> execs{0};
  auto server = closingAtExec(execs, 2);
  ClusterDatabase db = ClusterDatabase::open("app", through(*server));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  ASSERT_TRUE(db.execute("BEGIN"));
  EXPECT_FALSE(db.execute("INSERT INTO t VALUES (1)"));
  EXPECT_EQ(db.lastError().extendedCode, SQLITE_ABORT_ROLLBACK) << db.lastError().message;
  // Not run outside the transaction the caller thinks is open.
  EXPECT_FALSE(db.execute("INSERT INTO t VALUES (2)"));
  EXPECT_EQ(db.lastError().extendedCode, SQLITE_ABORT_ROLLBACK);
  EXPECT_EQ(execs.load(), 2);
  EXPECT_TRUE(db.execute("ROLLBACK")) << db.lastError().message;
  EXPECT_TRUE(db.execute("INSERT INTO t VALUES (3)")) << db.lastError().message;
  EXPECT_EQ(execs.load(), 3);
}

TEST(ClusterRetryRules, ARollbackWhoseConnectionBreaksEndsTheTransactionAndTheNextWriteBlockStarts) {
  // A write block whose body gives up sends ROLLBACK; the leader goes as it
  // does. The transaction went with the connection (nothing of it can
  // commit), so the rollback succeeded and the client carries on: the next
  // write block begins (found by the cluster sync kill test, where a
  // device's next append failed with "write cannot start inside a
  // transaction" for good).
  std::atomic<int> execs{0};
  // BEGIN, then the block's ROLLBACK: lost.
  auto server = closingAtExec(execs, 2);
  ClusterDatabase db = ClusterDatabase::open("app", through(*server));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  sqlitebridge::Error error;
  EXPECT_FALSE(db.write([](ClusterDatabase&) { return false; }, &error));
  EXPECT_EQ(error.code, SQLITE_ABORT) << error.message;  // the block's own refusal, not the lost connection
  EXPECT_FALSE(db.isInTransaction());
  int runs = 0;
  EXPECT_TRUE(db.write(
      [&](ClusterDatabase& database) {
        ++runs;
        return database.execute("INSERT INTO t VALUES (1)");
      },
      &error))
      << error.message;
  EXPECT_EQ(runs, 1);
  // A ROLLBACK the caller sends itself, lost the same way, succeeds too.
  ASSERT_TRUE(db.execute("BEGIN")) << db.lastError().message;
  execs = 1;
  EXPECT_TRUE(db.execute("ROLLBACK")) << db.lastError().message;
  EXPECT_FALSE(db.isInTransaction());
  EXPECT_TRUE(db.execute("INSERT INTO t VALUES (2)")) << db.lastError().message;
}

TEST(ClusterRetryRules, ANodeThatClosedWhileIdleIsLeftBeforeAWriteIsSent) {
  // The node answers the first INSERT, then closes the connection (as a
  // node that stops between requests does): the second INSERT is not sent
  // into the dead connection (where it would be in doubt) but to a new one,
  // once, and succeeds.
  std::atomic<int> execs{0};
  FakeDqliteServer* self = nullptr;
  FakeDqliteServer server([&](int, std::uint8_t type, const std::vector<std::uint8_t>& body) {
    if (type == FakeDqliteServer::kExec && execs++ == 0) return FakeDqliteServer::thenClose(self->healthy(type, body));
    return self->healthy(type, body);
  });
  self = &server;
  ClusterDatabase db = ClusterDatabase::open("app", through(server));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  ASSERT_TRUE(db.execute("INSERT INTO t VALUES (1)")) << db.lastError().message;
  ASSERT_TRUE(server.waitForClosedConnections(1));
  ASSERT_TRUE(db.execute("INSERT INTO t VALUES (1)")) << db.lastError().message;
  EXPECT_EQ(execs.load(), 2);
}

TEST(ClusterRetryRules, AServerThatNeverAnswersFailsTheOpenWithinTheTimeouts) {
  FakeDqliteServer server(
      [&](int, std::uint8_t, const std::vector<std::uint8_t>&) { return FakeDqliteServer::silent(); });
  const auto start = Clock::now();
  ClusterDatabase db = ClusterDatabase::open("app", through(server, 1500));
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_CANTOPEN) << db.lastError().message;
  EXPECT_NE(db.lastError().message.find(server.address()), std::string::npos) << db.lastError().message;
  EXPECT_LT(secondsSince(start), 10.0);
}

TEST(ClusterRetryRules, AServerThatGoesSilentMidSessionFailsTheCallWithinTheTimeouts) {
  FakeDqliteServer* self = nullptr;
  FakeDqliteServer server([&](int connection, std::uint8_t type, const std::vector<std::uint8_t>& body) {
    if (type == FakeDqliteServer::kQuery || (connection > 0 && type != FakeDqliteServer::kLeader)) {
      return FakeDqliteServer::silent();
    }
    return self->healthy(type, body);
  });
  self = &server;
  ClusterDatabase db = ClusterDatabase::open("app", through(server, 1500));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  const auto start = Clock::now();
  EXPECT_FALSE(db.execute("SELECT n FROM t"));
  EXPECT_NE(db.lastError().code, 0);
  EXPECT_LT(secondsSince(start), 10.0);
}

TEST(ClusterRetryRules, GarbageFromTheServerFailsCleanly) {
  // Each answer to QUERY is bytes no dqlite node sends: the call fails
  // (never crashes, never reads past the message) and a later one works.
  const std::vector<std::vector<std::uint8_t>> garbage = {
      // ROWS announcing 2^40 columns.
      {3,   0, 0, 0, 7, 0, 0, 0, 0,    0,    0,    0,    0,    1,    0,    0,
       'n', 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
      // ROWS with a text column that never ends.
      {2, 0, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 'n', 'n', 'n', 'n', 'n', 'n', 'n', 'n'},
      // A row whose type is 15.
      {4, 0, 0, 0, 7,    0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 'n', 0, 0, 0,
       0, 0, 0, 0, 0x0f, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0,   0, 0, 0},
      // A blob longer than the message.
      {4, 0, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0, 0,    0,    0, 0, 'n', 0, 0, 0,
       0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 0,   0, 0, 0},
      // A message announcing 2^32 words, then nothing.
      {0xff, 0xff, 0xff, 0xff, 7, 0, 0, 0},
      // An answer of an unknown type.
      {1, 0, 0, 0, 99, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
  };
  for (std::size_t i = 0; i < garbage.size(); ++i) {
    std::atomic<int> queries{0};
    FakeDqliteServer* self = nullptr;
    FakeDqliteServer server([&](int, std::uint8_t type, const std::vector<std::uint8_t>& body) {
      if (type == FakeDqliteServer::kQuery && self->sqlOf(body) == "SELECT n FROM t" && queries++ == 0)
        return FakeDqliteServer::raw(garbage[i]);
      return self->healthy(type, body);
    });
    self = &server;
    ClusterDatabase db = ClusterDatabase::open("app", through(server, 1500));
    ASSERT_TRUE(db.isOpen()) << db.lastError().message;
    std::vector<Row> rows;
    const auto start = Clock::now();
    // A read may be answered on a new connection after the garbage; what
    // matters is that nothing crashes and the call ends in time.
    const bool ok = db.execute("SELECT n FROM t", {}, &rows);
    EXPECT_LT(secondsSince(start), 10.0) << "garbage " << i;
    if (ok) {
      ASSERT_EQ(rows.size(), 1u) << "garbage " << i;
      EXPECT_EQ(rows[0].value(0).asInteger(), 1);
    } else {
      EXPECT_NE(db.lastError().code, 0) << "garbage " << i;
    }
    EXPECT_TRUE(db.execute("SELECT n FROM t", {}, &rows)) << "garbage " << i << ": " << db.lastError().message;
  }
}

TEST(ClusterRetryRules, AGarbledAnswerToAWriteIsReportedAsAProtocolErrorInDoubt) {
  FakeDqliteServer* self = nullptr;
  FakeDqliteServer server([&](int, std::uint8_t type, const std::vector<std::uint8_t>& body) {
    if (type == FakeDqliteServer::kExec) return FakeDqliteServer::raw({1, 0, 0, 0, 6, 0, 0, 0, 1, 2, 3});
    return self->healthy(type, body);
  });
  self = &server;
  ClusterDatabase db = ClusterDatabase::open("app", through(server, 1500));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  EXPECT_FALSE(db.execute("INSERT INTO t VALUES (1)"));
  EXPECT_EQ(db.lastError().extendedCode, kLeadershipLost) << db.lastError().message;
  EXPECT_EQ(server.count(FakeDqliteServer::kExec), 1);
}

TEST(ClusterRetryRules, NoServerOrNoLeaderFailsTheOpenClearly) {
  ClusterDatabase none = ClusterDatabase::open("app", ClusterConfiguration{});
  EXPECT_FALSE(none.isOpen());
  EXPECT_EQ(none.lastError().code, SQLITE_MISUSE);
  FakeDqliteServer server([&](int, std::uint8_t type, const std::vector<std::uint8_t>&) {
    return type == FakeDqliteServer::kLeader ? FakeDqliteServer::server(0, "") : FakeDqliteServer::failure(1, "no");
  });
  ClusterDatabase db = ClusterDatabase::open("app", through(server, 500));
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_CANTOPEN);
  EXPECT_NE(db.lastError().message.find("knows of no leader"), std::string::npos) << db.lastError().message;
  EXPECT_FALSE(db.execute("SELECT 1"));
  EXPECT_EQ(db.lastError().code, SQLITE_MISUSE);
}

TEST(ClusterRetryRules, RefusalsHappenBeforeAnythingIsSent) {
  FakeDqliteServer* self = nullptr;
  FakeDqliteServer server(
      [&](int, std::uint8_t type, const std::vector<std::uint8_t>& body) { return self->healthy(type, body); });
  self = &server;
  ClusterDatabase db = ClusterDatabase::open("app", through(server));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  const int prepared = server.count(FakeDqliteServer::kPrepare);
  EXPECT_FALSE(db.execute("INSERT INTO t VALUES (?)", {Value(std::string("a\0b", 3))}));
  EXPECT_EQ(db.lastError().code, SQLITE_MISUSE);
  EXPECT_NE(db.lastError().message.find("NUL"), std::string::npos) << db.lastError().message;
  EXPECT_FALSE(db.execute(std::string("SELECT 1\0 x", 11)));
  EXPECT_EQ(db.lastError().code, SQLITE_MISUSE);
  EXPECT_FALSE(db.execute("SELECT ?", std::vector<Value>(256, Value(1))));
  EXPECT_EQ(db.lastError().code, SQLITE_RANGE);
  EXPECT_NE(db.lastError().message.find("255"), std::string::npos) << db.lastError().message;
  EXPECT_FALSE(db.execute("SELECT 1; SELECT 2"));
  EXPECT_EQ(db.lastError().code, SQLITE_MISUSE);
  EXPECT_FALSE(db.execute("  -- nothing\n"));
  EXPECT_EQ(db.lastError().code, SQLITE_MISUSE);
  EXPECT_EQ(server.count(FakeDqliteServer::kPrepare), prepared);
  EXPECT_EQ(server.count(FakeDqliteServer::kExec), 0);
  EXPECT_EQ(server.count(FakeDqliteServer::kQuery), 0);
}

// Found by cluster_protocol: a FAILURE whose code has no primary code (its
// low byte 0) and no message left a failed call with code 0.
TEST(ClusterRetryRules, AFailureWithoutAPrimaryCodeOrMessageIsStillAnError) {
  FakeDqliteServer* self = nullptr;
  FakeDqliteServer server([&](int, std::uint8_t type, const std::vector<std::uint8_t>& body) {
    if (type == FakeDqliteServer::kQuery) return FakeDqliteServer::failure(256, "");
    return self->healthy(type, body);
  });
  self = &server;
  ClusterDatabase db = ClusterDatabase::open("app", through(server));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  EXPECT_FALSE(db.execute("SELECT n FROM t"));
  EXPECT_EQ(db.lastError().code, SQLITE_ERROR);
  EXPECT_NE(db.lastError().message.find("code 256"), std::string::npos) << db.lastError().message;
}
