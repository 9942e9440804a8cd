// Associations (issue 40): belongsTo / hasOne / hasMany, required and
// optional, prefetched to-many rows (one extra query), counts in
// annotations, filters and HAVING, filters on associated tables, self-joins
// and two associations to one table under different keys; each against the
// same query written by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "QueryTestSupport.hpp"

using namespace sqlitebridge;
using namespace sqlitebridge_test;

namespace {

Database openPeople() {
  Database db = openLibrary();
  EXPECT_TRUE(db.executeScript(
      "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, "
      "  managerId INTEGER REFERENCES people(id));"
      "INSERT INTO people VALUES (1, 'Boss', NULL), (2, 'Mid', 1), (3, 'Low', 2), (4, 'Solo', NULL);"
      "CREATE TABLE profiles (id INTEGER PRIMARY KEY, authorId INTEGER UNIQUE REFERENCES authors, bio TEXT);"
      "INSERT INTO profiles VALUES (1, 2, 'Bob''s bio');"
      "INSERT INTO translations VALUES (1, 1, 2), (2, 2, NULL);"))
      << db.error();
  return db;
}

const Association kAuthor = Association::belongsTo("authors").forKey("author");
const Association kBooks = Association::hasMany("books");

}  // namespace

TEST(QueryAssociations, IncludingRequiredBelongsToSelectsTheScopeAfterTheRequestsColumns) {
  Database db = openLibrary();
  const QueryRequest request =
      QueryRequest::table("books").including(kAuthor, IncludeKind::IncludingRequired).order({column("id")});
  EXPECT_EQ(sqlOf(db, request),
            "SELECT \"books\".*, \"authors\".* FROM \"books\" JOIN \"authors\" ON \"authors\".\"id\" = "
            "\"books\".\"authorId\" ORDER BY \"books\".\"id\"");
  EXPECT_EQ(
      fetched(db, request),
      dump(db, "SELECT books.*, authors.* FROM books JOIN authors ON authors.id = books.authorId ORDER BY books.id"));
  std::vector<ScopeSpan> spans;
  ASSERT_TRUE(request.scopes(db, spans)) << db.error();
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_EQ(spans[0].key, "author");
  EXPECT_EQ(spans[0].start, 4);
  EXPECT_EQ(spans[0].count, 3);
}

TEST(QueryAssociations, IncludingOptionalKeepsRowsWithoutAMatchAndFiltersInTheJoin) {
  Database db = openPeople();
  const QueryRequest request =
      QueryRequest::table("authors")
          .including(Association::hasOne("profiles").select({column("bio")}), IncludeKind::IncludingOptional)
          .order({column("id")});
  EXPECT_EQ(sqlOf(db, request),
            "SELECT \"authors\".*, \"profiles\".\"bio\" FROM \"authors\" LEFT JOIN \"profiles\" ON "
            "\"profiles\".\"authorId\" = \"authors\".\"id\" ORDER BY \"authors\".\"id\"");
  EXPECT_EQ(fetched(db, request), dump(db,
                                       "SELECT authors.*, profiles.bio FROM authors LEFT JOIN profiles ON "
                                       "profiles.authorId = authors.id ORDER BY authors.id"));
  // An optional association's filter is part of its ON clause: the rows stay.
  const QueryRequest filtered =
      QueryRequest::table("books")
          .including(kAuthor.filter(column("country") == "US"), IncludeKind::IncludingOptional)
          .order({column("id")});
  EXPECT_EQ(fetched(db, filtered), dump(db,
                                        "SELECT books.*, authors.* FROM books LEFT JOIN authors ON authors.id = "
                                        "books.authorId AND authors.country = 'US' ORDER BY books.id"));
  std::vector<ScopeSpan> spans;
  ASSERT_TRUE(request.scopes(db, spans)) << db.error();
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_EQ(spans[0].start, 3);
  EXPECT_EQ(spans[0].count, 1);
}

