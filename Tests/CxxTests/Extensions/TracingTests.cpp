// Database::trace: statements as written (bound values hidden), expanded SQL
// when asked, profile durations, triggers, stopping, replacing and closing
// (the callback released, never called after), a throwing callback.
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "SQLiteVersionSupport.hpp"
#include "ReleaseProbe.hpp"
#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::ResultCode;
using sqlitebridge::TraceEvent;
using sqlitebridge::Value;
using namespace sqlitebridge_test;

namespace {

class Tracing : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT)")) << db_.error();
  }
  void record(unsigned options) {
    db_.trace(options, [this](const TraceEvent& event) { events_.push_back(event); });
  }
  bool insertSecret() { return db_.execute("INSERT INTO notes(title) VALUES (?)", std::vector<Value>{"secret-value"}); }

  // Declared before db_: the probes of callbacks still installed count here
  // as db_ is destroyed.
  int released_[2] = {};
  Database db_ = Database::open(":memory:");
  std::vector<TraceEvent> events_;
};

}  // namespace

TEST_F(Tracing, ReportsEachStatementAsWrittenWithoutItsBoundValues) {
  record(sqlitebridge::TraceOptions::Statements);
  ASSERT_TRUE(insertSecret()) << db_.error();
  ASSERT_TRUE(db_.execute("SELECT count(*) FROM notes")) << db_.error();
  ASSERT_EQ(events_.size(), 2u);
  EXPECT_EQ(events_[0].kind, TraceEvent::Kind::Statement);
  EXPECT_EQ(events_[0].sql, "INSERT INTO notes(title) VALUES (?)");
  EXPECT_FALSE(events_[0].expandedSQL.has_value());
  EXPECT_FALSE(events_[0].duration.has_value());
  EXPECT_EQ(events_[1].sql, "SELECT count(*) FROM notes");
  for (const TraceEvent& event : events_) EXPECT_EQ(event.sql.find("secret-value"), std::string::npos) << event.sql;
}

TEST_F(Tracing, ExpandedSQLCarriesTheBoundValuesWhenAskedFor) {
  record(sqlitebridge::TraceOptions::Statements | sqlitebridge::TraceOptions::ExpandedSQL);
  ASSERT_TRUE(insertSecret()) << db_.error();
  ASSERT_TRUE(db_.execute("SELECT title FROM notes WHERE id = ?", std::vector<Value>{1})) << db_.error();
  ASSERT_EQ(events_.size(), 2u);
  EXPECT_EQ(events_[0].sql, "INSERT INTO notes(title) VALUES (?)");
  ASSERT_TRUE(events_[0].expandedSQL.has_value());
  EXPECT_EQ(*events_[0].expandedSQL, "INSERT INTO notes(title) VALUES ('secret-value')");
  ASSERT_TRUE(events_[1].expandedSQL.has_value());
  EXPECT_EQ(*events_[1].expandedSQL, "SELECT title FROM notes WHERE id = 1");
}

TEST_F(Tracing, ProfileEventsCarryHowLongTheStatementRan) {
  record(sqlitebridge::TraceOptions::Profile);
  const std::string slow =
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000) SELECT sum(i) FROM n";
  ASSERT_TRUE(db_.execute(slow)) << db_.error();
  ASSERT_EQ(events_.size(), 1u);
  EXPECT_EQ(events_[0].kind, TraceEvent::Kind::Profile);
  EXPECT_EQ(events_[0].sql, slow);
  ASSERT_TRUE(events_[0].duration.has_value());
  EXPECT_GT(events_[0].duration->count(), 0);
  EXPECT_LT(*events_[0].duration, std::chrono::minutes(1));
  EXPECT_FALSE(events_[0].expandedSQL.has_value());
}

TEST_F(Tracing, StatementAndProfileEventsTogetherWithExpandedSQL) {
  record(sqlitebridge::TraceOptions::Statements | sqlitebridge::TraceOptions::Profile |
         sqlitebridge::TraceOptions::ExpandedSQL);
  ASSERT_TRUE(insertSecret()) << db_.error();
  ASSERT_EQ(events_.size(), 2u);
  EXPECT_EQ(events_[0].kind, TraceEvent::Kind::Statement);
  EXPECT_FALSE(events_[0].duration.has_value());
  EXPECT_EQ(events_[1].kind, TraceEvent::Kind::Profile);
  EXPECT_TRUE(events_[1].duration.has_value());
  for (const TraceEvent& event : events_) {
    EXPECT_EQ(event.sql, "INSERT INTO notes(title) VALUES (?)");
    EXPECT_EQ(event.expandedSQL.value_or(""), "INSERT INTO notes(title) VALUES ('secret-value')");
  }
}

