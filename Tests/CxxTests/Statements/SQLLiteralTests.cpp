// SQL literals (`sqlitebridge::SQL`): values bound, identifiers quoted, lists
// expanded, raw text only where the caller says so, through every entry
// point that runs one. The Swift suite mirrors these cases
// (Tests/SQLiteBridgeTests/Statements/SQLLiteralTests.swift).
#include <optional>
#include <type_traits>

#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::Error;
using sqlitebridge::ResultCode;
using sqlitebridge::Row;
using sqlitebridge::RowView;
using sqlitebridge::SQL;
using sqlitebridge::Statement;
using sqlitebridge::Value;
using namespace sqlitebridge_test;

namespace {

struct Note {
  std::int64_t id = 0;
  std::string title;
};

// Text that would end a string, a name and the statement, then drop a table.
const std::string hostileText = "x'); DROP TABLE notes; --";
const std::string hostileName = "x\"; DROP TABLE notes; --";

class SQLLiteral : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(
        db_.executeScript("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT);"
                          "INSERT INTO notes(title) VALUES ('a'), ('b'), ('c');"))
        << db_.error();
  }
  std::vector<std::string> titles() {
    std::vector<Row> rows;
    EXPECT_TRUE(db_.execute("SELECT title FROM notes ORDER BY id", &rows)) << db_.error();
    std::vector<std::string> out;
    for (const Row& row : rows) out.push_back(row.value(0).asText());
    return out;
  }
  std::int64_t scalarIntegerOf(const SQL& sql) {
    std::vector<Row> rows;
    EXPECT_TRUE(db_.execute(sql, &rows)) << db_.error();
    return rows.empty() ? -1 : rows[0].value(0).asInteger();
  }
  Database db_ = Database::open(":memory:");
};

}  // namespace

template <>
struct sqlitebridge::RecordTraits<Note> {
  static constexpr const char* table = "notes";
  static std::vector<std::string> primaryKey() { return {"id"}; }
  static bool read(const RowView& row, Note& out) { return row.get("id", out.id) && row.get("title", out.title); }
  static void write(const Note& in, NamedValues& out) {
    out.add("id", in.id);
    out.add("title", in.title);
  }
};

// Text is SQL only where the caller wrote `sql(…)` or `raw(…)`.
static_assert(!std::is_convertible_v<std::string, SQL>, "a string must never become SQL implicitly");
static_assert(!std::is_convertible_v<const char*, SQL>, "a string must never become SQL implicitly");
static_assert(!std::is_constructible_v<SQL, std::string>, "a string must never become SQL implicitly");

TEST(SQLLiteralRules, AnIdentifierIsDoubleQuotedWithEveryQuoteDoubled) {
  EXPECT_EQ(SQL().identifier("notes").text(), "\"notes\"");
  EXPECT_EQ(SQL().identifier("a\"b").text(), "\"a\"\"b\"");
  EXPECT_EQ(SQL().identifier("\"\"").text(), "\"\"\"\"\"\"");
  EXPECT_EQ(SQL().identifier("").text(), "\"\"");
  std::string quoted;
  Error error;
  ASSERT_TRUE(SQL::quoteIdentifier("a\"b", quoted, error));
  EXPECT_EQ(quoted, "\"a\"\"b\"");
  EXPECT_FALSE(error.isError());
}

TEST(SQLLiteralRules, AListIsOnePlaceholderPerValueAndAnEmptyOneIsAnEmptyList) {
  EXPECT_EQ(SQL::placeholderList(0), "()");
  EXPECT_EQ(SQL::placeholderList(1), "(?)");
  EXPECT_EQ(SQL::placeholderList(3), "(?, ?, ?)");
  const SQL list = SQL().list(std::vector<int>{1, 2, 3});
  EXPECT_EQ(list.text(), "(?, ?, ?)");
  EXPECT_EQ(list.arguments(), (std::vector<Value>{Value(1), Value(2), Value(3)}));
}

TEST(SQLLiteralRules, ValuesAreArgumentsNeverText) {
  const SQL sql = SQL::raw("SELECT ").value(hostileText).sql(", ").value(42).sql(", ").value(std::nullopt);
  EXPECT_EQ(sql.text(), "SELECT ?, ?, ?");
  EXPECT_EQ(sql.arguments(), (std::vector<Value>{Value(hostileText), Value(42), Value()}));
  EXPECT_TRUE(sql.isValid());
}

