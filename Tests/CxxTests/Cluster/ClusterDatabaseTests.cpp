// ClusterDatabase against a real three-node dqlite cluster (each node a
// process: sqlitebridge-test-node), shared by the suite; each test uses a
// database of its own. Skipped in builds without dqlite nodes.
#include <gtest/gtest.h>

#include <sqlitebridge/cluster/ClusterDatabase.hpp>

#include <cmath>
#include <limits>
#include <memory>

#include "Cluster/ClusterSupport.hpp"

using sqlitebridge::ClusterDatabase;
using sqlitebridge::ClusterMember;
using sqlitebridge::ClusterRole;
using sqlitebridge::Row;
using sqlitebridge::Value;
using sqlitebridge::ValueType;
using sqlitebridge_test::LocalCluster;
using sqlitebridge_test::NodeProcess;

namespace {

class ClusterDatabaseTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (sqlitebridge_test::testNodeProgram().empty()) return;
    cluster_ = new LocalCluster();
    std::string problem;
    if (!cluster_->start(3, problem)) {
      startProblem_ = new std::string(problem);
    }
  }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
    delete startProblem_;
    startProblem_ = nullptr;
  }
  void SetUp() override {
    SKIP_WITHOUT_DQLITE_NODES();
    ASSERT_EQ(startProblem_, nullptr) << *startProblem_;
    const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    db_ = ClusterDatabase::open(name, cluster_->configuration());
    ASSERT_TRUE(db_.isOpen()) << db_.lastError().message;
  }

  std::vector<Row> rows(const std::string& sql, const std::vector<Value>& arguments = {}) {
    std::vector<Row> out;
    EXPECT_TRUE(db_.execute(sql, arguments, &out)) << sql << ": " << db_.lastError().message;
    return out;
  }

  static LocalCluster* cluster_;
  static std::string* startProblem_;
  ClusterDatabase db_;
};

LocalCluster* ClusterDatabaseTest::cluster_ = nullptr;
std::string* ClusterDatabaseTest::startProblem_ = nullptr;

std::uint64_t bitsOf(double value) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

}  // namespace

TEST_F(ClusterDatabaseTest, RunsStatementsWithArgumentsAndNamesTheColumns) {
  ASSERT_TRUE(db_.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL)"))
      << db_.lastError().message;
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES (?)", {Value("first")})) << db_.lastError().message;
  EXPECT_EQ(db_.lastInsertRowId(), 1);
  EXPECT_EQ(db_.changes(), 1);
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES (?), (?)", {Value("second"), Value("third")}));
  EXPECT_EQ(db_.changes(), 2);
  const std::vector<Row> found = rows("SELECT id AS n, title FROM notes WHERE id > ? ORDER BY id", {Value(1)});
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].columnName(0), "n");
  EXPECT_EQ(found[0].columnName(1), "title");
  EXPECT_EQ(found[0].value("N").asInteger(), 2);
  EXPECT_EQ(found[1].value("title").asText(), "third");
  // A write asked for rows gives none; a read asked for none runs all the same.
  std::vector<Row> none(3);
  ASSERT_TRUE(db_.execute("UPDATE notes SET title = title || '!'", {}, &none));
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(db_.changes(), 3);
  EXPECT_TRUE(db_.execute("SELECT * FROM notes"));
  // The names come with a result that has no rows too.
  std::vector<Row> empty;
  ASSERT_TRUE(db_.execute("SELECT id, title AS heading FROM notes WHERE id < 0", {}, &empty));
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(db_.lastColumnNames(), (std::vector<std::string>{"id", "heading"}));
  ASSERT_TRUE(db_.execute("DELETE FROM notes WHERE id < 0"));
  EXPECT_TRUE(db_.lastColumnNames().empty());
}

