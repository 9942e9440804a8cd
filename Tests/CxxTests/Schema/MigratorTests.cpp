// Migrations: order, recording (the migrations table and user_version),
// re-running, a failure midway, a broken foreign key, a database migrated by
// a newer app, upTo, duplicate identifiers, updateTable inside a migration,
// the foreign_keys setting afterwards, and refusing inside a transaction.
// (MigratorTests.swift checks the same from Swift.)
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::Migrator;
using sqlitebridge::ResultCode;
using sqlitebridge::Value;
using namespace sqlitebridge_test;

namespace {

using Strings = std::vector<std::string>;

class Migrations : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(db_.isOpen()) << db_.error(); }

  // A migration that notes its run in `ran_` and runs `sql` (a script).
  std::function<bool(Database&)> step(const std::string& name, const std::string& sql) {
    return [this, name, sql](Database& db) {
      ran_.push_back(name);
      return db.executeScript(sql);
    };
  }
  // The three migrations most tests use: a table, a column, rows.
  void registerThree(Migrator& migrator) {
    migrator.registerMigration("1-notes", step("1-notes", "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT)"));
    migrator.registerMigration("2-body", step("2-body", "ALTER TABLE notes ADD COLUMN body TEXT"));
    migrator.registerMigration("3-rows",
                               step("3-rows", "INSERT INTO notes(title, body) VALUES ('a', 'x'), ('b', 'y')"));
  }
  Strings applied() {
    Strings identifiers;
    EXPECT_TRUE(Migrator().appliedMigrations(db_, identifiers)) << db_.error();
    return identifiers;
  }
  std::int64_t userVersion() { return scalarInteger(db_, "PRAGMA user_version"); }
  std::int64_t foreignKeys() { return scalarInteger(db_, "PRAGMA foreign_keys"); }
  bool hasTable(const std::string& name) {
    return scalarInteger(db_, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '" + name + "'") == 1;
  }

  TempDir dir_;
  Database db_ = Database::open(dir_ / "migrations.db");
  Strings ran_;
};

}  // namespace

TEST_F(Migrations, RunInTheOrderRegisteredAndAreRecordedInTheTableAndUserVersion) {
  Migrator migrator;
  registerThree(migrator);
  ASSERT_TRUE(migrator.migrate(db_)) << db_.error();
  EXPECT_EQ(ran_, (Strings{"1-notes", "2-body", "3-rows"}));
  EXPECT_EQ(applied(), (Strings{"1-notes", "2-body", "3-rows"}));
  EXPECT_EQ(userVersion(), 3);
  EXPECT_EQ(dump(db_, "SELECT title, body FROM notes ORDER BY id"),
            (Strings{"title=text:a|body=text:x", "title=text:b|body=text:y"}));
  EXPECT_EQ(dump(db_, "SELECT sql FROM sqlite_master WHERE name = 'sqlitebridge_migrations'"),
            (Strings{"sql=text:CREATE TABLE \"sqlitebridge_migrations\"(identifier TEXT PRIMARY KEY NOT NULL)"}));
  EXPECT_FALSE(db_.lastError().isError());
  // Other tools see the same version and records.
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open_v2((dir_ / "migrations.db").c_str(), &raw, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  for (const char* sql : {"PRAGMA user_version", "SELECT count(*) FROM sqlitebridge_migrations"}) {
    ASSERT_EQ(sqlite3_prepare_v2(raw, sql, -1, &stmt, nullptr), SQLITE_OK) << sql;
    ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW) << sql;
    EXPECT_EQ(sqlite3_column_int(stmt, 0), 3) << sql;
    sqlite3_finalize(stmt);
  }
  sqlite3_close(raw);
}

