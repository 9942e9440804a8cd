// The query compiler's text (issue 40): every operator and function, NULL
// comparisons, precedence, the clauses, immutability of requests, and what
// fails and how. Joins and hostile input: QueryJoinTests.cpp; running
// requests: QueryFetchTests.cpp; the shared fixture: QueryFixtureTests.cpp.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "QueryTestSupport.hpp"
#include "sqlitebridge/interop/Query.hpp"

using namespace sqlitebridge;
using namespace sqlitebridge_test;

namespace {

// The WHERE text a filter renders to (the SQL after "WHERE ").
std::string whereOf(Database& db, const Expression& predicate) {
  const std::string sql = sqlOf(db, QueryRequest::table("t").filter(predicate));
  const std::string prefix = "SELECT * FROM \"t\" WHERE ";
  EXPECT_EQ(sql.substr(0, prefix.size()), prefix) << sql;
  return sql.size() >= prefix.size() ? sql.substr(prefix.size()) : sql;
}

Database openT() {
  Database db = Database::open(":memory:");
  EXPECT_TRUE(db.execute("CREATE TABLE t (a, b, c, d)")) << db.error();
  return db;
}

}  // namespace

TEST(QueryRendering, ATableAloneSelectsEveryColumnWithoutArguments) {
  Database db = openT();
  const Rendered rendered = render(db, QueryRequest::table("t"));
  ASSERT_TRUE(rendered.ok) << rendered.error.message;
  EXPECT_EQ(rendered.sql, "SELECT * FROM \"t\"");
  EXPECT_TRUE(rendered.arguments.empty());
  EXPECT_FALSE(db.lastError().isError());
}

TEST(QueryRendering, EveryComparisonOperatorBindsItsValue) {
  Database db = openT();
  const std::vector<std::pair<Expression, std::string>> cases = {
      {column("a") == 1, "\"a\" = ?"},  {column("a") != 1, "\"a\" <> ?"}, {column("a") < 1, "\"a\" < ?"},
      {column("a") <= 1, "\"a\" <= ?"}, {column("a") > 1, "\"a\" > ?"},   {column("a") >= 1, "\"a\" >= ?"},
      {1 == column("a"), "? = \"a\""},  {1 < column("a"), "? < \"a\""},   {column("a") == column("b"), "\"a\" = \"b\""},
  };
  for (const auto& [expression, expected] : cases) {
    const Rendered rendered = render(db, QueryRequest::table("t").filter(expression));
    ASSERT_TRUE(rendered.ok) << rendered.error.message;
    EXPECT_EQ(rendered.sql, "SELECT * FROM \"t\" WHERE " + expected);
  }
  const Rendered rendered = render(db, QueryRequest::table("t").filter(column("a") >= "x"));
  EXPECT_EQ(rendered.arguments, std::vector<std::string>{"text:x"});
}

TEST(QueryRendering, LogicalAndArithmeticOperators) {
  Database db = openT();
  EXPECT_EQ(whereOf(db, column("a") == 1 && column("b") == 2), "\"a\" = ? AND \"b\" = ?");
  EXPECT_EQ(whereOf(db, column("a") == 1 || column("b") == 2), "\"a\" = ? OR \"b\" = ?");
  EXPECT_EQ(whereOf(db, !(column("a") == 1)), "NOT \"a\" = ?");
  EXPECT_EQ(whereOf(db, column("a") + column("b") > 3), "\"a\" + \"b\" > ?");
  EXPECT_EQ(whereOf(db, column("a") - 1 > 3), "\"a\" - ? > ?");
  EXPECT_EQ(whereOf(db, column("a") * 2 == column("b") / 4), "\"a\" * ? = \"b\" / ?");
  EXPECT_EQ(whereOf(db, -column("a") < 0), "-\"a\" < ?");
  EXPECT_EQ(whereOf(db, column("a") && true), "\"a\" AND ?");
  EXPECT_EQ(whereOf(db, false || column("a")), "? OR \"a\"");
}

