import Foundation
import SQLiteBridge
import Testing

/// Migrations from Swift: order, recording (the migrations table and
/// user_version), re-running, a failure midway, a broken foreign key, a
/// database migrated by a newer app, upTo, duplicate identifiers,
/// updateTable inside a migration, the foreign_keys setting afterwards,
/// refusing inside a transaction. (MigratorTests.cpp checks the same.)
@Suite("Migrations")
struct MigratorTests {
  struct BodyFailed: Error, Equatable {}

  /// The migrations that ran, in order.
  private let ran = Locked<[String]>([])

  /// A migration that notes its run and runs `sql` (a script).
  private func step(_ name: String, _ sql: String) -> @Sendable (Database) throws -> Void {
    let ran = self.ran
    return { db in
      ran.withLock { $0.append(name) }
      try db.executeScript(sql)
    }
  }

  /// The three migrations most tests use: a table, a column, rows.
  private func registerThree(_ migrator: inout DatabaseMigrator) {
    migrator.registerMigration("1-notes", step("1-notes", "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT)"))
    migrator.registerMigration("2-body", step("2-body", "ALTER TABLE notes ADD COLUMN body TEXT"))
    migrator.registerMigration(
      "3-rows", step("3-rows", "INSERT INTO notes(title, body) VALUES ('a', 'x'), ('b', 'y')"))
  }

