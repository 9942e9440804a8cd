// Joins (issue 40): on the foreign key the schema declares (either way
// round, an implicit primary-key reference too) or on explicit columns,
// required (INNER) and optional (LEFT); what fails when the schema cannot
// decide. And hostile names and values in every position of a request.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "HostileSupport.hpp"
#include "QueryTestSupport.hpp"

using namespace sqlitebridge;
using namespace sqlitebridge_test;

namespace {

// `text` as an SQL string literal, for the tests' own hand-written SQL.
std::string sqlString(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

}  // namespace

TEST(QueryJoins, RequiredJoinFollowsTheChildsForeignKey) {
  Database db = openLibrary();
  const QueryRequest request = QueryRequest::table("books").joining("authors", JoinKind::Required);
  EXPECT_EQ(sqlOf(db, request),
            "SELECT \"books\".* FROM \"books\" JOIN \"authors\" ON \"authors\".\"id\" = \"books\".\"authorId\"");
  EXPECT_EQ(dump(db, sqlOf(db, request.order({column("id")}))),
            dump(db, "SELECT books.* FROM books JOIN authors ON authors.id = books.authorId ORDER BY books.id"));
  std::vector<Row> rows;
  ASSERT_TRUE(db.fetch(request, &rows)) << db.error();
  EXPECT_EQ(rows.size(), 3u);  // the orphan book has no author
}

TEST(QueryJoins, OptionalJoinFromTheParentFollowsTheForeignKeyTheOtherWay) {
  Database db = openLibrary();
  const QueryRequest request = QueryRequest::table("authors").joining("books", JoinKind::Optional);
  EXPECT_EQ(sqlOf(db, request),
            "SELECT \"authors\".* FROM \"authors\" LEFT JOIN \"books\" ON \"books\".\"authorId\" = \"authors\".\"id\"");
  std::int64_t count = 0;
  ASSERT_TRUE(db.fetchCount(request, count)) << db.error();
  EXPECT_EQ(count, scalarInteger(db, "SELECT COUNT(*) FROM authors LEFT JOIN books ON books.authorId = authors.id"));
  EXPECT_EQ(count, 4);  // Ann twice, Bob, Cid with no book
}

TEST(QueryJoins, AnImplicitPrimaryKeyReferenceJoinsOnTheParentsKey) {
  Database db = openLibrary();
  EXPECT_EQ(sqlOf(db, QueryRequest::table("reviews").joining("books", JoinKind::Required)),
            "SELECT \"reviews\".* FROM \"reviews\" JOIN \"books\" ON \"books\".\"id\" = \"reviews\".\"bookId\"");
  EXPECT_EQ(sqlOf(db, QueryRequest::table("books").joining("reviews", JoinKind::Required)),
            "SELECT \"books\".* FROM \"books\" JOIN \"reviews\" ON \"reviews\".\"bookId\" = \"books\".\"id\"");
}

TEST(QueryJoins, ColumnsOfBothTablesAreQualifiedAndTheJoinedTableFilters) {
  Database db = openLibrary();
  const QueryRequest request = QueryRequest::table("books")
                                   .joining("authors", JoinKind::Required)
                                   .filter(column("authors", "country") == "FR" && column("year") > 1995)
                                   .select({column("title"), column("authors", "name").aliased("author")})
                                   .order({column("title").desc()});
  const Rendered rendered = render(db, request);
  ASSERT_TRUE(rendered.ok) << rendered.error.message;
  EXPECT_EQ(rendered.sql,
            "SELECT \"books\".\"title\", \"authors\".\"name\" AS \"author\" FROM \"books\" JOIN \"authors\" ON "
            "\"authors\".\"id\" = \"books\".\"authorId\" WHERE \"authors\".\"country\" = ? AND \"books\".\"year\" > ? "
            "ORDER BY \"books\".\"title\" DESC");
  EXPECT_EQ(rendered.arguments, (std::vector<std::string>{"text:FR", "int:1995"}));
  std::vector<Row> rows;
  ASSERT_TRUE(db.fetch(request, &rows)) << db.error();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].value("title").asText(), "A2");
  EXPECT_EQ(rows[0].value("author").asText(), "Ann");
}

