// Undo and redo (issue 41): a thousand random transactions undone back to
// the start and redone to the end, a step whose rows changed since refused
// with nothing applied (or forced by a handler), the depth, new writes
// clearing the redo steps, pauses, a pool with readers running meanwhile.
#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <sqlitebridge/interop/Concurrency.hpp>

#include "../ThreadSupport.hpp"
#include "ChangesetTestSupport.hpp"

using namespace sqlitebridge;
using namespace sqlitebridge_test;

namespace {

std::vector<std::string> rowsOf(DatabaseQueue& queue) {
  return queue.read([](Database& db) { return keyedRows(db); });
}

bool write(DatabaseQueue& queue, const std::string& sql) {
  return queue.write([&](Database& db) { return db.executeScript(sql); });
}

}  // namespace

TEST(UndoHistory, AThousandTransactionsUndoneToTheStartAndRedoneToTheEnd) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  DatabaseQueue queue(":memory:");
  ASSERT_TRUE(queue.isOpen()) << queue.openError();
  ASSERT_TRUE(write(queue, kChangesetSchema));
  UndoHistory history(queue, std::nullopt, 1000);
  ASSERT_FALSE(history.error().isError()) << history.error();
  EXPECT_FALSE(history.canUndo());
  const std::vector<std::string> start = rowsOf(queue);
  std::mt19937 random(1000);
  std::vector<std::vector<std::string>> states{start};
  for (int i = 0; i < 1000; ++i) {
    Error error;
    ASSERT_TRUE(queue.write(
        [&](Database& db) {
          for (int k = 0, n = 1 + static_cast<int>(random() % 3); k < n; ++k) {
            if (!randomWrite(db, random)) return false;
          }
          return true;
        },
        &error))
        << error;
    states.push_back(rowsOf(queue));
  }
  // A transaction that changed nothing (a replace by the same row) is no step.
  const std::size_t steps = history.undoCount();
  EXPECT_GT(steps, 900u);
  EXPECT_LE(steps, 1000u);
  Error error;
  std::size_t undone = 0;
  while (history.undo(&error)) ++undone;
  ASSERT_FALSE(error.isError()) << error;
  EXPECT_EQ(undone, steps);
  EXPECT_EQ(rowsOf(queue), start);
  EXPECT_FALSE(history.canUndo());
  EXPECT_EQ(history.redoCount(), steps);
  std::size_t redone = 0;
  while (history.redo(&error)) ++redone;
  ASSERT_FALSE(error.isError()) << error;
  EXPECT_EQ(redone, steps);
  EXPECT_EQ(rowsOf(queue), states.back());
}

TEST(UndoHistory, AStepWhoseRowsChangedSinceIsRefusedWithNothingApplied) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  DatabaseQueue queue(":memory:");
  ASSERT_TRUE(write(queue, kChangesetSchema));
  UndoHistory history(queue, std::vector<std::string>{"items"}, 10);
  ASSERT_FALSE(history.error().isError()) << history.error();
  ASSERT_TRUE(write(queue, "INSERT INTO items(id, t) VALUES (1, 'a'), (2, 'b');"));
  ASSERT_TRUE(write(queue, "UPDATE items SET t = 'a2' WHERE id = 1; UPDATE items SET t = 'b2' WHERE id = 2;"));
  EXPECT_EQ(history.undoCount(), 2u);
  // Another change to row 2, not recorded.
  history.paused([&] { ASSERT_TRUE(write(queue, "UPDATE items SET t = 'theirs' WHERE id = 2;")); });
  EXPECT_EQ(history.undoCount(), 2u);
  const std::vector<std::string> before = rowsOf(queue);
  Error error;
  EXPECT_FALSE(history.undo(&error));
  EXPECT_EQ(error.resultCode(), ResultCode::Abort);
  EXPECT_TRUE(contains(error.message, "undo refused")) << error.message;
  EXPECT_TRUE(contains(error.message, "data conflict")) << error.message;
  EXPECT_EQ(rowsOf(queue), before);
  EXPECT_EQ(history.undoCount(), 2u);
  EXPECT_EQ(history.redoCount(), 0u);
  // A handler may force it.
  ASSERT_TRUE(history.undo(&error, [](const ChangesetConflict&) { return ChangesetConflictResolution::Replace; }))
      << error;
  EXPECT_EQ(queue.read([](Database& db) { return dump(db, "SELECT t FROM items ORDER BY id"); }),
            (std::vector<std::string>{"t=text:a", "t=text:b"}));
  EXPECT_TRUE(history.canRedo());
}

TEST(UndoHistory, NewWritesClearRedoAndTheDepthBoundsTheSteps) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  DatabaseQueue queue(":memory:");
  ASSERT_TRUE(write(queue, kChangesetSchema));
  UndoHistory history(queue, std::nullopt, 3);
  for (int i = 1; i <= 5; ++i) {
    ASSERT_TRUE(write(queue, "INSERT INTO items(id) VALUES (" + std::to_string(i) + ");"));
  }
  EXPECT_EQ(history.undoCount(), 3u);
  Error error;
  while (history.undo(&error)) {
  }
  ASSERT_FALSE(error.isError()) << error;
  EXPECT_EQ(queue.read([](Database& db) { return scalarInteger(db, "SELECT count(*) FROM items"); }), 2);
  EXPECT_EQ(history.redoCount(), 3u);
  ASSERT_TRUE(history.redo(&error)) << error;
  ASSERT_TRUE(write(queue, "INSERT INTO tags(name) VALUES ('new');"));
  EXPECT_FALSE(history.canRedo());
  EXPECT_FALSE(history.redo(&error));
  EXPECT_FALSE(error.isError());
  // Writes to untracked or keyless tables and read-only transactions are no steps.
  const std::size_t steps = history.undoCount();
  ASSERT_TRUE(write(queue, "INSERT INTO plain VALUES (1, 2);"));
  ASSERT_TRUE(queue.read([](Database& db) { return db.execute("SELECT * FROM items"); }));
  EXPECT_EQ(history.undoCount(), steps);
}