TEST(SQLLiteralRules, AnEmptyOptionalIsNull) {
  const std::optional<std::string> missing;
  const SQL sql = SQL().value(missing).list(std::vector<std::optional<int>>{1, std::nullopt});
  EXPECT_EQ(sql.text(), "?(?, ?)");
  EXPECT_EQ(sql.arguments(), (std::vector<Value>{Value(), Value(1), Value()}));
}

TEST(SQLLiteralRules, NestedLiteralsKeepTheirArgumentsInOrder) {
  const SQL condition = SQL::raw("title = ").value("b").sql(" OR id = ").value(3);
  const SQL sql = SQL::raw("SELECT ").value(1).sql(" FROM notes WHERE ").literal(condition).sql(" AND id <> ").value(9);
  EXPECT_EQ(sql.text(), "SELECT ? FROM notes WHERE title = ? OR id = ? AND id <> ?");
  EXPECT_EQ(sql.arguments(), (std::vector<Value>{Value(1), Value("b"), Value(3), Value(9)}));
}

TEST_F(SQLLiteral, EveryKindOfPieceRunsAsWritten) {
  const SQL query = SQL::raw("SELECT ")
                        .identifier("title")
                        .sql(" FROM ")
                        .identifier("notes")
                        .sql(" WHERE id IN ")
                        .list(std::vector<std::int64_t>{1, 3})
                        .sql(" AND title <> ")
                        .value("zzz")
                        .sql(" AND ")
                        .literal(SQL::raw("id > ?", {Value(0)}))
                        .sql(" ORDER BY id");
  std::vector<Row> rows;
  ASSERT_TRUE(db_.execute(query, &rows)) << db_.error();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].value("title"), Value("a"));
  EXPECT_EQ(rows[1].value("title"), Value("c"));
}

TEST_F(SQLLiteral, AHostileValueIsStoredAsItIsThroughEveryEntryPoint) {
  const auto insert = [&](const std::string& title) {
    return SQL::raw("INSERT INTO notes(title) VALUES (").value(title).sql(")");
  };
  ASSERT_TRUE(db_.execute(insert(hostileText))) << db_.error();
  Statement statement = db_.prepare(insert(hostileText + "2"));
  ASSERT_TRUE(statement.isValid()) << db_.error();
  ASSERT_EQ(statement.step(), sqlitebridge::StepResult::Done) << db_.error();

  const SQL select = SQL::raw("SELECT id, title FROM notes WHERE title = ").value(hostileText);
  std::vector<Row> rows;
  ASSERT_TRUE(db_.execute(select, &rows)) << db_.error();
  ASSERT_EQ(rows.size(), 1u);
  std::vector<std::string> seen;
  ASSERT_TRUE(db_.forEachRow(select, [&](const RowView& row) { seen.push_back(row.value("title").asText()); }));
  std::vector<Note> notes;
  ASSERT_TRUE(db_.fetch(select, notes)) << db_.error();
  std::optional<Note> note;
  ASSERT_TRUE(db_.fetchOne(select, note)) << db_.error();
  std::vector<std::string> each;
  ASSERT_TRUE(db_.forEach<Note>(select, [&](const Note& n) { each.push_back(n.title); })) << db_.error();

  EXPECT_EQ(seen, std::vector<std::string>{hostileText});
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].title, hostileText);
  ASSERT_TRUE(note.has_value());
  EXPECT_EQ(note->title, hostileText);
  EXPECT_EQ(each, std::vector<std::string>{hostileText});
  EXPECT_EQ(titles(), (std::vector<std::string>{"a", "b", "c", hostileText, hostileText + "2"}));
}

TEST_F(SQLLiteral, AHostileIdentifierStaysOneName) {
  ASSERT_TRUE(db_.execute(SQL::raw("CREATE TABLE ").identifier(hostileName).sql("(").identifier(hostileName).sql(")")))
      << db_.error();
  ASSERT_TRUE(
      db_.execute(SQL::raw("INSERT INTO ").identifier(hostileName).sql(" VALUES (").value(hostileText).sql(")")))
      << db_.error();
  std::vector<Row> rows;
  ASSERT_TRUE(db_.execute(SQL::raw("SELECT ").identifier(hostileName).sql(" FROM ").identifier(hostileName), &rows))
      << db_.error();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].columnName(0), hostileName);
  EXPECT_EQ(rows[0].value(0), Value(hostileText));
  EXPECT_TRUE(db_.tableExists(hostileName));
  EXPECT_EQ(titles(), (std::vector<std::string>{"a", "b", "c"}));
}