TEST(QueryRendering, IsNullIsNotNullLikeAndIn) {
  Database db = openT();
  EXPECT_EQ(whereOf(db, column("a").isNull()), "\"a\" IS NULL");
  EXPECT_EQ(whereOf(db, column("a").isNotNull()), "\"a\" IS NOT NULL");
  EXPECT_EQ(whereOf(db, column("a").like(value("%x%"))), "\"a\" LIKE ?");
  EXPECT_EQ(whereOf(db, column("a").in({1, 2, 3})), "\"a\" IN (?, ?, ?)");
  EXPECT_EQ(whereOf(db, column("a").in({})), "\"a\" IN ()");
  const Rendered rendered = render(db, QueryRequest::table("t").filter(column("a").in({1, "two", 3.5})));
  EXPECT_EQ(rendered.arguments, (std::vector<std::string>{"int:1", "text:two", "real:3.5"}));
}

// GRDB's meaning of `== nil`: comparing with NULL renders IS NULL, since
// `= NULL` is never true.
TEST(QueryRendering, ComparingWithNullRendersIsNull) {
  Database db = openT();
  EXPECT_EQ(whereOf(db, column("a") == value(Value())), "\"a\" IS NULL");
  EXPECT_EQ(whereOf(db, column("a") == Value()), "\"a\" IS NULL");
  EXPECT_EQ(whereOf(db, Value() == column("a")), "\"a\" IS NULL");
  EXPECT_EQ(whereOf(db, column("a") != Value()), "\"a\" IS NOT NULL");
  EXPECT_EQ(whereOf(db, value(Value()) != column("a") + 1), "\"a\" + ? IS NOT NULL");
  EXPECT_EQ(whereOf(db, (column("a") == 1) == Value()), "\"a\" = ? IS NULL");
  // Anywhere else NULL is the keyword (not an argument).
  const Rendered rendered = render(db, QueryRequest::table("t").filter(column("a") + Value() < Value(1)));
  EXPECT_EQ(rendered.sql, "SELECT * FROM \"t\" WHERE \"a\" + NULL < ?");
  EXPECT_EQ(rendered.arguments, std::vector<std::string>{"int:1"});
}

TEST(QueryRendering, EveryFunction) {
  Database db = openT();
  const QueryRequest request = QueryRequest::table("t").select(
      {count(column("a")), countDistinct(column("a")), countAll(), sum(column("a")), total(column("a")),
       min(column("a")), max(column("a")), average(column("a")), length(column("b")), abs(column("c") - 1)});
  EXPECT_EQ(sqlOf(db, request),
            "SELECT COUNT(\"a\"), COUNT(DISTINCT \"a\"), COUNT(*), SUM(\"a\"), TOTAL(\"a\"), MIN(\"a\"), MAX(\"a\"), "
            "AVG(\"a\"), LENGTH(\"b\"), ABS(\"c\" - ?) FROM \"t\"");
  std::vector<Row> rows;
  EXPECT_TRUE(db.fetch(request, &rows)) << db.error();
  EXPECT_EQ(rows.size(), 1u);
}