TEST(QueryAssociations, JoiningRequiredFiltersOnTheAssociatedTableWithoutSelectingIt) {
  Database db = openLibrary();
  const QueryRequest request = QueryRequest::table("books")
                                   .including(kAuthor.filter(column("name") == "Ann"), IncludeKind::JoiningRequired)
                                   .order({column("id")});
  EXPECT_EQ(fetched(db, request), dump(db,
                                       "SELECT books.* FROM books JOIN authors ON authors.id = books.authorId AND "
                                       "authors.name = 'Ann' ORDER BY books.id"));
  // Reached from the request through an alias.
  const QueryRequest aliased = QueryRequest::table("books")
                                   .including(kAuthor.aliased("a"), IncludeKind::JoiningRequired)
                                   .filter(column("a", "country") == "US");
  EXPECT_EQ(sqlOf(db, aliased),
            "SELECT \"books\".* FROM \"books\" JOIN \"authors\" AS \"a\" ON \"a\".\"id\" = \"books\".\"authorId\" "
            "WHERE \"a\".\"country\" = ?");
  EXPECT_EQ(fetched(db, aliased), dump(db, "SELECT * FROM books WHERE id = 3"));
}

TEST(QueryAssociations, SelfJoinsAndTwoAssociationsToOneTableTakeTheirKeysAsNames) {
  Database db = openPeople();
  const QueryRequest managers =
      QueryRequest::table("people")
          .including(Association::belongsTo("people").forKey("manager").select({column("name")}),
                     IncludeKind::IncludingOptional)
          .order({column("id")});
  EXPECT_EQ(sqlOf(db, managers),
            "SELECT \"people\".*, \"manager\".\"name\" FROM \"people\" LEFT JOIN \"people\" AS \"manager\" ON "
            "\"manager\".\"id\" = \"people\".\"managerId\" ORDER BY \"people\".\"id\"");
  EXPECT_EQ(fetched(db, managers), dump(db,
                                        "SELECT p.*, m.name FROM people p LEFT JOIN people m ON m.id = p.managerId "
                                        "ORDER BY p.id"));
  const QueryRequest both =
      QueryRequest::table("translations")
          .including(Association::belongsTo("authors", ForeignKeyColumns{{"authorId"}, {}}).forKey("author"),
                     IncludeKind::IncludingRequired)
          .including(Association::belongsTo("authors", ForeignKeyColumns{{"translatorId"}, {}}).forKey("translator"),
                     IncludeKind::IncludingOptional)
          .order({column("id")});
  EXPECT_EQ(sqlOf(db, both),
            "SELECT \"translations\".*, \"authors\".*, \"translator\".* FROM \"translations\" JOIN \"authors\" ON "
            "\"authors\".\"id\" = \"translations\".\"authorId\" LEFT JOIN \"authors\" AS \"translator\" ON "
            "\"translator\".\"id\" = \"translations\".\"translatorId\" ORDER BY \"translations\".\"id\"");
  EXPECT_EQ(fetched(db, both), dump(db,
                                    "SELECT t.*, a.*, tr.* FROM translations t JOIN authors a ON a.id = t.authorId "
                                    "LEFT JOIN authors tr ON tr.id = t.translatorId ORDER BY t.id"));
  std::vector<ScopeSpan> spans;
  ASSERT_TRUE(both.scopes(db, spans)) << db.error();
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0].key, "author");
  EXPECT_EQ(spans[1].key, "translator");
  EXPECT_EQ(spans[1].start, 6);
}

