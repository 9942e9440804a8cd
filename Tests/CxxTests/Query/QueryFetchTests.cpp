// Running requests (issue 40): Database::fetch, fetchCount, deleteAll and
// fetchAll<T> give what the same SQL written by hand gives; and a property
// test over random filters, orderings and limits on random data.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "QueryTestSupport.hpp"

using namespace sqlitebridge;
using namespace sqlitebridge_test;

namespace {

struct Book {
  std::int64_t id = 0;
  std::string title;
  std::optional<std::int64_t> year;
};

}  // namespace

template <>
struct sqlitebridge::RecordTraits<Book> {
  static constexpr const char* table = "books";
  static std::vector<std::string> primaryKey() { return {"id"}; }
  static bool read(const RowView& row, Book& out) {
    return row.get("id", out.id) && row.get("title", out.title) && row.get("year", out.year);
  }
  static void write(const Book& in, NamedValues& out) {
    out.add("id", in.id);
    out.add("title", in.title);
    out.add("year", in.year ? Value(*in.year) : Value());
  }
};

TEST(QueryFetch, FetchReturnsTheRowsOfTheSameHandWrittenSQL) {
  Database db = openLibrary();
  EXPECT_EQ(fetched(db, QueryRequest::table("books").filter(column("year") > 2000).order({column("title").desc()})),
            dump(db, "SELECT * FROM books WHERE year > 2000 ORDER BY title DESC"));
  EXPECT_EQ(fetched(db, QueryRequest::table("books")
                            .select({column("authorId"), count(column("id")).aliased("n")})
                            .filter(column("authorId").isNotNull())
                            .group({column("authorId")})
                            .having(count(column("id")) >= 1)
                            .order({column("authorId")})),
            dump(db,
                 "SELECT authorId, COUNT(id) AS n FROM books WHERE authorId IS NOT NULL GROUP BY authorId "
                 "HAVING COUNT(id) >= 1 ORDER BY authorId"));
  EXPECT_EQ(
      fetched(db, QueryRequest::table("authors").select({column("country")}).distinct().order({column("country")})),
      dump(db, "SELECT DISTINCT country FROM authors ORDER BY country"));
  EXPECT_EQ(fetched(db, QueryRequest::table("books").filter(column("year") == Value()).limit(5)),
            dump(db, "SELECT * FROM books WHERE year IS NULL LIMIT 5"));
}

TEST(QueryFetch, FetchAppendsRowsAndAppendsNothingOnFailure) {
  Database db = openLibrary();
  std::vector<Row> rows;
  ASSERT_TRUE(db.fetch(QueryRequest::table("authors").limit(1), &rows)) << db.error();
  ASSERT_TRUE(db.fetch(QueryRequest::table("authors").limit(2), &rows)) << db.error();
  EXPECT_EQ(rows.size(), 3u);
  // (Not a missing column: SQLite reads a double-quoted name that names no
  // column as a string, unless the connection turns that off.)
  EXPECT_FALSE(db.fetch(QueryRequest::table("authors").filter(count(column("id")) > 1), &rows));
  EXPECT_TRUE(contains(db.lastError().message, "misuse of aggregate")) << db.lastError().message;
  EXPECT_EQ(rows.size(), 3u);
  EXPECT_TRUE(db.fetch(QueryRequest::table("authors"), nullptr)) << db.error();
}