TEST_F(SQLLiteral, AnIdentifierHoldingNulFailsBeforeAnythingRuns) {
  const SQL sql = SQL::raw("DELETE FROM ").identifier(std::string("notes\0x", 7));
  EXPECT_FALSE(sql.isValid());
  EXPECT_EQ(sql.failure().resultCode(), ResultCode::Misuse);
  EXPECT_EQ(sql.failure().message, "an SQL identifier cannot hold a NUL byte: \"notes\\0x\"");

  EXPECT_FALSE(db_.execute(sql));
  EXPECT_EQ(db_.lastError().resultCode(), ResultCode::Misuse);
  EXPECT_EQ(db_.lastError().message, sql.failure().message);
  EXPECT_EQ(db_.lastError().sql, sql.text());
  EXPECT_FALSE(db_.prepare(sql).isValid());
  EXPECT_EQ(db_.lastError().resultCode(), ResultCode::Misuse);
  EXPECT_FALSE(db_.forEachRow(SQL::raw("SELECT 1 WHERE 0 = 1 OR ").literal(sql), [](const RowView&) {}));
  EXPECT_EQ(db_.lastError().resultCode(), ResultCode::Misuse);
  std::vector<Note> notes;
  EXPECT_FALSE(db_.fetch(sql, notes));
  EXPECT_EQ(titles(), (std::vector<std::string>{"a", "b", "c"}));
}

TEST_F(SQLLiteral, AnEmptyListMatchesNothing) {
  const std::vector<Value> none;
  EXPECT_EQ(scalarIntegerOf(SQL::raw("SELECT count(*) FROM notes WHERE id IN ").list(none)), 0);
  EXPECT_EQ(scalarIntegerOf(SQL::raw("SELECT count(*) FROM notes WHERE id NOT IN ").list(none)), 3);
}

TEST_F(SQLLiteral, AThousandValuesInAList) {
  std::vector<std::int64_t> ids;
  for (std::int64_t id = 1; id <= 1000; ++id) ids.push_back(id);
  ASSERT_TRUE(
      db_.execute("WITH RECURSIVE n(i) AS (SELECT 4 UNION ALL SELECT i + 1 FROM n WHERE i < 1200) "
                  "INSERT INTO notes(id, title) SELECT i, 't' || i FROM n"))
      << db_.error();
  const SQL query = SQL::raw("SELECT count(*), sum(id) FROM notes WHERE id IN ").list(ids);
  EXPECT_EQ(query.arguments().size(), 1000u);
  std::vector<Row> rows;
  if (sqlite3_limit(db_.handle(), SQLITE_LIMIT_VARIABLE_NUMBER, -1) < 1000) {
    // A SQLite built with a lower SQLITE_MAX_VARIABLE_NUMBER (999 was the
    // default before 3.32) refuses them.
    EXPECT_FALSE(db_.execute(query, &rows));
    EXPECT_TRUE(contains(db_.lastError().message, "too many SQL variables")) << db_.error();
    return;
  }
  ASSERT_TRUE(db_.execute(query, &rows)) << db_.error();
  EXPECT_EQ(rows.at(0).value(0), Value(1000));
  EXPECT_EQ(rows.at(0).value(1), Value(500500));
}

TEST_F(SQLLiteral, AStatementFromALiteralHasItsArgumentsBoundOnEveryRun) {
  Statement statement =
      db_.prepare(SQL::raw("SELECT count(*) FROM notes WHERE title IN ").list(std::vector<std::string>{"a", "c"}));
  ASSERT_TRUE(statement.isValid()) << db_.error();
  EXPECT_EQ(statement.parameterCount(), 2);
  for (int run = 0; run < 2; ++run) {
    ASSERT_EQ(statement.step(), sqlitebridge::StepResult::Row) << db_.error();
    EXPECT_EQ(statement.columnValue(0), Value(2));
    ASSERT_TRUE(statement.reset()) << db_.error();
  }
}

TEST_F(SQLLiteral, RawTextWithTheWrongNumberOfArgumentsFailsWithRange) {
  EXPECT_FALSE(db_.execute(SQL::raw("SELECT ?, ?", {Value(1)})));
  EXPECT_EQ(db_.lastError().resultCode(), ResultCode::Range);
  EXPECT_FALSE(db_.prepare(SQL::raw("SELECT ?", {Value(1), Value(2)})).isValid());
  EXPECT_EQ(db_.lastError().resultCode(), ResultCode::Range);
}
