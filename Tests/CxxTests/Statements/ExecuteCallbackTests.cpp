// Database::execute(sql, bind, onRow): the SQLiteQueryUtil pattern of a
// lambda that binds parameters and a lambda that reads each row by index
// and by name with typed getters; giving up in either callback.
#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::NamedValues;
using sqlitebridge::ResultCode;
using sqlitebridge::RowView;
using sqlitebridge::Statement;
using sqlitebridge::Value;
using namespace sqlitebridge_test;

namespace {

/// One note as the callbacks read it.
struct Note {
  std::int64_t id = 0;
  std::string title;
  std::optional<double> score;
  bool pinned = false;
};

class ExecuteCallback : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.executeScript(
        "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE, score REAL, pinned INTEGER);"
        "INSERT INTO notes VALUES (1, 'one', 1.5, 0), (2, 'two', NULL, 1), (3, 'three', 3.0, 5);"))
        << db_.error();
  }
  std::int64_t count() { return scalarInteger(db_, "SELECT count(*) FROM notes"); }

  Database db_ = Database::open(":memory:");
};

}  // namespace

TEST_F(ExecuteCallback, BindsByIndexAndReadsByIndexAndName) {
  std::vector<Note> notes;
  int bindCalls = 0;
  ASSERT_TRUE(db_.execute(
      "SELECT id, title, score, pinned FROM notes WHERE id >= ? AND title <> ? ORDER BY id",
      [&](Statement& stmt) {
        ++bindCalls;
        return stmt.bind(1, 1) && stmt.bind(2, std::string("two"));
      },
      [&](const RowView& row) {
        Note note;
        EXPECT_TRUE(row.get(0, note.id)) << db_.error();
        EXPECT_TRUE(row.get("title", note.title)) << db_.error();
        EXPECT_TRUE(row.get("SCORE", note.score)) << db_.error();
        EXPECT_TRUE(row.get(3, note.pinned)) << db_.error();
        notes.push_back(note);
      }))
      << db_.error();
  EXPECT_EQ(bindCalls, 1);
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0].id, 1);
  EXPECT_EQ(notes[0].title, "one");
  EXPECT_EQ(notes[0].score, std::optional<double>(1.5));
  EXPECT_FALSE(notes[0].pinned);
  EXPECT_EQ(notes[1].id, 3);
  EXPECT_EQ(notes[1].title, "three");
  EXPECT_EQ(notes[1].score, std::optional<double>(3.0));
  EXPECT_TRUE(notes[1].pinned);  // 5 is non-zero
  EXPECT_EQ(db_.lastError().code, 0);
}

TEST_F(ExecuteCallback, StatementsWithoutRowsNeverCallOnRow) {
  int rows = 0;
  ASSERT_TRUE(db_.execute(
      "INSERT INTO notes(title, score) VALUES (?, ?)",
      [](Statement& stmt) { return stmt.bind(1, "four") && stmt.bind(2, 4.25f); }, [&](const RowView&) { ++rows; }))
      << db_.error();
  EXPECT_EQ(rows, 0);
  EXPECT_EQ(count(), 4);
  EXPECT_EQ(db_.lastInsertRowId(), 4);
  EXPECT_EQ(dump(db_, "SELECT title, score, pinned FROM notes WHERE id = 4"),
            (std::vector<std::string>{"title=text:four|score=real:4.25|pinned=NULL"}));
}

// Never a silent NULL: a parameter the callback leaves unbound fails with
// ResultCode::Range naming it, and nothing runs.
TEST_F(ExecuteCallback, AParameterTheCallbackLeavesUnboundFailsWithRangeNamingIt) {
  int rowsSeen = 0;
  EXPECT_FALSE(db_.execute(
      "SELECT typeof(?1), typeof(?2)", [](Statement& stmt) { return stmt.bind(2, 1); },
      [&](const RowView&) { ++rowsSeen; }));
  EXPECT_EQ(rowsSeen, 0);
  EXPECT_EQ(db_.lastError().resultCode(), ResultCode::Range);
  EXPECT_NE(db_.error().find("index 1: the bind callback left it unbound"), std::string::npos) << db_.error();

  const std::int64_t before = scalarInteger(db_, "SELECT count(*) FROM notes");
  EXPECT_FALSE(db_.execute(
      "INSERT INTO notes(title, score) VALUES (:title, :score)",
      [](Statement& stmt) { return stmt.bind(stmt.parameterIndex(":title"), "five"); }, [](const RowView&) {}));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Range));
  EXPECT_NE(db_.error().find("parameter :score, index 2"), std::string::npos) << db_.error();
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM notes"), before) << "the INSERT ran";

  // Binding NULL on purpose is fine.
  std::vector<std::string> types;
  ASSERT_TRUE(db_.execute(
      "SELECT typeof(?1), typeof(?2)", [](Statement& stmt) { return stmt.bindNull(1) && stmt.bind(2, 1); },
      [&](const RowView& row) {
        types.push_back(row.value(0).asText());
        types.push_back(row.value(1).asText());
      }))
      << db_.error();
  EXPECT_EQ(types, (std::vector<std::string>{"null", "integer"}));
}

