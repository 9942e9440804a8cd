// Named arguments: NamedValues for `:name`, `@name` and `$name` through
// Database::execute, Database::forEachRow and Statement::bind; the
// begin/match/end steps the Swift facade drives; the mismatches (missing,
// unknown, repeated, positional), each SQLITE_RANGE naming the parameter;
// and how braced lists pick positional or named overloads.
#include <map>
#include <string>
#include <vector>

#include "TestSupport.hpp"
#include <sqlitebridge/interop/Interop.hpp>

using sqlitebridge::Database;
using sqlitebridge::NamedValues;
using sqlitebridge::Row;
using sqlitebridge::RowView;
using sqlitebridge::Statement;
using sqlitebridge::StepResult;
using sqlitebridge::Value;
using sqlitebridge::interop::ParameterMatch;
using sqlitebridge::interop::StatementAccess;
using namespace sqlitebridge_test;

namespace {

class NamedBinding : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT)")) << db_.error();
  }
  std::int64_t count() { return scalarInteger(db_, "SELECT count(*) FROM notes"); }

  /// The single row `sql` returns with named `arguments` (empty on failure,
  /// which is also a test failure).
  Row selectNamed(const std::string& sql, const NamedValues& arguments) {
    std::vector<Row> rows;
    EXPECT_TRUE(db_.execute(sql, arguments, &rows)) << db_.error() << " in " << sql;
    EXPECT_EQ(rows.size(), 1u);
    return rows.empty() ? Row() : rows[0];
  }

  /// Checks that the last call failed with SQLITE_RANGE and a message that
  /// holds every one of `parts`.
  void expectRangeError(const std::vector<std::string>& parts, const std::string& sql) {
    const auto error = db_.lastError();
    EXPECT_EQ(error.code, SQLITE_RANGE) << error.message;
    EXPECT_EQ(error.extendedCode, SQLITE_RANGE) << error.message;
    for (const std::string& part : parts) {
      EXPECT_NE(error.message.find(part), std::string::npos) << "'" << part << "' not in: " << error.message;
    }
    EXPECT_EQ(error.sql, sql);
  }

  Database db_ = Database::open(":memory:");
};

}  // namespace

TEST_F(NamedBinding, ExecuteBindsColonNamesFromNamedValues) {
  ASSERT_TRUE(db_.execute("INSERT INTO notes(id, title) VALUES (:id, :title)", NamedValues{{"id", 1}, {"title", "x"}}))
      << db_.error();
  EXPECT_EQ(dump(db_, "SELECT id, title FROM notes"), (std::vector<std::string>{"id=int:1|title=text:x"}));
}

TEST_F(NamedBinding, ArgumentOrderDoesNotMatter) {
  ASSERT_TRUE(db_.execute("INSERT INTO notes(id, title) VALUES (:id, :title)", NamedValues{{"title", "y"}, {"id", 2}}))
      << db_.error();
  EXPECT_EQ(dump(db_, "SELECT id, title FROM notes"), (std::vector<std::string>{"id=int:2|title=text:y"}));
}

TEST_F(NamedBinding, KeysWithoutPrefixFillEachPrefix) {
  for (const std::string prefix : {":", "@", "$"}) {
    const std::string sql = "SELECT " + prefix + "a AS a, " + prefix + "b AS b";
    const Row row = selectNamed(sql, NamedValues{{"a", 1}, {"b", "two"}});
    EXPECT_EQ(row.value("a"), Value(1)) << sql;
    EXPECT_EQ(row.value("b"), Value("two")) << sql;
  }
  // Different prefixes in one statement, all filled by bare keys.
  const Row mixed = selectNamed("SELECT :a, @b, $c", NamedValues{{"a", 1}, {"b", 2}, {"c", 3}});
  ASSERT_EQ(mixed.size(), 3u);
  EXPECT_EQ(mixed.value(0), Value(1));
  EXPECT_EQ(mixed.value(1), Value(2));
  EXPECT_EQ(mixed.value(2), Value(3));
}

