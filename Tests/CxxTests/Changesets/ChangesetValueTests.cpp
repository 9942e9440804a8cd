// Changeset values (issue 41): bad bytes refused with a corrupt error, the
// empty changeset, rebasing a local changeset over remote changes applied
// with conflicts, and every call where SQLite has no session extension.
#include <gtest/gtest.h>

#include <sqlitebridge/interop/Testing.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "ChangesetTestSupport.hpp"

using namespace sqlitebridge;
using namespace sqlitebridge_test;

TEST(ChangesetValue, BytesThatAreNotAChangesetAreCorrupt) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  Database db = openChangesetDatabase();
  Session session(db, "main");
  ASSERT_TRUE(session.attachAll());
  ASSERT_TRUE(db.execute("INSERT INTO items VALUES (1, 2, 3.5, 'text', x'0102', NULL)"));
  Changeset good;
  ASSERT_TRUE(session.changeset(good));
  const std::string bytes = good.bytes();
  std::vector<std::string> bad = {"x", "hello, world", std::string("T\x03\x01\x00items", 9),
                                  bytes.substr(0, bytes.size() - 3), bytes + "T"};
  std::string wrongCount = bytes;
  wrongCount[1] = '\x7f';  // more columns than the record holds
  bad.push_back(wrongCount);
  for (const std::string& candidate : bad) {
    Changeset parsed;
    Error error;
    EXPECT_FALSE(Changeset::fromBytes(candidate, parsed, &error)) << candidate.size();
    EXPECT_EQ(error.resultCode(), ResultCode::Corrupt) << error.message;
    EXPECT_TRUE(parsed.isEmpty());
  }
}

TEST(ChangesetValue, NoBytesMakeTheEmptyChangeset) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  Changeset empty;
  Error error;
  ASSERT_TRUE(Changeset::fromBytes(std::string(), empty, &error)) << error;
  EXPECT_TRUE(empty.isEmpty());
  EXPECT_FALSE(empty.isPatchset());
  std::vector<ChangesetOperation> operations{ChangesetOperation()};
  ASSERT_TRUE(empty.operations(operations));
  EXPECT_TRUE(operations.empty());
  Changeset inverse;
  ASSERT_TRUE(empty.inverted(inverse));
  EXPECT_TRUE(inverse.isEmpty());
  Database db = openChangesetDatabase();
  EXPECT_TRUE(db.apply(empty)) << db.error();
}

TEST(ChangesetValue, ARebasedLocalChangesetKeepsTheRemoteWinnersOnBothSides) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  TempDir dir;
  const std::string seed = "INSERT INTO items(id, t, n) VALUES (1, 'original', 'n0'), (2, 'two', NULL);";
  Database local = openChangesetDatabase(dir.path() + "/local.db");
  Database remote = openChangesetDatabase(dir.path() + "/remote.db");
  ASSERT_TRUE(local.executeScript(seed));
  ASSERT_TRUE(remote.executeScript(seed));
  Changeset localChanges, remoteChanges;
  {
    Session session(local, "main");
    ASSERT_TRUE(session.attachAll());
    ASSERT_TRUE(local.executeScript("UPDATE items SET t = 'local', n = 'local n' WHERE id = 1;"));
    ASSERT_TRUE(session.changeset(localChanges));
  }
  {
    Session session(remote, "main");
    ASSERT_TRUE(session.attachAll());
    ASSERT_TRUE(remote.executeScript("UPDATE items SET t = 'remote' WHERE id = 1;"));
    ASSERT_TRUE(session.changeset(remoteChanges));
  }
  // The remote change wins over the local one here...
  std::string rebaseData;
  ASSERT_TRUE(local.apply(
      remoteChanges, std::nullopt,
      [](const ChangesetConflict& conflict) {
        return conflict.kind == ChangesetConflictKind::Data ? ChangesetConflictResolution::Replace
                                                            : ChangesetConflictResolution::Abort;
      },
      &rebaseData))
      << local.error();
  EXPECT_FALSE(rebaseData.empty());
  // ...and the local change, rebased, keeps it there.
  ChangesetRebaser rebaser;
  Error error;
  ASSERT_TRUE(rebaser.configure(rebaseData, &error)) << error;
  Changeset rebased;
  ASSERT_TRUE(rebaser.rebase(localChanges, rebased, &error)) << error;
  ASSERT_TRUE(remote.apply(rebased, std::nullopt, [](const ChangesetConflict&) {
    return ChangesetConflictResolution::Replace;
  })) << remote.error();
  EXPECT_EQ(dump(local, "SELECT * FROM items ORDER BY id"), dump(remote, "SELECT * FROM items ORDER BY id"));
  EXPECT_EQ(scalarText(remote, "SELECT t || '/' || n FROM items WHERE id = 1"), "remote/local n");

  // Without rebasing, the local change would overwrite the winner.
  Database stale = openChangesetDatabase();
  ASSERT_TRUE(stale.executeScript(seed + "UPDATE items SET t = 'remote' WHERE id = 1;"));
  ASSERT_TRUE(stale.apply(localChanges, std::nullopt,
                          [](const ChangesetConflict&) { return ChangesetConflictResolution::Replace; }));
  EXPECT_EQ(scalarText(stale, "SELECT t FROM items WHERE id = 1"), "local");

  ChangesetRebaser broken;
  EXPECT_FALSE(broken.configure("not rebase data", &error));
  EXPECT_TRUE(error.isError());
}