// A callback that gives up reports why: its failed bind's error, or Abort.
TEST_F(ExecuteCallback, ACallbackThatGivesUpFailsWithItsBindErrorOrAbort) {
  EXPECT_FALSE(db_.execute("SELECT ?1", [](Statement& stmt) { return stmt.bind(3, 1); }, [](const RowView&) {}));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Range));
  EXPECT_NE(db_.error().find("out of range"), std::string::npos) << db_.error();
  EXPECT_FALSE(db_.execute("SELECT ?1", [](Statement&) { return false; }, [](const RowView&) {}));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Abort)) << db_.error();
  // The statement is back in the cache and whole: a later call binds afresh.
  EXPECT_FALSE(db_.execute("SELECT ?1", [](Statement&) { return true; }, [](const RowView&) {}));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Range));
  std::int64_t read = 0;
  ASSERT_TRUE(db_.execute(
      "SELECT ?1", [](Statement& stmt) { return stmt.bind(1, 42); }, [&](const RowView& row) { row.get(0, read); }))
      << db_.error();
  EXPECT_EQ(read, 42);
}

TEST_F(ExecuteCallback, BindCallbackMayUseNamedArguments) {
  std::vector<std::string> titles;
  ASSERT_TRUE(db_.execute(
      "SELECT title FROM notes WHERE id IN (:a, :b) ORDER BY id",
      [](Statement& stmt) { return stmt.bind(NamedValues{{"a", 3}, {"b", 1}}); },
      [&](const RowView& row) {
        std::string title;
        EXPECT_TRUE(row.get("title", title));
        titles.push_back(title);
      }))
      << db_.error();
  EXPECT_EQ(titles, (std::vector<std::string>{"one", "three"}));
}

TEST_F(ExecuteCallback, BindReturningFalseFailsWithAbortAndNothingRuns) {
  int rows = 0;
  EXPECT_FALSE(db_.execute(
      // RETURNING would give a row if the insert ran.
      "INSERT INTO notes(title) VALUES (?) RETURNING id", [](Statement& stmt) { return !stmt.bind(1, "never"); },
      [&](const RowView&) { ++rows; }));
  const auto error = db_.lastError();
  EXPECT_EQ(error.code, SQLITE_ABORT);
  EXPECT_EQ(error.extendedCode, SQLITE_ABORT);
  EXPECT_NE(error.message.find("bind callback"), std::string::npos) << error.message;
  EXPECT_EQ(rows, 0);
  EXPECT_EQ(count(), 3);
}

TEST_F(ExecuteCallback, BindCallbackThatRecordedItsOwnErrorKeepsIt) {
  int rows = 0;
  EXPECT_FALSE(db_.execute(
      "SELECT title FROM notes WHERE id = ?", [](Statement& stmt) { return stmt.bind(2, 1); },
      [&](const RowView&) { ++rows; }));
  const auto error = db_.lastError();
  EXPECT_EQ(error.code, SQLITE_RANGE);
  EXPECT_NE(error.message.find("parameter index 2"), std::string::npos) << error.message;
  EXPECT_EQ(error.sql, "SELECT title FROM notes WHERE id = ?");
  EXPECT_EQ(rows, 0);

  EXPECT_FALSE(db_.execute(
      "SELECT ?", [](Statement& stmt) { return stmt.bind(1, ULLONG_MAX); }, [&](const RowView&) { ++rows; }));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  EXPECT_NE(db_.error().find("18446744073709551615"), std::string::npos) << db_.error();
  EXPECT_EQ(rows, 0);
}