TEST_F(NamedBinding, KeysWithTheirPrefixFillThatParameter) {
  for (const std::string prefix : {":", "@", "$"}) {
    const std::string sql = "SELECT " + prefix + "v";
    const Row row = selectNamed(sql, NamedValues{{prefix + "v", 42}});
    EXPECT_EQ(row.value(0), Value(42)) << sql;
  }
}

TEST_F(NamedBinding, KeyWithAPrefixFillsOnlyThatPrefix) {
  // ":id" fills :id only, so @id is left without an argument.
  const std::string sql = "SELECT :id, @id";
  EXPECT_FALSE(db_.execute(sql, NamedValues{{":id", 1}}));
  expectRangeError({"no argument for parameter @id"}, sql);

  // Given separately, each prefix gets its own value.
  const Row row = selectNamed(sql, NamedValues{{":id", 1}, {"@id", 2}});
  EXPECT_EQ(row.value(0), Value(1));
  EXPECT_EQ(row.value(1), Value(2));

  // A key written with a prefix the statement does not use matches nothing.
  EXPECT_FALSE(db_.execute("SELECT :id", NamedValues{{"$id", 1}}));
  expectRangeError({"\"$id\"", "matches no parameter", ":id"}, "SELECT :id");
}

TEST_F(NamedBinding, BareKeyFillsTheSameNameUnderEveryPrefix) {
  const Row row = selectNamed("SELECT :id, @id, $id", NamedValues{{"id", 7}});
  ASSERT_EQ(row.size(), 3u);
  EXPECT_EQ(row.value(0), Value(7));
  EXPECT_EQ(row.value(1), Value(7));
  EXPECT_EQ(row.value(2), Value(7));
}

TEST_F(NamedBinding, SameNameUsedTwiceInTheSqlIsOneParameterBoundOnce) {
  Statement stmt = db_.prepare("SELECT :id, :id + 1, @x");
  ASSERT_TRUE(stmt.isValid()) << db_.error();
  EXPECT_EQ(stmt.parameterCount(), 2);
  ASSERT_TRUE(stmt.bind(NamedValues{{"id", 10}, {"x", "x"}})) << db_.error();
  ASSERT_EQ(stmt.step(), StepResult::Row) << db_.error();
  EXPECT_EQ(stmt.columnValue(0), Value(10));
  EXPECT_EQ(stmt.columnValue(1), Value(11));
  EXPECT_EQ(stmt.columnValue(2), Value("x"));
}

TEST_F(NamedBinding, ParameterWithoutArgumentFailsNamingItAndNothingRuns) {
  const std::string sql = "INSERT INTO notes(id, title) VALUES (:id, :title)";
  EXPECT_FALSE(db_.execute(sql, NamedValues{{"id", 1}}));
  expectRangeError({":title"}, sql);
  EXPECT_EQ(count(), 0);
  // No arguments at all names the first parameter.
  EXPECT_FALSE(db_.execute(sql, NamedValues()));
  expectRangeError({"no argument for parameter :id"}, sql);
  EXPECT_EQ(count(), 0);
}

TEST_F(NamedBinding, ArgumentMatchingNoParameterFailsNamingItAndListingTheParameters) {
  const std::string sql = "INSERT INTO notes(id, title) VALUES (:id, :title)";
  EXPECT_FALSE(db_.execute(sql, NamedValues{{"id", 1}, {"title", "t"}, {"nope", 3}}));
  expectRangeError({"\"nope\"", "matches no parameter", ":id, :title"}, sql);
  EXPECT_EQ(count(), 0);
  // A statement without parameters says so.
  EXPECT_FALSE(db_.execute("SELECT 1", NamedValues{{"x", 1}}));
  expectRangeError({"\"x\"", "it has none"}, "SELECT 1");
}

TEST_F(NamedBinding, SameArgumentGivenTwiceFails) {
  const std::string sql = "INSERT INTO notes(id, title) VALUES (:id, :title)";
  EXPECT_FALSE(db_.execute(sql, NamedValues{{"id", 1}, {":id", 2}, {"title", "t"}}));
  expectRangeError({"\":id\"", "twice", ":id"}, sql);
  EXPECT_FALSE(db_.execute(sql, NamedValues{{"title", "t"}, {"id", 1}, {"id", 2}}));
  expectRangeError({"\"id\"", "twice"}, sql);
  EXPECT_EQ(count(), 0);
}