// Parentheses exactly where SQLite's precedence would otherwise change the
// tree's meaning.
TEST(QueryRendering, ParenthesesFollowSQLitePrecedence) {
  Database db = openT();
  const Expression a = column("a"), b = column("b"), c = column("c"), d = column("d");
  EXPECT_EQ(whereOf(db, (a + b) * c == 1), "(\"a\" + \"b\") * \"c\" = ?");
  EXPECT_EQ(whereOf(db, a + b * c == 1), "\"a\" + \"b\" * \"c\" = ?");
  EXPECT_EQ(whereOf(db, a - (b - c) == 1), "\"a\" - (\"b\" - \"c\") = ?");
  EXPECT_EQ(whereOf(db, (a - b) - c == 1), "\"a\" - \"b\" - \"c\" = ?");
  EXPECT_EQ(whereOf(db, a / (b * c) == 1), "\"a\" / (\"b\" * \"c\") = ?");
  EXPECT_EQ(whereOf(db, -(a + b) == 1), "-(\"a\" + \"b\") = ?");
  EXPECT_EQ(whereOf(db, -(-a) == 1), "-(-\"a\") = ?");
  EXPECT_EQ(whereOf(db, !(a && b)), "NOT (\"a\" AND \"b\")");
  EXPECT_EQ(whereOf(db, !!a), "NOT NOT \"a\"");
  EXPECT_EQ(whereOf(db, (a || b) && c), "(\"a\" OR \"b\") AND \"c\"");
  EXPECT_EQ(whereOf(db, a || (b && c)), "\"a\" OR \"b\" AND \"c\"");
  EXPECT_EQ(whereOf(db, a && (b && c)), "\"a\" AND \"b\" AND \"c\"");
  EXPECT_EQ(whereOf(db, (a == b) == (c == d)), "\"a\" = \"b\" = (\"c\" = \"d\")");
  EXPECT_EQ(whereOf(db, (a < b) == (c < d)), "\"a\" < \"b\" = \"c\" < \"d\"");
  EXPECT_EQ(whereOf(db, (a == b) < c), "(\"a\" = \"b\") < \"c\"");
  EXPECT_EQ(whereOf(db, (a == b).isNull()), "\"a\" = \"b\" IS NULL");
  EXPECT_EQ(whereOf(db, (a && b).isNull()), "(\"a\" AND \"b\") IS NULL");
  EXPECT_EQ(whereOf(db, (a + b).in({1})), "\"a\" + \"b\" IN (?)");
  EXPECT_EQ(whereOf(db, (a || b).like(c)), "(\"a\" OR \"b\") LIKE \"c\"");
  EXPECT_EQ(whereOf(db, !a == b), "(NOT \"a\") = \"b\"");
  EXPECT_EQ(whereOf(db, !(a == b) == c), "(NOT \"a\" = \"b\") = \"c\"");
}

// What the text means, checked by SQLite itself: each tree evaluated in SQL
// equals the same tree evaluated by hand in C++.
TEST(QueryRendering, ParenthesizedTextEvaluatesAsTheTree) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.execute("CREATE TABLE t (a, b, c)")) << db.error();
  ASSERT_TRUE(db.execute("INSERT INTO t VALUES (7, 3, 2)")) << db.error();
  const Expression a = column("a"), b = column("b"), c = column("c");
  const std::vector<std::pair<Expression, std::int64_t>> cases = {
      {a - (b - c), 7 - (3 - 2)}, {(a - b) - c, (7 - 3) - 2}, {a / (b - c), 7 / (3 - 2)}, {(a + b) * c, (7 + 3) * 2},
      {a * (b + c), 7 * (3 + 2)}, {-(a - b), -(7 - 3)},       {a - -b, 7 - -3},           {(a - b) * -c, (7 - 3) * -2},
  };
  for (const auto& [expression, expected] : cases) {
    std::vector<Row> rows;
    ASSERT_TRUE(db.fetch(QueryRequest::table("t").select({expression}), &rows)) << db.error();
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].values()[0].asInteger(), expected) << sqlOf(db, QueryRequest::table("t").select({expression}));
  }
}

TEST(QueryRendering, EveryClauseInSQLiteOrder) {
  Database db = openT();
  const QueryRequest request = QueryRequest::table("t")
                                   .select({column("a"), count(column("b")).aliased("n")})
                                   .distinct()
                                   .filter(column("c") > 1)
                                   .filter(column("d") == 2 || column("d") == 3)
                                   .group({column("a")})
                                   .having(count(column("b")) > 4)
                                   .having(sum(column("c")) < 5)
                                   .order({column("a").desc(), column("n").asc(), column("c")})
                                   .limit(10, 20);
  const Rendered rendered = render(db, request);
  ASSERT_TRUE(rendered.ok) << rendered.error.message;
  EXPECT_EQ(rendered.sql,
            "SELECT DISTINCT \"a\", COUNT(\"b\") AS \"n\" FROM \"t\" WHERE \"c\" > ? AND (\"d\" = ? OR \"d\" = ?) "
            "GROUP BY \"a\" HAVING COUNT(\"b\") > ? AND SUM(\"c\") < ? ORDER BY \"a\" DESC, \"n\" ASC, \"c\" "
            "LIMIT ? OFFSET ?");
  EXPECT_EQ(rendered.arguments,
            (std::vector<std::string>{"int:1", "int:2", "int:3", "int:4", "int:5", "int:10", "int:20"}));
  std::vector<Row> rows;
  EXPECT_TRUE(db.fetch(request, &rows)) << db.error();
}