TEST_F(Migrations, RunningAgainIsANoOpAndANewMigrationRunsAlone) {
  Migrator migrator;
  registerThree(migrator);
  ASSERT_TRUE(migrator.migrate(db_)) << db_.error();
  ran_.clear();
  ASSERT_TRUE(migrator.migrate(db_)) << db_.error();
  EXPECT_TRUE(ran_.empty());
  EXPECT_EQ(userVersion(), 3);
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM notes"), 2);

  migrator.registerMigration("4-index", step("4-index", "CREATE INDEX notes_title ON notes(title)"));
  ASSERT_TRUE(migrator.migrate(db_)) << db_.error();
  EXPECT_EQ(ran_, Strings{"4-index"});
  EXPECT_EQ(applied(), (Strings{"1-notes", "2-body", "3-rows", "4-index"}));
  EXPECT_EQ(userVersion(), 4);
}

TEST_F(Migrations, NoMigrationsWritesNothing) {
  Migrator migrator;
  ASSERT_TRUE(migrator.migrate(db_)) << db_.error();
  EXPECT_FALSE(hasTable("sqlitebridge_migrations"));
  EXPECT_EQ(userVersion(), 0);
  EXPECT_EQ(applied(), Strings{});
  bool completed = false;
  ASSERT_TRUE(migrator.hasCompletedMigrations(db_, completed)) << db_.error();
  EXPECT_TRUE(completed);
}

TEST_F(Migrations, AFailureStopsTheRunKeepsEarlierOnesAndRollsTheFailedOneBackEntirely) {
  Migrator broken;
  broken.registerMigration("1-notes", step("1-notes", "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT)"));
  // Writes, then fails midway.
  broken.registerMigration("2-tags", step("2-tags",
                                          "CREATE TABLE tags(name TEXT); INSERT INTO notes(title) VALUES ('half');"
                                          "INSERT INTO no_such_table VALUES (1)"));
  broken.registerMigration("3-rows", step("3-rows", "INSERT INTO notes(title) VALUES ('three')"));
  EXPECT_FALSE(broken.migrate(db_));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Error)) << db_.error();
  EXPECT_EQ(db_.error().rfind("migration 2-tags failed: no such table: no_such_table", 0), 0u) << db_.error();
  EXPECT_EQ(ran_, (Strings{"1-notes", "2-tags"}));
  EXPECT_EQ(applied(), Strings{"1-notes"});
  EXPECT_EQ(userVersion(), 1);
  EXPECT_FALSE(hasTable("tags"));
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM notes"), 0);
  EXPECT_FALSE(db_.isInTransaction());

  Migrator fixed;
  fixed.registerMigration("1-notes", step("1-notes", "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT)"));
  fixed.registerMigration("2-tags", step("2-tags", "CREATE TABLE tags(name TEXT)"));
  fixed.registerMigration("3-rows", step("3-rows", "INSERT INTO notes(title) VALUES ('three')"));
  ran_.clear();
  ASSERT_TRUE(fixed.migrate(db_)) << db_.error();
  EXPECT_EQ(ran_, (Strings{"2-tags", "3-rows"}));
  EXPECT_EQ(applied(), (Strings{"1-notes", "2-tags", "3-rows"}));
  EXPECT_EQ(userVersion(), 3);
  EXPECT_EQ(dump(db_, "SELECT title FROM notes"), Strings{"title=text:three"});
}

TEST_F(Migrations, ABodyReturningFalseWithoutAnErrorFailsWithAbort) {
  Migrator migrator;
  migrator.registerMigration("quits", [](Database& db) { return db.execute("CREATE TABLE t(x)") && false; });
  EXPECT_FALSE(migrator.migrate(db_));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Abort)) << db_.error();
  EXPECT_EQ(db_.error(), "migration quits failed: it returned false without an error");
  EXPECT_FALSE(hasTable("t"));
  EXPECT_EQ(applied(), Strings{});
  EXPECT_EQ(userVersion(), 0);
}