TEST_F(NamedBinding, PositionalParameterWithNamedArgumentsFails) {
  EXPECT_FALSE(db_.execute("INSERT INTO notes(id, title) VALUES (?, :title)", NamedValues{{"title", "t"}}));
  expectRangeError({"parameter 1", "positional"}, "INSERT INTO notes(id, title) VALUES (?, :title)");
  EXPECT_FALSE(db_.execute("INSERT INTO notes(id, title) VALUES (:id, ?5)", NamedValues{{"id", 1}}));
  expectRangeError({"parameter 2", "positional"}, "INSERT INTO notes(id, title) VALUES (:id, ?5)");
  // Even without named arguments, named binding refuses positional ones.
  EXPECT_FALSE(db_.execute("SELECT ?", NamedValues()));
  expectRangeError({"positional"}, "SELECT ?");
  EXPECT_EQ(count(), 0);
}

TEST_F(NamedBinding, NoParametersAndNoArgumentsIsFine) {
  const Row row = selectNamed("SELECT 'no parameters'", NamedValues());
  EXPECT_EQ(row.value(0), Value("no parameters"));
}

TEST_F(NamedBinding, StatementBindsNamedValuesAndCanBeReboundAfterReset) {
  Statement insert = db_.prepare("INSERT INTO notes(id, title) VALUES (:id, $title)");
  ASSERT_TRUE(insert.isValid()) << db_.error();
  ASSERT_TRUE(insert.bind(NamedValues{{"id", 1}, {"title", "one"}})) << db_.error();
  ASSERT_EQ(insert.step(), StepResult::Done) << db_.error();
  ASSERT_TRUE(insert.reset());
  // A second round of named binding starts afresh: nothing counts as given
  // twice from the first round.
  ASSERT_TRUE(insert.bind(NamedValues{{"$title", "two"}, {":id", 2}})) << db_.error();
  ASSERT_EQ(insert.step(), StepResult::Done) << db_.error();
  EXPECT_EQ(dump(db_, "SELECT id, title FROM notes ORDER BY id"),
            (std::vector<std::string>{"id=int:1|title=text:one", "id=int:2|title=text:two"}));
}

TEST_F(NamedBinding, StatementBindFailuresAreReportedOnTheDatabase) {
  Statement stmt = db_.prepare("SELECT :a, :b");
  ASSERT_TRUE(stmt.isValid()) << db_.error();
  EXPECT_FALSE(stmt.bind(NamedValues{{"a", 1}}));
  expectRangeError({":b"}, "SELECT :a, :b");
  EXPECT_FALSE(stmt.bind(NamedValues{{"a", 1}, {"b", 2}, {"c", 3}}));
  expectRangeError({"\"c\"", ":a, :b"}, "SELECT :a, :b");
}

TEST_F(NamedBinding, BeginMatchEndDriveNamedBindingByHand) {
  Statement stmt = db_.prepare("SELECT :id, @id, $id, :other");
  ASSERT_TRUE(stmt.isValid()) << db_.error();
  ASSERT_TRUE(StatementAccess::beginNamedArguments(stmt)) << db_.error();

  const std::string id = "id";
  const ParameterMatch all = StatementAccess::matchNamedArgument(stmt, id.data(), id.size());
  ASSERT_EQ(all.count, 3);
  EXPECT_EQ(all.index(0), 1);
  EXPECT_EQ(all.index(1), 2);
  EXPECT_EQ(all.index(2), 3);
  EXPECT_EQ(all.first, 1);
  EXPECT_EQ(all.second, 2);
  EXPECT_EQ(all.third, 3);
  for (int i = 0; i < all.count; ++i) ASSERT_TRUE(stmt.bind(all.index(i), 5 + i));

  // The key need not be NUL-terminated: only `size` bytes count.
  const char buffer[] = ":otherwise";
  const ParameterMatch other = StatementAccess::matchNamedArgument(stmt, buffer, 6);
  ASSERT_EQ(other.count, 1);
  EXPECT_EQ(other.index(0), 4);
  ASSERT_TRUE(stmt.bind(other.index(0), "o"));

  ASSERT_TRUE(StatementAccess::endNamedArguments(stmt)) << db_.error();
  ASSERT_EQ(stmt.step(), StepResult::Row) << db_.error();
  EXPECT_EQ(stmt.columnValue(0), Value(5));
  EXPECT_EQ(stmt.columnValue(1), Value(6));
  EXPECT_EQ(stmt.columnValue(2), Value(7));
  EXPECT_EQ(stmt.columnValue(3), Value("o"));
}

