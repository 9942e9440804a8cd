// The statement cache: reuse by SQL text (counted with
// preparedStatementCount), bounded LRU capacity, turning it off, clearing it,
// lending (nested use of the same SQL), no bindings leaking between uses,
// correct results after schema changes, and statements that outlive their
// Database or the cache entry they came from.
#include <string>
#include <utility>
#include <vector>

#include "TestSupport.hpp"
#include <sqlitebridge/interop/Interop.hpp>
#include <sqlitebridge/interop/Testing.hpp>

using sqlitebridge::Database;
using sqlitebridge::NamedValues;
using sqlitebridge::Row;
using sqlitebridge::RowView;
using sqlitebridge::Statement;
using sqlitebridge::StepResult;
using sqlitebridge::Value;
using sqlitebridge::interop::DatabaseAccess;
using sqlitebridge::interop::StatementTesting;
using namespace sqlitebridge_test;

namespace {

class StatementCache : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT UNIQUE)")) << db_.error();
    ASSERT_TRUE(db_.execute("INSERT INTO t(name) VALUES ('a'), ('b'), ('c')")) << db_.error();
  }

  /// How many statements `body` made the connection compile.
  template <typename Body>
  std::int64_t preparesDuring(Body&& body) {
    const std::int64_t before = db_.preparedStatementCount();
    body();
    return db_.preparedStatementCount() - before;
  }

  /// Runs `sql` (which must succeed) and returns its rows.
  std::vector<Row> rows(const std::string& sql) {
    std::vector<Row> results;
    EXPECT_TRUE(db_.execute(sql, &results)) << db_.error() << " in " << sql;
    return results;
  }

  Database db_ = Database::open(":memory:");
};

}  // namespace

TEST_F(StatementCache, SameSqlExecutedAHundredTimesIsPreparedOnce) {
  const std::string insert = "INSERT INTO t(name) VALUES (?)";
  const auto prepares = preparesDuring([&] {
    for (int i = 0; i < 100; ++i) {
      ASSERT_TRUE(db_.execute(insert, {Value("n" + std::to_string(i))})) << db_.error();
    }
  });
  EXPECT_EQ(prepares, 1);
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM t"), 103);
}

TEST_F(StatementCache, ForEachRowAndRowQueriesReuseTheCacheToo) {
  const std::string select = "SELECT name FROM t ORDER BY id";
  const auto prepares = preparesDuring([&] {
    for (int i = 0; i < 50; ++i) {
      int seen = 0;
      ASSERT_TRUE(db_.forEachRow(select, [&](const RowView&) { ++seen; })) << db_.error();
      ASSERT_EQ(seen, 3);
      ASSERT_EQ(rows(select).size(), 3u);
      Row first;
      ASSERT_TRUE(db_.execute(select, first));
      ASSERT_EQ(first.value(0), Value("a"));
    }
  });
  EXPECT_EQ(prepares, 1);
}

TEST_F(StatementCache, DifferentSqlGetsSeparateEntries) {
  const auto prepares = preparesDuring([&] {
    for (int i = 0; i < 10; ++i) {
      ASSERT_EQ(rows("SELECT name FROM t WHERE id = 1")[0].value(0), Value("a"));
      ASSERT_EQ(rows("SELECT name FROM t WHERE id = 2")[0].value(0), Value("b"));
      // The key is the exact text: different spacing is different SQL.
      ASSERT_EQ(rows("SELECT name FROM t WHERE id =  2")[0].value(0), Value("b"));
    }
  });
  EXPECT_EQ(prepares, 3);
}

TEST_F(StatementCache, DefaultCapacityIs64) {
  EXPECT_EQ(db_.statementCacheCapacity(), 64u);
  const auto sqlFor = [](int i) { return "SELECT " + std::to_string(i); };
  // 64 different statements fit: the second round prepares nothing.
  EXPECT_EQ(preparesDuring([&] {
              for (int round = 0; round < 2; ++round) {
                for (int i = 0; i < 64; ++i) ASSERT_TRUE(db_.execute(sqlFor(i))) << db_.error();
              }
            }),
            64);
  // A 65th evicts the least recently used (SELECT 0), which then has to be
  // prepared again; the most recent ones stay.
  EXPECT_EQ(preparesDuring([&] { ASSERT_TRUE(db_.execute(sqlFor(64))); }), 1);
  EXPECT_EQ(preparesDuring([&] { ASSERT_TRUE(db_.execute(sqlFor(63))); }), 0);
  EXPECT_EQ(preparesDuring([&] { ASSERT_TRUE(db_.execute(sqlFor(0))); }), 1);
}