TEST(QueryRendering, LaterCallsReplaceOrderLimitSelectionAndGrouping) {
  Database db = openT();
  const QueryRequest request = QueryRequest::table("t")
                                   .order({column("a")})
                                   .order({column("b").desc()})
                                   .limit(1)
                                   .limit(5)
                                   .select({column("a")})
                                   .select({column("b"), allColumns()})
                                   .group({column("a")})
                                   .group({column("b")});
  EXPECT_EQ(sqlOf(db, request), "SELECT \"b\", * FROM \"t\" GROUP BY \"b\" ORDER BY \"b\" DESC LIMIT ?");
  EXPECT_EQ(sqlOf(db, request.order({}).select({})), "SELECT * FROM \"t\" GROUP BY \"b\" LIMIT ?");
}

TEST(QueryRendering, RequestsAreValuesEachCallMakesANewOne) {
  Database db = openT();
  const QueryRequest base = QueryRequest::table("t").filter(column("a") == 1);
  const QueryRequest narrower = base.filter(column("b") == 2).order({column("a")}).limit(3);
  const QueryRequest copy = base;
  EXPECT_EQ(sqlOf(db, base), "SELECT * FROM \"t\" WHERE \"a\" = ?");
  EXPECT_EQ(sqlOf(db, copy), "SELECT * FROM \"t\" WHERE \"a\" = ?");
  EXPECT_EQ(sqlOf(db, narrower), "SELECT * FROM \"t\" WHERE \"a\" = ? AND \"b\" = ? ORDER BY \"a\" LIMIT ?");
  EXPECT_EQ(base.tableName(), "t");
}

TEST(QueryRendering, BuildingNeverTouchesADatabaseAndRenderingASimpleRequestReadsNoSchema) {
  // No table "nowhere": rendering succeeds (the schema decides nothing
  // here), running fails with SQLite's error naming it.
  Database db = openT();
  const QueryRequest request = QueryRequest::table("nowhere").filter(column("x") == 1);
  EXPECT_EQ(sqlOf(db, request), "SELECT * FROM \"nowhere\" WHERE \"x\" = ?");
  std::vector<Row> rows;
  EXPECT_FALSE(db.fetch(request, &rows));
  EXPECT_TRUE(contains(db.lastError().message, "no such table: nowhere")) << db.lastError().message;
  std::int64_t count = -1;
  EXPECT_FALSE(db.fetchCount(request, count));
  EXPECT_EQ(count, -1);
  EXPECT_FALSE(db.deleteAll(request));
}

TEST(QueryRendering, CountAndDeleteStatements) {
  Database db = openT();
  const QueryRequest filtered = QueryRequest::table("t").filter(column("a") > 1).order({column("b")});
  EXPECT_EQ(render(db, filtered, RenderedStatement::Count).sql, "SELECT COUNT(*) FROM \"t\" WHERE \"a\" > ?");
  EXPECT_EQ(render(db, filtered.limit(2), RenderedStatement::Count).sql,
            "SELECT COUNT(*) FROM (SELECT * FROM \"t\" WHERE \"a\" > ? ORDER BY \"b\" LIMIT ?)");
  EXPECT_EQ(render(db, filtered.distinct().select({column("a")}), RenderedStatement::Count).sql,
            "SELECT COUNT(*) FROM (SELECT DISTINCT \"a\" FROM \"t\" WHERE \"a\" > ? ORDER BY \"b\")");
  EXPECT_EQ(render(db, filtered, RenderedStatement::Delete).sql, "DELETE FROM \"t\" WHERE \"a\" > ?");
  EXPECT_EQ(render(db, QueryRequest::table("t"), RenderedStatement::Delete).sql, "DELETE FROM \"t\"");
  EXPECT_EQ(render(db, filtered.limit(2, 1), RenderedStatement::Delete).sql,
            "DELETE FROM \"t\" WHERE \"rowid\" IN (SELECT \"t\".\"rowid\" FROM \"t\" WHERE \"a\" > ? ORDER BY \"b\" "
            "LIMIT ? OFFSET ?)");
  ASSERT_TRUE(db.execute("CREATE TABLE k (x, y, z, PRIMARY KEY (x, y)) WITHOUT ROWID")) << db.error();
  EXPECT_EQ(render(db, QueryRequest::table("k").limit(1), RenderedStatement::Delete).sql,
            "DELETE FROM \"k\" WHERE (\"x\", \"y\") IN (SELECT \"k\".\"x\", \"k\".\"y\" FROM \"k\" LIMIT ?)");
}