TEST_F(NamedBinding, SameNameUnderTwoPrefixesMatchesBothParameters) {
  Statement stmt = db_.prepare("SELECT :id, @id");
  ASSERT_TRUE(stmt.isValid()) << db_.error();
  ASSERT_TRUE(StatementAccess::beginNamedArguments(stmt));
  const ParameterMatch match = StatementAccess::matchNamedArgument(stmt, "id", 2);
  EXPECT_EQ(match.count, 2);
  EXPECT_EQ(match.index(0), 1);
  EXPECT_EQ(match.index(1), 2);
  EXPECT_EQ(match.third, 0);
}

TEST_F(NamedBinding, MatchFailuresGiveCountZeroAndARangeError) {
  Statement stmt = db_.prepare("SELECT :id, @id, :name");
  ASSERT_TRUE(stmt.isValid()) << db_.error();
  ASSERT_TRUE(StatementAccess::beginNamedArguments(stmt));

  const ParameterMatch unknown = StatementAccess::matchNamedArgument(stmt, "nope", 4);
  EXPECT_EQ(unknown.count, 0);
  expectRangeError({"\"nope\"", ":id, @id, :name"}, "SELECT :id, @id, :name");

  const ParameterMatch prefixed = StatementAccess::matchNamedArgument(stmt, "@id", 3);
  ASSERT_EQ(prefixed.count, 1);
  EXPECT_EQ(prefixed.index(0), 2);
  // "id" now also reaches @id, which "@id" already filled.
  const ParameterMatch again = StatementAccess::matchNamedArgument(stmt, "id", 2);
  EXPECT_EQ(again.count, 0);
  expectRangeError({"\"id\"", "twice", "@id"}, "SELECT :id, @id, :name");

  // A key holding a NUL byte never matches (SQLite names cannot hold one).
  const ParameterMatch withNul = StatementAccess::matchNamedArgument(stmt, "name\0x", 6);
  EXPECT_EQ(withNul.count, 0);
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);

  // An empty key matches nothing.
  EXPECT_EQ(StatementAccess::matchNamedArgument(stmt, "", 0).count, 0);
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
}

TEST_F(NamedBinding, EndNamesTheFirstParameterNoArgumentFilled) {
  Statement stmt = db_.prepare("SELECT :a, :b, :c");
  ASSERT_TRUE(stmt.isValid()) << db_.error();
  ASSERT_TRUE(StatementAccess::beginNamedArguments(stmt));
  ASSERT_EQ(StatementAccess::matchNamedArgument(stmt, "a", 1).count, 1);
  EXPECT_FALSE(StatementAccess::endNamedArguments(stmt));
  expectRangeError({"no argument for parameter :b"}, "SELECT :a, :b, :c");
  // Beginning again forgets what was matched.
  ASSERT_TRUE(StatementAccess::beginNamedArguments(stmt));
  ASSERT_EQ(StatementAccess::matchNamedArgument(stmt, "a", 1).count, 1);
  ASSERT_EQ(StatementAccess::matchNamedArgument(stmt, "b", 1).count, 1);
  ASSERT_EQ(StatementAccess::matchNamedArgument(stmt, "c", 1).count, 1);
  EXPECT_TRUE(StatementAccess::endNamedArguments(stmt)) << db_.error();
}

TEST_F(NamedBinding, BeginRefusesPositionalParameters) {
  Statement stmt = db_.prepare("SELECT :a, ?");
  ASSERT_TRUE(stmt.isValid()) << db_.error();
  EXPECT_FALSE(StatementAccess::beginNamedArguments(stmt));
  expectRangeError({"parameter 2", "positional"}, "SELECT :a, ?");
}

