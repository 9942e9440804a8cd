// What the client reports about a write whose outcome it cannot know
// (issue 36): a lost answer to the RELEASE that commits, dqlite 1.11's
// answers when Raft's apply fails, Raft's own numbers, PRAGMAs that write,
// and a transaction the node rolled back by itself. FakeDqliteServer stands
// in for the node, so that each moment is forced; the Swift mirror is
// Tests/SQLiteBridgeTests/Cluster/ClusterOutcomeTests.swift.
#include <gtest/gtest.h>

#include <sqlitebridge/cluster/ClusterDatabase.hpp>

#include <atomic>
#include <map>
#include <mutex>

#include "Cluster/FakeDqliteServer.hpp"

using sqlitebridge::ClusterDatabase;
using sqlitebridge::Error;
using sqlitebridge::Value;
using sqlitebridge_test::FakeDqliteServer;
using sqlitebridge_test::through;
using Reply = FakeDqliteServer::Reply;

namespace {

constexpr int kLeadershipLost = 10506;

// A healthy fake whose answer to the n-th EXEC of one statement (counted
// from 1) is scripted; it counts every EXEC and QUERY by SQL.
class Scripted {
 public:
  using Script = std::function<bool(const std::string& sql, int nth, Reply& reply)>;

  explicit Scripted(Script script)
      : script_(std::move(script)),
        server_([this](int, std::uint8_t type, const std::vector<std::uint8_t>& body) { return handle(type, body); }) {}

  FakeDqliteServer& server() { return server_; }
  int execs(const std::string& sql) {
    std::lock_guard<std::mutex> lock(mutex_);
    return execs_[sql];
  }
  int queries(const std::string& sql) {
    std::lock_guard<std::mutex> lock(mutex_);
    return queries_[sql];
  }

 private:
  Reply handle(std::uint8_t type, const std::vector<std::uint8_t>& body) {
    if (type == FakeDqliteServer::kExec || type == FakeDqliteServer::kQuery) {
      const std::string sql = server_.sqlOf(body);
      int nth = 0;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        nth = ++(type == FakeDqliteServer::kExec ? execs_ : queries_)[sql];
      }
      Reply reply;
      if (type == FakeDqliteServer::kExec && script_(sql, nth, reply)) return reply;
    }
    return server_.healthy(type, body);
  }

  Script script_;
  std::mutex mutex_;
  std::map<std::string, int> execs_;
  std::map<std::string, int> queries_;
  FakeDqliteServer server_;
};

bool startsInDoubt(const Error& error) { return error.message.rfind("outcome in doubt", 0) == 0; }

}  // namespace

// MARK: The RELEASE that commits

TEST(ClusterOutcome, ALostAnswerToTheReleaseThatCommitsIsInDoubt) {
  Scripted node([](const std::string& sql, int, Reply& reply) {
    if (sql != "RELEASE a") return false;
    reply = FakeDqliteServer::close();
    return true;
  });
  ClusterDatabase db = ClusterDatabase::open("app", through(node.server()));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  ASSERT_TRUE(db.execute("SAVEPOINT a")) << db.lastError().message;
  ASSERT_TRUE(db.execute("INSERT INTO t VALUES (1)")) << db.lastError().message;
  EXPECT_FALSE(db.execute("RELEASE a"));
  // The outermost savepoint of a transaction SAVEPOINT opened: releasing it
  // commits, so the node may have committed.
  EXPECT_EQ(db.lastError().extendedCode, kLeadershipLost) << db.lastError().message;
  EXPECT_TRUE(startsInDoubt(db.lastError())) << db.lastError().message;
  EXPECT_EQ(node.execs("RELEASE a"), 1);
  EXPECT_FALSE(db.isInTransaction());
  // Nothing is left pending: the next write runs (outside a transaction).
  EXPECT_TRUE(db.execute("INSERT INTO t VALUES (2)")) << db.lastError().message;
  EXPECT_EQ(node.execs("INSERT INTO t VALUES (2)"), 1);
}