TEST(QueryFetch, FetchCountEqualsTheHandWrittenCount) {
  Database db = openLibrary();
  const std::vector<std::pair<QueryRequest, std::string>> cases = {
      {QueryRequest::table("books"), "SELECT COUNT(*) FROM books"},
      {QueryRequest::table("books").filter(column("year") > 2000), "SELECT COUNT(*) FROM books WHERE year > 2000"},
      {QueryRequest::table("books").limit(2, 1), "SELECT COUNT(*) FROM (SELECT * FROM books LIMIT 2 OFFSET 1)"},
      {QueryRequest::table("books").limit(10, 3), "SELECT 1"},
      {QueryRequest::table("authors").select({column("country")}).distinct(),
       "SELECT COUNT(*) FROM (SELECT DISTINCT country FROM authors)"},
      {QueryRequest::table("books").select({column("authorId")}).group({column("authorId")}),
       "SELECT COUNT(*) FROM (SELECT authorId FROM books GROUP BY authorId)"},
      {QueryRequest::table("books").joining("authors", JoinKind::Required).filter(column("authors", "id") == 1),
       "SELECT COUNT(*) FROM books JOIN authors ON authors.id = books.authorId WHERE authors.id = 1"},
  };
  for (const auto& [request, handWritten] : cases) {
    std::int64_t count = -1;
    ASSERT_TRUE(db.fetchCount(request, count)) << db.error();
    EXPECT_EQ(count, scalarInteger(db, handWritten)) << handWritten;
    std::vector<Row> rows;
    ASSERT_TRUE(db.fetch(request, &rows)) << db.error();
    EXPECT_EQ(count, static_cast<std::int64_t>(rows.size())) << handWritten;
  }
}

TEST(QueryFetch, DeleteAllDeletesWhatTheRequestSelects) {
  Database db = openLibrary();
  ASSERT_TRUE(db.executeScript("PRAGMA foreign_keys = OFF")) << db.error();
  std::int64_t changed = -1;
  ASSERT_TRUE(db.deleteAll(QueryRequest::table("reviews").filter(column("stars") < 5), &changed)) << db.error();
  EXPECT_EQ(changed, 2);
  EXPECT_EQ(dump(db, "SELECT id FROM reviews"), (std::vector<std::string>{"id=int:1"}));
  // Order and limit: the two most recent books (a NULL year sorts last in DESC).
  ASSERT_TRUE(db.deleteAll(QueryRequest::table("books").order({column("year").desc()}).limit(2), &changed))
      << db.error();
  EXPECT_EQ(changed, 2);
  EXPECT_EQ(dump(db, "SELECT id FROM books ORDER BY id"), (std::vector<std::string>{"id=int:1", "id=int:4"}));
  ASSERT_TRUE(db.deleteAll(QueryRequest::table("authors"), &changed)) << db.error();
  EXPECT_EQ(changed, 3);
  ASSERT_TRUE(db.deleteAll(QueryRequest::table("authors"))) << db.error();
}

TEST(QueryFetch, DeleteAllWithALimitOnAWithoutRowidTableGoesByItsPrimaryKey) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(
      db.executeScript("CREATE TABLE k (x, y, z, PRIMARY KEY (x, y)) WITHOUT ROWID;"
                       "INSERT INTO k VALUES (1, 1, 'a'), (1, 2, 'b'), (2, 1, 'c'), (2, 2, 'd');"))
      << db.error();
  std::int64_t changed = 0;
  ASSERT_TRUE(
      db.deleteAll(QueryRequest::table("k").filter(column("z") != "a").order({column("z").desc()}).limit(2), &changed))
      << db.error();
  EXPECT_EQ(changed, 2);
  EXPECT_EQ(dump(db, "SELECT z FROM k ORDER BY z"), (std::vector<std::string>{"z=text:a", "z=text:b"}));
}

TEST(QueryFetch, FetchAllReadsRecordsThroughRecordTraits) {
  Database db = openLibrary();
  const QueryRequest request = QueryRequest::table("books").filter(column("year").isNotNull()).order({column("year")});
  std::vector<Book> books;
  ASSERT_TRUE(db.fetchAll(request, books)) << db.error();
  std::vector<Book> expected;
  ASSERT_TRUE(db.fetch<Book>("SELECT * FROM books WHERE year IS NOT NULL ORDER BY year", {}, expected)) << db.error();
  ASSERT_EQ(books.size(), expected.size());
  ASSERT_EQ(books.size(), 3u);
  for (std::size_t i = 0; i < books.size(); ++i) {
    EXPECT_EQ(books[i].id, expected[i].id);
    EXPECT_EQ(books[i].title, expected[i].title);
    EXPECT_EQ(books[i].year, expected[i].year);
  }
  // A selection without the record's columns fails as the record fetch
  // does (SQLITE_RANGE naming the column), appending nothing.
  EXPECT_FALSE(db.fetchAll(request.select({column("id")}), books));
  EXPECT_EQ(db.lastError().code, SQLITE_RANGE);
  EXPECT_EQ(books.size(), 3u);
  // A request that does not render fails before anything runs.
  EXPECT_FALSE(db.fetchAll(QueryRequest::table("books").joining("loose", JoinKind::Required), books));
  EXPECT_EQ(books.size(), 3u);
}