TEST_F(ClusterDatabaseTest, RunsSQLLiteralsWithTheirArguments) {
  const std::string hostile = "x'); DROP TABLE notes; --";
  ASSERT_TRUE(
      db_.execute(sqlitebridge::SQL::raw("CREATE TABLE ").identifier("no\"tes").sql("(id INTEGER PRIMARY KEY, title)")))
      << db_.lastError().message;
  ASSERT_TRUE(db_.execute(
      sqlitebridge::SQL::raw("INSERT INTO \"no\"\"tes\"(title) VALUES ").list(std::vector<std::string>{hostile})))
      << db_.lastError().message;
  std::vector<Row> found;
  ASSERT_TRUE(db_.execute(
      sqlitebridge::SQL::raw("SELECT title FROM ").identifier("no\"tes").sql(" WHERE title = ").value(hostile), &found))
      << db_.lastError().message;
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].value(0).asText(), hostile);
  EXPECT_FALSE(db_.execute(sqlitebridge::SQL::raw("DROP TABLE ").identifier(std::string("no\0tes", 6))));
  EXPECT_EQ(db_.lastError().resultCode(), sqlitebridge::ResultCode::Misuse);
  EXPECT_EQ(rows("SELECT count(*) FROM \"no\"\"tes\"").at(0).value(0).asInteger(), 1);
}

TEST_F(ClusterDatabaseTest, EveryValueTypeRoundTrips) {
  ASSERT_TRUE(db_.execute("CREATE TABLE v(k INTEGER PRIMARY KEY, x)"));
  std::string megabyte(1 << 20, '\0');
  for (std::size_t i = 0; i < megabyte.size(); ++i) megabyte[i] = static_cast<char>(i * 31 + 7);
  const std::vector<Value> values = {
      Value(std::numeric_limits<std::int64_t>::min()),
      Value(std::numeric_limits<std::int64_t>::max()),
      Value(std::int64_t{0}),
      Value(-0.0),
      Value(std::numeric_limits<double>::infinity()),
      Value(-std::numeric_limits<double>::infinity()),
      Value(std::numeric_limits<double>::denorm_min()),
      Value(3.141592653589793),
      Value(std::string()),
      Value("héllo wörld ✓ 𝄞"),
      Value::fromBlob(nullptr, 0),
      Value::fromBlob(megabyte.data(), megabyte.size()),
      Value(),
  };
  for (std::size_t i = 0; i < values.size(); ++i) {
    ASSERT_TRUE(db_.execute("INSERT INTO v(k, x) VALUES (?, ?)", {Value(static_cast<std::int64_t>(i)), values[i]}))
        << i << ": " << db_.lastError().message;
  }
  const std::vector<Row> back = rows("SELECT x, typeof(x) FROM v ORDER BY k");
  ASSERT_EQ(back.size(), values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    const Value read = back[i].value(0);
    EXPECT_EQ(read.type(), values[i].type()) << i << " is " << back[i].value(1).asText();
    EXPECT_EQ(read, values[i]) << i;
    if (read.type() == ValueType::Real) EXPECT_EQ(bitsOf(read.asReal()), bitsOf(values[i].asReal())) << i;
  }
  // The 1 MiB blob came back in one piece, byte for byte.
  EXPECT_EQ(back[11].value(0).asBlob().size(), megabyte.size());
}

TEST_F(ClusterDatabaseTest, AResultLargerThanOneMessageArrivesWhole) {
  ASSERT_TRUE(db_.execute("CREATE TABLE big(n INTEGER, pad TEXT)"));
  ASSERT_TRUE(
      db_.execute("WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 20000) "
                  "INSERT INTO big SELECT n, printf('%050d', n) FROM c"))
      << db_.lastError().message;
  EXPECT_EQ(db_.changes(), 20000);
  const std::vector<Row> all = rows("SELECT n, pad FROM big ORDER BY n");
  ASSERT_EQ(all.size(), 20000u);
  for (std::size_t i = 0; i < all.size(); ++i) {
    ASSERT_EQ(all[i].value(0).asInteger(), static_cast<std::int64_t>(i + 1));
  }
  EXPECT_EQ(all.back().value(1).asText().size(), 50u);
}

