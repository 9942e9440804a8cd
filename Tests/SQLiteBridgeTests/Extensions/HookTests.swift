import Foundation
import SQLiteBridge
import Testing

/// `onCommit`, `onRollback` and `onChange` from Swift: when each is called,
/// replacing and removing (the old closure released), closing with hooks
/// installed (released, never called after). (HookTests.cpp checks the same
/// in C++.)
@Suite("Hooks")
struct HookTests {
  private func notes(_ directory: String) throws -> Database {
    let database = try Database(path: directory + "/hooks.db")
    try database.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT)")
    return database
  }

  @Test func commitIsReportedOnCommitAndOnEachWriteOutsideATransaction() throws {
    try withTemporaryDirectory { directory in
      let database = try notes(directory)
      let commits = Recorder<Void>()
      database.onCommit { commits.add(()) }
      try database.execute("BEGIN")
      try database.execute("INSERT INTO notes(title) VALUES ('a')")
      #expect(commits.items.count == 0)
      try database.execute("COMMIT")
      #expect(commits.items.count == 1)
      try database.execute("INSERT INTO notes(title) VALUES ('b')")
      #expect(commits.items.count == 2)
      try database.execute("SELECT count(*) FROM notes")
      try database.execute("BEGIN")
      try database.execute("COMMIT")
      #expect(commits.items.count == 2)
    }
  }

  @Test func rollbackIsReportedOnRollbackAndNotOnCommit() throws {
    try withTemporaryDirectory { directory in
      let database = try notes(directory)
      let commits = Recorder<Void>()
      let rollbacks = Recorder<Void>()
      database.onCommit { commits.add(()) }
      database.onRollback { rollbacks.add(()) }
      try database.execute("INSERT INTO notes(title) VALUES ('a')")
      #expect(rollbacks.items.count == 0)
      try database.execute("BEGIN")
      try database.execute("INSERT INTO notes(title) VALUES ('b')")
      try database.execute("ROLLBACK")
      #expect(rollbacks.items.count == 1)
      #expect(commits.items.count == 1)
      #expect(try scalar(database, "SELECT count(*) FROM notes") == .integer(1))
    }
  }

  @Test func changesReportTheKindTableAndRowIDOfEachRow() throws {
    try withTemporaryDirectory { directory in
      let database = try notes(directory)
      let changes = Recorder<String>()
      database.onChange { kind, table, rowID in changes.add("\(kind) \(table) \(rowID)") }
      try database.execute("INSERT INTO notes(id, title) VALUES (7, 'a'), (9, 'b')")
      try database.execute("UPDATE notes SET title = 'B' WHERE id = 9")
      try database.execute("DELETE FROM notes WHERE id = 7")
      try database.execute("SELECT * FROM notes")
      #expect(changes.items == ["insert notes 7", "insert notes 9", "update notes 9", "delete notes 7"])
    }
  }

  @Test func replacingAHookReleasesTheOldClosureAndCallsOnlyTheNewOne() throws {
    try withTemporaryDirectory { directory in
      let database = try notes(directory)
      let old = Recorder<String>()
      let new = Recorder<String>()
      let watch = installWatched { token in
        database.onCommit { withExtendedLifetime(token) { old.add("commit") } }
        database.onRollback { withExtendedLifetime(token) { old.add("rollback") } }
        database.onChange { _, _, _ in withExtendedLifetime(token) { old.add("change") } }
      }
      database.onCommit { new.add("commit") }
      #expect(watch() != nil)
      database.onRollback { new.add("rollback") }
      #expect(watch() != nil)
      database.onChange { _, _, _ in new.add("change") }
      #expect(watch() == nil)
      try database.execute("INSERT INTO notes(title) VALUES ('a')")
      try database.execute("BEGIN")
      try database.execute("ROLLBACK")
      #expect(old.items.isEmpty)
      #expect(new.items == ["change", "commit", "rollback"])
    }
  }

  @Test func nilRemovesEachHookAndReleasesItsClosure() throws {
    try withTemporaryDirectory { directory in
      let database = try notes(directory)
      let calls = Recorder<String>()
      let commit = installWatched { token in
        database.onCommit { withExtendedLifetime(token) { calls.add("commit") } }
      }
      let rollback = installWatched { token in
        database.onRollback { withExtendedLifetime(token) { calls.add("rollback") } }
      }
      let change = installWatched { token in
        database.onChange { _, _, _ in withExtendedLifetime(token) { calls.add("change") } }
      }
      #expect(commit() != nil && rollback() != nil && change() != nil)
      database.onCommit(nil)
      #expect(commit() == nil)
      database.onRollback(nil)
      #expect(rollback() == nil)
      database.onChange(nil)
      #expect(change() == nil)
      try database.execute("INSERT INTO notes(title) VALUES ('a')")
      try database.execute("BEGIN")
      try database.execute("ROLLBACK")
      #expect(calls.items.isEmpty)
    }
  }

  @Test func closingWithHooksInstalledReleasesThemAndCallsNoneAfter() throws {
    try withTemporaryDirectory { directory in
      let database = try notes(directory)
      let calls = Recorder<String>()
      let watch = installWatched { token in
        database.onCommit { withExtendedLifetime(token) { calls.add("commit") } }
        database.onRollback { withExtendedLifetime(token) { calls.add("rollback") } }
        database.onChange { _, _, _ in withExtendedLifetime(token) { calls.add("change") } }
      }
      try database.execute("BEGIN")
      try database.execute("INSERT INTO notes(title) VALUES ('a')")
      #expect(calls.items == ["change"])
      database.close()
      #expect(watch() == nil)
      #expect(calls.items == ["change"])
      #expect(throws: DatabaseError.self) { try database.execute("INSERT INTO notes(title) VALUES ('b')") }
      #expect(calls.items == ["change"])
    }
  }

  @Test func releasingTheDatabaseReleasesItsHooks() throws {
    var database: Database? = try memoryDatabase()
    let watch = installWatched { token in
      database?.onCommit { withExtendedLifetime(token) {} }
      database?.onChange { _, _, _ in withExtendedLifetime(token) {} }
    }
    #expect(watch() != nil)
    database = nil
    #expect(watch() == nil)
  }
}
