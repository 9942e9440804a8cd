// Sessions (issue 41): what they record (named tables or all, enabled or
// not, indirect), when they are empty, diffs against an attached database,
// tables they cannot record, and a closed connection.
#include <gtest/gtest.h>

#include <sqlitebridge/interop/Observation.hpp>

#include <optional>
#include <string>
#include <vector>

#include "ChangesetTestSupport.hpp"

using namespace sqlitebridge;
using namespace sqlitebridge_test;

namespace {

std::vector<ChangesetOperation> operationsOf(Session& session) {
  Changeset changes;
  Error error;
  EXPECT_TRUE(session.changeset(changes, &error)) << error;
  std::vector<ChangesetOperation> operations;
  EXPECT_TRUE(changes.operations(operations, &error)) << error;
  return operations;
}

}  // namespace

TEST(Session, RecordsOnlyTheAttachedTables) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  Database db = openChangesetDatabase();
  Session session(db, "main");
  ASSERT_FALSE(session.error().isError()) << session.error();
  EXPECT_TRUE(session.isEmpty());
  ASSERT_TRUE(session.attach("pairs"));
  ASSERT_TRUE(db.executeScript("INSERT INTO items(id, t) VALUES (1, 'a'); INSERT INTO pairs VALUES ('x', 1, NULL);"));
  EXPECT_FALSE(session.isEmpty());
  const std::vector<ChangesetOperation> operations = operationsOf(session);
  ASSERT_EQ(operations.size(), 1u);
  EXPECT_EQ(operations[0].table, "pairs");
  EXPECT_EQ(operations[0].kind, ChangeKind::Insert);
  EXPECT_EQ(operations[0].primaryKey, (std::vector<bool>{true, true, false}));
  EXPECT_TRUE(operations[0].oldValues.empty());
  ASSERT_EQ(operations[0].newValues.size(), 3u);
  EXPECT_EQ(operations[0].newValues[0], std::optional<Value>(Value("x")));
  // NULL is a value, present.
  EXPECT_EQ(operations[0].newValues[2], std::optional<Value>(Value()));
}

TEST(Session, AnUpdateListsUnchangedColumnsAsNotPresentAndNullAsAValue) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  Database db = openChangesetDatabase();
  ASSERT_TRUE(db.execute("INSERT INTO items VALUES (1, 10, 1.5, 'a', x'00', 'n')"));
  Session session(db, "main");
  ASSERT_TRUE(session.attachAll());
  ASSERT_TRUE(db.execute("UPDATE items SET t = NULL WHERE id = 1"));
  const std::vector<ChangesetOperation> operations = operationsOf(session);
  ASSERT_EQ(operations.size(), 1u);
  const ChangesetOperation& update = operations[0];
  EXPECT_EQ(update.kind, ChangeKind::Update);
  ASSERT_EQ(update.oldValues.size(), 6u);
  ASSERT_EQ(update.newValues.size(), 6u);
  EXPECT_EQ(update.oldValues[0], std::optional<Value>(Value(1)));  // the key is always there
  EXPECT_EQ(update.oldValues[1], std::nullopt);                    // unchanged: not present
  EXPECT_EQ(update.oldValues[3], std::optional<Value>(Value("a")));
  EXPECT_EQ(update.newValues[3], std::optional<Value>(Value()));  // set to NULL: a NULL value
  EXPECT_EQ(update.newValues[1], std::nullopt);
}