TEST_F(ClusterDatabaseTest, TransactionsSpanRequests) {
  ASSERT_TRUE(db_.execute("CREATE TABLE t(n INTEGER)"));
  ASSERT_TRUE(db_.execute("BEGIN"));
  EXPECT_TRUE(db_.isInTransaction());
  ASSERT_TRUE(db_.execute("INSERT INTO t VALUES (1)"));
  EXPECT_EQ(rows("SELECT count(*) FROM t")[0].value(0).asInteger(), 1);  // seen inside
  ASSERT_TRUE(db_.execute("ROLLBACK"));
  EXPECT_FALSE(db_.isInTransaction());
  EXPECT_EQ(rows("SELECT count(*) FROM t")[0].value(0).asInteger(), 0);
  ASSERT_TRUE(db_.execute("SAVEPOINT outer"));
  EXPECT_TRUE(db_.isInTransaction());
  ASSERT_TRUE(db_.execute("INSERT INTO t VALUES (2)"));
  ASSERT_TRUE(db_.execute("SAVEPOINT inner"));
  ASSERT_TRUE(db_.execute("INSERT INTO t VALUES (3)"));
  ASSERT_TRUE(db_.execute("ROLLBACK TO inner"));
  ASSERT_TRUE(db_.execute("RELEASE inner"));
  EXPECT_TRUE(db_.isInTransaction());
  ASSERT_TRUE(db_.execute("RELEASE SAVEPOINT outer"));
  EXPECT_FALSE(db_.isInTransaction());
  const std::vector<Row> kept = rows("SELECT n FROM t");
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].value(0).asInteger(), 2);
}

// Issue 36: a PRAGMA that writes without `=` went by QUERY, where the node
// failed it ("not an error") and nothing was applied or replicated.
TEST_F(ClusterDatabaseTest, APragmaThatWritesWithoutAnEqualsSignIsAppliedByTheCluster) {
  ASSERT_TRUE(db_.execute("PRAGMA user_version(7)")) << db_.lastError().message;
  EXPECT_EQ(rows("PRAGMA user_version")[0].value(0).asInteger(), 7);
  ClusterDatabase other =
      ClusterDatabase::open("APragmaThatWritesWithoutAnEqualsSignIsAppliedByTheCluster", cluster_->configuration());
  ASSERT_TRUE(other.isOpen()) << other.lastError().message;
  std::vector<Row> seen;
  ASSERT_TRUE(other.execute("PRAGMA user_version", {}, &seen)) << other.lastError().message;
  EXPECT_EQ(seen[0].value(0).asInteger(), 7);
}

// Issue 36: SQLite rolls the whole transaction back on an OR ROLLBACK
// conflict or a RAISE(ROLLBACK); the client went on as if it were open, and
// the next statement autocommitted on the node.
TEST_F(ClusterDatabaseTest, ATransactionTheNodeRolledBackFailsUntilTheCallerEndsIt) {
  ASSERT_TRUE(db_.execute("CREATE TABLE t(n INTEGER PRIMARY KEY)"));
  ASSERT_TRUE(db_.execute("CREATE TABLE u(n INTEGER)"));
  ASSERT_TRUE(
      db_.execute("CREATE TRIGGER refuse BEFORE INSERT ON u WHEN NEW.n < 0 BEGIN SELECT RAISE(ROLLBACK, 'no'); END"));
  ASSERT_TRUE(db_.execute("INSERT INTO t VALUES (1)"));
  for (const char* failing : {"INSERT OR ROLLBACK INTO t VALUES (1)", "INSERT INTO u VALUES (-1)"}) {
    ASSERT_TRUE(db_.execute("BEGIN"));
    ASSERT_TRUE(db_.execute("INSERT INTO t VALUES (2)"));
    EXPECT_FALSE(db_.execute(failing));
    EXPECT_EQ(db_.lastError().code, SQLITE_CONSTRAINT) << failing << ": " << db_.lastError().message;
    EXPECT_NE(db_.lastError().message.find("rolled the transaction back"), std::string::npos)
        << db_.lastError().message;
    EXPECT_FALSE(db_.execute("INSERT INTO t VALUES (3)"));
    EXPECT_EQ(db_.lastError().extendedCode, SQLITE_ABORT_ROLLBACK) << db_.lastError().message;
    EXPECT_TRUE(db_.execute("ROLLBACK")) << db_.lastError().message;
    const std::vector<Row> kept = rows("SELECT n FROM t ORDER BY n");
    ASSERT_EQ(kept.size(), 1u) << failing;  // neither 2 nor 3
    EXPECT_EQ(kept[0].value(0).asInteger(), 1);
  }
  // A conflict that rolls back only its statement leaves the transaction open.
  ASSERT_TRUE(db_.execute("BEGIN"));
  ASSERT_TRUE(db_.execute("INSERT INTO t VALUES (2)"));
  EXPECT_FALSE(db_.execute("INSERT INTO t VALUES (1)"));
  EXPECT_EQ(db_.lastError().message.find("rolled the transaction back"), std::string::npos) << db_.lastError().message;
  EXPECT_TRUE(db_.isInTransaction());
  ASSERT_TRUE(db_.execute("COMMIT")) << db_.lastError().message;
  EXPECT_EQ(rows("SELECT count(*) FROM t")[0].value(0).asInteger(), 2);
}