TEST(ClusterOutcome, ALostAnswerToAReleaseThatDoesNotCommitLosesTheTransaction) {
  for (const char* opening : {"SAVEPOINT a", "BEGIN"}) {
    Scripted node([](const std::string& sql, int, Reply& reply) {
      if (sql != "RELEASE b") return false;
      reply = FakeDqliteServer::close();
      return true;
    });
    ClusterDatabase db = ClusterDatabase::open("app", through(node.server()));
    ASSERT_TRUE(db.isOpen()) << db.lastError().message;
    ASSERT_TRUE(db.execute(opening)) << db.lastError().message;
    ASSERT_TRUE(db.execute("SAVEPOINT b")) << db.lastError().message;
    EXPECT_FALSE(db.execute("RELEASE b"));
    // An inner savepoint (or one inside BEGIN): nothing committed.
    EXPECT_EQ(db.lastError().extendedCode, SQLITE_ABORT_ROLLBACK) << opening << ": " << db.lastError().message;
    EXPECT_TRUE(db.execute("ROLLBACK")) << db.lastError().message;
  }
}

// MARK: dqlite's answers when Raft's apply fails

TEST(ClusterOutcome, ApplyFailuresOnAnAutocommitWriteAreInDoubtAndNotSentAgain) {
  // leader.c (dqlite 1.11) answers these when the apply of the write's WAL
  // frames fails after raft_apply took the entry: followers may have it,
  // and a new leader may commit it.
  const std::vector<std::pair<int, std::string>> answers = {
      {SQLITE_IOERR, "no more rows available"}, {SQLITE_IOERR_WRITE, "disk I/O error"}, {SQLITE_ABORT, "abort"}};
  for (const auto& [code, message] : answers) {
    Scripted node([&, code = code, message = message](const std::string& sql, int, Reply& reply) {
      if (sql != "INSERT INTO t VALUES (1)") return false;
      reply = FakeDqliteServer::failure(static_cast<std::uint64_t>(code), message);
      return true;
    });
    ClusterDatabase db = ClusterDatabase::open("app", through(node.server()));
    ASSERT_TRUE(db.isOpen()) << db.lastError().message;
    EXPECT_FALSE(db.execute("INSERT INTO t VALUES (1)"));
    EXPECT_EQ(db.lastError().extendedCode, kLeadershipLost) << code << ": " << db.lastError().message;
    EXPECT_TRUE(startsInDoubt(db.lastError())) << db.lastError().message;
    EXPECT_EQ(node.execs("INSERT INTO t VALUES (1)"), 1) << code;
  }
}

TEST(ClusterOutcome, AnApplyFailureOnCommitIsInDoubtAndTheBlockRunsOnce) {
  Scripted node([](const std::string& sql, int, Reply& reply) {
    if (sql != "COMMIT") return false;
    reply = FakeDqliteServer::failure(SQLITE_IOERR_WRITE, "disk I/O error");
    return true;
  });
  ClusterDatabase db = ClusterDatabase::open("app", through(node.server()));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  int runs = 0;
  Error error;
  EXPECT_FALSE(db.write(
      [&](ClusterDatabase& database) {
        ++runs;
        return database.execute("INSERT INTO t VALUES (1)");
      },
      &error));
  EXPECT_EQ(error.extendedCode, kLeadershipLost) << error.message;
  EXPECT_TRUE(startsInDoubt(error)) << error.message;
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(node.execs("COMMIT"), 1);
  EXPECT_FALSE(db.isInTransaction());
}