TEST(Session, DisabledChangesAreNotRecordedAndIndirectOnesAreMarked) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  Database db = openChangesetDatabase();
  Session session(db, "main");
  ASSERT_TRUE(session.attachAll());
  EXPECT_TRUE(session.isEnabled());
  ASSERT_TRUE(session.setEnabled(false));
  EXPECT_FALSE(session.isEnabled());
  ASSERT_TRUE(db.execute("INSERT INTO items(id) VALUES (1)"));
  EXPECT_TRUE(session.isEmpty());
  ASSERT_TRUE(session.setEnabled(true));
  EXPECT_FALSE(session.isIndirect());
  ASSERT_TRUE(session.setIndirect(true));
  EXPECT_TRUE(session.isIndirect());
  ASSERT_TRUE(db.execute("INSERT INTO items(id) VALUES (2)"));
  ASSERT_TRUE(session.setIndirect(false));
  ASSERT_TRUE(db.execute("INSERT INTO items(id) VALUES (3)"));
  const std::vector<ChangesetOperation> operations = operationsOf(session);
  ASSERT_EQ(operations.size(), 2u);
  for (const ChangesetOperation& operation : operations) {
    ASSERT_TRUE(operation.newValues[0].has_value());
    EXPECT_EQ(operation.isIndirect, operation.newValues[0]->asInteger() == 2) << operation.newValues[0]->asInteger();
  }
}

TEST(Session, ARolledBackTransactionLeavesNoChange) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  Database db = openChangesetDatabase();
  ASSERT_TRUE(db.execute("INSERT INTO items(id, t) VALUES (1, 'kept')"));
  Session session(db, "main");
  ASSERT_TRUE(session.attachAll());
  ASSERT_TRUE(db.executeScript(
      "BEGIN; INSERT INTO items(id) VALUES (2); UPDATE items SET t = 'gone' WHERE id = 1; DELETE FROM items WHERE id "
      "= 1; ROLLBACK;"));
  EXPECT_TRUE(operationsOf(session).empty());
}

TEST(Session, ATableWithoutAPrimaryKeyIsRefusedAndAllSkipsIt) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  Database db = openChangesetDatabase();
  Session session(db, "main");
  Error error;
  EXPECT_FALSE(session.attach("plain", &error));
  EXPECT_EQ(error.resultCode(), ResultCode::Error);
  EXPECT_TRUE(contains(error.message, "no PRIMARY KEY")) << error.message;
  ASSERT_TRUE(session.attachAll());
  ASSERT_TRUE(db.executeScript("INSERT INTO plain VALUES (1, 2); INSERT INTO tags(name) VALUES ('t');"));
  const std::vector<ChangesetOperation> operations = operationsOf(session);
  ASSERT_EQ(operations.size(), 1u);
  EXPECT_EQ(operations[0].table, "tags");
}

TEST(Session, DiffGivesTheChangesThatTurnAnAttachedTableIntoThisOne) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  TempDir dir;
  const std::string other = dir.path() + "/other.db";
  {
    Database seed = openChangesetDatabase(other);
    ASSERT_TRUE(seed.executeScript("INSERT INTO items(id, t) VALUES (1, 'old'), (2, 'same'), (3, 'only there');"));
  }
  Database db = openChangesetDatabase(dir.path() + "/main.db");
  ASSERT_TRUE(db.executeScript("INSERT INTO items(id, t) VALUES (1, 'new'), (2, 'same'), (4, 'only here');"));
  ASSERT_TRUE(db.execute("ATTACH ? AS other", {Value(other)})) << db.error();
  Session session(db, "main");
  Error error;
  ASSERT_TRUE(session.diff("other", "items", &error)) << error;
  Changeset changes;
  ASSERT_TRUE(session.changeset(changes, &error)) << error;
  ASSERT_TRUE(db.execute("DETACH other"));
  Database target = Database::open(other);
  ASSERT_TRUE(target.apply(changes)) << target.error();
  EXPECT_EQ(dump(target, "SELECT id, t FROM items ORDER BY id"), dump(db, "SELECT id, t FROM items ORDER BY id"));

  EXPECT_FALSE(session.diff("nowhere", "items", &error));
  EXPECT_TRUE(error.isError());
}