// Issue 36's guard holes, each shown with real nodes: the write that would
// store the value is refused (ASSERT: on failure nothing reads it back, which
// would abort the nodes), then a read of the table finds the nodes alive.
TEST_F(ClusterDatabaseTest, ATableAnotherClientCreatedIsGuardedBeforeThisClientWrites) {
  ASSERT_TRUE(db_.execute("CREATE TABLE u(n INTEGER)"));
  ASSERT_TRUE(db_.execute("INSERT INTO u VALUES (1)"));
  ClusterDatabase other =
      ClusterDatabase::open("ATableAnotherClientCreatedIsGuardedBeforeThisClientWrites", cluster_->configuration());
  ASSERT_TRUE(other.isOpen()) << other.lastError().message;
  ASSERT_TRUE(other.execute("CREATE TABLE t(flag BOOLEAN)")) << other.lastError().message;
  ASSERT_FALSE(db_.execute("INSERT INTO t VALUES ('yes')"));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE) << db_.lastError().message;
  ASSERT_TRUE(db_.execute("INSERT INTO t VALUES (1)")) << db_.lastError().message;
  EXPECT_EQ(rows("SELECT * FROM t").size(), 1u);
}

TEST_F(ClusterDatabaseTest, AddingAGuardedColumnWithADefaultTheNodesAbortOnIsRefused) {
  ASSERT_TRUE(db_.execute("CREATE TABLE t(a INTEGER)"));
  ASSERT_TRUE(db_.execute("INSERT INTO t VALUES (1)"));
  ASSERT_FALSE(db_.execute("ALTER TABLE t ADD COLUMN b BOOLEAN DEFAULT 'yes'"));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE) << db_.lastError().message;
  ASSERT_TRUE(db_.execute("ALTER TABLE t ADD COLUMN b BOOLEAN DEFAULT 1")) << db_.lastError().message;
  const std::vector<Row> found = rows("SELECT * FROM t");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].value(1).asInteger(), 1);
}

TEST_F(ClusterDatabaseTest, GeneratedColumnsDeclaredBooleanAreGuarded) {
  // The client's copy of the schema is made by the SQLite it links; the
  // nodes would abort on the UPDATE if it failed to guard the columns.
  ASSERT_TRUE(db_.execute("CREATE TABLE g(a, b BOOLEAN AS (a) STORED, c BOOLEAN AS (a) VIRTUAL)"));
  ASSERT_TRUE(db_.execute("INSERT INTO g(a) VALUES (1)")) << db_.lastError().message;
  ASSERT_FALSE(db_.execute("UPDATE g SET a = 'yes'"));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE) << db_.lastError().message;
  ASSERT_FALSE(db_.execute("INSERT INTO g(a) VALUES ('no')"));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE) << db_.lastError().message;
  const std::vector<Row> found = rows("SELECT * FROM g");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].value(1).asInteger(), 1);
  EXPECT_EQ(found[0].value(2).asInteger(), 1);
}