TEST(QueryJoins, ExplicitColumnsNeedNoForeignKey) {
  Database db = openLibrary();
  const QueryRequest request =
      QueryRequest::table("loose").joining("authors", JoinKind::Required, ForeignKeyColumns{{"authorId"}, {"id"}});
  EXPECT_EQ(sqlOf(db, request),
            "SELECT \"loose\".* FROM \"loose\" JOIN \"authors\" ON \"authors\".\"id\" = \"loose\".\"authorId\"");
  // An empty destination is the joined table's primary key.
  EXPECT_EQ(sqlOf(db, QueryRequest::table("loose").joining("authors", JoinKind::Optional,
                                                           ForeignKeyColumns{{"authorId"}, {}})),
            "SELECT \"loose\".* FROM \"loose\" LEFT JOIN \"authors\" ON \"authors\".\"id\" = \"loose\".\"authorId\"");
  // Explicit columns choose between two foreign keys.
  EXPECT_EQ(sqlOf(db, QueryRequest::table("translations")
                          .joining("authors", JoinKind::Required, ForeignKeyColumns{{"translatorId"}, {"id"}})),
            "SELECT \"translations\".* FROM \"translations\" JOIN \"authors\" ON \"authors\".\"id\" = "
            "\"translations\".\"translatorId\"");
}

TEST(QueryJoins, NoForeignKeyIsAnErrorNamingBothTables) {
  Database db = openLibrary();
  const QueryRequest request = QueryRequest::table("loose").joining("authors", JoinKind::Required);
  const Rendered rendered = render(db, request);
  EXPECT_FALSE(rendered.ok);
  EXPECT_EQ(rendered.error.code, SQLITE_ERROR);
  EXPECT_TRUE(contains(rendered.error.message, "no foreign key")) << rendered.error.message;
  EXPECT_TRUE(contains(rendered.error.message, "\"loose\"")) << rendered.error.message;
  EXPECT_TRUE(contains(rendered.error.message, "\"authors\"")) << rendered.error.message;
  std::vector<Row> rows;
  EXPECT_FALSE(db.fetch(request, &rows));
  EXPECT_EQ(db.lastError().message, rendered.error.message);
  std::int64_t count = -1;
  EXPECT_FALSE(db.fetchCount(request, count));
  EXPECT_EQ(count, -1);
}

TEST(QueryJoins, SeveralForeignKeysAreAnErrorNamingBothTables) {
  Database db = openLibrary();
  const Rendered rendered = render(db, QueryRequest::table("translations").joining("authors", JoinKind::Optional));
  EXPECT_FALSE(rendered.ok);
  EXPECT_EQ(rendered.error.code, SQLITE_ERROR);
  EXPECT_TRUE(contains(rendered.error.message, "2 foreign keys")) << rendered.error.message;
  EXPECT_TRUE(contains(rendered.error.message, "\"translations\"")) << rendered.error.message;
  EXPECT_TRUE(contains(rendered.error.message, "\"authors\"")) << rendered.error.message;
}

TEST(QueryJoins, AMissingTableIsAnErrorNamingIt) {
  Database db = openLibrary();
  const Rendered joined = render(db, QueryRequest::table("books").joining("publishers", JoinKind::Required));
  EXPECT_FALSE(joined.ok);
  EXPECT_EQ(joined.error.code, SQLITE_ERROR);
  EXPECT_TRUE(contains(joined.error.message, "publishers")) << joined.error.message;
  const Rendered origin = render(db, QueryRequest::table("shelves").joining("books", JoinKind::Required));
  EXPECT_FALSE(origin.ok);
  EXPECT_TRUE(contains(origin.error.message, "shelves")) << origin.error.message;
  // With explicit columns the schema is not read: SQLite names the table
  // when the request runs.
  std::vector<Row> rows;
  EXPECT_FALSE(db.fetch(
      QueryRequest::table("books").joining("publishers", JoinKind::Required, ForeignKeyColumns{{"authorId"}, {"id"}}),
      &rows));
  EXPECT_TRUE(contains(db.lastError().message, "publishers")) << db.lastError().message;
}

TEST(QueryJoins, SelfJoinsRepeatedJoinsAndUnpairedColumnsFailWithMisuse) {
  Database db = openLibrary();
  const std::vector<QueryRequest> requests = {
      QueryRequest::table("authors").joining("AUTHORS", JoinKind::Required, ForeignKeyColumns{{"id"}, {"id"}}),
      QueryRequest::table("books").joining("authors", JoinKind::Required).joining("Authors", JoinKind::Optional),
      QueryRequest::table("loose").joining("authors", JoinKind::Required,
                                           ForeignKeyColumns{{"authorId"}, {"id", "name"}}),
      QueryRequest::table("loose").joining("authors", JoinKind::Required, ForeignKeyColumns{{}, {"id"}}),
  };
  for (const QueryRequest& request : requests) {
    const Rendered rendered = render(db, request);
    EXPECT_FALSE(rendered.ok) << rendered.sql;
    EXPECT_EQ(rendered.error.code, SQLITE_MISUSE) << rendered.error.message;
  }
}

