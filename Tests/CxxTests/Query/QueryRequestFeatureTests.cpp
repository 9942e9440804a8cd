// Request features beyond filters and joins (issue 40): filtering by primary
// key, reversing, annotations, full-text matching, updateAll and fetchOne.
// Each is checked for its text and for giving what hand-written SQL gives.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "QueryTestSupport.hpp"

using namespace sqlitebridge;
using namespace sqlitebridge_test;

TEST(QueryRequestFeatures, FilterKeyUsesTheSchemasPrimaryKey) {
  Database db = openLibrary();
  ASSERT_TRUE(
      db.executeScript("CREATE TABLE codes (code TEXT PRIMARY KEY, label TEXT) WITHOUT ROWID;"
                       "INSERT INTO codes VALUES ('a', 'A'), ('b', 'B');"
                       "CREATE TABLE plain (label TEXT); INSERT INTO plain VALUES ('x'), ('y');"
                       "CREATE TABLE pairs (a INTEGER, b INTEGER, PRIMARY KEY (a, b));"))
      << db.error();
  EXPECT_EQ(sqlOf(db, QueryRequest::table("books").filterKey(Value(std::int64_t{3}))),
            "SELECT * FROM \"books\" WHERE \"id\" = ?");
  EXPECT_EQ(fetched(db, QueryRequest::table("books").filterKey(Value(std::int64_t{3}))),
            dump(db, "SELECT * FROM books WHERE id = 3"));
  EXPECT_EQ(fetched(db, QueryRequest::table("codes").filterKeys({Value("b"), Value("z")})),
            dump(db, "SELECT * FROM codes WHERE code = 'b'"));
  EXPECT_EQ(sqlOf(db, QueryRequest::table("plain").filterKey(Value(std::int64_t{2}))),
            "SELECT * FROM \"plain\" WHERE \"rowid\" = ?");
  EXPECT_EQ(fetched(db, QueryRequest::table("plain").filterKey(Value(std::int64_t{2}))),
            (std::vector<std::string>{"label=text:y"}));
  // A NULL key and an empty list match nothing.
  EXPECT_TRUE(fetched(db, QueryRequest::table("books").filterKey(Value())).empty());
  EXPECT_EQ(sqlOf(db, QueryRequest::table("books").filterKeys({})), "SELECT * FROM \"books\" WHERE \"id\" IN ()");
  EXPECT_TRUE(fetched(db, QueryRequest::table("books").filterKeys({})).empty());
  // Joined: the key is qualified with the request's table.
  EXPECT_EQ(sqlOf(db, QueryRequest::table("books")
                          .joining("authors", JoinKind::Required)
                          .filterKeys({Value(std::int64_t{1}), Value(std::int64_t{3})})),
            "SELECT \"books\".* FROM \"books\" JOIN \"authors\" ON \"authors\".\"id\" = \"books\".\"authorId\" "
            "WHERE \"books\".\"id\" IN (?, ?)");
  // Several key columns, or no table: an error naming them.
  const Rendered composite = render(db, QueryRequest::table("pairs").filterKey(Value(std::int64_t{1})));
  EXPECT_FALSE(composite.ok);
  EXPECT_EQ(composite.error.code, SQLITE_MISUSE);
  EXPECT_TRUE(contains(composite.error.message, "\"pairs\" has 2 columns (\"a\", \"b\")")) << composite.error.message;
  const Rendered missing = render(db, QueryRequest::table("nowhere").filterKey(Value(std::int64_t{1})));
  EXPECT_FALSE(missing.ok);
  EXPECT_TRUE(contains(missing.error.message, "nowhere")) << missing.error.message;
}

TEST(QueryRequestFeatures, ReversedFlipsEveryOrderingOrOrdersByTheKeyDescending) {
  Database db = openLibrary();
  EXPECT_EQ(sqlOf(db, QueryRequest::table("books").reversed()), "SELECT * FROM \"books\" ORDER BY \"id\" DESC");
  EXPECT_EQ(sqlOf(db, QueryRequest::table("books")
                          .order({column("year").ascNullsLast(), column("title"), column("id").desc(),
                                  column("authorId").descNullsFirst()})
                          .reversed()),
            "SELECT * FROM \"books\" ORDER BY \"year\" DESC NULLS FIRST, \"title\" DESC, \"id\" ASC, "
            "\"authorId\" ASC NULLS LAST");
  EXPECT_EQ(sqlOf(db, QueryRequest::table("books").order({column("title")}).reversed().reversed()),
            "SELECT * FROM \"books\" ORDER BY \"title\"");
  EXPECT_EQ(fetched(db, QueryRequest::table("books").order({column("year").ascNullsLast()}).reversed()),
            dump(db, "SELECT * FROM books ORDER BY year DESC NULLS FIRST"));
  EXPECT_EQ(fetched(db, QueryRequest::table("books").order({column("year").descNullsFirst()})),
            dump(db, "SELECT * FROM books ORDER BY year DESC NULLS FIRST"));
  EXPECT_EQ(fetched(db, QueryRequest::table("books").reversed().limit(2)),
            dump(db, "SELECT * FROM books ORDER BY id DESC LIMIT 2"));
}

