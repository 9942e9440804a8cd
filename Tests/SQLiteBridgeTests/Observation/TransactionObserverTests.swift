import Foundation
import SQLiteBridge
import Testing

/// Transaction observers from Swift: the events of rowid tables, the
/// changes the update hook does not see (WITHOUT ROWID tables, DELETE
/// without WHERE, rows a REPLACE deletes, triggers, foreign-key actions,
/// schema changes, updateTable, migrations), savepoints rolled back,
/// rollbacks, vetoes, extents, removal, notifyChanges, and the raw hooks
/// beside observers. (TransactionObserverTests.cpp checks the same in C++.)
@Suite("TransactionObserver")
struct TransactionObserverTests {
  private static let schema = """
    CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT UNIQUE, body TEXT);
    CREATE TABLE other(x);
    CREATE TABLE keyed(k TEXT PRIMARY KEY, v) WITHOUT ROWID;
    CREATE TABLE log(message TEXT);
    CREATE TRIGGER notes_log AFTER INSERT ON notes BEGIN INSERT INTO log VALUES (new.title); END;
    CREATE TABLE children(k TEXT PRIMARY KEY, noteId INTEGER REFERENCES notes(id) ON DELETE CASCADE) WITHOUT ROWID;
    """

  /// Runs `body` with a fresh database holding `schema`.
  private func withObservers(_ body: (Database) throws -> Void) throws {
    try withTemporaryDirectory { directory in
      let database = try Database(path: directory + "/observers.db")
      try database.executeScript(Self.schema)
      try body(database)
    }
  }

  /// A new recorder of `tables` (all when none) and `kinds` (all when
  /// none), added to `db` for `extent`.
  private func observe(
    _ db: Database, _ tables: [String] = [], _ kinds: [ChangeKind] = [], extent: ObserverExtent = .databaseLifetime
  ) -> EventRecorder {
    let recorder = EventRecorder(tables: tables, kinds: kinds)
    db.add(transactionObserver: recorder, extent: extent)
    return recorder
  }

  private func count(_ db: Database, _ table: String) throws -> DatabaseValue {
    try scalar(db, "SELECT count(*) FROM \(table)")
  }

  // MARK: What is told, in which order

