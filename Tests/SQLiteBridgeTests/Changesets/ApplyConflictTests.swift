import Foundation
import SQLiteBridge
import Testing

/// Applying changesets: every conflict kind made on purpose, each answer
/// checked; abort leaves the target file byte for byte as it was; a replace
/// answered where SQLite cannot replace; foreign keys; a table the target
/// lacks; a table filter; observers told of an apply.
/// (ApplyConflictTests.cpp checks the same in C++.)
@Suite(
  .usesSessionExtension,
  .enabled(if: Changeset.isAvailable, "this SQLite was built without the session extension (SQLITE_ENABLE_SESSION)"))
struct ApplyConflictTests {
  private static let seed = "INSERT INTO items(id, t) VALUES (1, 'one'), (2, 'two');"

  /// Runs `body` with a target database file (and its path) holding
  /// `seed` then `local`.
  private func withTarget(_ seed: String, _ local: String, _ body: (Database, String) throws -> Void) throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/target.db"
      let db = try openChangesetDatabase(path)
      try db.executeScript(seed + local)
      try body(db, path)
    }
  }

  /// A handler answering `answer`, keeping what it was told.
  private final class Recorder {
    var conflicts: [ChangesetConflict] = []
    let answer: ChangesetConflictResolution
    init(_ answer: ChangesetConflictResolution) { self.answer = answer }
    func handle(_ conflict: ChangesetConflict) -> ChangesetConflictResolution {
      conflicts.append(conflict)
      return answer
    }
  }

  @Test(arguments: [ChangesetConflictResolution.omit, .replace])
  func dataConflictOmitKeepsTheRowReplaceOverwritesIt(answer: ChangesetConflictResolution) throws {
    let changes = try changesetOf(Self.seed, "UPDATE items SET t = 'theirs' WHERE id = 1;")
    try withTarget(Self.seed, "UPDATE items SET t = 'mine' WHERE id = 1;") { db, _ in
      let recorder = Recorder(answer)
      let rebaseData = try db.apply(changes, onConflict: recorder.handle)
      #expect(!rebaseData.isEmpty)  // how the conflict was resolved, for a rebaser
      try #require(recorder.conflicts.count == 1)
      let conflict = recorder.conflicts[0]
      #expect(conflict.kind == .data)
      let operation = try #require(conflict.operation)
      #expect(operation.table == "items")
      #expect(operation.kind == .update)
      #expect(operation.primaryKey == [true, false, false, false, false, false])
      #expect(operation.oldValues[3] == .text("one"))
      #expect(operation.newValues[3] == .text("theirs"))
      let row = try #require(conflict.conflictingValues)
      #expect(row == [1, nil, nil, "mine", nil, nil])
      #expect(conflict.foreignKeyViolations == 0)
      #expect(try text(db, "SELECT t FROM items WHERE id = 1") == (answer == .omit ? "mine" : "theirs"))
    }
  }

  @Test func abortLeavesTheTargetFileByteForByteUnchanged() throws {
    let changes = try changesetOf(
      Self.seed,
      "INSERT INTO items(id, t) VALUES (3, 'three'); UPDATE items SET t = 'theirs' WHERE id = 1; "
        + "INSERT INTO tags(name) VALUES ('t');")
    try withTarget(Self.seed, "UPDATE items SET t = 'mine' WHERE id = 1;") { db, path in
      let bytes = try fileBytes(path)
      let recorder = Recorder(.abort)
      let error = databaseError { try db.apply(changes, onConflict: recorder.handle) }
      #expect(error?.resultCode == .abort)
      #expect(error?.message.contains("data conflict") == true, "\(String(describing: error))")
      #expect(error?.message.contains("\"items\"") == true, "\(String(describing: error))")
      #expect(recorder.conflicts.count == 1)
      #expect(try fileBytes(path) == bytes, "the target file changed")
      #expect(try integer(db, "SELECT count(*) FROM items") == 2)
      // No handler: every conflict aborts.
      let byDefault = databaseError { try db.apply(changes) }
      #expect(byDefault?.resultCode == .abort)
      #expect(try fileBytes(path) == bytes, "the target file changed")
      // Inside a transaction of the caller's, only the apply's savepoint
      // rolls back.
      try db.inTransaction {
        try db.execute("INSERT INTO items(id, t) VALUES (9, 'kept')")
        #expect(databaseError { try db.apply(changes) }?.resultCode == .abort)
        return .commit
      }
      #expect(try integer(db, "SELECT count(*) FROM items") == 3)
    }
  }

  @Test func notFoundCanBeOmittedButNotReplaced() throws {
    let changes = try changesetOf(Self.seed, "DELETE FROM items WHERE id = 2; UPDATE items SET t = 'x' WHERE id = 1;")
    try withTarget(Self.seed, "DELETE FROM items WHERE id = 2;") { db, _ in
      let recorder = Recorder(.omit)
      try db.apply(changes, onConflict: recorder.handle)
      try #require(recorder.conflicts.count == 1)
      #expect(recorder.conflicts[0].kind == .notFound)
      #expect(recorder.conflicts[0].operation?.kind == .delete)
      #expect(recorder.conflicts[0].conflictingValues == nil)
      #expect(try text(db, "SELECT t FROM items WHERE id = 1") == "x")
    }
    try withTarget(Self.seed, "DELETE FROM items WHERE id = 2;") { db, path in
      let bytes = try fileBytes(path)
      let error = databaseError { try db.apply(changes) { _ in .replace } }
      #expect(error?.resultCode == .misuse)
      #expect(error?.message.contains("not-found") == true, "\(String(describing: error))")
      #expect(try fileBytes(path) == bytes, "the target file changed")
      #expect(try text(db, "SELECT t FROM items WHERE id = 1") == "one")
    }
  }

  @Test(arguments: [ChangesetConflictResolution.omit, .replace])
  func anInsertOverAnExistingKeyIsAConflict(answer: ChangesetConflictResolution) throws {
    let changes = try changesetOf("", "INSERT INTO items(id, t) VALUES (1, 'theirs');")
    try withTarget("", "INSERT INTO items(id, t) VALUES (1, 'mine');") { db, _ in
      let recorder = Recorder(answer)
      try db.apply(changes, onConflict: recorder.handle)
      try #require(recorder.conflicts.count == 1)
      #expect(recorder.conflicts[0].kind == .conflict)
      #expect(recorder.conflicts[0].operation?.kind == .insert)
      #expect(recorder.conflicts[0].conflictingValues?[3] == .text("mine"))
      #expect(try text(db, "SELECT t FROM items WHERE id = 1") == (answer == .omit ? "mine" : "theirs"))
    }
  }

  @Test func aConstraintConflictCanBeOmittedOrAborted() throws {
    let changes = try changesetOf("", "INSERT INTO items(id, t) VALUES (1, 'dup'); INSERT INTO items(id) VALUES (2);")
    let local = "CREATE UNIQUE INDEX items_t ON items(t); INSERT INTO items(id, t) VALUES (9, 'dup');"
    try withTarget("", local) { db, _ in
      let recorder = Recorder(.omit)
      try db.apply(changes, onConflict: recorder.handle)
      try #require(recorder.conflicts.count == 1)
      #expect(recorder.conflicts[0].kind == .constraint)
      #expect(recorder.conflicts[0].conflictingValues == nil)
      #expect(try db.rows("SELECT id FROM items ORDER BY id").map(\.values) == [[2], [9]])
    }
    try withTarget("", local) { db, path in
      let bytes = try fileBytes(path)
      let error = databaseError { try db.apply(changes) { _ in .replace } }
      #expect(error?.resultCode == .misuse)
      #expect(error?.message.contains("constraint") == true, "\(String(describing: error))")
      #expect(try fileBytes(path) == bytes, "the target file changed")
    }
  }

  @Test func brokenForeignKeysAreToldOnceWithTheirCount() throws {
    let schema = """
      CREATE TABLE parents (id INTEGER PRIMARY KEY);
      CREATE TABLE children (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parents(id));
      """
    let source = try openChangesetDatabase()
    try source.executeScript(schema + "INSERT INTO parents VALUES (1);")
    let session = try DatabaseSession(source)
    try session.attachAll()
    try source.executeScript("INSERT INTO children VALUES (1, 1), (2, 1);")
    let changes = try session.changeset()

    try withTarget(schema, "") { target, path in  // no parent 1
      let bytes = try fileBytes(path)
      var recorder = Recorder(.abort)
      let error = databaseError { try target.apply(changes, onConflict: recorder.handle) }
      try #require(recorder.conflicts.count == 1)
      #expect(recorder.conflicts[0].kind == .foreignKey)
      #expect(recorder.conflicts[0].operation == nil)
      #expect(recorder.conflicts[0].conflictingValues == nil)
      #expect(recorder.conflicts[0].foreignKeyViolations > 0)
      #expect(error?.resultCode == .abort)
      #expect(error?.message.contains("foreign key") == true, "\(String(describing: error))")
      #expect(try fileBytes(path) == bytes, "the target file changed")

      // Omit keeps the changes, foreign keys broken (SQLite's rule).
      recorder = Recorder(.omit)
      try target.apply(changes, onConflict: recorder.handle)
      #expect(recorder.conflicts.map(\.kind) == [.foreignKey])
      #expect(try integer(target, "SELECT count(*) FROM children") == 2)
      #expect(try integer(target, "SELECT count(*) FROM pragma_foreign_key_check('children')") == 2)
    }
  }

  @Test func aTableTheTargetLacksIsAnErrorUnlessFilteredOut() throws {
    let source = try openChangesetDatabase()
    try source.execute("CREATE TABLE extra (id INTEGER PRIMARY KEY, v)")
    let session = try DatabaseSession(source)
    try session.attachAll()
    try source.executeScript("INSERT INTO items(id) VALUES (1); INSERT INTO extra VALUES (1, 'x');")
    let changes = try session.changeset()

    let target = try openChangesetDatabase()
    let error = databaseError { try target.apply(changes) }
    #expect(error?.resultCode == .schema)
    #expect(error?.message.contains("\"extra\"") == true, "\(String(describing: error))")
    #expect(try integer(target, "SELECT count(*) FROM items") == 0)

    try target.apply(changes, tables: ["ITEMS"])
    #expect(try integer(target, "SELECT count(*) FROM items") == 1)

    // A table whose primary key differs does not fit either.
    let other = try Database(path: ":memory:")
    try other.executeScript("CREATE TABLE items (id INTEGER, i INTEGER PRIMARY KEY, r, t, b, n);")
    #expect(databaseError { try other.apply(changes, tables: ["items"]) }?.resultCode == .schema)
  }

  @Test func theTableFilterAppliesOnlyTheNamedTables() throws {
    let changes = try changesetOf(
      "",
      "INSERT INTO items(id) VALUES (1); INSERT INTO tags(name) VALUES ('a'); INSERT INTO pairs VALUES ('p', 1, 2);")
    let target = try openChangesetDatabase()
    #expect(try target.apply(changes, tables: ["tags", "pairs"]).isEmpty)  // no conflict: no rebase data
    #expect(try integer(target, "SELECT count(*) FROM items") == 0)
    #expect(try integer(target, "SELECT count(*) FROM tags") == 1)
    #expect(try integer(target, "SELECT count(*) FROM pairs") == 1)
    try target.apply(changes, tables: [])
    #expect(try integer(target, "SELECT count(*) FROM items") == 0)
  }

  @Test func aClosedDatabaseIsAMisuse() throws {
    let changes = try changesetOf("", "INSERT INTO items(id) VALUES (1);")
    let target = try openChangesetDatabase()
    target.close()
    #expect(databaseError { try target.apply(changes) }?.resultCode == .misuse)
  }

  /// Counts the commits and the row changes of `items` and `tags`.
  private final class CountingObserver: TransactionObserver {
    var commits = 0
    var changed: [String] = []
    func observes(eventsOfKind kind: DatabaseEventKind) -> Bool {
      switch kind {
      case .insert(let table), .delete(let table), .update(let table, _): return table == "items" || table == "tags"
      }
    }
    func databaseDidChange(with event: DatabaseEvent) { changed.append(event.table) }
    func databaseDidCommit(_ db: Database) { commits += 1 }
  }

  @Test func observersAreToldOfAnApplyAsOfAnyWrite() throws {
    let changes = try changesetOf("", "INSERT INTO tags(name) VALUES ('a'); INSERT INTO items(id) VALUES (1);")
    let target = try openChangesetDatabase()
    let observer = CountingObserver()
    target.add(transactionObserver: observer)
    try target.apply(changes)
    #expect(observer.commits == 1)
    #expect(observer.changed == ["items"])  // WITHOUT ROWID rows are not told one by one
    try target.execute("BEGIN")
    try target.apply(changes) { _ in .omit }
    #expect(observer.commits == 1)
    try target.execute("COMMIT")
    #expect(observer.commits == 2)
  }
}