TEST_F(ExecuteCallback, OnRowReturningFalseStopsAndSucceeds) {
  std::vector<std::int64_t> ids;
  EXPECT_TRUE(db_.execute(
      "SELECT id FROM notes ORDER BY id", [](Statement&) { return true; },
      [&](const RowView& row) {
        std::int64_t id = 0;
        EXPECT_TRUE(row.get("id", id));
        ids.push_back(id);
        return id < 2;
      }))
      << db_.error();
  EXPECT_EQ(ids, (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(db_.lastError().code, 0);
}

TEST_F(ExecuteCallback, OnRowStoppingAfterAFailedGetFailsWithTheConversionError) {
  int rows = 0;
  EXPECT_FALSE(db_.execute(
      "SELECT id, score FROM notes ORDER BY id", [](Statement&) { return true; },
      [&](const RowView& row) {
        ++rows;
        double score = 0;
        return row.get("score", score);
      }));
  EXPECT_EQ(rows, 2);  // the second note has no score
  const auto error = db_.lastError();
  EXPECT_EQ(error.code, SQLITE_MISMATCH);
  EXPECT_NE(error.message.find("\"score\""), std::string::npos) << error.message;
  EXPECT_NE(error.message.find("NULL"), std::string::npos) << error.message;
  EXPECT_NE(error.message.find("double"), std::string::npos) << error.message;
}

TEST_F(ExecuteCallback, FailuresBeforeAndDuringStepping) {
  int binds = 0;
  int rows = 0;
  EXPECT_FALSE(db_.execute(
      "SELECT * FROM nowhere",
      [&](Statement&) {
        ++binds;
        return true;
      },
      [&](const RowView&) { ++rows; }));
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
  EXPECT_NE(db_.error().find("no such table"), std::string::npos);
  EXPECT_EQ(binds, 0);

  EXPECT_FALSE(
      db_.execute("SELECT 1; SELECT 2", [&](Statement&) { return ++binds > 0; }, [&](const RowView&) { ++rows; }));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  EXPECT_EQ(binds, 0);

  EXPECT_FALSE(db_.execute(
      "INSERT INTO notes(title) VALUES (?)", [](Statement& stmt) { return stmt.bind(1, "one"); },
      [&](const RowView&) { ++rows; }));
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_UNIQUE);
  EXPECT_EQ(rows, 0);
  EXPECT_EQ(count(), 3);
}

TEST_F(ExecuteCallback, RepeatedCallsReuseTheCachedStatement) {
  const std::string sql = "SELECT title FROM notes WHERE id = ?";
  const std::int64_t before = db_.preparedStatementCount();
  std::vector<std::string> titles;
  for (int id = 1; id <= 3; ++id) {
    for (int repeat = 0; repeat < 10; ++repeat) {
      ASSERT_TRUE(db_.execute(
          sql, [&](Statement& stmt) { return stmt.bind(1, id); },
          [&](const RowView& row) {
            if (repeat == 0) titles.push_back(row.value("title").asText());
          }))
          << db_.error();
    }
  }
  EXPECT_EQ(db_.preparedStatementCount() - before, 1);
  EXPECT_EQ(titles, (std::vector<std::string>{"one", "two", "three"}));
}

namespace {

/// The SQLiteQueryUtil shape: a query helper that takes a binder and a
/// reader and collects typed results.
template <typename Bind>
std::vector<std::pair<std::int64_t, std::string>> titlesWhere(Database& db, const std::string& sql, Bind bind) {
  std::vector<std::pair<std::int64_t, std::string>> results;
  const bool ok = db.execute(sql, bind, [&](const RowView& row) {
    std::pair<std::int64_t, std::string> result;
    if (!row.get("id", result.first) || !row.get("title", result.second)) return false;
    results.push_back(result);
    return true;
  });
  if (!ok) results.clear();
  return results;
}

}  // namespace

TEST_F(ExecuteCallback, QueryHelperInTheSqliteQueryUtilStyle) {
  const auto pinned = titlesWhere(db_, "SELECT id, title FROM notes WHERE pinned >= ? ORDER BY id",
                                  [](Statement& stmt) { return stmt.bind(1, true); });
  ASSERT_EQ(pinned.size(), 2u) << db_.error();
  EXPECT_EQ(pinned[0], std::make_pair(std::int64_t{2}, std::string("two")));
  EXPECT_EQ(pinned[1], std::make_pair(std::int64_t{3}, std::string("three")));
  // A reader that fails on a conversion reports it and returns nothing.
  const auto broken =
      titlesWhere(db_, "SELECT id, score AS title FROM notes ORDER BY id", [](Statement&) { return true; });
  EXPECT_TRUE(broken.empty());
  EXPECT_EQ(db_.lastError().code, SQLITE_MISMATCH);
  EXPECT_NE(db_.error().find("\"title\""), std::string::npos) << db_.error();
  EXPECT_NE(db_.error().find("real 1.5"), std::string::npos) << db_.error();
  EXPECT_NE(db_.error().find("string"), std::string::npos) << db_.error();
}