TEST_F(ClusterDatabaseTest, AWriteBlockCommitsOrRollsBackAsAWhole) {
  ASSERT_TRUE(db_.execute("CREATE TABLE t(n INTEGER UNIQUE)"));
  EXPECT_TRUE(db_.write([](ClusterDatabase& db) {
    return db.execute("INSERT INTO t VALUES (1)") && db.execute("INSERT INTO t VALUES (2)");
  })) << db_.lastError().message;
  sqlitebridge::Error error;
  EXPECT_FALSE(db_.write(
      [](ClusterDatabase& db) {
        return db.execute("INSERT INTO t VALUES (3)") && db.execute("INSERT INTO t VALUES (1)");
      },
      &error));
  EXPECT_EQ(error.extendedCode, 2067) << error.message;  // the block's own failure
  EXPECT_THROW(db_.write([](ClusterDatabase& db) -> bool {
    db.execute("INSERT INTO t VALUES (4)");
    throw std::runtime_error("block failed");
  }),
               std::runtime_error);
  EXPECT_FALSE(db_.isInTransaction());
  ASSERT_TRUE(db_.execute("BEGIN"));
  EXPECT_FALSE(db_.write([](ClusterDatabase&) { return true; }));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  ASSERT_TRUE(db_.execute("ROLLBACK"));
  const std::vector<Row> kept = rows("SELECT n FROM t ORDER BY n");
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[1].value(0).asInteger(), 2);
}

TEST_F(ClusterDatabaseTest, ErrorsCarryTheNodesCodesAndMessages) {
  ASSERT_TRUE(db_.execute("CREATE TABLE t(n INTEGER PRIMARY KEY, u TEXT UNIQUE, m TEXT NOT NULL DEFAULT '')"));
  ASSERT_TRUE(db_.execute("INSERT INTO t(u) VALUES ('a')"));
  EXPECT_FALSE(db_.execute("INSERT INTO t(u) VALUES ('a')"));
  EXPECT_EQ(db_.lastError().code, SQLITE_CONSTRAINT);
  EXPECT_EQ(db_.lastError().extendedCode, 2067);
  EXPECT_NE(db_.lastError().message.find("UNIQUE"), std::string::npos) << db_.lastError().message;
  EXPECT_EQ(db_.lastError().sql, "INSERT INTO t(u) VALUES ('a')");
  EXPECT_FALSE(db_.execute("INSERT INTO t(m) VALUES (NULL)"));
  EXPECT_EQ(db_.lastError().extendedCode, 1299);
  EXPECT_FALSE(db_.execute("SELEC 1"));
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
  EXPECT_FALSE(db_.execute("SELECT * FROM missing"));
  EXPECT_NE(db_.lastError().message.find("no such table"), std::string::npos);
  EXPECT_FALSE(db_.execute("SELECT ?, ?", {Value(1)}));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  EXPECT_TRUE(db_.execute("SELECT 1"));
  EXPECT_EQ(db_.lastError().code, 0);
}

TEST_F(ClusterDatabaseTest, RefusalsNeverReachTheNode) {
  ASSERT_TRUE(db_.execute("CREATE TABLE t(x)"));
  EXPECT_FALSE(db_.execute("INSERT INTO t VALUES (?)", {Value(std::string("a\0b", 3))}));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  std::vector<Value> many(256, Value(1));
  std::string sql = "SELECT ?";
  for (int i = 1; i < 256; ++i) sql += ", ?";
  EXPECT_FALSE(db_.execute(sql, many));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  many.pop_back();
  std::vector<Row> out;
  sql = "SELECT ?";
  for (int i = 1; i < 255; ++i) sql += ", ?";
  ASSERT_TRUE(db_.execute(sql, many, &out)) << db_.lastError().message;  // 255 is the most
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].size(), 255u);
  EXPECT_EQ(rows("SELECT count(*) FROM t")[0].value(0).asInteger(), 0);
}