TEST(Session, AClosedDatabaseMakesEveryCallAMisuse) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  Database db = openChangesetDatabase();
  Session session(db, "main");
  ASSERT_TRUE(session.attachAll());
  ASSERT_TRUE(db.execute("INSERT INTO items(id) VALUES (1)"));
  db.close();
  Error error;
  Changeset changes;
  EXPECT_FALSE(session.changeset(changes, &error));
  EXPECT_EQ(error.resultCode(), ResultCode::Misuse);
  EXPECT_TRUE(contains(error.message, "closed")) << error.message;
  EXPECT_FALSE(session.attach("items", &error));
  EXPECT_EQ(error.resultCode(), ResultCode::Misuse);
  EXPECT_FALSE(session.setEnabled(true, &error));
  EXPECT_FALSE(session.isEnabled());
  EXPECT_FALSE(session.isIndirect());
  EXPECT_TRUE(session.isEmpty());
}

TEST(Session, ADestroyedDatabaseMakesEveryCallAMisuse) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  std::optional<Database> db(openChangesetDatabase());
  Session session(*db, "main");
  ASSERT_TRUE(session.attachAll());
  db.reset();
  Error error;
  Changeset changes;
  EXPECT_FALSE(session.patchset(changes, &error));
  EXPECT_EQ(error.resultCode(), ResultCode::Misuse);
  Session moved = std::move(session);
  EXPECT_FALSE(moved.changeset(changes, &error));
  EXPECT_EQ(error.resultCode(), ResultCode::Misuse);
}

// Several handles share a connection (the Swift facade's blocks and
// observers are given one each, closed after): a session stops with the
// handle it was made through, follows it when moved, and outlives the others.
TEST(Session, ItStopsWithItsOwnHandleNotWithAnotherOfTheConnection) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  Database db = openChangesetDatabase();
  Session session(db, "main");
  ASSERT_TRUE(session.attachAll());
  std::optional<Session> sharedSession;
  {
    Database shared = interop::ObservationAccess::share(&db);
    sharedSession.emplace(shared, "main");
    ASSERT_TRUE(sharedSession->attachAll());
    ASSERT_TRUE(shared.execute("INSERT INTO items(id) VALUES (1)"));
    shared.close();
  }
  Error error;
  Changeset changes;
  EXPECT_FALSE(sharedSession->changeset(changes, &error));
  EXPECT_EQ(error.resultCode(), ResultCode::Misuse);
  {
    Database shared = interop::ObservationAccess::share(&db);
    sharedSession.emplace(shared, "main");
    ASSERT_TRUE(sharedSession->attachAll());
  }  // destroyed, not closed
  EXPECT_FALSE(sharedSession->changeset(changes, &error));
  EXPECT_EQ(error.resultCode(), ResultCode::Misuse);
  EXPECT_EQ(operationsOf(session).size(), 1u);

  Database moved = std::move(db);
  ASSERT_TRUE(moved.execute("INSERT INTO items(id) VALUES (2)"));
  EXPECT_EQ(operationsOf(session).size(), 2u);
  Database assigned = openChangesetDatabase();
  Session replaced(assigned, "main");
  assigned = std::move(moved);
  EXPECT_FALSE(replaced.changeset(changes, &error));
  EXPECT_EQ(error.resultCode(), ResultCode::Misuse);
  ASSERT_TRUE(assigned.execute("INSERT INTO items(id) VALUES (3)"));
  EXPECT_EQ(operationsOf(session).size(), 3u);
  assigned.close();
  EXPECT_FALSE(session.changeset(changes, &error));
  EXPECT_EQ(error.resultCode(), ResultCode::Misuse);
}

TEST(Session, OnAClosedDatabaseItDoesNotStart) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  Database db = openChangesetDatabase();
  db.close();
  Session session(db, "main");
  EXPECT_EQ(session.error().resultCode(), ResultCode::Misuse);
  Error error;
  EXPECT_FALSE(session.attachAll(&error));
  EXPECT_EQ(error.resultCode(), ResultCode::Misuse);
}