TEST(UndoHistory, RefusesADepthOfZeroAMissingTableAndAKeylessOne) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  DatabaseQueue queue(":memory:");
  ASSERT_TRUE(write(queue, kChangesetSchema));
  EXPECT_EQ(UndoHistory(queue, std::nullopt, 0).error().resultCode(), ResultCode::Misuse);
  const Error missing = UndoHistory(queue, std::vector<std::string>{"nowhere"}, 5).error();
  EXPECT_TRUE(contains(missing.message, "no such table: nowhere")) << missing;
  const Error keyless = UndoHistory(queue, std::vector<std::string>{"plain"}, 5).error();
  EXPECT_TRUE(contains(keyless.message, "no PRIMARY KEY")) << keyless;
}

// The Swift facade's blocks run on a handle sharing the writer's connection,
// closed when the block returns (as an observer's is): the history's session
// is the connection's and goes on; a session made through the handle stops.
TEST(UndoHistory, KeepsRecordingWhenAHandleSharingTheWriterCloses) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  DatabaseQueue queue(":memory:");
  ASSERT_TRUE(write(queue, kChangesetSchema));
  UndoHistory history(queue, std::nullopt, 10);
  ASSERT_FALSE(history.error().isError()) << history.error();
  std::optional<Session> handleSession;
  for (int id = 1; id <= 2; ++id) {
    ConnectionLease lease;
    ASSERT_TRUE(interop::ConcurrencyAccess::acquireQueue(queue, LeaseKind::Write, lease)) << lease.error;
    Database shared = interop::ConcurrencyAccess::share(lease);
    if (!handleSession) {
      handleSession.emplace(shared, "main");
      ASSERT_TRUE(handleSession->attachAll());
    }
    EXPECT_TRUE(shared.execute("INSERT INTO items(id) VALUES (?)", {Value(id)})) << shared.error();
    shared.close();
    EXPECT_TRUE(interop::ConcurrencyAccess::finish(lease, true)) << lease.error;
    interop::ConcurrencyAccess::release(lease);
  }
  EXPECT_EQ(history.undoCount(), 2u);
  Changeset changes;
  Error error;
  EXPECT_FALSE(handleSession->changeset(changes, &error));
  EXPECT_EQ(error.resultCode(), ResultCode::Misuse);
  ASSERT_TRUE(history.undo(&error)) << error;
  ASSERT_TRUE(history.undo(&error)) << error;
  EXPECT_EQ(queue.read([](Database& db) { return scalarInteger(db, "SELECT count(*) FROM items"); }), 0);
}

TEST(UndoHistory, APoolUndoesWhileReadersRead) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  TempDir dir;
  const std::string path = dir.path() + "/pool.db";
  ASSERT_NO_FATAL_FAILURE(makeWalDatabase(path, kChangesetSchema));
  DatabasePool pool(path);
  ASSERT_TRUE(pool.isOpen()) << pool.openError();
  UndoHistory history(pool, std::nullopt, 100);
  ASSERT_FALSE(history.error().isError()) << history.error();
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(pool.write(
        [&](Database& db) { return db.execute("INSERT INTO items(id, i) VALUES (?, ?)", {Value(i), Value(i * 10)}); }));
  }
  std::atomic<bool> done{false};
  std::atomic<bool> torn{false};
  std::vector<BoundedThread> readers;
  // Declared after the readers, so destroyed first: however the test ends,
  // the readers stop before they are joined.
  struct Stop {
    std::atomic<bool>& done;
    ~Stop() { done = true; }
  } stop{done};
  // The undos start once each reader has read, so that they run while the
  // readers read however the threads are scheduled.
  Latch reading(2);
  for (int r = 0; r < 2; ++r) {
    readers.emplace_back("reader " + std::to_string(r), [&] {
      bool firstRead = true;
      while (!done.load()) {
        // Each step inserts one row with i = id * 10: a snapshot never sees
        // another row.
        const std::int64_t bad = pool.read(
            [](Database& db) { return scalarInteger(db, "SELECT count(*) FROM items WHERE i IS NOT id * 10"); });
        if (bad != 0) torn = true;
        if (firstRead) {
          firstRead = false;
          reading.countDown();
        }
      }
    });
  }
  ASSERT_TRUE(reading.waitFor()) << "the readers did not read";
  Error error;
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(history.undo(&error)) << error;
  EXPECT_EQ(pool.read([](Database& db) { return scalarInteger(db, "SELECT count(*) FROM items"); }), 0);
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(history.redo(&error)) << error;
  done = true;
  for (BoundedThread& reader : readers) reader.join();
  EXPECT_FALSE(torn.load());
  EXPECT_EQ(pool.read([](Database& db) { return scalarInteger(db, "SELECT count(*) FROM items"); }), 20);
}
