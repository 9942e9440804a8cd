// The holes issue 36 found in the guards against values that abort dqlite
// 1.11 nodes, where a scripted node shows what the client sends: a table
// another client created (seen through PRAGMA schema_version before a
// write), ALTER TABLE … ADD COLUMN with a DEFAULT the nodes abort on, and
// generated columns. The same against real nodes: ClusterDatabaseTests
// (C++ and Swift).
#include <gtest/gtest.h>

#include <sqlitebridge/cluster/ClusterDatabase.hpp>

#include <atomic>
#include <mutex>

#include "Cluster/FakeDqliteServer.hpp"

using sqlitebridge::ClusterDatabase;
using sqlitebridge_test::FakeDqliteServer;
using sqlitebridge_test::through;
using Reply = FakeDqliteServer::Reply;

namespace {

// A healthy fake whose schema (the rows of `sqlite_master` the client asks
// for) and schema version the test sets; it logs the SQL of every EXEC
// ("EXEC …") and EXEC_SQL ("EXEC_SQL …") in order.
class SchemaNode {
 public:
  SchemaNode()
      : server_([this](int, std::uint8_t type, const std::vector<std::uint8_t>& body) { return handle(type, body); }) {}

  FakeDqliteServer& server() { return server_; }
  void setSchema(std::vector<std::vector<std::string>> objects, std::int64_t version) {
    std::lock_guard<std::mutex> lock(mutex_);
    objects_ = std::move(objects);
    version_ = version;
  }
  std::vector<std::string> log() {
    std::lock_guard<std::mutex> lock(mutex_);
    return log_;
  }
  /// Whether an EXEC_SQL holding `text` came before the EXEC of `sql`.
  bool guardedBefore(const std::string& text, const std::string& sql) {
    bool guarded = false;
    for (const std::string& entry : log()) {
      if (entry.rfind("EXEC_SQL ", 0) == 0 && entry.find(text) != std::string::npos) guarded = true;
      if (entry == "EXEC " + sql) return guarded;
    }
    return false;
  }

 private:
  Reply handle(std::uint8_t type, const std::vector<std::uint8_t>& body) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (type == FakeDqliteServer::kQuery) {
      const std::string sql = server_.sqlOf(body);
      if (sql == "PRAGMA schema_version") return FakeDqliteServer::integers({version_});
      if (sql.rfind("SELECT 'main', type, name, sql FROM main.sqlite_master", 0) == 0) {
        return FakeDqliteServer::texts({"schema", "type", "name", "sql"}, objects_);
      }
    }
    if (type == FakeDqliteServer::kExec) log_.push_back("EXEC " + server_.sqlOf(body));
    if (type == FakeDqliteServer::kExecSql) log_.push_back("EXEC_SQL " + FakeDqliteServer::sqlTextOf(body));
    return server_.healthy(type, body);
  }

  std::mutex mutex_;
  std::vector<std::vector<std::string>> objects_;
  std::int64_t version_ = 1;
  std::vector<std::string> log_;
  FakeDqliteServer server_;
};

}  // namespace

TEST(ClusterGuardHoles, ATableAnotherClientCreatedIsGuardedBeforeTheNextWrite) {
  SchemaNode node;
  node.setSchema({{"main", "table", "u", "CREATE TABLE u(n INTEGER)"}}, 1);
  ClusterDatabase db = ClusterDatabase::open("app", through(node.server()));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  ASSERT_TRUE(db.execute("INSERT INTO u VALUES (1)")) << db.lastError().message;
  // Another client creates t, with a column the nodes abort on.
  node.setSchema(
      {{"main", "table", "u", "CREATE TABLE u(n INTEGER)"}, {"main", "table", "t", "CREATE TABLE t(flag BOOLEAN)"}}, 2);
  ASSERT_TRUE(db.execute("INSERT INTO t VALUES ('yes')")) << db.lastError().message;  // the fake runs no trigger
  EXPECT_TRUE(node.guardedBefore("BEFORE INSERT ON \"main\".\"t\"", "INSERT INTO t VALUES ('yes')"));
  // And a compound read that could hand the nodes such a value in it is
  // refused before it is sent.
  EXPECT_FALSE(db.execute("SELECT flag FROM t UNION ALL SELECT 'x'"));
  EXPECT_EQ(db.lastError().code, SQLITE_MISUSE) << db.lastError().message;
}

TEST(ClusterGuardHoles, AddingAGuardedColumnWithADefaultTheNodesAbortOnIsRefusedBeforeItIsSent) {
  SchemaNode node;
  node.setSchema({{"main", "table", "t", "CREATE TABLE t(a INTEGER)"}}, 1);
  ClusterDatabase db = ClusterDatabase::open("app", through(node.server()));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  for (const char* refused :
       {"ALTER TABLE t ADD COLUMN b BOOLEAN DEFAULT 'yes'", "ALTER TABLE t ADD b BOOLEAN DEFAULT 0.5",
        "ALTER TABLE t ADD COLUMN d DATETIME DEFAULT 1.5", "ALTER TABLE main.t ADD COLUMN d TIMESTAMP DEFAULT x'00'"}) {
    EXPECT_FALSE(db.execute(refused)) << refused;
    EXPECT_EQ(db.lastError().code, SQLITE_MISUSE) << refused << ": " << db.lastError().message;
    EXPECT_NE(db.lastError().message.find("DEFAULT"), std::string::npos) << db.lastError().message;
  }
  for (const std::string& entry : node.log()) EXPECT_EQ(entry.find("ALTER"), std::string::npos) << entry;
  // Defaults the nodes read back are sent.
  for (const char* accepted :
       {"ALTER TABLE t ADD COLUMN b BOOLEAN DEFAULT 1", "ALTER TABLE t ADD COLUMN c BOOLEAN",
        "ALTER TABLE t ADD COLUMN d DATETIME DEFAULT '2026-01-01'", "ALTER TABLE t ADD e TEXT DEFAULT 'x'"}) {
    EXPECT_TRUE(db.execute(accepted)) << accepted << ": " << db.lastError().message;
  }
}

TEST(ClusterGuardHoles, GeneratedColumnsAreGuardedAfterEveryInsertAndUpdate) {
  // The client's copy of the schema is made by the SQLite it links, which
  // knows generated columns.
  SchemaNode node;
  node.setSchema({{"main", "table", "g",
                   "CREATE TABLE g(a, b BOOLEAN AS (a) STORED, c BOOLEAN GENERATED ALWAYS AS (a) VIRTUAL, "
                   "d DATE AS (a))"}},
                 1);
  ClusterDatabase db = ClusterDatabase::open("app", through(node.server()));
  ASSERT_TRUE(db.isOpen()) << db.lastError().message;
  ASSERT_TRUE(db.execute("UPDATE g SET a = 'yes'")) << db.lastError().message;  // the fake runs no trigger
  for (const char* column : {"b", "c", "d"}) {
    const std::string when = std::string("WHEN typeof(NEW.\"") + column + "\")";
    EXPECT_TRUE(node.guardedBefore(when, "UPDATE g SET a = 'yes'")) << column;
  }
  EXPECT_TRUE(node.guardedBefore("AFTER UPDATE ON \"main\".\"g\" WHEN typeof(NEW.\"b\")", "UPDATE g SET a = 'yes'"));
  EXPECT_TRUE(node.guardedBefore("AFTER INSERT ON \"main\".\"g\" WHEN typeof(NEW.\"c\")", "UPDATE g SET a = 'yes'"));
}