TEST(QueryJoins, DeleteAllOfAJoinedRequestDeletesOnlyTheRequestsOwnRows) {
  Database db = openLibrary();
  const QueryRequest request =
      QueryRequest::table("books").joining("authors", JoinKind::Required).filter(column("authors", "name") == "Ann");
  EXPECT_EQ(render(db, request, RenderedStatement::Delete).sql,
            "DELETE FROM \"books\" WHERE \"id\" IN (SELECT \"books\".\"id\" FROM \"books\" JOIN \"authors\" ON "
            "\"authors\".\"id\" = \"books\".\"authorId\" WHERE \"authors\".\"name\" = ?)");
  std::int64_t changed = 0;
  ASSERT_TRUE(db.executeScript("PRAGMA foreign_keys = OFF")) << db.error();
  ASSERT_TRUE(db.deleteAll(request, &changed)) << db.error();
  EXPECT_EQ(changed, 2);
  EXPECT_EQ(scalarInteger(db, "SELECT COUNT(*) FROM books"), 2);
  EXPECT_EQ(scalarInteger(db, "SELECT COUNT(*) FROM authors"), 3);
}

// Every name and value a caller gives, however hostile, stays a name or a
// bound value: the text holds names only quoted, values never, and the
// table the hostile text aims at survives.
TEST(QueryHostile, NamesAndValuesInEveryPositionStayNamesAndValues) {
  for (const std::string& name : hostileIdentifiers()) {
    Database db = Database::open(":memory:");
    ASSERT_TRUE(db.isOpen()) << db.error();
    const std::string q = quoted(name);
    ASSERT_TRUE(
        db.executeScript("CREATE TABLE victims (id INTEGER PRIMARY KEY);"
                         "INSERT INTO victims VALUES (1);"
                         "CREATE TABLE " +
                         q + " (id INTEGER PRIMARY KEY, " + q +
                         " TEXT, victimId INTEGER "
                         "REFERENCES victims(id));"
                         "INSERT INTO " +
                         q + " VALUES (1, " + sqlString(name) + ", 1), (2, 'plain', 1);"))
        << db.error() << " for " << name;
    const QueryRequest request = QueryRequest::table(name)
                                     .joining("victims", JoinKind::Required)
                                     .filter(column(name) == name && column(name, name).like(value(name)) &&
                                             column(name).in({Value(name), Value("x")}))
                                     .select({column(name).aliased(name), count(column(name)).aliased("n")})
                                     .group({column(name)})
                                     .having(max(column(name)) != name + "x")
                                     .order({column(name).desc()})
                                     .limit(5, 0);
    SQL sql;
    ASSERT_TRUE(request.makeSQL(db, sql)) << db.error() << " for " << name;
    std::string text = sql.text();
    // Remove every quoted name; what remains must not hold the hostile text.
    for (const std::string& quotedName : {q, std::string("\"victims\"")}) {
      for (std::string::size_type at; (at = text.find(quotedName)) != std::string::npos;) {
        text.erase(at, quotedName.size());
      }
    }
    EXPECT_FALSE(contains(text, name)) << sql.text();
    for (const Value& argument : sql.arguments()) EXPECT_NE(argument.type(), ValueType::Null);
    std::vector<Row> rows;
    ASSERT_TRUE(db.fetch(request, &rows)) << db.error() << " for " << name << " in " << sql.text();
    ASSERT_EQ(rows.size(), 1u) << name;
    EXPECT_EQ(rows[0].values()[0].asText(), name);
    EXPECT_EQ(rows[0].columnName(0), name);
    std::int64_t changed = 0;
    ASSERT_TRUE(db.deleteAll(QueryRequest::table(name).filter(column(name) == name), &changed)) << db.error();
    EXPECT_EQ(changed, 1);
    EXPECT_EQ(scalarInteger(db, "SELECT COUNT(*) FROM victims"), 1) << name;
    EXPECT_EQ(scalarInteger(db, "SELECT COUNT(*) FROM " + q), 1) << name;
  }
}
