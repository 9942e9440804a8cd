// What fuzzing found SQLite 3.40.1's session extension does with bytes or
// tables it should refuse (issue 41), each refused by the core: a table
// whose primary key columns come in another order (SQLite skipped it
// silently), a table given two shapes by two headers in a row (SQLite
// applied values of the change before), an update whose key value is
// undefined (SQLite's apply dereferenced null), patchset-shaped rebase data
// (SQLite's rebaser read past a record). The fuzz seeds
// Fuzz/corpus/changeset_bytes/regression-* hold the inputs it found.
#include <gtest/gtest.h>

#include <string>

#include "ChangesetTestSupport.hpp"

using namespace sqlitebridge;
using namespace sqlitebridge_test;

namespace {

// The changeset `script` makes after `schema` (in a fresh in-memory database).
Changeset recorded(const std::string& schema, const std::string& script, bool patchset = false) {
  Database db = Database::open(":memory:");
  EXPECT_TRUE(db.executeScript(schema)) << db.error();
  Session session(db, "main");
  EXPECT_TRUE(session.attachAll());
  EXPECT_TRUE(db.executeScript(script)) << db.error();
  Changeset changes;
  EXPECT_TRUE(patchset ? session.patchset(changes) : session.changeset(changes));
  return changes;
}

}  // namespace

TEST(ChangesetDefects, ATableWhosePrimaryKeyColumnsComeInAnotherOrderIsRefused) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  const Changeset changes = recorded("CREATE TABLE pairs (a TEXT, b INTEGER, v, PRIMARY KEY (a, b));",
                                     "INSERT INTO pairs VALUES ('x', 1, 2);");
  Database target = Database::open(":memory:");
  ASSERT_TRUE(target.execute("CREATE TABLE pairs (a TEXT, b INTEGER, v, PRIMARY KEY (b, a))"));
  EXPECT_FALSE(target.apply(changes));
  EXPECT_EQ(target.lastError().resultCode(), ResultCode::Schema) << target.lastError().message;
  EXPECT_TRUE(contains(target.lastError().message, "\"pairs\"")) << target.lastError().message;
  EXPECT_EQ(scalarInteger(target, "SELECT count(*) FROM pairs"), 0);
}

TEST(ChangesetDefects, TwoHeadersInARowGivingATableTwoShapesAreCorrupt) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  const Changeset narrow = recorded("CREATE TABLE t (a INTEGER PRIMARY KEY, b);", "INSERT INTO t VALUES (1, 'x');");
  const Changeset wide =
      recorded("CREATE TABLE t (a INTEGER PRIMARY KEY, b, c);", "INSERT INTO t VALUES (2, 'y', 'z');");
  Changeset parsed;
  Error error;
  EXPECT_FALSE(Changeset::fromBytes(narrow.bytes() + wide.bytes(), parsed, &error));
  EXPECT_EQ(error.resultCode(), ResultCode::Corrupt) << error.message;
  EXPECT_TRUE(contains(error.message, "other columns")) << error.message;
}

TEST(ChangesetDefects, AnUpdateWhoseKeyValueIsUndefinedIsCorrupt) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  const Changeset update = recorded("CREATE TABLE t (a INTEGER PRIMARY KEY, b); INSERT INTO t VALUES (1, 'x');",
                                    "UPDATE t SET b = 'y' WHERE a = 1;");
  // 'T', 2 columns, key flags 1 0, "t\0", UPDATE, not indirect, then the old
  // record: the key's integer (a type byte and 8 bytes) made undefined (0).
  const std::string& bytes = update.bytes();
  ASSERT_EQ(bytes.substr(0, 8), std::string("T\x02\x01\x00t\x00\x17\x00", 8));
  ASSERT_EQ(bytes[8], '\x01');
  const std::string broken = bytes.substr(0, 8) + std::string(1, '\0') + bytes.substr(17);
  Changeset parsed;
  Error error;
  EXPECT_FALSE(Changeset::fromBytes(broken, parsed, &error));
  EXPECT_EQ(error.resultCode(), ResultCode::Corrupt) << error.message;
  EXPECT_TRUE(contains(error.message, "primary key value is undefined")) << error.message;
}

TEST(ChangesetDefects, PatchsetShapedRebaseDataIsCorrupt) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  const Changeset patchset = recorded("CREATE TABLE t (a INTEGER PRIMARY KEY, b); INSERT INTO t VALUES (1, 'x');",
                                      "DELETE FROM t WHERE a = 1;", true);
  ASSERT_TRUE(patchset.isPatchset());
  ChangesetRebaser rebaser;
  Error error;
  EXPECT_FALSE(rebaser.configure(patchset.bytes(), &error));
  EXPECT_EQ(error.resultCode(), ResultCode::Corrupt) << error.message;
}
