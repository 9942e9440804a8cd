// The SQLite-file sync hub: appends at positions 1..n, conditional on the
// log's last position (a stale `after` appends nothing and still
// succeeds), a (device, sequence) already in the log refusing the whole
// batch, paging, empty and corrupt changesets, a file whose sync_log is of
// another shape, two hubs on one file, invalid entries.
#include <gtest/gtest.h>

#include <sqlitebridge/DatabaseSyncHub.hpp>
#include <sqlitebridge/Sync.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "../Changesets/ChangesetTestSupport.hpp"

using namespace sqlitebridge;
using namespace sqlitebridge_test;

namespace {

/// A real changeset: the insert of row `id` into a keyed table of a
/// database in `dir` (a new row each call with a new `id`).
Changeset insertChangeset(const TempDir& dir, std::int64_t id) {
  Database db = Database::open(dir / "device.sqlite");
  EXPECT_TRUE(db.isOpen()) << db.error();
  EXPECT_TRUE(db.execute("CREATE TABLE IF NOT EXISTS notes(id INTEGER PRIMARY KEY, title TEXT)")) << db.error();
  Session session(db, "main");
  EXPECT_FALSE(session.error().isError()) << session.error();
  Error error;
  EXPECT_TRUE(session.attach("notes", &error)) << error;
  EXPECT_TRUE(db.execute("INSERT INTO notes(id, title) VALUES (?, ?)", id, "note " + std::to_string(id))) << db.error();
  Changeset changes;
  EXPECT_TRUE(session.changeset(changes, &error)) << error;
  EXPECT_FALSE(changes.isEmpty());
  return changes;
}

SyncEntry entryOf(const std::string& device, std::int64_t sequence, Changeset changeset = Changeset()) {
  SyncEntry entry;
  entry.device = device;
  entry.sequence = sequence;
  entry.changeset = std::move(changeset);
  return entry;
}

/// The hub's table as raw SQL sees it (storage classes kept), from a
/// connection of its own.
std::vector<std::string> logRows(const std::string& path) {
  Database db = Database::open(path);
  EXPECT_TRUE(db.isOpen()) << db.error();
  return dump(db,
              "SELECT position, device, sequence, typeof(changeset) AS kind, hex(changeset) AS bytes "
              "FROM sync_log ORDER BY position");
}

/// Every entry of the hub (a test failure when it cannot read them).
std::vector<SyncEntry> allEntries(DatabaseSyncHub& hub) {
  std::vector<SyncEntry> entries;
  Error error;
  EXPECT_TRUE(hub.entries(0, 1000, entries, &error)) << error;
  return entries;
}

std::vector<std::int64_t> positionsOf(const std::vector<SyncEntry>& entries) {
  std::vector<std::int64_t> positions;
  for (const SyncEntry& entry : entries) positions.push_back(entry.position);
  return positions;
}

std::int64_t lastPositionOf(DatabaseSyncHub& hub) {
  std::int64_t position = -1;
  Error error;
  EXPECT_TRUE(hub.lastPosition(position, &error)) << error;
  return position;
}

}  // namespace

TEST(DatabaseSyncHub, AppendsAtPositionsOneToNOnAnEmptyLogAndReadsThemBack) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  TempDir dir;
  DatabaseSyncHub hub(dir / "hub.sqlite");
  ASSERT_FALSE(hub.error().isError()) << hub.error();
  EXPECT_EQ(lastPositionOf(hub), 0);
  EXPECT_TRUE(allEntries(hub).empty());

  std::vector<SyncEntry> batch = {entryOf("phone", 1, insertChangeset(dir, 1)),
                                  entryOf("phone", 2, insertChangeset(dir, 2)),
                                  entryOf("laptop", 1, insertChangeset(dir, 3))};
  // The entries' own positions are ignored: the hub gives the places.
  for (SyncEntry& entry : batch) entry.position = 99;
  bool appended = false;
  Error error;
  ASSERT_TRUE(hub.append(batch, 0, appended, &error)) << error;
  EXPECT_TRUE(appended);
  EXPECT_EQ(lastPositionOf(hub), 3);

  std::vector<SyncEntry> read;
  ASSERT_TRUE(hub.entries(0, 100, read, &error)) << error;
  ASSERT_EQ(read.size(), 3u);
  for (std::size_t i = 0; i < read.size(); ++i) {
    EXPECT_EQ(read[i].position, static_cast<std::int64_t>(i) + 1);
    EXPECT_EQ(read[i].device, batch[i].device);
    EXPECT_EQ(read[i].sequence, batch[i].sequence);
    EXPECT_EQ(read[i].changeset, batch[i].changeset);
  }
  // The next batch goes on from the last position.
  ASSERT_TRUE(hub.append({entryOf("phone", 3, insertChangeset(dir, 4))}, 3, appended, &error)) << error;
  EXPECT_TRUE(appended);
  EXPECT_EQ(positionsOf(allEntries(hub)), (std::vector<std::int64_t>{1, 2, 3, 4}));
}