TEST_F(StatementCache, SmallCapacityEvictsTheLeastRecentlyUsed) {
  db_.setStatementCacheCapacity(2);
  EXPECT_EQ(db_.statementCacheCapacity(), 2u);
  const std::string a = "SELECT 'a'", b = "SELECT 'b'", c = "SELECT 'c'";
  EXPECT_EQ(preparesDuring([&] { ASSERT_TRUE(db_.execute(a)); }), 1);
  EXPECT_EQ(preparesDuring([&] { ASSERT_TRUE(db_.execute(b)); }), 1);
  EXPECT_EQ(preparesDuring([&] { ASSERT_TRUE(db_.execute(a)); }), 0);  // a is now the most recent
  EXPECT_EQ(preparesDuring([&] { ASSERT_TRUE(db_.execute(c)); }), 1);  // evicts b
  EXPECT_EQ(preparesDuring([&] { ASSERT_TRUE(db_.execute(a)); }), 0);
  EXPECT_EQ(preparesDuring([&] { ASSERT_TRUE(db_.execute(b)); }), 1);  // evicts c
  EXPECT_EQ(preparesDuring([&] { ASSERT_TRUE(db_.execute(c)); }), 1);  // evicts a
}

TEST_F(StatementCache, ThreeStatementsCycledThroughCapacityTwoArePreparedEveryTime) {
  db_.setStatementCacheCapacity(2);
  const std::vector<std::string> sqls = {"SELECT 1", "SELECT 2", "SELECT 3"};
  EXPECT_EQ(preparesDuring([&] {
              for (int round = 0; round < 5; ++round) {
                for (const std::string& sql : sqls) ASSERT_TRUE(db_.execute(sql)) << db_.error();
              }
            }),
            15);
  // With room for all three only the first round prepares.
  db_.setStatementCacheCapacity(3);
  EXPECT_EQ(preparesDuring([&] {
              for (int round = 0; round < 5; ++round) {
                for (const std::string& sql : sqls) ASSERT_TRUE(db_.execute(sql)) << db_.error();
              }
            }),
            1);  // SELECT 1 was evicted by the last SELECT 3 above; 2 and 3 stayed
}

TEST_F(StatementCache, ShrinkingTheCapacityKeepsTheMostRecent) {
  for (const char* sql : {"SELECT 1", "SELECT 2", "SELECT 3"}) ASSERT_TRUE(db_.execute(sql));
  db_.setStatementCacheCapacity(1);
  EXPECT_EQ(preparesDuring([&] { ASSERT_TRUE(db_.execute("SELECT 3")); }), 0);
  EXPECT_EQ(preparesDuring([&] { ASSERT_TRUE(db_.execute("SELECT 1")); }), 1);
  EXPECT_EQ(preparesDuring([&] { ASSERT_TRUE(db_.execute("SELECT 2")); }), 1);
}

TEST_F(StatementCache, CapacityZeroTurnsCachingOff) {
  ASSERT_TRUE(db_.execute("SELECT 1"));
  db_.setStatementCacheCapacity(0);
  EXPECT_EQ(db_.statementCacheCapacity(), 0u);
  EXPECT_EQ(preparesDuring([&] {
              for (int i = 0; i < 10; ++i) ASSERT_TRUE(db_.execute("SELECT 1")) << db_.error();
            }),
            10);
  // Each cachedStatement is a fresh statement then.
  Statement first = db_.cachedStatement("SELECT 1");
  Statement second = db_.cachedStatement("SELECT 1");
  ASSERT_TRUE(first.isValid() && second.isValid()) << db_.error();
  EXPECT_NE(first.handle(), second.handle());
  // Turned back on, it caches again.
  db_.setStatementCacheCapacity(8);
  EXPECT_EQ(preparesDuring([&] {
              for (int i = 0; i < 10; ++i) ASSERT_TRUE(db_.execute("SELECT 1")) << db_.error();
            }),
            1);
}

