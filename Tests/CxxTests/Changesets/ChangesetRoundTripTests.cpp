// Changesets round trip (issue 41): the changeset of random transactions,
// applied to a copy of the database from before them, gives the same rows;
// its inverse restores the before state; a concatenation equals both
// changesets in turn; patchsets apply.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "ChangesetTestSupport.hpp"

using namespace sqlitebridge;
using namespace sqlitebridge_test;

TEST(ChangesetRoundTrip, RandomTransactionsReplayOnACopyAndTheirInverseRestoresTheStart) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  TempDir dir;
  Database db = openChangesetDatabase(dir.path() + "/work.db");
  std::mt19937 random(41);
  for (int round = 0; round < 40; ++round) {
    ASSERT_TRUE(randomTransaction(db, random, 5)) << db.error();
    Database copy = copyOf(db, dir.path() + "/copy" + std::to_string(round) + ".db");
    const std::vector<std::string> before = keyedRows(db);
    Session session(db, "main");
    ASSERT_FALSE(session.error().isError()) << session.error();
    ASSERT_TRUE(session.attachAll());
    ASSERT_TRUE(randomTransaction(db, random, 1 + round % 12)) << db.error();
    Changeset changes;
    Error error;
    ASSERT_TRUE(session.changeset(changes, &error)) << error;
    const std::vector<std::string> after = keyedRows(db);

    ASSERT_TRUE(copy.apply(changes)) << copy.error();
    EXPECT_EQ(keyedRows(copy), after) << "round " << round;

    Changeset inverse;
    ASSERT_TRUE(changes.inverted(inverse, &error)) << error;
    ASSERT_TRUE(db.apply(inverse)) << db.error();
    EXPECT_EQ(keyedRows(db), before) << "round " << round;
    ASSERT_TRUE(db.apply(changes)) << db.error();
    EXPECT_EQ(keyedRows(db), after) << "round " << round;
  }
}

TEST(ChangesetRoundTrip, AConcatenationEqualsBothChangesetsInTurn) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  TempDir dir;
  Database db = openChangesetDatabase(dir.path() + "/work.db");
  std::mt19937 random(7);
  for (int round = 0; round < 20; ++round) {
    Database twice = copyOf(db, dir.path() + "/twice" + std::to_string(round) + ".db");
    Database once = copyOf(db, dir.path() + "/once" + std::to_string(round) + ".db");
    Changeset first, second, both;
    {
      Session session(db, "main");
      ASSERT_TRUE(session.attachAll());
      ASSERT_TRUE(randomTransaction(db, random, 6)) << db.error();
      ASSERT_TRUE(session.changeset(first));
    }
    {
      Session session(db, "main");
      ASSERT_TRUE(session.attachAll());
      ASSERT_TRUE(randomTransaction(db, random, 6)) << db.error();
      ASSERT_TRUE(session.changeset(second));
    }
    Error error;
    ASSERT_TRUE(first.concatenated(second, both, &error)) << error;
    ASSERT_TRUE(twice.apply(first)) << twice.error();
    ASSERT_TRUE(twice.apply(second)) << twice.error();
    ASSERT_TRUE(once.apply(both)) << once.error();
    EXPECT_EQ(keyedRows(once), keyedRows(db)) << "round " << round;
    EXPECT_EQ(keyedRows(twice), keyedRows(db)) << "round " << round;
  }
}

TEST(ChangesetRoundTrip, APatchsetAppliesAndIsSmallerButCannotBeInverted) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  TempDir dir;
  Database db = openChangesetDatabase(dir.path() + "/work.db");
  std::mt19937 random(3);
  ASSERT_TRUE(randomTransaction(db, random, 30)) << db.error();
  Database copy = copyOf(db, dir.path() + "/copy.db");
  Session session(db, "main");
  ASSERT_TRUE(session.attachAll());
  ASSERT_TRUE(randomTransaction(db, random, 30)) << db.error();
  Changeset patchset, changeset;
  ASSERT_TRUE(session.patchset(patchset));
  ASSERT_TRUE(session.changeset(changeset));
  EXPECT_TRUE(patchset.isPatchset());
  EXPECT_FALSE(changeset.isPatchset());
  EXPECT_LT(patchset.bytes().size(), changeset.bytes().size());
  Changeset parsed;
  Error parseError;
  ASSERT_TRUE(Changeset::fromBytes(patchset.bytes(), parsed, &parseError)) << parseError;
  EXPECT_TRUE(parsed.isPatchset());
  ASSERT_TRUE(copy.apply(parsed)) << copy.error();
  EXPECT_EQ(keyedRows(copy), keyedRows(db));

  Changeset inverse;
  Error error;
  EXPECT_FALSE(patchset.inverted(inverse, &error));
  EXPECT_EQ(error.resultCode(), ResultCode::Misuse);
  EXPECT_TRUE(contains(error.message, "patchset cannot be inverted")) << error.message;
  Changeset mixed;
  EXPECT_FALSE(changeset.concatenated(patchset, mixed, &error));
  EXPECT_EQ(error.resultCode(), ResultCode::Error);
}

TEST(ChangesetRoundTrip, BytesRoundTripThroughFromBytes) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  Database db = openChangesetDatabase();
  Session session(db, "main");
  ASSERT_TRUE(session.attachAll());
  std::mt19937 random(5);
  ASSERT_TRUE(randomTransaction(db, random, 10)) << db.error();
  Changeset changes, parsed;
  ASSERT_TRUE(session.changeset(changes));
  Error error;
  ASSERT_TRUE(Changeset::fromBytes(changes.bytes(), parsed, &error)) << error;
  EXPECT_EQ(parsed, changes);
  EXPECT_FALSE(parsed.isPatchset());
  std::vector<ChangesetOperation> a, b;
  ASSERT_TRUE(changes.operations(a));
  ASSERT_TRUE(parsed.operations(b));
  EXPECT_EQ(a, b);
  EXPECT_FALSE(a.empty());
}