TEST(DatabaseSyncHub, AReopenedHubKeepsItsLog) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  TempDir dir;
  const std::vector<SyncEntry> batch = {entryOf("phone", 1, insertChangeset(dir, 1))};
  {
    DatabaseSyncHub hub(dir / "hub.sqlite");
    bool appended = false;
    Error error;
    ASSERT_TRUE(hub.append(batch, 0, appended, &error)) << error;
    ASSERT_TRUE(appended);
  }
  DatabaseSyncHub reopened(dir / "hub.sqlite");
  ASSERT_FALSE(reopened.error().isError()) << reopened.error();
  const std::vector<SyncEntry> read = allEntries(reopened);
  ASSERT_EQ(read.size(), 1u);
  EXPECT_EQ(read[0].position, 1);
  EXPECT_EQ(read[0].changeset, batch[0].changeset);
}

TEST(DatabaseSyncHub, AStaleAfterAppendsNothingAndStillSucceeds) {
  TempDir dir;
  const std::string path = dir / "hub.sqlite";
  DatabaseSyncHub hub(path);
  ASSERT_FALSE(hub.error().isError()) << hub.error();
  bool appended = false;
  Error error;
  ASSERT_TRUE(hub.append({entryOf("phone", 1), entryOf("phone", 2)}, 0, appended, &error)) << error;
  ASSERT_TRUE(appended);
  const std::vector<std::string> before = logRows(path);
  ASSERT_EQ(before.size(), 2u);

  // Behind the log (another device appended since) and ahead of it.
  for (const std::int64_t after : {std::int64_t{0}, std::int64_t{1}, std::int64_t{5}, std::int64_t{-1}}) {
    appended = true;
    EXPECT_TRUE(hub.append({entryOf("laptop", 1)}, after, appended, &error)) << error << " after " << after;
    EXPECT_FALSE(appended) << "after " << after;
    EXPECT_EQ(logRows(path), before) << "after " << after;
  }
  EXPECT_EQ(lastPositionOf(hub), 2);
}

TEST(DatabaseSyncHub, AnEmptyBatchTellsWhetherAfterIsTheLastPositionAndWritesNothing) {
  TempDir dir;
  const std::string path = dir / "hub.sqlite";
  DatabaseSyncHub hub(path);
  bool appended = false;
  Error error;
  ASSERT_TRUE(hub.append({entryOf("phone", 1)}, 0, appended, &error)) << error;
  const std::vector<std::string> before = logRows(path);
  ASSERT_TRUE(hub.append({}, 1, appended, &error)) << error;
  EXPECT_TRUE(appended);
  ASSERT_TRUE(hub.append({}, 0, appended, &error)) << error;
  EXPECT_FALSE(appended);
  EXPECT_EQ(logRows(path), before);
}