TEST(QueryRendering, MisplacedOrderingsAliasesAndAllColumnsFailWithMisuse) {
  Database db = openT();
  const std::vector<std::pair<QueryRequest, std::string>> cases = {
      {QueryRequest::table("t").filter(column("a").asc()), "asc() and desc()"},
      {QueryRequest::table("t").select({column("a").desc()}), "asc() and desc()"},
      {QueryRequest::table("t").order({column("a").aliased("x")}), "aliased"},
      {QueryRequest::table("t").filter(column("a").aliased("x") == 1), "aliased"},
      {QueryRequest::table("t").order({allColumns()}), "allColumns()"},
      {QueryRequest::table("t").select({count(allColumns())}), "allColumns()"},
      {QueryRequest::table("t").group({column("a").desc()}), "asc() and desc()"},
      // A term the Swift face cannot translate (a type of the caller's own).
      {QueryRequest::table("t").select({interop::QueryBuilding::unsupported("Own is not a selection")}),
       "Own is not a selection"},
      {QueryRequest::table("t").order({interop::QueryBuilding::unsupported("Own is not an ordering")}),
       "Own is not an ordering"},
  };
  for (const auto& [request, part] : cases) {
    const Rendered rendered = render(db, request);
    EXPECT_FALSE(rendered.ok) << rendered.sql;
    EXPECT_EQ(rendered.error.code, SQLITE_MISUSE);
    EXPECT_TRUE(contains(rendered.error.message, part)) << rendered.error.message;
    std::vector<Row> rows;
    EXPECT_FALSE(db.fetch(request, &rows));
    EXPECT_EQ(db.lastError().code, SQLITE_MISUSE);
  }
  // A success after a failure clears the error.
  EXPECT_TRUE(render(db, QueryRequest::table("t")).ok);
  EXPECT_FALSE(db.lastError().isError());
}

TEST(QueryRendering, ARequestWithoutTableOrOnAClosedDatabaseFailsWithMisuse) {
  Database db = openT();
  const Rendered noTable = render(db, QueryRequest());
  EXPECT_FALSE(noTable.ok);
  EXPECT_EQ(noTable.error.code, SQLITE_MISUSE);
  EXPECT_TRUE(contains(noTable.error.message, "no table")) << noTable.error.message;
  db.close();
  const Rendered closed = render(db, QueryRequest::table("t"));
  EXPECT_FALSE(closed.ok);
  EXPECT_EQ(closed.error.code, SQLITE_MISUSE);
}

TEST(QueryRendering, ANameHoldingNulFailsWithMisuseNamingIt) {
  Database db = openT();
  const std::string nul("a\0b", 3);
  for (const QueryRequest& request : {QueryRequest::table(nul), QueryRequest::table("t").filter(column(nul) == 1),
                                      QueryRequest::table("t").select({column("a").aliased(nul)}),
                                      QueryRequest::table("t").order({column(nul, "a")})}) {
    const Rendered rendered = render(db, request);
    EXPECT_FALSE(rendered.ok) << rendered.sql;
    EXPECT_EQ(rendered.error.code, SQLITE_MISUSE);
  }
}
