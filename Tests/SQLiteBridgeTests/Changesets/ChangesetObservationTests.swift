import Foundation
import SQLiteBridge
import Testing

/// Observations on a queue or pool are told of what changesets change: a
/// `ValueObservation` sees an apply made in a write block (WITHOUT ROWID
/// rows included, which the update hook does not report) and an undo and a
/// redo of an `UndoHistory`. The values come on the observation's own
/// thread, waited for with a bound. (ApplyConflictTests.cpp checks a
/// transaction observer told of an apply in C++.)
@Suite(
  .usesSessionExtension,
  .enabled(if: Changeset.isAvailable, "this SQLite was built without the session extension (SQLITE_ENABLE_SESSION)"))
struct ChangesetObservationTests {
  /// Runs `body` with a queue or a pool on a fresh file holding the
  /// changeset schema.
  private func withWriter(_ kind: StoreKind, _ body: (any DatabaseWriter) throws -> Void) throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/observed.db"
      try makeDatabaseFile(at: path, script: changesetSchema)
      switch kind {
      case .queue: try body(try DatabaseQueue(path: path))
      case .pool: try body(try DatabasePool(path: path))
      }
    }
  }

  @Test(arguments: StoreKind.allCases)
  func aValueObservationSeesAnApply(kind: StoreKind) throws {
    let changes = try changesetOf("", "INSERT INTO tags(name) VALUES ('a'), ('b'); INSERT INTO items(id) VALUES (1);")
    try withWriter(kind) { writer in
      let values = DeliveredValues<Int64>()
      let cancellable = countObservation("SELECT count(*) FROM tags").start(
        in: writer, onError: values.onError, onChange: values.onChange)
      #expect(values.waitForLast(0))
      try writer.write { db in try db.apply(changes) }
      #expect(values.waitForLast(2))
      #expect(values.all == [0, 2])
      #expect(values.errors.isEmpty)
      cancellable.cancel()
    }
  }

  @Test(arguments: StoreKind.allCases)
  func aValueObservationSeesUndoAndRedo(kind: StoreKind) throws {
    try withWriter(kind) { writer in
      let history = try UndoHistory(writer)
      try writer.write { db in try db.execute("INSERT INTO tags(name) VALUES ('a')") }
      let values = DeliveredValues<Int64>()
      let cancellable = countObservation("SELECT count(*) FROM tags").start(
        in: writer, onError: values.onError, onChange: values.onChange)
      #expect(values.waitForLast(1))
      #expect(try history.undo())
      #expect(values.waitForLast(0))
      #expect(try history.redo())
      #expect(values.waitForLast(1))
      #expect(values.all == [1, 0, 1])
      #expect(values.errors.isEmpty)
      cancellable.cancel()
    }
  }
}