TEST(ChangesetValue, WithoutTheSessionExtensionEveryCallSaysSo) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  Database db = openChangesetDatabase();
  Session before(db, "main");
  ASSERT_TRUE(before.attachAll());
  ASSERT_TRUE(db.execute("INSERT INTO items(id) VALUES (1)"));
  Changeset changes;
  ASSERT_TRUE(before.changeset(changes));

  interop::ChangesetTesting::hideSessionExtension(true);
  struct Restore {
    ~Restore() { interop::ChangesetTesting::hideSessionExtension(false); }
  } restore;
  EXPECT_FALSE(sessionExtensionAvailable());
  const auto expectMissing = [](const Error& error) {
    EXPECT_EQ(error.resultCode(), ResultCode::Error);
    EXPECT_TRUE(contains(error.message, "session extension is not available")) << error.message;
    EXPECT_TRUE(contains(error.message, "SQLITE_ENABLE_SESSION")) << error.message;
  };
  Session session(db, "main");
  expectMissing(session.error());
  Error error;
  Changeset out;
  EXPECT_FALSE(Changeset::fromBytes(changes.bytes(), out, &error));
  expectMissing(error);
  EXPECT_FALSE(changes.inverted(out, &error));
  expectMissing(error);
  EXPECT_FALSE(changes.concatenated(changes, out, &error));
  expectMissing(error);
  std::vector<ChangesetOperation> operations;
  EXPECT_FALSE(changes.operations(operations, &error));
  expectMissing(error);
  EXPECT_FALSE(before.changeset(out, &error));
  expectMissing(error);
  Database target = openChangesetDatabase();
  EXPECT_FALSE(target.apply(changes));
  expectMissing(target.lastError());
  ChangesetRebaser rebaser;
  EXPECT_FALSE(rebaser.configure("", &error));
  expectMissing(error);
  DatabaseQueue queue(":memory:");
  UndoHistory history(queue, std::nullopt, 10);
  expectMissing(history.error());
  EXPECT_FALSE(history.undo(&error));
  expectMissing(error);
}

TEST(ChangesetValue, AvailabilityFollowsTheEnginesCompileOptions) {
  // Never skipped: the skips above must not hide a session extension that
  // is there (every engine the CI builds has it).
  const std::vector<std::string> options = Database::compileOptions();
  const bool compiledIn = std::find(options.begin(), options.end(), "ENABLE_SESSION") != options.end();
  EXPECT_EQ(sessionExtensionAvailable(), compiledIn);
}