  private func three() -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    registerThree(&migrator)
    return migrator
  }

  private func applied(_ db: Database) throws -> [String] {
    try DatabaseMigrator().appliedMigrations(db)
  }

  private func integer(_ db: Database, _ sql: String) throws -> Int64 {
    try #require(try db.rows(sql).first).get(0, as: Int64.self)
  }

  private func hasTable(_ db: Database, _ name: String) throws -> Bool {
    try tableNames(db).contains(name)
  }

  @Test func runInTheOrderRegisteredAndAreRecordedInTheTableAndUserVersion() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/migrations.db"
      let db = try Database(path: path)
      try three().migrate(db)
      #expect(ran.current == ["1-notes", "2-body", "3-rows"])
      #expect(try applied(db) == ["1-notes", "2-body", "3-rows"])
      #expect(try db.userVersion() == 3)
      let notes = try db.rows("SELECT title, body FROM notes ORDER BY id").map {
        [try $0.get(0, as: String.self), try $0.get(1, as: String.self)]
      }
      #expect(notes == [["a", "x"], ["b", "y"]])
      #expect(
        try scalar(db, "SELECT sql FROM sqlite_master WHERE name = 'sqlitebridge_migrations'")
          == .text("CREATE TABLE \"sqlitebridge_migrations\"(identifier TEXT PRIMARY KEY NOT NULL)"))
      // Another connection sees the same version and records.
      let other = try Database(path: path, mode: .readOnly)
      #expect(try integer(other, "PRAGMA user_version") == 3)
      #expect(try integer(other, "SELECT count(*) FROM sqlitebridge_migrations") == 3)
    }
  }

  @Test func runningAgainIsANoOpAndANewMigrationRunsAlone() throws {
    let db = try memoryDatabase()
    var migrator = three()
    try migrator.migrate(db)
    ran.withLock { $0 = [] }
    try migrator.migrate(db)
    #expect(ran.current.isEmpty)
    #expect(try db.userVersion() == 3)
    #expect(try integer(db, "SELECT count(*) FROM notes") == 2)

    migrator.registerMigration("4-index", step("4-index", "CREATE INDEX notes_title ON notes(title)"))
    try migrator.migrate(db)
    #expect(ran.current == ["4-index"])
    #expect(try applied(db) == ["1-notes", "2-body", "3-rows", "4-index"])
    #expect(try db.userVersion() == 4)
  }

  @Test func noMigrationsWritesNothing() throws {
    let db = try memoryDatabase()
    let migrator = DatabaseMigrator()
    try migrator.migrate(db)
    #expect(try !hasTable(db, "sqlitebridge_migrations"))
    #expect(try db.userVersion() == 0)
    #expect(try applied(db) == [])
    #expect(try migrator.hasCompletedMigrations(db))
  }

  @Test func aFailureStopsTheRunKeepsEarlierOnesAndRollsTheFailedOneBackEntirely() throws {
    let db = try memoryDatabase()
    var broken = DatabaseMigrator()
    broken.registerMigration("1-notes", step("1-notes", "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT)"))
    // Writes, then fails midway.
    broken.registerMigration(
      "2-tags",
      step(
        "2-tags",
        "CREATE TABLE tags(name TEXT); INSERT INTO notes(title) VALUES ('half'); INSERT INTO no_such_table VALUES (1)"
      ))
    broken.registerMigration("3-rows", step("3-rows", "INSERT INTO notes(title) VALUES ('three')"))
    let error = try #require(throws: DatabaseError.self) { try broken.migrate(db) }
    #expect(error.resultCode == .error)
    #expect(error.message.hasPrefix("migration 2-tags failed: no such table: no_such_table"))
    #expect(ran.current == ["1-notes", "2-tags"])
    #expect(try applied(db) == ["1-notes"])
    #expect(try db.userVersion() == 1)
    #expect(try !hasTable(db, "tags"))
    #expect(try integer(db, "SELECT count(*) FROM notes") == 0)
    #expect(!db.isInTransaction)

    var fixed = DatabaseMigrator()
    fixed.registerMigration("1-notes", step("1-notes", "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT)"))
    fixed.registerMigration("2-tags", step("2-tags", "CREATE TABLE tags(name TEXT)"))
    fixed.registerMigration("3-rows", step("3-rows", "INSERT INTO notes(title) VALUES ('three')"))
    ran.withLock { $0 = [] }
    try fixed.migrate(db)
    #expect(ran.current == ["2-tags", "3-rows"])
    #expect(try applied(db) == ["1-notes", "2-tags", "3-rows"])
    #expect(try db.userVersion() == 3)
    #expect(try scalar(db, "SELECT title FROM notes") == .text("three"))
  }

  @Test func anErrorOfItsOwnIsRethrownAsItIsAndTheMigrationRolledBack() throws {
    let db = try memoryDatabase()
    var migrator = DatabaseMigrator()
    migrator.registerMigration("throws") { db in
      try db.execute("CREATE TABLE t(x)")
      throw BodyFailed()
    }
    #expect(throws: BodyFailed.self) { try migrator.migrate(db) }
    #expect(try !hasTable(db, "t"))
    #expect(try applied(db) == [])
    #expect(try db.userVersion() == 0)
    #expect(!db.isInTransaction)
  }

  @Test func aMigrationThatBreaksAForeignKeyFailsWith787AndIsRolledBack() throws {
    let db = try memoryDatabase()
    try db.executeScript(
      """
      PRAGMA foreign_keys = ON;
      CREATE TABLE parent(id INTEGER PRIMARY KEY);
      CREATE TABLE child(id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parent(id));
      INSERT INTO parent VALUES (1); INSERT INTO child VALUES (10, 1);
      """)
    var migrator = DatabaseMigrator()
    migrator.registerMigration("orphans", step("orphans", "INSERT INTO child VALUES (11, 2); DELETE FROM parent"))
    let error = try #require(throws: DatabaseError.self) { try migrator.migrate(db) }
    #expect(error.extendedResultCode == .constraintForeignKey)
    #expect(error.extendedCode == 787)
    #expect(error.message.hasPrefix("migration orphans failed: it would break a foreign key: row "))
    #expect(try integer(db, "SELECT count(*) FROM parent") == 1)
    #expect(try integer(db, "SELECT count(*) FROM child") == 1)
    #expect(try applied(db) == [])
    #expect(try db.userVersion() == 0)
    #expect(try integer(db, "PRAGMA foreign_keys") == 1)
  }

  @Test func aDatabaseMigratedByANewerAppFailsWithoutRunningAnything() throws {
    let db = try memoryDatabase()
    var newer = three()
    newer.registerMigration("4-later", step("4-later", "CREATE TABLE later(x)"))
    try newer.migrate(db)
    ran.withLock { $0 = [] }

    var older = three()
    older.registerMigration("5-other", step("5-other", "CREATE TABLE other(x)"))
    let error = try #require(throws: DatabaseError.self) { try older.migrate(db) }
    #expect(error.resultCode == .error)
    #expect(error.message == "the database was migrated by a newer version of the app: unknown migration 4-later")
    #expect(ran.current.isEmpty)
    #expect(try !hasTable(db, "other"))
    #expect(try db.userVersion() == 4)
    let asked = try #require(throws: DatabaseError.self) { try older.hasCompletedMigrations(db) }
    #expect(asked.message == error.message)
    #expect(try older.appliedMigrations(db) == ["1-notes", "2-body", "3-rows", "4-later"])
  }

  @Test func upToStopsAfterTheNamedMigration() throws {
    let db = try memoryDatabase()
    let migrator = three()
    try migrator.migrate(db, upTo: "2-body")
    #expect(ran.current == ["1-notes", "2-body"])
    #expect(try applied(db) == ["1-notes", "2-body"])
    #expect(try db.userVersion() == 2)
    // Already there: nothing to do, even for an earlier one.
    try migrator.migrate(db, upTo: "2-body")
    try migrator.migrate(db, upTo: "1-notes")
    #expect(ran.current.count == 2)

    let error = try #require(throws: DatabaseError.self) { try migrator.migrate(db, upTo: "9-nope") }
    #expect(error.resultCode == .misuse)
    #expect(error.message == "no migration named 9-nope is registered")
    #expect(ran.current.count == 2)

    try migrator.migrate(db)
    #expect(ran.current == ["1-notes", "2-body", "3-rows"])
    #expect(try db.userVersion() == 3)
  }

  @Test func anIdentifierRegisteredTwiceFailsBeforeAnythingRuns() throws {
    let db = try memoryDatabase()
    var migrator = three()
    migrator.registerMigration("2-body", step("again", "CREATE TABLE again(x)"))
    let error = try #require(throws: DatabaseError.self) { try migrator.migrate(db) }
    #expect(error.resultCode == .misuse)
    #expect(error.message == "migration 2-body registered twice")
    #expect(ran.current.isEmpty)
    #expect(try !hasTable(db, "sqlitebridge_migrations"))
    let asked = try #require(throws: DatabaseError.self) { try migrator.hasCompletedMigrations(db) }
    #expect(asked.resultCode == .misuse)

    var unnamed = DatabaseMigrator()
    unnamed.registerMigration("", step("unnamed", "CREATE TABLE unnamed(x)"))
    let empty = try #require(throws: DatabaseError.self) { try unnamed.migrate(db) }
    #expect(empty.message == "a migration needs a non-empty identifier")
    #expect(ran.current.isEmpty)
  }

  @Test func updateTableWorksInsideAMigrationOnATableOthersReference() throws {
    let db = try memoryDatabase()
    try db.executeScript(
      """
      PRAGMA foreign_keys = ON;
      CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT);
      CREATE TABLE child(id INTEGER PRIMARY KEY, parent INTEGER NOT NULL REFERENCES parent(id) ON DELETE CASCADE);
      INSERT INTO parent VALUES (1, 'one'), (2, 'two');
      INSERT INTO child VALUES (10, 1), (20, 2);
      """)
    let newParent = "CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT NOT NULL, rank INTEGER DEFAULT 0)"
    var migrator = DatabaseMigrator()
    migrator.registerMigration("rebuild-parent") { db in
      try db.updateTable(create: newParent, name: "parent")
    }
    try migrator.migrate(db)
    #expect(try db.hasTableColumn("parent", "rank"))
    // Dropping the old table neither cascaded nor broke a reference.
    let children = try db.rows("SELECT id, parent FROM child ORDER BY id").map {
      [try $0.get(0, as: Int64.self), try $0.get(1, as: Int64.self)]
    }
    #expect(children == [[10, 1], [20, 2]])
    #expect(try db.rows("PRAGMA foreign_key_check").isEmpty)
    #expect(try integer(db, "PRAGMA foreign_keys") == 1)
    #expect(try db.userVersion() == 1)

    // A rebuild that drops a referenced row fails the migration with 787.
    var breaking = DatabaseMigrator()
    breaking.registerMigration("rebuild-parent") { _ in }
    breaking.registerMigration("drop-two") { db in
      try db.updateTable(
        create: newParent, insert: "INSERT INTO parent SELECT * FROM parent_old WHERE id <> 2", name: "parent")
    }
    let error = try #require(throws: DatabaseError.self) { try breaking.migrate(db) }
    #expect(error.extendedResultCode == .constraintForeignKey)
    #expect(error.message.hasPrefix("migration drop-two failed: "))
    #expect(try integer(db, "SELECT count(*) FROM parent") == 2)
    #expect(try integer(db, "PRAGMA foreign_keys") == 1)
  }

  @Test func appliedMigrationsAreListedInTheOrderApplied() throws {
    let db = try memoryDatabase()
    var first = DatabaseMigrator()
    first.registerMigration("a", step("a", "CREATE TABLE a(x)"))
    first.registerMigration("c", step("c", "CREATE TABLE c(x)"))
    try first.migrate(db)
    // A later version inserts "b" between them: it runs now, after "c".
    var second = DatabaseMigrator()
    second.registerMigration("a", step("a", "CREATE TABLE a(x)"))
    second.registerMigration("b", step("b", "CREATE TABLE b(x)"))
    second.registerMigration("c", step("c", "CREATE TABLE c(x)"))
    ran.withLock { $0 = [] }
    try second.migrate(db)
    #expect(ran.current == ["b"])
    #expect(try second.appliedMigrations(db) == ["a", "c", "b"])
    #expect(try db.userVersion() == 3)
  }

  @Test func hasCompletedMigrationsSaysWhetherEveryRegisteredOneIsApplied() throws {
    let db = try memoryDatabase()
    let migrator = three()
    #expect(try !migrator.hasCompletedMigrations(db))
    #expect(try !hasTable(db, "sqlitebridge_migrations"), "asking writes nothing")
    try migrator.migrate(db, upTo: "2-body")
    #expect(try !migrator.hasCompletedMigrations(db))
    try migrator.migrate(db)
    #expect(try migrator.hasCompletedMigrations(db))
    // Asking inside a transaction is fine.
    try db.inTransaction {
      let completed = try migrator.hasCompletedMigrations(db)
      #expect(completed)
      return .rollback
    }
  }

  @Test(arguments: [1, 0])
  func theForeignKeysSettingIsRestoredAfterSuccessAndFailure(setting: Int) throws {
    let db = try memoryDatabase()
    try db.execute("PRAGMA foreign_keys = \(setting)")
    let seen = Locked<Int64>(-1)
    var migrator = DatabaseMigrator()
    migrator.registerMigration("ok") { db in
      let value = try #require(try db.rows("PRAGMA foreign_keys").first).get(0, as: Int64.self)
      seen.withLock { $0 = value }
      try db.execute("CREATE TABLE t(x)")
    }
    migrator.registerMigration("fails") { db in try db.execute("CREATE TABLE t(x)") }
    #expect(throws: DatabaseError.self) { try migrator.migrate(db) }
    #expect(seen.current == 0, "enforcement is paused while a migration runs")
    #expect(try integer(db, "PRAGMA foreign_keys") == Int64(setting))
    #expect(try db.userVersion() == 1)
  }

  @Test func migratingInsideATransactionIsRefused() throws {
    let db = try memoryDatabase()
    let migrator = three()
    try db.inTransaction {
      let error = try #require(throws: DatabaseError.self) { try migrator.migrate(db) }
      #expect(error.resultCode == .misuse)
      #expect(error.message == "cannot migrate inside a transaction: commit or roll it back first")
      #expect(db.isInTransaction, "the caller's transaction is left alone")
      return .rollback
    }
    #expect(ran.current.isEmpty)
    try migrator.migrate(db)
    #expect(try db.userVersion() == 3)
  }

  @Test func aMigrationThatCommitsItselfFailsAndIsNotRecorded() throws {
    let db = try memoryDatabase()
    var migrator = DatabaseMigrator()
    migrator.registerMigration("commits") { db in try db.execute("COMMIT") }
    let error = try #require(throws: DatabaseError.self) { try migrator.migrate(db) }
    #expect(error.resultCode == .misuse)
    #expect(error.message.hasPrefix("migration commits failed: it ended the migration's transaction itself"))
    #expect(try applied(db) == [])
    #expect(try db.userVersion() == 0)
    #expect(!db.isInTransaction)
  }

  @Test func aClosedDatabaseFailsWithMisuse() throws {
    let db = try memoryDatabase()
    let migrator = three()
    db.close()
    #expect(throws: DatabaseError.self) { try migrator.migrate(db) }
    let error = try #require(throws: DatabaseError.self) { try migrator.appliedMigrations(db) }
    #expect(error.resultCode == .misuse)
    #expect(throws: DatabaseError.self) { try migrator.hasCompletedMigrations(db) }
    #expect(ran.current.isEmpty)
  }

  @Test func aMigratorIsSendable() throws {
    let migrator = three()
    let result = Locked<[String]?>(nil)
    let thread = TestThread("migrate") {
      result.withLock { value in
        value = try? {
          let db = try memoryDatabase()
          try migrator.migrate(db)
          return try migrator.appliedMigrations(db)
        }()
      }
    }
    #expect(thread.join())
    #expect(result.current == ["1-notes", "2-body", "3-rows"])
  }
}