TEST(DatabaseSyncHub, ADeviceSequenceAlreadyInTheLogFailsWithConstraintAndAppendsNothingOfTheBatch) {
  TempDir dir;
  const std::string path = dir / "hub.sqlite";
  DatabaseSyncHub hub(path);
  ASSERT_FALSE(hub.error().isError()) << hub.error();
  bool appended = false;
  Error error;
  ASSERT_TRUE(hub.append({entryOf("phone", 1), entryOf("phone", 2)}, 0, appended, &error)) << error;
  ASSERT_TRUE(appended);
  const std::vector<std::string> before = logRows(path);

  // The duplicate is the batch's second entry: the first (new) one must
  // not land either.
  appended = true;
  EXPECT_FALSE(hub.append({entryOf("laptop", 1), entryOf("phone", 2), entryOf("laptop", 2)}, 2, appended, &error));
  EXPECT_FALSE(appended);
  EXPECT_TRUE(error.is(ResultCode::Constraint)) << error;
  EXPECT_TRUE(contains(error.message, "device 'phone' sequence 2 already (position 2)")) << error;
  EXPECT_TRUE(contains(error.message, "nothing appended")) << error;
  EXPECT_EQ(logRows(path), before);

  // The same pair twice in one batch is refused the same way.
  error = Error();
  EXPECT_FALSE(hub.append({entryOf("laptop", 1), entryOf("laptop", 1)}, 2, appended, &error));
  EXPECT_FALSE(appended);
  EXPECT_TRUE(error.is(ResultCode::Constraint)) << error;
  EXPECT_TRUE(contains(error.message, "device 'laptop' sequence 1 twice")) << error;
  EXPECT_EQ(logRows(path), before);
  EXPECT_EQ(lastPositionOf(hub), 2);
}

TEST(DatabaseSyncHub, InvalidEntriesFailWithMisuseAndAppendNothing) {
  TempDir dir;
  const std::string path = dir / "hub.sqlite";
  DatabaseSyncHub hub(path);
  ASSERT_FALSE(hub.error().isError()) << hub.error();
  struct Case {
    std::vector<SyncEntry> batch;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{entryOf("phone", 1), entryOf("", 1)}, "entry 1 of the batch has an empty device name"},
      {{entryOf("phone", 0)}, "entry 0 of the batch has sequence 0"},
      {{entryOf("phone", 1), entryOf("phone", 2), entryOf("phone", -3)}, "entry 2 of the batch has sequence -3"},
  };
  for (const Case& test : cases) {
    bool appended = true;
    Error error;
    EXPECT_FALSE(hub.append(test.batch, 0, appended, &error)) << test.message;
    EXPECT_FALSE(appended);
    EXPECT_EQ(error.code, SQLITE_MISUSE) << error;
    EXPECT_TRUE(contains(error.message, test.message)) << error;
  }
  EXPECT_TRUE(logRows(path).empty());
  EXPECT_EQ(lastPositionOf(hub), 0);
}

TEST(DatabaseSyncHub, EntriesPagesByAfterAndLimit) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  TempDir dir;
  DatabaseSyncHub hub(dir / "hub.sqlite");
  std::vector<SyncEntry> batch;
  for (std::int64_t i = 1; i <= 5; ++i) batch.push_back(entryOf("phone", i, insertChangeset(dir, i)));
  bool appended = false;
  Error error;
  ASSERT_TRUE(hub.append(batch, 0, appended, &error)) << error;
  ASSERT_TRUE(appended);

  const auto page = [&](std::int64_t after, std::size_t limit) {
    // Filled beforehand: a successful call replaces what `out` held.
    std::vector<SyncEntry> out = {entryOf("stale", 7)};
    Error pageError;
    EXPECT_TRUE(hub.entries(after, limit, out, &pageError)) << pageError;
    return positionsOf(out);
  };
  EXPECT_EQ(page(0, 2), (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(page(2, 2), (std::vector<std::int64_t>{3, 4}));
  EXPECT_EQ(page(4, 2), (std::vector<std::int64_t>{5}));
  EXPECT_EQ(page(5, 2), (std::vector<std::int64_t>{}));
  EXPECT_EQ(page(0, 0), (std::vector<std::int64_t>{}));
  EXPECT_EQ(page(3, static_cast<std::size_t>(-1)), (std::vector<std::int64_t>{4, 5}));
  // Each page's entries are the batch's.
  std::vector<SyncEntry> out;
  ASSERT_TRUE(hub.entries(2, 1, out, &error)) << error;
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].device, "phone");
  EXPECT_EQ(out[0].sequence, 3);
  EXPECT_EQ(out[0].changeset, batch[2].changeset);
}