TEST_F(Migrations, AMigrationThatBreaksAForeignKeyFailsWith787AndIsRolledBack) {
  ASSERT_TRUE(
      db_.executeScript("PRAGMA foreign_keys = ON;"
                        "CREATE TABLE parent(id INTEGER PRIMARY KEY);"
                        "CREATE TABLE child(id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parent(id));"
                        "INSERT INTO parent VALUES (1); INSERT INTO child VALUES (10, 1)"))
      << db_.error();
  Migrator migrator;
  migrator.registerMigration("orphans", step("orphans", "INSERT INTO child VALUES (11, 2); DELETE FROM parent"));
  EXPECT_FALSE(migrator.migrate(db_));
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_FOREIGNKEY) << db_.error();
  EXPECT_EQ(db_.error().rfind("migration orphans failed: it would break a foreign key: row ", 0), 0u) << db_.error();
  EXPECT_EQ(dump(db_, "SELECT id FROM parent"), Strings{"id=int:1"});
  EXPECT_EQ(dump(db_, "SELECT id, parent FROM child"), Strings{"id=int:10|parent=int:1"});
  EXPECT_EQ(applied(), Strings{});
  EXPECT_EQ(userVersion(), 0);
  EXPECT_EQ(foreignKeys(), 1);
}

TEST_F(Migrations, ADatabaseMigratedByANewerAppFailsWithoutRunningAnything) {
  Migrator newer;
  registerThree(newer);
  newer.registerMigration("4-later", step("4-later", "CREATE TABLE later(x)"));
  ASSERT_TRUE(newer.migrate(db_)) << db_.error();
  ran_.clear();

  Migrator older;
  registerThree(older);
  older.registerMigration("5-other", step("5-other", "CREATE TABLE other(x)"));
  EXPECT_FALSE(older.migrate(db_));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Error)) << db_.error();
  EXPECT_EQ(db_.error(), "the database was migrated by a newer version of the app: unknown migration 4-later");
  EXPECT_TRUE(ran_.empty());
  EXPECT_FALSE(hasTable("other"));
  EXPECT_EQ(userVersion(), 4);
  bool completed = true;
  EXPECT_FALSE(older.hasCompletedMigrations(db_, completed));
  EXPECT_EQ(db_.error(), "the database was migrated by a newer version of the app: unknown migration 4-later");
  // What the database records, unknown ones included.
  Strings identifiers;
  ASSERT_TRUE(older.appliedMigrations(db_, identifiers)) << db_.error();
  EXPECT_EQ(identifiers, (Strings{"1-notes", "2-body", "3-rows", "4-later"}));
}

TEST_F(Migrations, UpToStopsAfterTheNamedMigration) {
  Migrator migrator;
  registerThree(migrator);
  ASSERT_TRUE(migrator.migrate(db_, "2-body")) << db_.error();
  EXPECT_EQ(ran_, (Strings{"1-notes", "2-body"}));
  EXPECT_EQ(applied(), (Strings{"1-notes", "2-body"}));
  EXPECT_EQ(userVersion(), 2);
  // Already there: nothing to do, even for an earlier one.
  ASSERT_TRUE(migrator.migrate(db_, "2-body")) << db_.error();
  ASSERT_TRUE(migrator.migrate(db_, "1-notes")) << db_.error();
  EXPECT_EQ(ran_.size(), 2u);

  EXPECT_FALSE(migrator.migrate(db_, "9-nope"));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << db_.error();
  EXPECT_EQ(db_.error(), "no migration named 9-nope is registered");
  EXPECT_EQ(ran_.size(), 2u);

  ASSERT_TRUE(migrator.migrate(db_)) << db_.error();
  EXPECT_EQ(ran_, (Strings{"1-notes", "2-body", "3-rows"}));
  EXPECT_EQ(userVersion(), 3);
}

TEST_F(Migrations, AnIdentifierRegisteredTwiceFailsBeforeAnythingRuns) {
  Migrator migrator;
  registerThree(migrator);
  migrator.registerMigration("2-body", step("again", "CREATE TABLE again(x)"));
  EXPECT_FALSE(migrator.migrate(db_));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << db_.error();
  EXPECT_EQ(db_.error(), "migration 2-body registered twice");
  EXPECT_TRUE(ran_.empty());
  EXPECT_FALSE(hasTable("sqlitebridge_migrations"));
  bool completed = true;
  EXPECT_FALSE(migrator.hasCompletedMigrations(db_, completed));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << db_.error();

  Migrator unnamed;
  unnamed.registerMigration("", step("unnamed", "CREATE TABLE unnamed(x)"));
  EXPECT_FALSE(unnamed.migrate(db_));
  EXPECT_EQ(db_.error(), "a migration needs a non-empty identifier");
  EXPECT_TRUE(ran_.empty());
}