TEST_F(StatementCache, ClearStatementCacheFinalizesCachedStatements) {
  ASSERT_TRUE(db_.execute("SELECT 1"));
  EXPECT_EQ(preparesDuring([&] { ASSERT_TRUE(db_.execute("SELECT 1")); }), 0);
  db_.clearStatementCache();
  EXPECT_EQ(preparesDuring([&] { ASSERT_TRUE(db_.execute("SELECT 1")); }), 1);
  EXPECT_EQ(preparesDuring([&] { ASSERT_TRUE(db_.execute("SELECT 1")); }), 0);
  // Clearing keeps the capacity.
  EXPECT_EQ(db_.statementCacheCapacity(), 64u);
}

TEST_F(StatementCache, CachedStatementIsLentAndTakenBack) {
  sqlite3_stmt* handle = nullptr;
  {
    Statement stmt = db_.cachedStatement("SELECT name FROM t ORDER BY id");
    ASSERT_TRUE(stmt.isValid()) << db_.error();
    handle = stmt.handle();
    ASSERT_EQ(stmt.step(), StepResult::Row);
  }
  EXPECT_EQ(preparesDuring([&] {
              Statement again = db_.cachedStatement("SELECT name FROM t ORDER BY id");
              ASSERT_TRUE(again.isValid());
              EXPECT_EQ(again.handle(), handle);
              // It was reset when taken back: it starts from the first row.
              ASSERT_EQ(again.step(), StepResult::Row);
              EXPECT_EQ(again.columnValue(0), Value("a"));
            }),
            0);
  // prepare() never uses the cache.
  EXPECT_EQ(preparesDuring([&] {
              Statement fresh = db_.prepare("SELECT name FROM t ORDER BY id");
              EXPECT_NE(fresh.handle(), handle);
            }),
            1);
}