TEST(ClusterOutcome, RaftsNotLeaderNumberIsMappedAndTheWriteSentAgain) {
  // raft_apply failing at once with RAFT_NOTLEADER (7): leader.c passes the
  // number on as it is, and the node's message is SQLite's for a statement
  // that ran to its end. 7 is not SQLITE_NOMEM here: nothing was applied.
  Scripted node([](const std::string& sql, int nth, Reply& reply) {
    if (sql != "INSERT INTO t VALUES (1)" || nth != 1) return false;
    reply = FakeDqliteServer::failure(7, "no more rows available");
    return true;
  });
  ClusterDatabase db = ClusterDatabase::open("app", through(node.server()));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  EXPECT_TRUE(db.execute("INSERT INTO t VALUES (1)")) << db.lastError().message;
  EXPECT_EQ(node.execs("INSERT INTO t VALUES (1)"), 2);
}

TEST(ClusterOutcome, AnotherRaftNumberOnAWriteIsInDoubtNotAnSQLiteCode) {
  // RAFT_IOERR (18) would read as SQLITE_TOOBIG.
  Scripted node([](const std::string& sql, int, Reply& reply) {
    if (sql != "INSERT INTO t VALUES (1)") return false;
    reply = FakeDqliteServer::failure(18, "no more rows available");
    return true;
  });
  ClusterDatabase db = ClusterDatabase::open("app", through(node.server()));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  EXPECT_FALSE(db.execute("INSERT INTO t VALUES (1)"));
  EXPECT_EQ(db.lastError().extendedCode, kLeadershipLost) << db.lastError().message;
  EXPECT_NE(db.lastError().message.find("Raft error 18"), std::string::npos) << db.lastError().message;
  EXPECT_EQ(node.execs("INSERT INTO t VALUES (1)"), 1);
}

TEST(ClusterOutcome, AnIOErrorInsideATransactionIsTheNodesErrorNotADoubt) {
  // Inside BEGIN … COMMIT nothing is applied before COMMIT: an I/O error
  // on an INSERT is SQLite's own, and nothing of it committed.
  Scripted node([](const std::string& sql, int nth, Reply& reply) {
    if (sql == "INSERT INTO t VALUES (1)") {
      reply = FakeDqliteServer::failure(SQLITE_IOERR, "disk I/O error");
      return true;
    }
    if (sql == "BEGIN" && nth == 2) {  // the client asks: still open
      reply = FakeDqliteServer::failure(SQLITE_ERROR, "cannot start a transaction within a transaction");
      return true;
    }
    return false;
  });
  ClusterDatabase db = ClusterDatabase::open("app", through(node.server()));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  ASSERT_TRUE(db.execute("BEGIN"));
  EXPECT_FALSE(db.execute("INSERT INTO t VALUES (1)"));
  EXPECT_EQ(db.lastError().extendedCode, SQLITE_IOERR) << db.lastError().message;
  EXPECT_TRUE(db.isInTransaction());
  EXPECT_TRUE(db.execute("COMMIT")) << db.lastError().message;
}

// MARK: PRAGMAs that write

TEST(ClusterOutcome, APragmaThatWritesWithoutAnEqualsSignGoesByExec) {
  Scripted node([](const std::string&, int, Reply&) { return false; });
  ClusterDatabase db = ClusterDatabase::open("app", through(node.server()));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  for (const char* pragma :
       {"PRAGMA user_version(7)", "PRAGMA main.application_id(3)", "PRAGMA optimize", "PRAGMA incremental_vacuum(2)"}) {
    EXPECT_TRUE(db.execute(pragma)) << pragma << ": " << db.lastError().message;
    EXPECT_EQ(node.execs(pragma), 1) << pragma;
    EXPECT_EQ(node.queries(pragma), 0) << pragma;
  }
  // Reads stay reads (rows come back by QUERY).
  for (const char* pragma : {"PRAGMA user_version", "PRAGMA journal_mode", "PRAGMA table_info(t)"}) {
    EXPECT_TRUE(db.execute(pragma)) << pragma << ": " << db.lastError().message;
    EXPECT_EQ(node.queries(pragma), 1) << pragma;
    EXPECT_EQ(node.execs(pragma), 0) << pragma;
  }
}