  @Test func eachRowChangeThenTheCommitIsTold() throws {
    try withObservers { db throws in
      let recorder = observe(db, ["notes"])
      try db.inTransaction {
        try db.execute("INSERT INTO notes(id, title) VALUES (1, 'a'), (2, 'b')")
        try db.execute("UPDATE notes SET body = 'x' WHERE id = 2")
        try db.execute("DELETE FROM notes WHERE id = 1")
        return .commit
      }
      #expect(
        recorder.told == [
          "insert notes 1", "insert notes 2", "update notes 2", "delete notes 1", "will commit", "commit",
        ])
    }
  }

  @Test func aWriteOutsideATransactionIsATransactionOfItsOwn() throws {
    try withObservers { db throws in
      let recorder = observe(db, ["notes"])
      try db.execute("INSERT INTO notes(id, title) VALUES (7, 'a')")
      #expect(recorder.told == ["insert notes 7", "will commit", "commit"])
    }
  }

  @Test func updatedColumnsAreAskedAboutAsASet() throws {
    try withObservers { db throws in
      try db.execute("INSERT INTO notes(id, title) VALUES (1, 'a')")
      let recorder = observe(db, ["notes"])
      try db.execute("UPDATE notes SET body = 'b', title = 'c' WHERE id = 1")
      #expect(recorder.asked.contains("update notes body title"))
      #expect(recorder.kindsAsked.contains(.update(table: "notes", columns: ["title", "body"])))
      #expect(
        recorder.kindsAsked.allSatisfy { kind in
          if case .update(_, let columns) = kind { return !columns.isEmpty }
          return true
        })
    }
  }

  @Test func anObserverOfOtherTablesIsToldNothing() throws {
    try withObservers { db throws in
      let recorder = observe(db, ["other"])
      try db.execute("INSERT INTO notes(id, title) VALUES (1, 'a')")
      #expect(recorder.told.isEmpty)
      try db.execute("INSERT INTO other VALUES (1)")
      #expect(recorder.told == ["insert other 1", "will commit", "commit"])
    }
  }

  @Test func aReadOnlyTransactionIsNotTold() throws {
    try withObservers { db throws in
      let recorder = observe(db)
      try db.execute("BEGIN")
      #expect(try count(db, "notes") == .integer(0))
      try db.execute("ROLLBACK")
      try db.execute("SELECT * FROM notes")
      #expect(recorder.told.isEmpty)
    }
  }

  @Test func aRollbackIsToldAndNoCommit() throws {
    try withObservers { db throws in
      let recorder = observe(db, ["notes"])
      try db.execute("BEGIN")
      try db.execute("INSERT INTO notes(id, title) VALUES (1, 'a')")
      try db.execute("ROLLBACK")
      #expect(recorder.told == ["insert notes 1", "rollback"])
    }
  }

  @Test func aRolledBackSavepointInsideACommittedTransactionIsForgotten() throws {
    try withObservers { db throws in
      let recorder = observe(db, ["notes", "other"])
      try db.execute("BEGIN")
      try db.execute("INSERT INTO notes(id, title) VALUES (1, 'kept')")
      try db.execute("SAVEPOINT inner")
      try db.execute("INSERT INTO notes(id, title) VALUES (2, 'dropped')")
      try db.execute("ROLLBACK TO inner")
      try db.execute("INSERT INTO other VALUES (5)")
      try db.execute("RELEASE inner")
      try db.execute("COMMIT")
      // Inside the savepoint changes wait for its release; the one rolled
      // back is never told.
      #expect(recorder.told == ["insert notes 1", "insert other 1", "will commit", "commit"])
      #expect(try count(db, "notes") == .integer(1))
    }
  }

  @Test func aTransactionWhoseOnlyChangesWereRolledBackToASavepointIsNotTold() throws {
    try withObservers { db throws in
      let recorder = observe(db, ["notes"])
      try db.inTransaction {
        try db.inSavepoint {
          try db.execute("INSERT INTO notes(id, title) VALUES (1, 'a')")
          return .rollback
        }
        try db.execute("INSERT INTO other VALUES (1)")
        return .commit
      }
      #expect(recorder.told.isEmpty)
      #expect(try count(db, "notes") == .integer(0))
    }
  }

  // MARK: Changes the update hook does not see

  @Test func aWithoutRowidTableCountsAsChangedWithoutEvents() throws {
    try withObservers { db throws in
      let recorder = observe(db, ["keyed"])
      try db.execute("INSERT INTO keyed VALUES ('a', 1)")
      #expect(recorder.told == ["will commit", "commit"])
    }
  }

  @Test func deleteWithoutWhereTellsEveryRowWhileDeletionsAreObserved() throws {
    try withObservers { db throws in
      try db.execute("INSERT INTO other VALUES (1), (2), (3)")
      let recorder = observe(db, ["other"], [.delete])
      try db.execute("DELETE FROM other")
      #expect(recorder.told == ["delete other 1", "delete other 2", "delete other 3", "will commit", "commit"])
      #expect(try count(db, "other") == .integer(0))
    }
  }

  @Test func deleteWithoutWherePreparedBeforeTheObserverStillCounts() throws {
    try withObservers { db throws in
      try db.execute("INSERT INTO other VALUES (1)")
      let statement = try db.makeStatement("DELETE FROM other")  // truncation allowed: nobody observes yet
      let recorder = observe(db, ["other"])
      try statement.execute()
      #expect(recorder.told.contains("commit"))
      #expect(try count(db, "other") == .integer(0))
    }
  }

  @Test func dropTableStillDropsWhileDeletionsAreObserved() throws {
    try withObservers { db throws in
      let recorder = observe(db, ["other"])
      try db.execute("DROP TABLE other")
      #expect(try scalar(db, "SELECT count(*) FROM sqlite_master WHERE name = 'other'") == .integer(0))
      #expect(recorder.told == ["will commit", "commit"])
    }
  }

  @Test func rowsAReplaceDeletesCountForAnObserverOfDeletions() throws {
    try withObservers { db throws in
      try db.execute("INSERT INTO notes(id, title) VALUES (1, 'a')")
      let recorder = observe(db, ["notes"], [.delete])
      try db.execute("INSERT OR REPLACE INTO notes(id, title) VALUES (2, 'a')")
      #expect(try count(db, "notes") == .integer(1))
      #expect(recorder.told.contains("commit"))
    }
  }

  @Test func triggersChangesAreTold() throws {
    try withObservers { db throws in
      let recorder = observe(db, ["log"])
      try db.execute("INSERT INTO notes(id, title) VALUES (1, 'a')")
      #expect(recorder.told == ["insert log 1", "will commit", "commit"])
    }
  }

  @Test func foreignKeyCascadesIntoAWithoutRowidTableCount() throws {
    try withObservers { db throws in
      try db.execute("INSERT INTO notes(id, title) VALUES (1, 'a')")
      try db.execute("INSERT INTO children VALUES ('c', 1)")
      let recorder = observe(db, ["children"])
      try db.execute("DELETE FROM notes WHERE id = 1")
      #expect(try count(db, "children") == .integer(0))
      #expect(recorder.told == ["will commit", "commit"])
    }
  }

  @Test func schemaChangesCountAsChangesToTheirTables() throws {
    try withObservers { db throws in
      let recorder = observe(db, ["fresh"])
      try db.execute("CREATE TABLE fresh(a)")
      try db.execute("ALTER TABLE fresh ADD COLUMN b")
      try db.execute("CREATE INDEX fresh_a ON fresh(a)")
      try db.execute("DROP TABLE fresh")
      #expect(recorder.told == Array(repeating: ["will commit", "commit"], count: 4).flatMap { $0 })
    }
  }

  @Test func updateTableCountsAsAChangeOfItsTable() throws {
    try withObservers { db throws in
      try db.execute("INSERT INTO other VALUES (1)")
      let recorder = observe(db, ["other"])
      let bystander = observe(db, ["keyed"])
      try db.updateTable(create: "CREATE TABLE other(x, y DEFAULT 0)", name: "other")
      #expect(recorder.told.filter { $0 == "commit" }.count == 1)
      #expect(bystander.told.isEmpty)
    }
  }

  @Test func aMigrationCountsAsAChangeOfTheTablesItTouches() throws {
    try withObservers { db throws in
      let recorder = observe(db, ["made"])
      var migrator = DatabaseMigrator()
      migrator.registerMigration("v1") { db in try db.execute("CREATE TABLE made(a)") }
      migrator.registerMigration("v2") { db in try db.execute("INSERT INTO made VALUES (1)") }
      try migrator.migrate(db)
      #expect(recorder.told.filter { $0 == "commit" }.count >= 1)
      #expect(recorder.told.contains("insert made 1"))
    }
  }

  // MARK: Vetoes

  @Test func aVetoRollsBackAndTheCommitThrowsTheObserversError() throws {
    try withObservers { db throws in
      let recorder = observe(db, ["notes"])
      recorder.veto = DatabaseError(code: ResultCode.constraint.rawValue, message: "not today")
      try db.execute("BEGIN")
      try db.execute("INSERT INTO notes(id, title) VALUES (1, 'a')")
      let error = try #require(throws: DatabaseError.self) { try db.execute("COMMIT") }
      #expect(error.resultCode == .constraint)
      #expect(error.message == "not today")
      #expect(!db.isInTransaction)
      #expect(try count(db, "notes") == .integer(0))
      #expect(recorder.told == ["insert notes 1", "will commit", "rollback"])
    }
  }

  @Test func aVetoingDatabaseErrorKeepsItsCodes() throws {
    try withObservers { db throws in
      let recorder = observe(db, ["notes"])
      recorder.veto = DatabaseError(code: 19, extendedCode: 275, message: "checked")
      let error = try #require(throws: DatabaseError.self) {
        try db.execute("INSERT INTO notes(id, title) VALUES (1, 'a')")
      }
      #expect(error.code == 19)
      #expect(error.extendedResultCode == .constraintCheck)
      #expect(error.message == "checked")
    }
  }

  @Test func anyOtherVetoingErrorIsAConstraintFailureOfTheCommitHook() throws {
    struct NotNow: Error, CustomStringConvertible {
      var description: String { "not now, thanks" }
    }
    try withObservers { db throws in
      let recorder = observe(db, ["notes"])
      recorder.veto = NotNow()
      let error = try #require(throws: DatabaseError.self) {
        try db.execute("INSERT INTO notes(id, title) VALUES (1, 'a')")
      }
      #expect(error.resultCode == .constraint)
      #expect(error.extendedResultCode == .constraintCommitHook)
      #expect(error.message == "not now, thanks")
      #expect(try count(db, "notes") == .integer(0))
      #expect(recorder.told == ["insert notes 1", "will commit", "rollback"])
    }
  }

  @Test func aVetoOfAWriteOutsideATransactionFailsTheWrite() throws {
    try withObservers { db throws in
      let recorder = observe(db, ["notes"])
      recorder.veto = DatabaseError(code: ResultCode.constraint.rawValue, message: "no")
      let outside = try #require(throws: DatabaseError.self) {
        try db.execute("INSERT INTO notes(id, title) VALUES (1, 'a')")
      }
      #expect(outside.message == "no")
      #expect(try count(db, "notes") == .integer(0))
      // A write block of inTransaction reports it too.
      let block = try #require(throws: DatabaseError.self) {
        try db.inTransaction {
          try db.execute("INSERT INTO notes(title) VALUES ('b')")
          return .commit
        }
      }
      #expect(block.message == "no")
      #expect(try count(db, "notes") == .integer(0))
    }
  }

  // MARK: After the transaction

  @Test func anObserverMayReadTheDatabaseAfterTheCommit() throws {
    try withObservers { db throws in
      let recorder = observe(db, ["notes"])
      recorder.readOnCommit = "SELECT count(*) FROM notes"
      try db.execute("INSERT INTO notes(id, title) VALUES (1, 'a')")
      try db.execute("INSERT INTO notes(id, title) VALUES (2, 'b')")
      #expect(recorder.readValues == [.integer(1), .integer(2)])
      #expect(recorder.readErrors.isEmpty)
    }
  }

  @Test func anObserverMayWriteAfterTheCommitInATransactionOfItsOwn() throws {
    try withObservers { db throws in
      let recorder = observe(db, ["notes"])
      recorder.writeOnCommit = "INSERT INTO other VALUES (42)"
      try db.execute("INSERT INTO notes(id, title) VALUES (1, 'a')")
      #expect(recorder.readErrors.isEmpty)
      #expect(try scalar(db, "SELECT x FROM other") == .integer(42))
      #expect(!db.isInTransaction)
      #expect(recorder.told == ["insert notes 1", "will commit", "commit"])
    }
  }

  @Test func theDatabaseGivenAfterTheTransactionIsClosedOnceTheCallReturns() throws {
    try withObservers { db throws in
      let recorder = observe(db, ["notes"])
      try db.execute("INSERT INTO notes(id, title) VALUES (1, 'a')")
      let kept = try #require(recorder.keptDatabase)
      #expect(!kept.isOpen)
      let error = try #require(throws: DatabaseError.self) { try kept.execute("SELECT 1") }
      #expect(error.resultCode == .misuse)
      // The connection itself stays open.
      #expect(db.isOpen)
      #expect(try count(db, "notes") == .integer(1))
    }
  }

  // MARK: Extents and removal

  @Test func anObserverHeldWeaklyIsForgottenOnceGone() throws {
    try withObservers { db throws in
      var recorder: EventRecorder? = EventRecorder()
      weak let weakRecorder = recorder
      db.add(transactionObserver: recorder!)  // .observerLifetime by default
      try db.execute("INSERT INTO other VALUES (1)")
      #expect(recorder?.told.count == 3)
      recorder = nil
      #expect(weakRecorder == nil, "the database does not keep it alive")
      try db.execute("INSERT INTO other VALUES (2)")
      #expect(try count(db, "other") == .integer(2))
    }
  }

  @Test func nextTransactionEndsAfterOneTransactionThatChangedSomething() throws {
    try withObservers { db throws in
      let recorder = observe(db, extent: .nextTransaction)
      try db.execute("SELECT * FROM other")  // a read ends nothing
      try db.execute("INSERT INTO other VALUES (1)")
      try db.execute("INSERT INTO other VALUES (2)")
      #expect(recorder.told == ["insert other 1", "will commit", "commit"])
    }
  }

  @Test func nextTransactionHoldsTheObserverUntilThatTransactionEnds() throws {
    try withObservers { db throws in
      weak let weakRecorder = observe(db, extent: .nextTransaction)
      #expect(weakRecorder != nil, "held strongly meanwhile")
      try db.execute("SELECT * FROM other")
      #expect(weakRecorder != nil, "a read ends nothing")
      try db.execute("INSERT INTO other VALUES (1)")
      #expect(weakRecorder == nil, "released once the transaction ended")
    }
  }

  @Test func databaseLifetimeKeepsTheObserverAliveUntilTheConnectionCloses() throws {
    try withObservers { db throws in
      weak let weakRecorder = observe(db)
      #expect(weakRecorder != nil)
      try db.execute("INSERT INTO other VALUES (1)")
      #expect(weakRecorder?.told.count == 3)
      db.close()
      #expect(weakRecorder == nil, "released when the connection closes")
    }
  }

  @Test func aRemovedObserverIsToldNothingMore() throws {
    try withObservers { db throws in
      let recorder = observe(db)
      try db.execute("BEGIN")
      try db.execute("INSERT INTO other VALUES (1)")
      db.remove(transactionObserver: recorder)
      try db.execute("COMMIT")
      #expect(recorder.told == ["insert other 1"])
      db.remove(transactionObserver: recorder)  // removing again does nothing
      try db.execute("INSERT INTO other VALUES (2)")
      #expect(recorder.told == ["insert other 1"])
    }
  }

  @Test func removingOneObserverLeavesTheOthers() throws {
    try withObservers { db throws in
      let removed = observe(db, ["other"])
      let kept = observe(db, ["other"])
      db.remove(transactionObserver: removed)
      try db.execute("INSERT INTO other VALUES (1)")
      #expect(removed.told.isEmpty)
      #expect(kept.told == ["insert other 1", "will commit", "commit"])
    }
  }

  // MARK: notifyChanges

  @Test func notifyChangesMakesTheTransactionCount() throws {
    try withObservers { db throws in
      let recorder = observe(db, ["external"])
      try db.notifyChanges(in: DatabaseRegion(table: "external"))
      #expect(recorder.told == ["commit"])
      try db.execute("BEGIN")
      try db.notifyChanges(in: DatabaseRegion(table: "external"))
      try db.execute("COMMIT")
      // A transaction that wrote nothing itself commits without SQLite's
      // commit hook: told after it, with no chance to veto.
      #expect(recorder.told == ["commit", "commit"])
      try db.notifyChanges(in: DatabaseRegion(table: "unrelated"))
      #expect(recorder.told.count == 2)
      try db.execute("BEGIN")
      try db.notifyChanges(in: .fullDatabase)
      try db.execute("ROLLBACK")
      #expect(recorder.told == ["commit", "commit", "rollback"], "a transaction rolled back reports no change")
    }
  }

  // MARK: Beside the raw hooks and tracing

  @Test func rawHooksAndObserversShareTheConnection() throws {
    try withObservers { db throws in
      let commits = Recorder<Void>()
      let rollbacks = Recorder<Void>()
      let changes = Recorder<String>()
      db.onCommit { commits.add(()) }
      db.onRollback { rollbacks.add(()) }
      db.onChange { kind, table, rowID in changes.add("\(kind) \(table) \(rowID)") }
      let recorder = observe(db, ["other"])
      try db.execute("INSERT INTO other VALUES (1)")
      try db.inTransaction {
        try db.execute("INSERT INTO other VALUES (2)")
        return .rollback
      }
      #expect(commits.items.count == 1)
      #expect(rollbacks.items.count == 1)
      #expect(changes.items == ["insert other 1", "insert other 2"])
      #expect(recorder.told == ["insert other 1", "will commit", "commit", "insert other 2", "rollback"])
      // Removing the raw hooks leaves the observer working, and the other
      // way round.
      db.onCommit(nil)
      db.onChange(nil)
      try db.execute("INSERT INTO other VALUES (3)")
      #expect(recorder.told.count == 8)
      db.remove(transactionObserver: recorder)
      db.onCommit { commits.add(()) }
      try db.execute("INSERT INTO other VALUES (4)")
      #expect(commits.items.count == 2)
      #expect(recorder.told.count == 8)
    }
  }

  @Test func tracingKeepsWorkingBesideObservers() throws {
    try withObservers { db throws in
      let traced = Recorder<String>()
      db.trace(.statements) { traced.add($0.sql) }
      let recorder = observe(db, ["keyed"])
      try db.execute("INSERT INTO keyed VALUES ('a', 1)")
      #expect(traced.items == ["INSERT INTO keyed VALUES ('a', 1)"])
      #expect(recorder.told == ["will commit", "commit"])
      db.trace(.statements, nil)
      try db.execute("INSERT INTO keyed VALUES ('b', 1)")
      #expect(traced.items.count == 1)
      #expect(recorder.told.count == 4, "the observer still hears of statements with tracing off")
    }
  }

  // MARK: A closed database

  @Test func addOnAClosedDatabaseKeepsNothingAndNotifyChangesThrowsMisuse() throws {
    try withObservers { db throws in
      db.close()
      weak let weakRecorder = observe(db)
      #expect(weakRecorder == nil, "not added, not kept")
      let error = try #require(throws: DatabaseError.self) { try db.notifyChanges(in: DatabaseRegion(table: "t")) }
      #expect(error.resultCode == .misuse)
      db.remove(transactionObserver: EventRecorder())  // does nothing
    }
  }
}