TEST_F(StatementCache, SameSqlWhileLentGetsASeparateWorkingStatement) {
  const std::string select = "SELECT name FROM t ORDER BY id";
  std::vector<std::string> outer;
  std::vector<std::string> inner;
  const auto prepares = preparesDuring([&] {
    ASSERT_TRUE(db_.forEachRow(select, [&](const RowView& row) {
      outer.push_back(row.value(0).asText());
      // The same SQL while the cached statement is lent: a second statement,
      // which does not disturb the outer one.
      std::vector<Row> all;
      EXPECT_TRUE(db_.execute(select, &all)) << db_.error();
      inner.push_back(std::to_string(all.size()) + ":" + (all.empty() ? "" : all.back().value(0).asText()));
      Statement nested = db_.cachedStatement(select);
      EXPECT_TRUE(nested.isValid()) << db_.error();
      EXPECT_EQ(nested.step(), StepResult::Row);
      EXPECT_EQ(nested.columnValue(0), Value("a"));
    })) << db_.error();
  });
  EXPECT_EQ(outer, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(inner, (std::vector<std::string>{"3:c", "3:c", "3:c"}));
  // The outer statement once, plus a fresh one per nested use (those are not
  // cached, because the cached one was lent).
  EXPECT_EQ(prepares, 1 + 3 * 2);
  // Afterwards the cached statement is back and reused.
  EXPECT_EQ(preparesDuring([&] { ASSERT_EQ(rows(select).size(), 3u); }), 0);
}

TEST_F(StatementCache, TwoLentStatementsForTheSameSqlAreIndependent) {
  Statement first = db_.cachedStatement("SELECT name FROM t WHERE id >= ? ORDER BY id");
  Statement second = db_.cachedStatement("SELECT name FROM t WHERE id >= ? ORDER BY id");
  ASSERT_TRUE(first.isValid() && second.isValid()) << db_.error();
  EXPECT_NE(first.handle(), second.handle());
  ASSERT_TRUE(first.bind(1, 1));
  ASSERT_TRUE(second.bind(1, 3));
  ASSERT_EQ(first.step(), StepResult::Row);
  ASSERT_EQ(second.step(), StepResult::Row);
  EXPECT_EQ(first.columnValue(0), Value("a"));
  EXPECT_EQ(second.columnValue(0), Value("c"));
  EXPECT_EQ(second.step(), StepResult::Done);
  ASSERT_EQ(first.step(), StepResult::Row);
  EXPECT_EQ(first.columnValue(0), Value("b"));
}

TEST_F(StatementCache, BindingsDoNotLeakIntoTheNextUse) {
  const std::string select = "SELECT ?1, typeof(?1)";
  ASSERT_TRUE(db_.execute(select, {Value("secret")})) << db_.error();
  EXPECT_EQ(preparesDuring([&] {
              Statement stmt = db_.cachedStatement(select);
              ASSERT_TRUE(stmt.isValid());
              ASSERT_EQ(stmt.step(), StepResult::Row);
              EXPECT_TRUE(stmt.columnValue(0).isNull()) << describe(stmt.columnValue(0));
              EXPECT_EQ(stmt.columnValue(1), Value("null"));
            }),
            0);
  // Named arguments are cleared the same way.
  const std::string named = "SELECT :v";
  ASSERT_TRUE(db_.execute(named, NamedValues{{"v", 99}})) << db_.error();
  Statement stmt = db_.cachedStatement(named);
  ASSERT_EQ(stmt.step(), StepResult::Row);
  EXPECT_TRUE(stmt.columnValue(0).isNull()) << describe(stmt.columnValue(0));
}

TEST_F(StatementCache, BindCallbackValuesDoNotLeakEither) {
  const std::string select = "SELECT ?1";
  ASSERT_TRUE(db_.execute(select, [](Statement& stmt) { return stmt.bind(1, 5); }, [](const RowView&) {}));
  std::vector<Row> results;
  // The callback binds nothing this time: the earlier 5 is not read again;
  // the unbound parameter is an error (never a silent NULL either).
  EXPECT_FALSE(
      db_.execute(select, [](Statement&) { return true; }, [&](const RowView& row) { results.push_back(row.copy()); }));
  EXPECT_TRUE(results.empty());
  EXPECT_TRUE(db_.lastError().is(sqlitebridge::ResultCode::Range)) << db_.error();
}

TEST_F(StatementCache, StatementStoppedEarlyStartsOverNextTime) {
  const std::string select = "SELECT name FROM t ORDER BY id";
  std::vector<std::string> seen;
  ASSERT_TRUE(db_.forEachRow(select, [&](const RowView& row) {
    seen.push_back(row.value(0).asText());
    return false;
  }));
  EXPECT_EQ(seen, (std::vector<std::string>{"a"}));
  // Not continuing at "b": the statement was reset when it came back.
  const std::vector<Row> all = rows(select);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].value(0), Value("a"));
}

TEST_F(StatementCache, StatementThatFailedIsReusableAfterwards) {
  const std::string insert = "INSERT INTO t(name) VALUES (?)";
  EXPECT_FALSE(db_.execute(insert, {Value("a")}));
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_UNIQUE);
  EXPECT_EQ(preparesDuring([&] { ASSERT_TRUE(db_.execute(insert, {Value("d")})) << db_.error(); }), 0);
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM t WHERE name = 'd'"), 1);
}

TEST_F(StatementCache, CachedSelectStarSeesAColumnAddedByAlterTable) {
  const std::string select = "SELECT * FROM t ORDER BY id";
  std::vector<Row> before = rows(select);
  ASSERT_EQ(before.size(), 3u);
  ASSERT_EQ(before[0].size(), 2u);

  ASSERT_TRUE(db_.execute("ALTER TABLE t ADD COLUMN extra TEXT DEFAULT 'new'")) << db_.error();
  std::vector<Row> after;
  EXPECT_EQ(preparesDuring([&] { ASSERT_TRUE(db_.execute(select, &after)) << db_.error(); }), 0)
      << "the cached statement is reused (SQLite re-prepares it itself)";
  ASSERT_EQ(after.size(), 3u);
  ASSERT_EQ(after[0].size(), 3u);
  EXPECT_EQ(after[0].columnName(2), "extra");
  EXPECT_EQ(after[0].value("extra"), Value("new"));
  EXPECT_EQ(after[2].value("name"), Value("c"));

  // The streaming path sees the new column and its name too.
  std::vector<std::string> names;
  ASSERT_TRUE(db_.forEachRow(select, [&](const RowView& row) {
    if (names.empty()) {
      for (int i = 0; i < row.size(); ++i) names.push_back(row.columnName(i));
    }
  }));
  EXPECT_EQ(names, (std::vector<std::string>{"id", "name", "extra"}));
}