TEST(QueryAssociations, CountsAnnotateFilterAndHave) {
  Database db = openPeople();
  const QueryRequest annotated =
      QueryRequest::table("authors").annotated({kBooks.count().aliased("bookCount")}).order({column("id")});
  EXPECT_EQ(sqlOf(db, annotated),
            "SELECT *, (SELECT COUNT(*) FROM \"books\" WHERE \"books\".\"authorId\" = \"authors\".\"id\") AS "
            "\"bookCount\" FROM \"authors\" ORDER BY \"id\"");
  EXPECT_EQ(fetched(db, annotated),
            dump(db,
                 "SELECT *, (SELECT COUNT(*) FROM books WHERE authorId = authors.id) AS bookCount FROM authors "
                 "ORDER BY id"));
  EXPECT_EQ(fetched(db, QueryRequest::table("authors").having(kBooks.count() > 1)),
            dump(db, "SELECT * FROM authors WHERE id = 1"));
  EXPECT_EQ(fetched(db, QueryRequest::table("authors").filter(kBooks.isEmpty())),
            dump(db, "SELECT * FROM authors WHERE id = 3"));
  EXPECT_EQ(fetched(db, QueryRequest::table("authors").filter(kBooks.filter(column("year") > 2005).count() == 1)),
            dump(db, "SELECT * FROM authors WHERE id = 2"));
  // Self-referencing: each person's reports.
  EXPECT_EQ(
      fetched(db, QueryRequest::table("people")
                      .select({column("name"), Association::hasMany("people").forKey("reports").count().aliased("n")})
                      .order({column("id")})),
      dump(db,
           "SELECT name, (SELECT COUNT(*) FROM people r WHERE r.managerId = people.id) AS n FROM people "
           "ORDER BY id"));
}

TEST(QueryAssociations, IncludingAllPrefetchesEveryOriginsRowsInOneQuery) {
  Database db = openLibrary();
  const QueryRequest authors = QueryRequest::table("authors")
                                   .filter(column("id") < 3)
                                   .including(kBooks.order({column("year").desc()}), IncludeKind::IncludingAll)
                                   .order({column("id")});
  // The main query selects no book.
  EXPECT_EQ(sqlOf(db, authors), "SELECT * FROM \"authors\" WHERE \"id\" < ? ORDER BY \"id\"");
  SQL prefetch;
  std::vector<std::string> keyColumns;
  ASSERT_TRUE(authors.makePrefetchSQL(db, 0, prefetch, keyColumns)) << db.error();
  EXPECT_EQ(prefetch.text(),
            "SELECT \"books\".*, \"books\".\"authorId\" AS \"sqlitebridge_key_0\" FROM \"books\" WHERE "
            "\"books\".\"authorId\" IN (SELECT \"authors\".\"id\" FROM \"authors\" WHERE \"id\" < ? ORDER BY \"id\") "
            "ORDER BY \"books\".\"year\" DESC");
  EXPECT_EQ(keyColumns, (std::vector<std::string>{"id"}));
  std::vector<Row> rows;
  ASSERT_TRUE(db.execute(prefetch, &rows)) << db.error();
  EXPECT_EQ(rows.size(), 3u);
  // For fetchOne's row only: the origin subquery is limited as fetchOne is.
  ASSERT_TRUE(authors.order({column("id").desc()}).makeFirstRowPrefetchSQL(db, 0, prefetch, keyColumns)) << db.error();
  EXPECT_EQ(prefetch.text(),
            "SELECT \"books\".*, \"books\".\"authorId\" AS \"sqlitebridge_key_0\" FROM \"books\" WHERE "
            "\"books\".\"authorId\" IN (SELECT \"authors\".\"id\" FROM \"authors\" WHERE \"id\" < ? ORDER BY \"id\" "
            "DESC LIMIT ?) ORDER BY \"books\".\"year\" DESC");
  rows.clear();
  ASSERT_TRUE(db.execute(prefetch, &rows)) << db.error();
  std::vector<Row> expected;
  ASSERT_TRUE(db.execute("SELECT * FROM books WHERE authorId = 2", &expected)) << db.error();
  EXPECT_EQ(rows.size(), expected.size());
  // A selection without the origin's key: makeSQL adds it after all the
  // other columns, under the name keyColumns gives.
  const QueryRequest names =
      QueryRequest::table("authors").select({column("name")}).including(kBooks, IncludeKind::IncludingAll);
  EXPECT_EQ(sqlOf(db, names), "SELECT \"name\", \"id\" AS \"sqlitebridge_origin_0\" FROM \"authors\"");
  ASSERT_TRUE(names.makePrefetchSQL(db, 0, prefetch, keyColumns)) << db.error();
  EXPECT_EQ(keyColumns, (std::vector<std::string>{"sqlitebridge_origin_0"}));
  const QueryRequest withKey = QueryRequest::table("authors")
                                   .select({column("NAME"), column("ID")})
                                   .including(kBooks, IncludeKind::IncludingAll);
  EXPECT_EQ(sqlOf(db, withKey), "SELECT \"NAME\", \"ID\" FROM \"authors\"");
  ASSERT_TRUE(withKey.makePrefetchSQL(db, 0, prefetch, keyColumns)) << db.error();
  EXPECT_EQ(keyColumns, (std::vector<std::string>{"id"}));
  // No such association, and including(all:) of a to-one association.
  EXPECT_FALSE(authors.makePrefetchSQL(db, 1, prefetch, keyColumns));
  EXPECT_EQ(db.lastError().code, SQLITE_RANGE);
  const Rendered toOne = render(db, QueryRequest::table("books").including(kAuthor, IncludeKind::IncludingAll));
  EXPECT_FALSE(toOne.ok);
  EXPECT_TRUE(contains(toOne.error.message, "needs a hasMany")) << toOne.error.message;
}