/// Observes the tables it is given (all when none) and the kinds (all when
/// none), and writes down what it is told, in order: "insert notes 1",
/// "will commit", "commit", "rollback".
private final class EventRecorder: TransactionObserver {
  private let tables: [String]
  private let kinds: [ChangeKind]
  var told: [String] = []
  /// What `observes` was asked, as "update notes body title" (columns
  /// sorted).
  var asked: [String] = []
  var kindsAsked: [DatabaseEventKind] = []
  /// Thrown from `databaseWillCommit` when set.
  var veto: (any Error)?
  var readOnCommit: String?
  var readValues: [DatabaseValue] = []
  /// Run once, in the first `databaseDidCommit`.
  var writeOnCommit: String?
  var readErrors: [any Error] = []
  /// The database the last end callback was given.
  var keptDatabase: Database?

  init(tables: [String] = [], kinds: [ChangeKind] = []) {
    self.tables = tables
    self.kinds = kinds
  }

  func observes(eventsOfKind kind: DatabaseEventKind) -> Bool {
    kindsAsked.append(kind)
    let (name, table, columns): (ChangeKind, String, Set<String>) =
      switch kind {
      case .insert(let table): (.insert, table, [])
      case .delete(let table): (.delete, table, [])
      case .update(let table, let columns): (.update, table, columns)
      }
    asked.append((["\(name)", table] + columns.sorted()).joined(separator: " "))
    return (tables.isEmpty || tables.contains(table)) && (kinds.isEmpty || kinds.contains(name))
  }

  func databaseDidChange(with event: DatabaseEvent) {
    told.append("\(event.kind) \(event.table) \(event.rowID)")
  }

  func databaseWillCommit() throws {
    told.append("will commit")
    if let veto { throw veto }
  }

  func databaseDidCommit(_ db: Database) {
    told.append("commit")
    keptDatabase = db
    do {
      if let readOnCommit { readValues.append(try scalar(db, readOnCommit)) }
      if let writeOnCommit {
        self.writeOnCommit = nil
        try db.execute(writeOnCommit)
      }
    } catch {
      readErrors.append(error)
    }
  }

  func databaseDidRollback(_ db: Database) {
    told.append("rollback")
    keptDatabase = db
  }
}