// MARK: Property test

namespace {

// A random request over `r` and the same query written by hand, fully
// parenthesized, its (test-chosen) literals written into the text.
class RandomQueries {
 public:
  explicit RandomQueries(std::uint32_t seed) : random_(seed) {}

  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(random_); }

  std::pair<Expression, std::string> number(int depth) {
    const int choice = depth <= 0 ? pick(3) : pick(6);
    switch (choice) {
      case 0:
        return {column("a"), "a"};
      case 1:
        return {column("b"), "b"};
      case 2: {
        const int literal = pick(11) - 5;
        return {value(literal), "(" + std::to_string(literal) + ")"};
      }
      case 3: {
        static const std::pair<double, const char*> reals[] = {{0.5, "0.5"}, {-1.25, "(-1.25)"}, {3.0, "3.0"}};
        const auto& real = reals[pick(3)];
        return {value(real.first), real.second};
      }
      case 4: {
        auto [left, leftSQL] = number(depth - 1);
        auto [right, rightSQL] = number(depth - 1);
        switch (pick(4)) {
          case 0:
            return {left + right, "(" + leftSQL + " + " + rightSQL + ")"};
          case 1:
            return {left - right, "(" + leftSQL + " - " + rightSQL + ")"};
          case 2:
            return {left * right, "(" + leftSQL + " * " + rightSQL + ")"};
          default:
            return {left / right, "(" + leftSQL + " / " + rightSQL + ")"};
        }
      }
      default: {
        auto [operand, operandSQL] = number(depth - 1);
        if (pick(2) == 0) return {-operand, "(-" + operandSQL + ")"};
        return {abs(operand), "abs(" + operandSQL + ")"};
      }
    }
  }

  std::pair<Expression, std::string> predicate(int depth) {
    const int choice = depth <= 0 ? pick(5) : pick(8);
    switch (choice) {
      case 0: {
        auto [left, leftSQL] = number(depth);
        auto [right, rightSQL] = number(depth);
        static const char* texts[] = {"=", "<>", "<", "<=", ">", ">="};
        const int op = pick(6);
        const Expression expressions[] = {left == right, left != right, left<right, left <= right, left> right,
                                          left >= right};
        return {expressions[op], "(" + leftSQL + " " + texts[op] + " " + rightSQL + ")"};
      }
      case 1: {
        auto [operand, operandSQL] = number(depth);
        if (pick(2) == 0) return {operand == Value(), "(" + operandSQL + " IS NULL)"};
        return {operand.isNotNull(), "(" + operandSQL + " IS NOT NULL)"};
      }
      case 2: {
        static const char* patterns[] = {"x%", "%y", "_", "%", "X_"};
        const char* pattern = patterns[pick(5)];
        return {column("c").like(value(pattern)), "(c LIKE '" + std::string(pattern) + "')"};
      }
      case 3: {
        std::vector<Value> values;
        std::string list;
        const int size = pick(4);
        for (int i = 0; i < size; ++i) {
          const int literal = pick(11) - 5;
          values.emplace_back(literal);
          list += (i > 0 ? ", " : "") + std::to_string(literal);
        }
        return {column("a").in(values), "(a IN (" + list + "))"};
      }
      case 4:
        return {column("c") == "xy", "(c = 'xy')"};
      case 5: {
        auto [operand, operandSQL] = predicate(depth - 1);
        return {!operand, "(NOT " + operandSQL + ")"};
      }
      default: {
        auto [left, leftSQL] = predicate(depth - 1);
        auto [right, rightSQL] = predicate(depth - 1);
        if (choice == 6) return {left && right, "(" + leftSQL + " AND " + rightSQL + ")"};
        return {left || right, "(" + leftSQL + " OR " + rightSQL + ")"};
      }
    }
  }

