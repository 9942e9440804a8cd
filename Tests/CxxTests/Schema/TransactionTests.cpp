// Transactions and savepoints: begin/commit/rollback, the RAII Transaction
// and Savepoint, inTransaction and inSavepoint (a savepoint inside an open
// transaction), a failed COMMIT, hostile savepoint names, user_version.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::ResultCode;
using sqlitebridge::Savepoint;
using sqlitebridge::Transaction;
using sqlitebridge::TransactionKind;
using sqlitebridge::Value;
using namespace sqlitebridge_test;

namespace {

class Transactions : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.execute("CREATE TABLE t(x INTEGER UNIQUE)")) << db_.error();
    // A deferred foreign key: a violation fails the COMMIT, not the INSERT.
    ASSERT_TRUE(db_.execute("PRAGMA foreign_keys = ON")) << db_.error();
    ASSERT_TRUE(db_.execute("CREATE TABLE parent(id INTEGER PRIMARY KEY)")) << db_.error();
    ASSERT_TRUE(db_.execute("CREATE TABLE child(parent INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)"))
        << db_.error();
  }
  std::int64_t count(const std::string& table = "t") { return scalarInteger(db_, "SELECT count(*) FROM " + table); }
  bool insert(int x) { return db_.execute("INSERT INTO t VALUES (?)", {Value(x)}); }

  TempDir dir_;
  Database db_ = Database::open(dir_ / "transactions.db");
};

}  // namespace

TEST_F(Transactions, BeginCommitAndRollbackDoWhatTheySay) {
  for (TransactionKind kind : {TransactionKind::Deferred, TransactionKind::Immediate, TransactionKind::Exclusive}) {
    ASSERT_TRUE(db_.begin(kind)) << db_.error();
    EXPECT_TRUE(db_.isInTransaction());
    ASSERT_TRUE(insert(static_cast<int>(count()) + 1));
    ASSERT_TRUE(db_.commit()) << db_.error();
    EXPECT_FALSE(db_.isInTransaction());
  }
  EXPECT_EQ(count(), 3);
  ASSERT_TRUE(db_.begin());
  ASSERT_TRUE(insert(99));
  ASSERT_TRUE(db_.rollback()) << db_.error();
  EXPECT_EQ(count(), 3);
  EXPECT_FALSE(db_.rollback()) << "no transaction is open";
  EXPECT_TRUE(db_.lastError().is(ResultCode::Error)) << db_.error();
  ASSERT_TRUE(db_.begin());
  EXPECT_FALSE(db_.begin()) << "transactions do not nest";
  EXPECT_TRUE(db_.rollback());
}

TEST_F(Transactions, ATransactionRollsBackWhenItGoesUnlessCommitted) {
  {
    Transaction transaction(db_, TransactionKind::Immediate);
    ASSERT_TRUE(transaction.isActive()) << db_.error();
    ASSERT_TRUE(insert(1));
  }
  EXPECT_EQ(count(), 0);
  EXPECT_FALSE(db_.isInTransaction());
  {
    Transaction transaction(db_);
    ASSERT_TRUE(insert(2));
    ASSERT_TRUE(transaction.commit()) << db_.error();
    EXPECT_FALSE(transaction.isActive());
    EXPECT_FALSE(transaction.commit());
    EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse));
  }
  EXPECT_EQ(count(), 1);
  {
    Transaction transaction(db_);
    ASSERT_TRUE(insert(3));
    ASSERT_TRUE(transaction.rollback()) << db_.error();
    EXPECT_FALSE(transaction.rollback());
    EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse));
  }
  EXPECT_EQ(count(), 1);
}

TEST_F(Transactions, ATransactionGoingAwayAfterAFailureKeepsTheFailure) {
  ASSERT_TRUE(insert(1));
  {
    Transaction transaction(db_);
    ASSERT_TRUE(insert(2));
    EXPECT_FALSE(insert(1));  // UNIQUE
  }
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_UNIQUE) << db_.error();
  EXPECT_EQ(count(), 1);
}

TEST_F(Transactions, AFailedCommitLeavesTheTransactionOpenAndTheConnectionUsable) {
  Transaction transaction(db_);
  ASSERT_TRUE(db_.execute("INSERT INTO child VALUES (42)")) << db_.error();  // deferred: no parent 42
  EXPECT_FALSE(transaction.commit());
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_FOREIGNKEY) << db_.error();
  EXPECT_TRUE(transaction.isActive());
  EXPECT_TRUE(db_.isInTransaction());
  ASSERT_TRUE(db_.execute("INSERT INTO parent VALUES (42)")) << db_.error();
  ASSERT_TRUE(transaction.commit()) << db_.error();
  EXPECT_EQ(count("child"), 1);
}