TEST_F(NamedBinding, NamedValuesKeepTheirOrderAndCanBeBuiltFromAMap) {
  NamedValues values{{"b", 2}, {"a", 1}};
  values.add("c", Value("three"));
  ASSERT_EQ(values.size(), 3u);
  EXPECT_FALSE(values.empty());
  std::vector<std::string> keys;
  for (const auto& value : values) keys.push_back(value.first);
  EXPECT_EQ(keys, (std::vector<std::string>{"b", "a", "c"}));
  EXPECT_TRUE(NamedValues().empty());

  const std::map<std::string, Value> map = {{"title", Value("from a map")}, {"id", Value(9)}};
  const NamedValues fromMap(map);
  ASSERT_EQ(fromMap.size(), 2u);
  EXPECT_EQ(fromMap.begin()->first, "id");  // key order
  ASSERT_TRUE(db_.execute("INSERT INTO notes(id, title) VALUES (:id, :title)", fromMap)) << db_.error();
  // A map converts implicitly, too.
  ASSERT_TRUE(db_.execute("INSERT INTO notes(id, title) VALUES (@id, @title)",
                          std::map<std::string, Value>{{"id", Value(10)}, {"title", Value("implicit")}}))
      << db_.error();
  EXPECT_EQ(dump(db_, "SELECT id, title FROM notes ORDER BY id"),
            (std::vector<std::string>{"id=int:9|title=text:from a map", "id=int:10|title=text:implicit"}));
}

TEST_F(NamedBinding, FailedNamedBindingLeavesNoValueForTheNextExecute) {
  const std::string sql = "INSERT INTO notes(id, title) VALUES (:id, :title)";
  // Binds :title, then fails on the unknown argument.
  EXPECT_FALSE(db_.execute(sql, NamedValues{{"title", "stale"}, {"nope", 1}}));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  ASSERT_TRUE(db_.execute(sql, NamedValues{{"id", 1}, {"title", "fresh"}})) << db_.error();
  EXPECT_EQ(dump(db_, "SELECT id, title FROM notes"), (std::vector<std::string>{"id=int:1|title=text:fresh"}));
}

TEST_F(NamedBinding, ForEachRowTakesNamedArguments) {
  ASSERT_TRUE(db_.execute("INSERT INTO notes(id, title) VALUES (1, 'a'), (2, 'b'), (3, 'c')"));
  std::vector<std::string> titles;
  ASSERT_TRUE(db_.forEachRow("SELECT title FROM notes WHERE id >= :low ORDER BY id", NamedValues{{"low", 2}},
                             [&](const RowView& row) { titles.push_back(row.value(0).asText()); }))
      << db_.error();
  EXPECT_EQ(titles, (std::vector<std::string>{"b", "c"}));
  EXPECT_FALSE(db_.forEachRow("SELECT title FROM notes WHERE id >= :low", NamedValues{{"high", 2}},
                              [&](const RowView&) { ADD_FAILURE() << "no row expected"; }));
  expectRangeError({"\"high\"", ":low"}, "SELECT title FROM notes WHERE id >= :low");
}

// Overload resolution with braced lists: these calls must compile and pick
// the meaning the comments give; the assertions check that meaning.

TEST_F(NamedBinding, EmptyBracesMeanNoArguments) {
  EXPECT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('a')", {})) << db_.error();
  EXPECT_EQ(count(), 1);
  EXPECT_FALSE(db_.execute("INSERT INTO notes(title) VALUES (?)", {}));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  EXPECT_FALSE(db_.execute("INSERT INTO notes(title) VALUES (:title)", {}));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  EXPECT_EQ(count(), 1);

  std::vector<Row> rows;
  ASSERT_TRUE(db_.execute("SELECT title FROM notes", {}, &rows)) << db_.error();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].value(0), Value("a"));

  int seen = 0;
  ASSERT_TRUE(db_.forEachRow("SELECT title FROM notes", {}, [&](const RowView&) { ++seen; })) << db_.error();
  EXPECT_EQ(seen, 1);
}