  std::mt19937& engine() { return random_; }

 private:
  std::mt19937 random_;
};

}  // namespace

TEST(QueryProperty, RandomRequestsReturnTheRowsOfTheSameQueryWrittenByHand) {
  RandomQueries random(40);
  Database db = Database::open(":memory:");
  ASSERT_TRUE(
      db.executeScript("CREATE TABLE p (id INTEGER PRIMARY KEY, k INTEGER);"
                       "CREATE TABLE r (id INTEGER PRIMARY KEY, a INTEGER, b REAL, c TEXT, "
                       "  pid INTEGER REFERENCES p(id));"
                       "INSERT INTO p VALUES (1, 1), (2, 2), (3, 0), (4, 1), (5, 2), (6, 0);"))
      << db.error();
  static const char* texts[] = {"x", "y", "xy", "", "XY", "yx"};
  for (int id = 1; id <= 60; ++id) {
    const Value a = random.pick(5) == 0 ? Value() : Value(random.pick(11) - 5);
    const Value b = random.pick(5) == 0 ? Value() : Value((random.pick(41) - 20) / 4.0);
    const Value c = random.pick(6) == 0 ? Value() : Value(texts[random.pick(6)]);
    const Value pid = random.pick(4) == 0 ? Value() : Value(random.pick(6) + 1);
    ASSERT_TRUE(db.execute("INSERT INTO r VALUES (?, ?, ?, ?, ?)", {Value(id), a, b, c, pid})) << db.error();
  }
  for (int iteration = 0; iteration < 300; ++iteration) {
    QueryRequest request = QueryRequest::table("r");
    // A join through the association to the parent: required with a filter
    // on the parent, optional, or none.
    std::string join;
    const Association parent = Association::belongsTo("p").forKey("parent");
    switch (random.pick(3)) {
      case 0: {
        const int k = random.pick(3);
        request = request.including(parent.filter(column("k") >= k), IncludeKind::JoiningRequired);
        join = " JOIN p ON p.id = r.pid AND p.k >= " + std::to_string(k);
        break;
      }
      case 1:
        request = request.including(parent, IncludeKind::JoiningOptional);
        join = " LEFT JOIN p ON p.id = r.pid";
        break;
      default:
        break;
    }
    std::string where;
    const int filters = random.pick(3);
    for (int f = 0; f < filters; ++f) {
      auto [predicate, predicateSQL] = random.predicate(random.pick(4));
      request = request.filter(predicate);
      where += (f > 0 ? " AND " : " WHERE ") + predicateSQL;
    }
    // Orderings end with the key, so that the order is total.
    std::vector<Expression> orderings;
    std::string orderBy = " ORDER BY ";
    static const char* columns[] = {"a", "b", "c"};
    for (int o = random.pick(3); o > 0; --o) {
      const char* name = columns[random.pick(3)];
      const bool descending = random.pick(2) == 0;
      orderings.push_back(descending ? column(name).desc() : column(name).asc());
      orderBy += std::string(name) + (descending ? " DESC, " : " ASC, ");
    }
    orderings.push_back(column("id"));
    orderBy += "r.id";
    request = request.order(orderings);
    std::string limit;
    if (random.pick(3) == 0) {
      const int count = random.pick(20);
      const int offset = random.pick(10);
      request = request.limit(count, offset);
      limit = " LIMIT " + std::to_string(count) + " OFFSET " + std::to_string(offset);
    }
    const std::string handWritten = "SELECT r.* FROM r" + join + where + orderBy + limit;
    SQL rendered;
    ASSERT_TRUE(request.makeSQL(db, rendered)) << db.error();
    ASSERT_EQ(fetched(db, request), dump(db, handWritten))
        << "rendered: " << rendered.text() << "\nby hand: " << handWritten;
    std::int64_t count = -1;
    ASSERT_TRUE(db.fetchCount(request, count)) << db.error();
    ASSERT_EQ(count, scalarInteger(db, "SELECT COUNT(*) FROM (" + handWritten + ")")) << handWritten;
  }
}