TEST(QueryAssociations, WhatTheSchemaCannotDecideIsAnErrorNamingTheTables) {
  Database db = openPeople();
  const Rendered none = render(db, QueryRequest::table("loose").including(kAuthor, IncludeKind::IncludingRequired));
  EXPECT_FALSE(none.ok);
  EXPECT_EQ(none.error.code, SQLITE_ERROR);
  EXPECT_TRUE(contains(none.error.message, "no foreign key joins \"loose\" and \"authors\"")) << none.error.message;
  const Rendered several =
      render(db, QueryRequest::table("translations").including(kAuthor, IncludeKind::IncludingRequired));
  EXPECT_FALSE(several.ok);
  EXPECT_TRUE(contains(several.error.message, "2 foreign keys join \"translations\" and \"authors\""))
      << several.error.message;
  const Rendered sameKey = render(db, QueryRequest::table("books")
                                          .including(kAuthor, IncludeKind::IncludingRequired)
                                          .including(kAuthor, IncludeKind::JoiningOptional));
  EXPECT_FALSE(sameKey.ok);
  EXPECT_EQ(sameKey.error.code, SQLITE_MISUSE);
  EXPECT_TRUE(contains(sameKey.error.message, "have the key \"author\"")) << sameKey.error.message;
  const Rendered missing =
      render(db, QueryRequest::table("books").including(Association::hasMany("nowhere"), IncludeKind::IncludingAll));
  EXPECT_FALSE(missing.ok);
  EXPECT_TRUE(contains(missing.error.message, "nowhere")) << missing.error.message;
}

TEST(QueryAssociations, AssociatedReachesTheDestinationRowsOfTheRequestsRows) {
  Database db = openPeople();
  const QueryRequest annsBooks =
      QueryRequest::table("authors").filter(column("id") == 1).associated(kBooks).order({column("id")});
  EXPECT_EQ(sqlOf(db, annsBooks),
            "SELECT * FROM \"books\" WHERE \"authorId\" IN (SELECT \"authors\".\"id\" FROM \"authors\" WHERE "
            "\"id\" = ?) ORDER BY \"id\"");
  EXPECT_EQ(fetched(db, annsBooks), dump(db, "SELECT * FROM books WHERE authorId = 1 ORDER BY id"));
  EXPECT_EQ(fetched(db, QueryRequest::table("books").filterKey(Value(std::int64_t{3})).associated(kAuthor)),
            dump(db, "SELECT * FROM authors WHERE id = 2"));
  // Self-referencing, both ways.
  const QueryRequest mid = QueryRequest::table("people").filterKey(Value(std::int64_t{2}));
  EXPECT_EQ(fetched(db, mid.associated(Association::hasMany("people").forKey("reports"))),
            dump(db, "SELECT * FROM people WHERE id = 3"));
  EXPECT_EQ(fetched(db, mid.associated(Association::belongsTo("people").forKey("manager"))),
            dump(db, "SELECT * FROM people WHERE id = 1"));
}