TEST_F(Tracing, ATriggerAndItsStatementsAreNamedByComments) {
  SQLITEBRIDGE_SKIP_UNLESS_SQLITE(3040000, "tracing each statement of a trigger");
  ASSERT_TRUE(
      db_.executeScript("CREATE TABLE log(entry TEXT);"
                        "CREATE TRIGGER notes_logged AFTER INSERT ON notes BEGIN"
                        "  INSERT INTO log VALUES (new.title); END;"))
      << db_.error();
  record(sqlitebridge::TraceOptions::Statements);
  ASSERT_TRUE(insertSecret()) << db_.error();
  ASSERT_EQ(events_.size(), 3u);
  EXPECT_EQ(events_[0].sql, "INSERT INTO notes(title) VALUES (?)");
  EXPECT_EQ(events_[1].sql, "-- TRIGGER notes_logged");
  EXPECT_EQ(events_[2].sql, "-- INSERT INTO log VALUES (new.title)");
}

TEST_F(Tracing, AnEmptyCallbackStopsTracingAndReleasesTheOldOne) {
  int calls = 0;
  db_.trace(sqlitebridge::TraceOptions::Statements,
            [probe = makeProbe(released_[0]), &calls](const TraceEvent&) { ++calls; });
  ASSERT_TRUE(db_.execute("SELECT 1")) << db_.error();
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(released_[0], 0);
  db_.trace(sqlitebridge::TraceOptions::Statements, {});
  EXPECT_EQ(released_[0], 1);
  ASSERT_TRUE(db_.execute("SELECT 2")) << db_.error();
  EXPECT_EQ(calls, 1);
}

TEST_F(Tracing, OptionsAskingForNoEventStopTracing) {
  int calls = 0;
  db_.trace(sqlitebridge::TraceOptions::ExpandedSQL,
            [probe = makeProbe(released_[0]), &calls](const TraceEvent&) { ++calls; });
  EXPECT_EQ(released_[0], 1);  // nothing to report: not kept
  ASSERT_TRUE(db_.execute("SELECT 1")) << db_.error();
  EXPECT_EQ(calls, 0);
}

TEST_F(Tracing, ReplacingReleasesTheOldCallbackAndCallsOnlyTheNewOne) {
  int firstCalls = 0;
  int secondCalls = 0;
  db_.trace(sqlitebridge::TraceOptions::Statements,
            [probe = makeProbe(released_[0]), &firstCalls](const TraceEvent&) { ++firstCalls; });
  db_.trace(sqlitebridge::TraceOptions::Statements,
            [probe = makeProbe(released_[1]), &secondCalls](const TraceEvent&) { ++secondCalls; });
  EXPECT_EQ(released_[0], 1);
  EXPECT_EQ(released_[1], 0);
  ASSERT_TRUE(db_.execute("SELECT 1")) << db_.error();
  EXPECT_EQ(firstCalls, 0);
  EXPECT_EQ(secondCalls, 1);
}

TEST_F(Tracing, ClosingReleasesTheCallbackAndNothingIsCalledAfter) {
  int calls = 0;
  db_.trace(sqlitebridge::TraceOptions::Statements | sqlitebridge::TraceOptions::Profile,
            [probe = makeProbe(released_[0]), &calls](const TraceEvent&) { ++calls; });
  ASSERT_TRUE(db_.execute("BEGIN")) << db_.error();
  ASSERT_TRUE(insertSecret()) << db_.error();
  const int callsBeforeClose = calls;
  db_.close();
  EXPECT_EQ(released_[0], 1);
  EXPECT_EQ(calls, callsBeforeClose);  // not even for the rollback at close
  EXPECT_FALSE(db_.execute("SELECT 1"));
  EXPECT_EQ(calls, callsBeforeClose);
}

TEST_F(Tracing, OnAClosedDatabaseRecordsMisuseAndReleasesTheCallback) {
  db_.close();
  db_.trace(sqlitebridge::TraceOptions::Statements, [probe = makeProbe(released_[0])](const TraceEvent&) {});
  EXPECT_EQ(released_[0], 1);
  EXPECT_EQ(db_.lastError().code, static_cast<int>(ResultCode::Misuse));
}

TEST_F(Tracing, ACallbackThatThrowsNeitherFailsNorStopsTheStatement) {
  int calls = 0;
  db_.trace(sqlitebridge::TraceOptions::Statements | sqlitebridge::TraceOptions::Profile, [&calls](const TraceEvent&) {
    ++calls;
    throw std::runtime_error("trace failed");
  });
  ASSERT_TRUE(insertSecret()) << db_.error();
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM notes"), 1);
}