TEST_F(ClusterDatabaseTest, ValuesThatWouldAbortTheNodesAreRefusedAndTheNodesLive) {
  ASSERT_TRUE(
      db_.execute("CREATE TABLE flags(id INTEGER PRIMARY KEY, done BOOLEAN, due DATETIME, day date, at TimeStamp)"))
      << db_.lastError().message;
  const std::vector<std::pair<std::string, std::vector<Value>>> refused = {
      {"INSERT INTO flags(done) VALUES (?)", {Value("yes")}},
      {"INSERT INTO flags(done) VALUES (?)", {Value(0.5)}},
      {"INSERT INTO flags(done) VALUES (?)", {Value::fromBlob("x", 1)}},
      {"INSERT INTO flags(done) VALUES ('literal')", {}},
      {"INSERT INTO flags(due) VALUES (?)", {Value(1.5)}},
      {"INSERT INTO flags(day) VALUES (?)", {Value::fromBlob("x", 1)}},
      {"INSERT INTO flags(at) VALUES (2.5)", {}},
  };
  for (const auto& [sql, arguments] : refused) {
    EXPECT_FALSE(db_.execute(sql, arguments)) << sql;
    EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE) << sql << ": " << db_.lastError().message;
    EXPECT_NE(db_.lastError().message.find("would make every dqlite 1.11 node that reads it abort"), std::string::npos)
        << db_.lastError().message;
  }
  ASSERT_TRUE(db_.execute("INSERT INTO flags(done, due, day, at) VALUES (1, '2024-05-01 10:00:00', 20240501, NULL)"));
  EXPECT_FALSE(db_.execute("UPDATE flags SET done = 'no'"));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  // A table made later is guarded too.
  ASSERT_TRUE(db_.execute("CREATE TABLE later(b BOOLEAN)"));
  EXPECT_FALSE(db_.execute("INSERT INTO later VALUES ('x')"));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  // Every node still answers: reads of the table work on the leader, and
  // the other members are still voters.
  const std::vector<Row> stored = rows("SELECT done, due, day FROM flags");
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored[0].value(0).asInteger(), 1);
  for (NodeProcess& node : cluster_->nodes()) EXPECT_TRUE(node.isRunning());
  std::vector<ClusterMember> members;
  ASSERT_TRUE(db_.members(members)) << db_.lastError().message;
  EXPECT_EQ(members.size(), 3u);
}

TEST_F(ClusterDatabaseTest, ReadsThatCouldHandTheNodesSuchAValueAreRefusedBeforeTheyAreSent) {
  // A compound SELECT's column takes its declared type from the first
  // SELECT: `SELECT b ... UNION ALL SELECT 'x'` would put text in a BOOLEAN
  // column of the result, and the leader (then each new one) would abort.
  ASSERT_TRUE(db_.execute("CREATE TABLE t(a INTEGER, b BOOLEAN, d DATETIME)"));
  ASSERT_TRUE(db_.execute("INSERT INTO t VALUES (1, 1, '2024-01-01')"));
  for (const std::string& sql :
       {std::string("SELECT b FROM t UNION ALL SELECT 'x'"), std::string("SELECT d FROM t UNION ALL SELECT 2.5"),
        std::string("SELECT b FROM t UNION SELECT ?")}) {
    std::vector<Row> out;
    const std::vector<Value> arguments =
        sql.find('?') != std::string::npos ? std::vector<Value>{Value("x")} : std::vector<Value>();
    EXPECT_FALSE(db_.execute(sql, arguments, &out)) << sql;
    EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE) << sql << ": " << db_.lastError().message;
    EXPECT_NE(db_.lastError().message.find("abort"), std::string::npos) << db_.lastError().message;
  }
  // Through an expression the column has no declared type; a compound of
  // other columns is fine; so is the guarded column on its own. A compound
  // inside a subquery or a view gives its column no declared type (SQLite
  // 3.40, the nodes' own): the nodes send what it holds as it is.
  EXPECT_EQ(rows("SELECT +b FROM t UNION ALL SELECT 'x' ORDER BY 1").size(), 2u);
  EXPECT_EQ(rows("SELECT a FROM t UNION ALL SELECT 'x'").size(), 2u);
  EXPECT_EQ(rows("SELECT b, d FROM t").size(), 1u);
  ASSERT_TRUE(db_.execute("CREATE VIEW mixed AS SELECT b FROM t UNION ALL SELECT 'x'"));
  const std::vector<Row> mixed = rows("SELECT b FROM mixed ORDER BY 1");
  ASSERT_EQ(mixed.size(), 2u);
  EXPECT_EQ(mixed[1].value(0).asText(), "x");
  EXPECT_EQ(rows("SELECT * FROM (SELECT b AS x FROM t UNION SELECT ?)", {Value("y")}).size(), 2u);
  // A table made by another client since is found before the read is judged.
  ClusterDatabase other = ClusterDatabase::open("ReadsThatCouldHandTheNodesSuchAValueAreRefusedBeforeTheyAreSent",
                                                cluster_->configuration());
  ASSERT_TRUE(other.execute("CREATE TABLE later(d DATE)")) << other.lastError().message;
  EXPECT_FALSE(db_.execute("SELECT d FROM later UNION ALL SELECT x'00'"));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE) << db_.lastError().message;
  for (NodeProcess& node : cluster_->nodes()) EXPECT_TRUE(node.isRunning());
}