TEST_F(StatementCache, CachedStatementAfterDropTableFailsThenSeesTheNewTable) {
  const std::string select = "SELECT * FROM t ORDER BY 1";
  ASSERT_EQ(rows(select).size(), 3u);
  const std::string insert = "INSERT INTO t VALUES (?, ?)";
  ASSERT_TRUE(db_.execute(insert, {Value(10), Value("j")})) << db_.error();

  ASSERT_TRUE(db_.execute("DROP TABLE t")) << db_.error();
  std::vector<Row> none;
  EXPECT_FALSE(db_.execute(select, &none));
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
  EXPECT_NE(db_.error().find("no such table"), std::string::npos) << db_.error();
  EXPECT_TRUE(none.empty());
  EXPECT_FALSE(db_.execute(insert, {Value(11), Value("k")}));
  EXPECT_NE(db_.error().find("no such table"), std::string::npos) << db_.error();

  // Re-created with other columns (other names, types and order).
  ASSERT_TRUE(db_.execute("CREATE TABLE t(label TEXT, amount REAL)")) << db_.error();
  ASSERT_TRUE(db_.execute(insert, {Value("x"), Value(1.5)})) << db_.error();
  ASSERT_TRUE(db_.execute(insert, {Value("y"), Value(2.5)})) << db_.error();
  EXPECT_EQ(dump(db_, select),
            (std::vector<std::string>{"label=text:x|amount=real:1.5", "label=text:y|amount=real:2.5"}));
  std::vector<std::string> streamed;
  ASSERT_TRUE(db_.forEachRow(
      select, [&](const RowView& row) { streamed.push_back(row.columnName(0) + "=" + row.value("label").asText()); }));
  EXPECT_EQ(streamed, (std::vector<std::string>{"label=x", "label=y"}));
}

TEST_F(StatementCache, DropAndRecreateWithoutAnErrorInBetween) {
  const std::string select = "SELECT * FROM t ORDER BY 1";
  ASSERT_EQ(rows(select).size(), 3u);
  ASSERT_TRUE(db_.executeScript("DROP TABLE t; CREATE TABLE t(z INTEGER); INSERT INTO t VALUES (42);")) << db_.error();
  EXPECT_EQ(dump(db_, select), (std::vector<std::string>{"z=int:42"}));
}

TEST(StatementCacheLifetime, CachedStatementOutlivesItsDatabase) {
  TempDir dir;
  Statement stmt;
  {
    Database db = Database::open(dir / "outlive.db");
    ASSERT_TRUE(db.isOpen()) << db.error();
    ASSERT_TRUE(db.execute("CREATE TABLE t(x)"));
    ASSERT_TRUE(db.execute("INSERT INTO t VALUES (1), (2)"));
    ASSERT_TRUE(db.execute("SELECT x FROM t ORDER BY x"));  // cached now
    stmt = db.cachedStatement("SELECT x FROM t ORDER BY x");
    ASSERT_TRUE(stmt.isValid()) << db.error();
  }
  // The Database is gone; the lent statement keeps the connection open.
  ASSERT_EQ(stmt.step(), StepResult::Row);
  EXPECT_EQ(stmt.columnValue(0), Value(1));
  ASSERT_EQ(stmt.step(), StepResult::Row);
  EXPECT_EQ(stmt.columnValue(0), Value(2));
  EXPECT_EQ(stmt.step(), StepResult::Done);
  ASSERT_TRUE(stmt.reset());
  ASSERT_EQ(stmt.step(), StepResult::Row);
  EXPECT_EQ(stmt.columnValue(0), Value(1));
  // Destroying it now returns it to the orphaned cache and closes the
  // connection; replacing it with an empty statement does that.
  stmt = Statement();
  EXPECT_FALSE(stmt.isValid());
}