TEST(DatabaseSyncHub, AnEmptyChangesetRoundTripsAsAZeroLengthBlob) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  TempDir dir;
  const std::string path = dir / "hub.sqlite";
  DatabaseSyncHub hub(path);
  bool appended = false;
  Error error;
  ASSERT_TRUE(hub.append({entryOf("phone", 1)}, 0, appended, &error)) << error;
  ASSERT_TRUE(appended);
  // A blob of no bytes, not NULL (the column is NOT NULL) nor text.
  EXPECT_EQ(logRows(path),
            (std::vector<std::string>{"position=int:1|device=text:phone|sequence=int:1|kind=text:blob|bytes=text:"}));
  const std::vector<SyncEntry> read = allEntries(hub);
  ASSERT_EQ(read.size(), 1u);
  SyncEntry expected = entryOf("phone", 1);
  expected.position = 1;
  EXPECT_TRUE(read[0].changeset.isEmpty());
  EXPECT_EQ(read[0], expected);
}

TEST(DatabaseSyncHub, ACorruptChangesetFailsEntriesWithCorruptNamingItsPosition) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  TempDir dir;
  const std::string path = dir / "hub.sqlite";
  DatabaseSyncHub hub(path);
  bool appended = false;
  Error error;
  ASSERT_TRUE(hub.append({entryOf("phone", 1, insertChangeset(dir, 1)), entryOf("phone", 2, insertChangeset(dir, 2))},
                         0, appended, &error))
      << error;
  // Another writer of the file (a process of an older or broken build).
  ASSERT_TRUE(makeDatabaseFile(path, "INSERT INTO sync_log VALUES (3, 'laptop', 1, x'54ff0000')"));

  std::vector<SyncEntry> out = {entryOf("kept", 1)};
  EXPECT_FALSE(hub.entries(0, 100, out, &error));
  EXPECT_EQ(error.code, SQLITE_CORRUPT) << error;
  EXPECT_TRUE(contains(error.message, "position 3")) << error;
  EXPECT_TRUE(contains(error.message, "not a changeset")) << error;
  // Nothing of the page before the bad entry: `out` is as it was.
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].device, "kept");
  // The entries before it still read.
  ASSERT_TRUE(hub.entries(0, 2, out, &error)) << error;
  EXPECT_EQ(positionsOf(out), (std::vector<std::int64_t>{1, 2}));
}

TEST(DatabaseSyncHub, AFileWhoseSyncLogHasAnotherShapeFailsToOpenWithError) {
  TempDir dir;
  const std::string path = dir / "other.sqlite";
  ASSERT_TRUE(makeDatabaseFile(path,
                               "CREATE TABLE sync_log(id INTEGER PRIMARY KEY, payload BLOB);"
                               "INSERT INTO sync_log VALUES (1, x'00');"));
  DatabaseSyncHub hub(path);
  const Error opened = hub.error();
  EXPECT_EQ(opened.code, SQLITE_ERROR) << opened;
  EXPECT_TRUE(contains(opened.message, "sync_log")) << opened;
  EXPECT_TRUE(contains(opened.message, "(id, payload)")) << opened;

  // Every call fails with the open error and touches nothing.
  bool appended = true;
  Error error;
  EXPECT_FALSE(hub.append({entryOf("phone", 1)}, 0, appended, &error));
  EXPECT_FALSE(appended);
  EXPECT_EQ(error.code, SQLITE_ERROR);
  EXPECT_EQ(error.message, opened.message);
  std::vector<SyncEntry> out;
  error = Error();
  EXPECT_FALSE(hub.entries(0, 10, out, &error));
  EXPECT_EQ(error.message, opened.message);
  std::int64_t position = 0;
  error = Error();
  EXPECT_FALSE(hub.lastPosition(position, &error));
  EXPECT_EQ(error.message, opened.message);
  Database db = Database::open(path);
  EXPECT_EQ(dump(db, "SELECT * FROM sync_log"), (std::vector<std::string>{"id=int:1|payload=blob:0 "}));
}