TEST_F(ClusterDatabaseTest, TempTablesAreGuardedAndReturningAndAttachAreRefused) {
  ASSERT_TRUE(db_.execute("CREATE TEMP TABLE tt(b BOOLEAN)")) << db_.lastError().message;
  EXPECT_FALSE(db_.execute("INSERT INTO tt VALUES ('x')"));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE) << db_.lastError().message;
  ASSERT_TRUE(db_.execute("INSERT INTO tt VALUES (1)")) << db_.lastError().message;
  EXPECT_EQ(rows("SELECT b FROM tt").size(), 1u);
  ASSERT_TRUE(db_.execute("CREATE TABLE r(id INTEGER PRIMARY KEY, x)"));
  EXPECT_FALSE(db_.execute("INSERT INTO r(x) VALUES (1) RETURNING id"));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  EXPECT_NE(db_.lastError().message.find("RETURNING"), std::string::npos) << db_.lastError().message;
  EXPECT_FALSE(db_.execute("ATTACH 'file:other?mode=memory' AS other"));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  EXPECT_EQ(rows("SELECT count(*) FROM r")[0].value(0).asInteger(), 0);
  // A column merely named "returning" is no clause.
  ASSERT_TRUE(db_.execute("CREATE TABLE q(\"returning\" TEXT)"));
  EXPECT_TRUE(db_.execute("INSERT INTO q(\"returning\") VALUES ('RETURNING')")) << db_.lastError().message;
}

TEST_F(ClusterDatabaseTest, WhatTheNodesConvertReadsAsDocumented) {
  ASSERT_TRUE(db_.execute("CREATE TABLE c(k INTEGER PRIMARY KEY, b BOOLEAN, d DATETIME)"));
  ASSERT_TRUE(
      db_.execute("INSERT INTO c(k, b, d) VALUES (1, NULL, NULL), (2, 1, ''), (3, 0, 1700000000), "
                  "(4, 7, '2024-05-01')"));
  const std::vector<Row> read = rows("SELECT b, d, typeof(b), typeof(d) FROM c ORDER BY k");
  ASSERT_EQ(read.size(), 4u);
  // A NULL of a BOOLEAN column arrives as false: the client reads 0.
  EXPECT_EQ(read[0].value(0).type(), ValueType::Integer);
  EXPECT_EQ(read[0].value(0).asInteger(), 0);
  EXPECT_EQ(read[0].value(2).asText(), "null");
  // A NULL of a DATETIME column arrives as "" and reads as NULL; so does an
  // empty text stored there.
  EXPECT_TRUE(read[0].value(1).isNull());
  EXPECT_TRUE(read[1].value(1).isNull());
  EXPECT_EQ(read[1].value(3).asText(), "text");
  // Integers and text are as stored (a BOOLEAN is not folded to 0/1).
  EXPECT_EQ(read[2].value(1).asInteger(), 1700000000);
  EXPECT_EQ(read[3].value(0).asInteger(), 7);
  EXPECT_EQ(read[3].value(1).asText(), "2024-05-01");
  // Read through an expression, a column has no declared type: nothing is converted.
  const std::vector<Row> raw = rows("SELECT b + 0, d || '' FROM c WHERE k = 1");
  EXPECT_TRUE(raw[0].value(0).isNull());
  EXPECT_TRUE(raw[0].value(1).isNull());
}