TEST(QueryRequestFeatures, AnnotationsFollowTheRequestsColumnsAndSelectReplacesThem) {
  Database db = openLibrary();
  const QueryRequest annotated =
      QueryRequest::table("books").annotated({(column("year") + 1).aliased("next")}).order({column("id")});
  EXPECT_EQ(sqlOf(db, annotated), "SELECT *, \"year\" + ? AS \"next\" FROM \"books\" ORDER BY \"id\"");
  EXPECT_EQ(fetched(db, annotated), dump(db, "SELECT *, year + 1 AS next FROM books ORDER BY id"));
  EXPECT_EQ(sqlOf(db, annotated.select({column("title")})), "SELECT \"title\" FROM \"books\" ORDER BY \"id\"");
  EXPECT_EQ(sqlOf(db, QueryRequest::table("books").select({column("title")}).annotated({column("year")})),
            "SELECT \"title\", \"year\" FROM \"books\"");
  std::int64_t count = -1;
  ASSERT_TRUE(db.fetchCount(annotated, count)) << db.error();
  EXPECT_EQ(count, 4);
}

TEST(QueryRequestFeatures, MatchingBindsThePatternAndNoPatternMatchesNothing) {
  Database db = openLibrary();
  ASSERT_TRUE(
      db.executeScript("CREATE VIRTUAL TABLE docs USING fts5(body);"
                       "INSERT INTO docs VALUES ('red apple'), ('green pear'), ('red pear');"))
      << db.error();
  const QueryRequest red = QueryRequest::table("docs").matching(std::string("red"));
  EXPECT_EQ(sqlOf(db, red), "SELECT * FROM \"docs\" WHERE \"docs\" MATCH ?");
  EXPECT_EQ(fetched(db, red.order({column("rowid")})),
            dump(db, "SELECT * FROM docs WHERE docs MATCH 'red' ORDER BY rowid"));
  EXPECT_EQ(fetched(db, red.matching(std::string("pear"))), (std::vector<std::string>{"body=text:red pear"}));
  EXPECT_TRUE(fetched(db, QueryRequest::table("docs").matching(std::nullopt)).empty());
  // A hostile pattern is a pattern: bound, table intact.
  std::vector<Row> rows;
  EXPECT_FALSE(db.fetch(QueryRequest::table("docs").matching(std::string("'); DROP TABLE docs; --")), &rows));
  EXPECT_EQ(scalarInteger(db, "SELECT COUNT(*) FROM docs"), 3);
}

TEST(QueryRequestFeatures, UpdateAllSetsWhatTheRequestSelects) {
  Database db = openLibrary();
  std::int64_t changed = -1;
  const QueryRequest old = QueryRequest::table("books").filter(column("year") < 2005);
  SQL sql;
  ASSERT_TRUE(old.makeUpdateSQL(db, {assign("year", column("year") + 1), assign("title", value(Value("x\"'")))}, sql))
      << db.error();
  EXPECT_EQ(sql.text(), "UPDATE \"books\" SET \"year\" = \"year\" + ?, \"title\" = ? WHERE \"year\" < ?");
  ASSERT_TRUE(db.updateAll(old, {assign("year", column("year") + 1)}, &changed)) << db.error();
  EXPECT_EQ(changed, 2);
  EXPECT_EQ(dump(db, "SELECT id, year FROM books ORDER BY id"),
            (std::vector<std::string>{"id=int:1|year=int:1991", "id=int:2|year=int:2002", "id=int:3|year=int:2010",
                                      "id=int:4|year=NULL"}));
  // Limited and joined: the rows chosen by primary key.
  ASSERT_TRUE(db.updateAll(QueryRequest::table("books")
                               .joining("authors", JoinKind::Required)
                               .filter(column("authors", "name") == Value("Ann"))
                               .order({column("id").desc()})
                               .limit(1),
                           {assign("title", value(Value("last of Ann")))}, &changed))
      << db.error();
  EXPECT_EQ(changed, 1);
  EXPECT_EQ(dump(db, "SELECT title FROM books WHERE id = 2"), (std::vector<std::string>{"title=text:last of Ann"}));
  // No assignment: misuse, nothing changed.
  EXPECT_FALSE(db.updateAll(QueryRequest::table("books"), {}, &changed));
  EXPECT_EQ(db.lastError().code, SQLITE_MISUSE);
  EXPECT_TRUE(contains(db.lastError().message, "sets no column")) << db.lastError().message;
  // A broken constraint: SQLite's error, no row changed.
  ASSERT_TRUE(
      db.executeScript("CREATE TABLE u (id INTEGER PRIMARY KEY, v INTEGER UNIQUE);"
                       "INSERT INTO u VALUES (1, 1), (2, 2);"))
      << db.error();
  EXPECT_FALSE(db.updateAll(QueryRequest::table("u"), {assign("v", value(Value(std::int64_t{7})))}));
  EXPECT_EQ(db.lastError().code, SQLITE_CONSTRAINT);
  EXPECT_EQ(dump(db, "SELECT v FROM u ORDER BY id"), (std::vector<std::string>{"v=int:1", "v=int:2"}));
}

TEST(QueryRequestFeatures, FetchOneReadsAtMostOneRowWithinTheRequestsLimit) {
  Database db = openLibrary();
  Row row;
  bool found = false;
  ASSERT_TRUE(db.fetchOne(QueryRequest::table("books").order({column("id").desc()}), row, found)) << db.error();
  ASSERT_TRUE(found);
  EXPECT_EQ(describe(row.value(0)), "int:4");
  ASSERT_TRUE(db.fetchOne(QueryRequest::table("books").order({column("id")}).limit(2, 2), row, found)) << db.error();
  ASSERT_TRUE(found);
  EXPECT_EQ(describe(row.value(0)), "int:3");
  ASSERT_TRUE(db.fetchOne(QueryRequest::table("books").limit(0), row, found)) << db.error();
  EXPECT_FALSE(found);
  ASSERT_TRUE(db.fetchOne(QueryRequest::table("books").filterKey(Value(std::int64_t{99})), row, found)) << db.error();
  EXPECT_FALSE(found);
}