TEST(StatementCacheLifetime, LentStatementGoesBackToTheConnectionAfterTheDatabaseMoves) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.isOpen());
  Database moved = Database::open(":memory:");
  {
    Statement stmt = db.cachedStatement("SELECT 7");
    ASSERT_TRUE(stmt.isValid()) << db.error();
    moved = std::move(db);
    ASSERT_EQ(stmt.step(), StepResult::Row);
    EXPECT_EQ(stmt.columnValue(0), Value(7));
  }
  const std::int64_t before = moved.preparedStatementCount();
  Row row;
  ASSERT_TRUE(moved.execute("SELECT 7", row)) << moved.error();
  EXPECT_EQ(row.value(0), Value(7));
  EXPECT_EQ(moved.preparedStatementCount(), before);
  EXPECT_FALSE(db.isOpen());
}

TEST_F(StatementCache, ClearingTheCacheWhileAStatementIsLentIsSafe) {
  const std::string select = "SELECT name FROM t ORDER BY id";
  {
    Statement lent = db_.cachedStatement(select);
    ASSERT_TRUE(lent.isValid()) << db_.error();
    ASSERT_EQ(lent.step(), StepResult::Row);
    db_.clearStatementCache();
    // The lent statement keeps working.
    EXPECT_EQ(lent.columnValue(0), Value("a"));
    ASSERT_EQ(lent.step(), StepResult::Row);
    EXPECT_EQ(lent.columnValue(0), Value("b"));
    // The same SQL meanwhile gets a separate statement.
    EXPECT_EQ(rows(select).size(), 3u);
  }
  // The lent one was finalized on return, not put back: the next use
  // prepares, and the one after reuses that.
  EXPECT_EQ(preparesDuring([&] { ASSERT_EQ(rows(select).size(), 3u); }), 1);
  EXPECT_EQ(preparesDuring([&] { ASSERT_EQ(rows(select).size(), 3u); }), 0);
}

TEST_F(StatementCache, TurningTheCacheOffWhileAStatementIsLentIsSafe) {
  const std::string select = "SELECT name FROM t ORDER BY id";
  {
    Statement lent = db_.cachedStatement(select);
    ASSERT_TRUE(lent.isValid()) << db_.error();
    db_.setStatementCacheCapacity(0);
    ASSERT_EQ(lent.step(), StepResult::Row);
    EXPECT_EQ(lent.columnValue(0), Value("a"));
  }
  db_.setStatementCacheCapacity(4);
  EXPECT_EQ(preparesDuring([&] { ASSERT_EQ(rows(select).size(), 3u); }), 1);
}

TEST_F(StatementCache, PrepareAndValidateAreCountedButNotCached) {
  EXPECT_EQ(preparesDuring([&] {
              for (int i = 0; i < 3; ++i) {
                ASSERT_TRUE(db_.prepare("SELECT 1").isValid());
                ASSERT_TRUE(db_.validate("SELECT 1"));
              }
            }),
            6);
}

// Bindings left by one use: a borrower that may not bind every parameter
// (cachedStatement) gets them cleared; one that binds them all
// (cachedStatementForArguments, as execute and Swift do) is spared the pass.
TEST_F(StatementCache, EarlierBindingsAreClearedForCachedStatementButKeptForArgumentBorrowers) {
  const std::string sql = "SELECT ?";
  ASSERT_TRUE(db_.execute(sql, {Value(42)}));
  {
    Statement kept = StatementTesting::cachedStatementForArguments(db_, sql.data(), sql.size());
    ASSERT_EQ(kept.step(), StepResult::Row);
    EXPECT_EQ(kept.columnValue(0), Value(42));  // still bound: its borrower rebinds everything
  }
  Statement cleared = db_.cachedStatement(sql);
  ASSERT_EQ(cleared.step(), StepResult::Row);
  EXPECT_TRUE(cleared.columnValue(0).isNull());
}

TEST_F(StatementCache, LargeValuesAreReleasedWhenTheStatementComesBack) {
  const std::string sql = "SELECT ?";
  const std::vector<std::uint8_t> large(100000, 7);
  ASSERT_TRUE(db_.execute(sql, {Value::fromBlob(large)}));
  Statement next = StatementTesting::cachedStatementForArguments(db_, sql.data(), sql.size());
  ASSERT_EQ(next.step(), StepResult::Row);
  EXPECT_TRUE(next.columnValue(0).isNull());  // not kept referenced by the cache
}