TEST(ClusterOutcome, APragmaThatWritesIsNotSentAgainAfterALostAnswer) {
  Scripted node([](const std::string& sql, int, Reply& reply) {
    if (sql != "PRAGMA user_version(7)") return false;
    reply = FakeDqliteServer::close();
    return true;
  });
  ClusterDatabase db = ClusterDatabase::open("app", through(node.server()));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  EXPECT_FALSE(db.execute("PRAGMA user_version(7)"));
  EXPECT_EQ(db.lastError().extendedCode, kLeadershipLost) << db.lastError().message;
  EXPECT_EQ(node.execs("PRAGMA user_version(7)") + node.queries("PRAGMA user_version(7)"), 1);
}

// MARK: A transaction the node rolled back by itself

TEST(ClusterOutcome, AfterTheNodeRolledTheTransactionBackTheRestOfItFails) {
  // SQLITE_FULL (as an I/O error, OR ROLLBACK, RAISE(ROLLBACK)) may make
  // SQLite roll the whole transaction back. The client asks the node (a
  // BEGIN, refused while a transaction is open); this node had none left.
  Scripted node([](const std::string& sql, int, Reply& reply) {
    if (sql != "INSERT INTO t VALUES (1)") return false;
    reply = FakeDqliteServer::failure(SQLITE_FULL, "database or disk is full");
    return true;
  });
  ClusterDatabase db = ClusterDatabase::open("app", through(node.server()));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  ASSERT_TRUE(db.execute("BEGIN"));
  EXPECT_FALSE(db.execute("INSERT INTO t VALUES (1)"));
  EXPECT_EQ(db.lastError().code, SQLITE_FULL) << db.lastError().message;
  EXPECT_NE(db.lastError().message.find("rolled the transaction back"), std::string::npos) << db.lastError().message;
  EXPECT_EQ(node.execs("ROLLBACK"), 1);  // the probe's own BEGIN, ended
  // Not run on its own outside the transaction the caller thinks is open.
  EXPECT_FALSE(db.execute("INSERT INTO t VALUES (2)"));
  EXPECT_EQ(db.lastError().extendedCode, SQLITE_ABORT_ROLLBACK) << db.lastError().message;
  EXPECT_FALSE(db.execute("COMMIT"));
  EXPECT_EQ(db.lastError().extendedCode, SQLITE_ABORT_ROLLBACK) << db.lastError().message;
  EXPECT_EQ(node.execs("INSERT INTO t VALUES (2)"), 0);
  EXPECT_EQ(node.execs("COMMIT"), 0);
  // Afterwards the client carries on.
  EXPECT_TRUE(db.execute("INSERT INTO t VALUES (3)")) << db.lastError().message;
}

TEST(ClusterOutcome, AWriteBlockWhoseTransactionTheNodeRolledBackFailsOnceAndIsNotRunAgain) {
  Scripted node([](const std::string& sql, int, Reply& reply) {
    if (sql != "INSERT OR ROLLBACK INTO t VALUES (1)") return false;
    reply = FakeDqliteServer::failure(SQLITE_CONSTRAINT_PRIMARYKEY, "UNIQUE constraint failed: t.n");
    return true;
  });
  ClusterDatabase db = ClusterDatabase::open("app", through(node.server()));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  int runs = 0;
  Error error;
  EXPECT_FALSE(db.write(
      [&](ClusterDatabase& database) {
        ++runs;
        database.execute("INSERT OR ROLLBACK INTO t VALUES (1)");  // its failure ignored
        return database.execute("INSERT INTO t VALUES (2)");
      },
      &error));
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(error.extendedCode, SQLITE_ABORT_ROLLBACK) << error.message;
  EXPECT_EQ(node.execs("INSERT INTO t VALUES (2)"), 0);
  EXPECT_EQ(node.execs("COMMIT"), 0);
  EXPECT_FALSE(db.isInTransaction());
}