TEST_F(Migrations, UpdateTableWorksInsideAMigrationOnATableOthersReference) {
  ASSERT_TRUE(
      db_.executeScript("PRAGMA foreign_keys = ON;"
                        "CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT);"
                        "CREATE TABLE child(id INTEGER PRIMARY KEY, parent INTEGER NOT NULL "
                        "REFERENCES parent(id) ON DELETE CASCADE);"
                        "INSERT INTO parent VALUES (1, 'one'), (2, 'two');"
                        "INSERT INTO child VALUES (10, 1), (20, 2)"))
      << db_.error();
  Migrator migrator;
  migrator.registerMigration("rebuild-parent", [](Database& db) {
    return db.updateTable("CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT NOT NULL, rank INTEGER DEFAULT 0)", "",
                          "parent");
  });
  ASSERT_TRUE(migrator.migrate(db_)) << db_.error();
  EXPECT_TRUE(db_.hasTableColumn("parent", "rank")) << db_.error();
  // Dropping the old table neither cascaded nor broke a reference.
  EXPECT_EQ(dump(db_, "SELECT id, parent FROM child ORDER BY id"),
            (Strings{"id=int:10|parent=int:1", "id=int:20|parent=int:2"}));
  EXPECT_EQ(dump(db_, "PRAGMA foreign_key_check"), Strings{});
  EXPECT_EQ(foreignKeys(), 1);
  EXPECT_EQ(userVersion(), 1);

  // A rebuild that drops a referenced row fails the migration with 787.
  Migrator breaking;
  breaking.registerMigration("rebuild-parent", [](Database&) { return true; });
  breaking.registerMigration("drop-two", [](Database& db) {
    return db.updateTable("CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT NOT NULL, rank INTEGER DEFAULT 0)",
                          "INSERT INTO parent SELECT * FROM parent_old WHERE id <> 2", "parent");
  });
  EXPECT_FALSE(breaking.migrate(db_));
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_FOREIGNKEY) << db_.error();
  EXPECT_EQ(db_.error().rfind("migration drop-two failed: ", 0), 0u) << db_.error();
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM parent"), 2);
  EXPECT_EQ(foreignKeys(), 1);
}

TEST_F(Migrations, AppliedMigrationsAreListedInTheOrderApplied) {
  Migrator first;
  first.registerMigration("a", step("a", "CREATE TABLE a(x)"));
  first.registerMigration("c", step("c", "CREATE TABLE c(x)"));
  ASSERT_TRUE(first.migrate(db_)) << db_.error();
  // A later version inserts "b" between them: it runs now, after "c".
  Migrator second;
  second.registerMigration("a", step("a", "CREATE TABLE a(x)"));
  second.registerMigration("b", step("b", "CREATE TABLE b(x)"));
  second.registerMigration("c", step("c", "CREATE TABLE c(x)"));
  ran_.clear();
  ASSERT_TRUE(second.migrate(db_)) << db_.error();
  EXPECT_EQ(ran_, Strings{"b"});
  EXPECT_EQ(applied(), (Strings{"a", "c", "b"}));
  EXPECT_EQ(userVersion(), 3);
}

TEST_F(Migrations, HasCompletedMigrationsSaysWhetherEveryRegisteredOneIsApplied) {
  Migrator migrator;
  registerThree(migrator);
  bool completed = true;
  ASSERT_TRUE(migrator.hasCompletedMigrations(db_, completed)) << db_.error();
  EXPECT_FALSE(completed);
  EXPECT_FALSE(hasTable("sqlitebridge_migrations")) << "asking writes nothing";
  ASSERT_TRUE(migrator.migrate(db_, "2-body")) << db_.error();
  ASSERT_TRUE(migrator.hasCompletedMigrations(db_, completed)) << db_.error();
  EXPECT_FALSE(completed);
  ASSERT_TRUE(migrator.migrate(db_)) << db_.error();
  ASSERT_TRUE(migrator.hasCompletedMigrations(db_, completed)) << db_.error();
  EXPECT_TRUE(completed);
  // Asking inside a transaction is fine.
  ASSERT_TRUE(db_.begin()) << db_.error();
  ASSERT_TRUE(migrator.hasCompletedMigrations(db_, completed)) << db_.error();
  EXPECT_TRUE(completed);
  ASSERT_TRUE(db_.rollback());
}