TEST(DatabaseSyncHub, AFileThatCannotOpenFailsEveryCallWithTheOpenError) {
  TempDir dir;
  DatabaseSyncHub hub(dir / "missing-directory/hub.sqlite");
  const Error opened = hub.error();
  EXPECT_EQ(opened.code, SQLITE_CANTOPEN) << opened;
  std::int64_t position = 0;
  Error error;
  EXPECT_FALSE(hub.lastPosition(position, &error));
  EXPECT_EQ(error.code, SQLITE_CANTOPEN) << error;
  bool appended = true;
  error = Error();
  EXPECT_FALSE(hub.append({entryOf("phone", 1)}, 0, appended, &error));
  EXPECT_FALSE(appended);
  EXPECT_EQ(error.code, SQLITE_CANTOPEN) << error;
}

TEST(DatabaseSyncHub, TwoHubsOnOneFileAppendingAfterTheSamePositionAppendOnce) {
  TempDir dir;
  const std::string path = dir / "hub.sqlite";
  // Two connections to one file, as two processes have.
  DatabaseSyncHub first(path);
  DatabaseSyncHub second(path);
  ASSERT_FALSE(first.error().isError()) << first.error();
  ASSERT_FALSE(second.error().isError()) << second.error();
  ASSERT_EQ(lastPositionOf(first), 0);
  ASSERT_EQ(lastPositionOf(second), 0);

  // Both saw position 0; the first to append wins, the second is told to
  // pull first.
  bool appended = false;
  Error error;
  ASSERT_TRUE(first.append({entryOf("phone", 1), entryOf("phone", 2)}, 0, appended, &error)) << error;
  EXPECT_TRUE(appended);
  ASSERT_TRUE(second.append({entryOf("laptop", 1)}, 0, appended, &error)) << error;
  EXPECT_FALSE(appended);
  EXPECT_EQ(lastPositionOf(second), 2);

  // Once it has caught up, its append lands after the first's.
  ASSERT_TRUE(second.append({entryOf("laptop", 1)}, 2, appended, &error)) << error;
  EXPECT_TRUE(appended);
  EXPECT_EQ(lastPositionOf(first), 3);
  EXPECT_EQ(logRows(path),
            (std::vector<std::string>{"position=int:1|device=text:phone|sequence=int:1|kind=text:blob|bytes=text:",
                                      "position=int:2|device=text:phone|sequence=int:2|kind=text:blob|bytes=text:",
                                      "position=int:3|device=text:laptop|sequence=int:1|kind=text:blob|bytes=text:"}));
}

/// Forwards both calls to a hub, leaving `lastPosition` to `SyncHub`'s
/// default.
class ForwardingHub final : public SyncHub {
 public:
  explicit ForwardingHub(SyncHub& inner) : inner_(inner) {}
  bool append(const std::vector<SyncEntry>& entries, std::int64_t after, bool& appended,
              Error* error) noexcept override {
    return inner_.append(entries, after, appended, error);
  }
  bool entries(std::int64_t after, std::size_t limit, std::vector<SyncEntry>& out, Error* error) noexcept override {
    return inner_.entries(after, limit, out, error);
  }

 private:
  SyncHub& inner_;
};

TEST(DatabaseSyncHub, AHubsDefaultLastPositionReadsEveryPage) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  TempDir dir;
  DatabaseSyncHub hub(dir / "hub.sqlite");
  ASSERT_FALSE(hub.error().isError()) << hub.error();
  ForwardingHub forwarding(hub);
  std::int64_t position = -1;
  Error error;
  ASSERT_TRUE(forwarding.lastPosition(position, &error)) << error;
  EXPECT_EQ(position, 0);
  std::vector<SyncEntry> batch;
  for (int i = 1; i <= 1203; ++i) batch.push_back(entryOf("phone", i));  // three pages of 500 and more
  bool appended = false;
  ASSERT_TRUE(hub.append(batch, 0, appended, &error)) << error;
  ASSERT_TRUE(appended);
  ASSERT_TRUE(forwarding.lastPosition(position, &error)) << error;
  EXPECT_EQ(position, 1203);
}