TEST_F(ClusterDatabaseTest, MembersAndLeaderDescribeTheCluster) {
  std::vector<ClusterMember> members;
  ASSERT_TRUE(db_.members(members)) << db_.lastError().message;
  ASSERT_EQ(members.size(), 3u);
  for (const ClusterMember& member : members) {
    EXPECT_EQ(member.role, ClusterRole::Voter) << member.address;
    EXPECT_GE(cluster_->indexOf(member.address), 0) << member.address;
  }
  ClusterMember leader;
  ASSERT_TRUE(db_.leader(leader)) << db_.lastError().message;
  EXPECT_EQ(leader.address, db_.leaderAddress());
  EXPECT_NE(leader.id, 0u);
}

TEST_F(ClusterDatabaseTest, AddAssignAndRemoveChangeTheMembership) {
  // A fourth node that neither bootstraps nor joins by itself.
  sqlitebridge_test::TempDir directory;
  NodeProcess fourth("127.0.0.1:" + std::to_string(sqlitebridge_test::freePort()), directory.makeSubdirectory("n4"));
  std::string problem;
  ASSERT_TRUE(fourth.start({}, problem, 60000, 4444)) << problem;
  ASSERT_TRUE(db_.add(ClusterMember{4444, fourth.address(), ClusterRole::StandBy})) << db_.lastError().message;
  std::vector<ClusterMember> members;
  ASSERT_TRUE(db_.members(members));
  const auto roleOf = [&](std::uint64_t id) {
    for (const ClusterMember& member : members) {
      if (member.id == id) return std::string(sqlitebridge::describe(member.role));
    }
    return std::string("absent");
  };
  EXPECT_EQ(roleOf(4444), "stand-by");
  ASSERT_TRUE(db_.assign(4444, ClusterRole::Spare)) << db_.lastError().message;
  ASSERT_TRUE(db_.members(members));
  EXPECT_EQ(roleOf(4444), "spare");
  EXPECT_FALSE(db_.add(ClusterMember{4444, fourth.address(), ClusterRole::Spare}));  // already a member
  EXPECT_NE(db_.lastError().code, 0);
  ASSERT_TRUE(db_.remove(4444)) << db_.lastError().message;
  ASSERT_TRUE(db_.members(members));
  EXPECT_EQ(roleOf(4444), "absent");
  EXPECT_EQ(members.size(), 3u);
  EXPECT_FALSE(db_.remove(4444));
  EXPECT_NE(db_.lastError().code, 0);
}

TEST_F(ClusterDatabaseTest, AClosedClientRefusesEveryCall) {
  db_.close();
  EXPECT_FALSE(db_.isOpen());
  std::vector<ClusterMember> members;
  ClusterMember leader;
  EXPECT_FALSE(db_.execute("SELECT 1"));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  EXPECT_FALSE(db_.members(members));
  EXPECT_FALSE(db_.leader(leader));
  EXPECT_FALSE(db_.add(ClusterMember{9, "127.0.0.1:1", ClusterRole::Spare}));
  EXPECT_FALSE(db_.assign(9, ClusterRole::Voter));
  EXPECT_FALSE(db_.remove(9));
  EXPECT_FALSE(db_.write([](ClusterDatabase&) { return true; }));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
}