TEST_F(Migrations, TheForeignKeysSettingIsRestoredAfterSuccessAndFailure) {
  for (const int setting : {1, 0}) {
    TempDir dir;
    Database db = Database::open(dir / "fk.db");
    ASSERT_TRUE(db.execute("PRAGMA foreign_keys = " + std::to_string(setting))) << db.error();
    std::int64_t seen = -1;
    Migrator migrator;
    migrator.registerMigration("ok", [&](Database& d) {
      seen = scalarInteger(d, "PRAGMA foreign_keys");
      return d.execute("CREATE TABLE t(x)");
    });
    migrator.registerMigration("fails", [](Database& d) { return d.execute("CREATE TABLE t(x)"); });
    EXPECT_FALSE(migrator.migrate(db));
    EXPECT_EQ(seen, 0) << "enforcement is paused while a migration runs";
    EXPECT_EQ(scalarInteger(db, "PRAGMA foreign_keys"), setting);
    EXPECT_EQ(scalarInteger(db, "PRAGMA user_version"), 1);
  }
}

TEST_F(Migrations, MigratingInsideATransactionIsRefused) {
  Migrator migrator;
  registerThree(migrator);
  ASSERT_TRUE(db_.begin()) << db_.error();
  EXPECT_FALSE(migrator.migrate(db_));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << db_.error();
  EXPECT_EQ(db_.error(), "cannot migrate inside a transaction: commit or roll it back first");
  EXPECT_TRUE(ran_.empty());
  EXPECT_TRUE(db_.isInTransaction()) << "the caller's transaction is left alone";
  ASSERT_TRUE(db_.rollback());
  ASSERT_TRUE(migrator.migrate(db_)) << db_.error();
  EXPECT_EQ(userVersion(), 3);
}

TEST_F(Migrations, AMigrationThatCommitsItselfFailsAndIsNotRecorded) {
  Migrator migrator;
  migrator.registerMigration("commits", [](Database& db) { return db.commit(); });
  EXPECT_FALSE(migrator.migrate(db_));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << db_.error();
  EXPECT_EQ(db_.error().rfind("migration commits failed: it ended the migration's transaction itself", 0), 0u)
      << db_.error();
  EXPECT_EQ(applied(), Strings{});
  EXPECT_EQ(userVersion(), 0);
  EXPECT_FALSE(db_.isInTransaction());
}

TEST_F(Migrations, AnExceptionFromAMigrationRollsItBackAndPropagates) {
  Migrator migrator;
  migrator.registerMigration("ok", step("ok", "CREATE TABLE ok(x)"));
  migrator.registerMigration("throws", [](Database& db) -> bool {
    db.execute("CREATE TABLE thrown(x)");
    throw std::runtime_error("boom");
  });
  EXPECT_THROW(migrator.migrate(db_), std::runtime_error);
  EXPECT_FALSE(db_.isInTransaction());
  EXPECT_FALSE(hasTable("thrown"));
  EXPECT_EQ(applied(), Strings{"ok"});
  EXPECT_EQ(userVersion(), 1);
}

TEST_F(Migrations, AClosedDatabaseFailsWithMisuse) {
  Migrator migrator;
  registerThree(migrator);
  db_.close();
  EXPECT_FALSE(migrator.migrate(db_));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << db_.error();
  Strings identifiers;
  EXPECT_FALSE(migrator.appliedMigrations(db_, identifiers));
  bool completed = false;
  EXPECT_FALSE(migrator.hasCompletedMigrations(db_, completed));
  EXPECT_TRUE(ran_.empty());
}