TEST_F(Transactions, ASavepointReleasesKeepsRollsBackDiscardsAndGoesAwayRollingBack) {
  Transaction transaction(db_);
  ASSERT_TRUE(insert(1));
  {
    Savepoint kept(db_, "kept");
    ASSERT_TRUE(kept.isActive()) << db_.error();
    ASSERT_TRUE(insert(2));
    ASSERT_TRUE(kept.release()) << db_.error();
    EXPECT_FALSE(kept.release());
    EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse));
  }
  {
    Savepoint discarded(db_);
    ASSERT_TRUE(insert(3));
    ASSERT_TRUE(discarded.rollback()) << db_.error();
  }
  {
    Savepoint forgotten(db_);
    ASSERT_TRUE(insert(4));
  }
  EXPECT_TRUE(db_.isInTransaction()) << "a savepoint inside a transaction does not end it";
  ASSERT_TRUE(transaction.commit()) << db_.error();
  EXPECT_EQ(scalarText(db_, "SELECT group_concat(x) FROM (SELECT x FROM t ORDER BY x)"), "1,2");
}

TEST_F(Transactions, SavepointNamesAreQuotedAndANulIsRefused) {
  const std::string hostile = "a\"b; DROP TABLE t; --";
  ASSERT_TRUE(db_.savepoint(hostile)) << db_.error();
  ASSERT_TRUE(insert(1));
  ASSERT_TRUE(db_.rollbackToSavepoint(hostile)) << db_.error();
  ASSERT_TRUE(db_.releaseSavepoint(hostile)) << db_.error();
  EXPECT_EQ(count(), 0);
  EXPECT_TRUE(db_.execute("SELECT 1 FROM t")) << "the table is still there";
  EXPECT_FALSE(db_.savepoint(std::string("a\0b", 3)));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse));
  EXPECT_FALSE(db_.isInTransaction());
  Savepoint nul(db_, std::string("a\0b", 3));
  EXPECT_FALSE(nul.isActive());
}

TEST_F(Transactions, InTransactionCommitsOnTrueAndRollsBackOnFalseWithTheErrorClear) {
  EXPECT_TRUE(db_.inTransaction([&](Database& db) { return db.execute("INSERT INTO t VALUES (1)"); }));
  EXPECT_EQ(count(), 1);
  EXPECT_FALSE(db_.inTransaction(
      [&](Database& db) {
        db.execute("INSERT INTO t VALUES (2)");
        return false;
      },
      TransactionKind::Immediate));
  EXPECT_EQ(db_.lastError().code, 0) << db_.error();
  EXPECT_EQ(count(), 1);
  // A failing statement: the body gives up, nothing stays.
  EXPECT_FALSE(db_.inTransaction([&](Database& db) { return insert(3) && db.execute("INSERT INTO t VALUES (1)"); }));
  EXPECT_EQ(count(), 1);
  EXPECT_FALSE(db_.isInTransaction());
}

TEST_F(Transactions, InTransactionInsideATransactionIsASavepoint) {
  ASSERT_TRUE(db_.begin());
  ASSERT_TRUE(insert(1));
  EXPECT_FALSE(db_.inTransaction([&](Database&) { return insert(2) && false; }));
  EXPECT_TRUE(db_.isInTransaction()) << "the inner rollback must not end the outer transaction";
  EXPECT_TRUE(db_.inTransaction([&](Database&) { return insert(3); }));
  EXPECT_TRUE(db_.inSavepoint([&](Database&) { return insert(4); }));
  EXPECT_FALSE(db_.inSavepoint([&](Database&) { return insert(5) && false; }));
  ASSERT_TRUE(db_.commit()) << db_.error();
  EXPECT_EQ(scalarText(db_, "SELECT group_concat(x) FROM (SELECT x FROM t ORDER BY x)"), "1,3,4");
}

TEST_F(Transactions, InTransactionRollsBackAndReportsAFailedCommit) {
  EXPECT_FALSE(db_.inTransaction([&](Database& db) { return db.execute("INSERT INTO child VALUES (7)"); }));
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_FOREIGNKEY) << db_.error();
  EXPECT_FALSE(db_.isInTransaction());
  EXPECT_EQ(count("child"), 0);
}

TEST_F(Transactions, AnExceptionFromTheBodyRollsBackAndPropagates) {
  EXPECT_THROW(db_.inTransaction([&](Database&) -> bool {
    insert(1);
    throw std::runtime_error("body failed");
  }),
               std::runtime_error);
  EXPECT_FALSE(db_.isInTransaction());
  EXPECT_EQ(count(), 0);
}

TEST_F(Transactions, UserVersionReadsBackAndMustFitThirtyTwoBits) {
  std::int64_t version = -1;
  ASSERT_TRUE(db_.userVersion(version)) << db_.error();
  EXPECT_EQ(version, 0);
  for (std::int64_t value : {std::int64_t{4}, std::int64_t{-7}, std::int64_t{INT32_MAX}, std::int64_t{INT32_MIN}}) {
    ASSERT_TRUE(db_.setUserVersion(value)) << db_.error();
    ASSERT_TRUE(db_.userVersion(version)) << db_.error();
    EXPECT_EQ(version, value);
  }
  EXPECT_FALSE(db_.setUserVersion(std::int64_t{INT32_MAX} + 1));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Range)) << db_.error();
  ASSERT_TRUE(db_.userVersion(version));
  EXPECT_EQ(version, INT32_MIN) << "a refused version changes nothing";
  db_.close();
  EXPECT_FALSE(db_.userVersion(version));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse));
}