TEST(QueryAssociations, NestedAssociationsJoinToTheirParentAndTheirSpansNameIt) {
  Database db = openPeople();
  const Association book = Association::belongsTo("books").forKey("book");
  const Association profile = Association::hasOne("profiles").forKey("profile").select({column("bio")});
  const QueryRequest request = QueryRequest::table("reviews")
                                   .including(book.including(kAuthor.including(profile, IncludeKind::IncludingOptional),
                                                             IncludeKind::IncludingRequired),
                                              IncludeKind::IncludingRequired)
                                   .order({column("id")});
  EXPECT_EQ(
      sqlOf(db, request),
      "SELECT \"reviews\".*, \"books\".*, \"authors\".*, \"profiles\".\"bio\" FROM \"reviews\" JOIN \"books\" "
      "ON \"books\".\"id\" = \"reviews\".\"bookId\" JOIN \"authors\" ON \"authors\".\"id\" = \"books\".\"authorId\" "
      "LEFT JOIN \"profiles\" ON \"profiles\".\"authorId\" = \"authors\".\"id\" ORDER BY \"reviews\".\"id\"");
  EXPECT_EQ(fetched(db, request),
            dump(db,
                 "SELECT reviews.*, books.*, authors.*, profiles.bio FROM reviews JOIN books ON books.id = "
                 "reviews.bookId JOIN authors ON authors.id = books.authorId LEFT JOIN profiles ON "
                 "profiles.authorId = authors.id ORDER BY reviews.id"));
  std::vector<ScopeSpan> spans;
  ASSERT_TRUE(request.scopes(db, spans)) << db.error();
  ASSERT_EQ(spans.size(), 3u);
  EXPECT_EQ(spans[0].key, "book");
  EXPECT_EQ(spans[0].start, 3);
  EXPECT_EQ(spans[0].count, 4);
  EXPECT_EQ(spans[0].parent, -1);
  EXPECT_EQ(spans[1].key, "author");
  EXPECT_EQ(spans[1].start, 7);
  EXPECT_EQ(spans[1].count, 3);
  EXPECT_EQ(spans[1].parent, 0);
  EXPECT_EQ(spans[2].key, "profile");
  EXPECT_EQ(spans[2].start, 10);
  EXPECT_EQ(spans[2].count, 1);
  EXPECT_EQ(spans[2].parent, 1);
  // Under a parent only joined, a selected association's span has the
  // request as its parent; the parent's filter still joins.
  const QueryRequest throughJoin = QueryRequest::table("reviews").including(
      book.filter(column("year") > 2000).including(kAuthor, IncludeKind::IncludingRequired),
      IncludeKind::JoiningRequired);
  EXPECT_EQ(fetched(db, throughJoin),
            dump(db,
                 "SELECT reviews.*, authors.* FROM reviews JOIN books ON books.id = reviews.bookId AND books.year > "
                 "2000 JOIN authors ON authors.id = books.authorId"));
  spans.clear();
  ASSERT_TRUE(throughJoin.scopes(db, spans)) << db.error();
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_EQ(spans[0].key, "author");
  EXPECT_EQ(spans[0].start, 3);
  EXPECT_EQ(spans[0].parent, -1);
  // A prefetch inside an association, and an association inside a
  // prefetch, are not supported: a misuse naming the tables.
  const Rendered nestedPrefetch = render(
      db,
      QueryRequest::table("reviews").including(
          book.including(Association::hasMany("reviews"), IncludeKind::IncludingAll), IncludeKind::IncludingRequired));
  EXPECT_FALSE(nestedPrefetch.ok);
  EXPECT_EQ(nestedPrefetch.error.code, SQLITE_MISUSE);
  EXPECT_TRUE(contains(nestedPrefetch.error.message, "is not supported")) << nestedPrefetch.error.message;
  const Rendered underPrefetch =
      render(db, QueryRequest::table("authors").including(
                     kBooks.including(Association::hasMany("reviews"), IncludeKind::IncludingRequired),
                     IncludeKind::IncludingAll));
  EXPECT_FALSE(underPrefetch.ok);
  EXPECT_TRUE(contains(underPrefetch.error.message, "is not supported")) << underPrefetch.error.message;
}