TEST_F(NamedBinding, BracedValuesArePositional) {
  std::vector<Row> rows;
  // Positional arguments may fill named parameters, as SQLite allows.
  ASSERT_TRUE(db_.execute("SELECT :a, :b", {Value(1), Value(2)}, &rows)) << db_.error();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].value(0), Value(1));
  EXPECT_EQ(rows[0].value(1), Value(2));
  EXPECT_TRUE(db_.execute("INSERT INTO notes(id, title) VALUES (?, ?)", {Value(5), Value("five")})) << db_.error();
  EXPECT_TRUE(db_.execute("INSERT INTO notes(id, title) VALUES (?, ?)", {6, "six"})) << db_.error();
  EXPECT_EQ(dump(db_, "SELECT id, title FROM notes ORDER BY id"),
            (std::vector<std::string>{"id=int:5|title=text:five", "id=int:6|title=text:six"}));
}

TEST_F(NamedBinding, BracedPairsAreNamedEvenASinglePair) {
  std::vector<Row> rows;
  // Read positionally, {{"a", 1}} would be two values for one parameter.
  ASSERT_TRUE(db_.execute("SELECT :a", {{"a", 1}}, &rows)) << db_.error();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].value(0), Value(1));
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES (:title)", {{"title", "x"}})) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO notes(id, title) VALUES (:id, :title)", {{"id", 7}, {"title", "y"}}))
      << db_.error();
  EXPECT_EQ(dump(db_, "SELECT id, title FROM notes ORDER BY id"),
            (std::vector<std::string>{"id=int:1|title=text:x", "id=int:7|title=text:y"}));

  std::vector<std::string> titles;
  ASSERT_TRUE(db_.forEachRow("SELECT title FROM notes WHERE id = :id", {{"id", 7}}, [&](const RowView& row) {
    titles.push_back(row.value(0).asText());
  })) << db_.error();
  EXPECT_EQ(titles, (std::vector<std::string>{"y"}));

  Statement stmt = db_.prepare("SELECT :n");
  ASSERT_TRUE(stmt.bind({{"n", 3}})) << db_.error();
  ASSERT_EQ(stmt.step(), StepResult::Row);
  EXPECT_EQ(stmt.columnValue(0), Value(3));
  ASSERT_TRUE(stmt.reset());
  ASSERT_TRUE(stmt.bind({Value(4)})) << db_.error();
  ASSERT_EQ(stmt.step(), StepResult::Row);
  EXPECT_EQ(stmt.columnValue(0), Value(4));
}

TEST_F(NamedBinding, BracedPairsStillReportMismatches) {
  EXPECT_FALSE(db_.execute("SELECT :a", {{"b", 1}}));
  expectRangeError({"\"b\"", ":a"}, "SELECT :a");
}

TEST_F(NamedBinding, ReusedStatementMatchesKeysInAnyOrderOnEachUse) {
  const std::string sql = "INSERT INTO notes(id, title) VALUES (:id, :title)";
  ASSERT_TRUE(db_.execute(sql, NamedValues{{"id", 1}, {"title", "first"}})) << db_.error();
  ASSERT_TRUE(db_.execute(sql, NamedValues{{"title", "second"}, {"id", 2}})) << db_.error();
  ASSERT_TRUE(db_.execute(sql, NamedValues{{":title", "third"}, {"@id", 3}}) == false);
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);  // @id is not :id
  ASSERT_TRUE(db_.execute(sql, NamedValues{{":title", "third"}, {":id", 3}})) << db_.error();
  std::vector<Row> rows;
  ASSERT_TRUE(db_.execute("SELECT id, title FROM notes ORDER BY id", &rows));
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1].value("title").asText(), "second");
  EXPECT_EQ(rows[2].value("id").asInteger(), 3);
  // A failed use leaves nothing half-done for the next one.
  EXPECT_FALSE(db_.execute(sql, NamedValues{{"id", 4}}));
  EXPECT_NE(db_.error().find(":title"), std::string::npos) << db_.error();
  ASSERT_TRUE(db_.execute(sql, NamedValues{{"id", 4}, {"title", "fourth"}})) << db_.error();
  EXPECT_EQ(count(), 4);
}
