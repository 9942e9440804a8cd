import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// Undo and redo of the transactions a ``DatabaseQueue`` or ``DatabasePool``
/// commits, built on changesets (the C++ `sqlitebridge::UndoHistory`).
///
/// ```swift
/// let history = try UndoHistory(queue)
/// try queue.write { db in try db.execute("DELETE FROM notes WHERE id = 1") }
/// try history.undo()  // the note is back
/// ```
///
/// - Each write transaction the writer commits that changes a tracked table
///   is one step (its changeset). All tables with a primary key of the main
///   schema are tracked unless `tables` names some; a transaction that
///   changed none of them is no step.
/// - `depth` steps are kept; the oldest is forgotten beyond. A new step
///   clears what could be redone.
/// - A step whose rows changed since (by a transaction made while
///   ``paused(_:)``, another connection or process) is refused:
///   ``undo(onConflict:)`` and ``redo(onConflict:)`` throw `.abort` naming
///   the table and the conflict, applying nothing, unless `onConflict`
///   answers otherwise.
/// - An undo or redo runs in a write transaction of its own on the writer
///   and is not itself a step; observers are told of it as of any write.
///
/// It keeps its queue or pool alive. Every member may be called from any
/// thread, but not from inside one of the queue's or pool's own blocks
/// (`.misuse`). `@unchecked Sendable`: its state is the core's history,
/// whose every entry point is thread-safe (the steps behind a lock, undo
/// and redo on the writer's lease), and the writer, itself `Sendable`.
public final class UndoHistory: @unchecked Sendable {
  /// The queue or pool, kept alive as long as the history needs its writer.
  private let writer: CoreWriter
  /// The core's history, destroyed in `deinit`, while `writer` still lives
  /// (its destructor stops recording on the writer).
  private let core: UnsafeMutablePointer<sqlitebridge.UndoHistory>

  /// Starts recording the writer of `writer` (a ``DatabaseQueue`` or a
  /// ``DatabasePool``): `tables` names the tables tracked (nil: every table
  /// with a primary key of the main schema, tables made later included),
  /// `depth` how many steps are kept.
  ///
  /// - Throws: `DatabaseError` with `.misuse` for a writer of another type
  ///   and for a depth below 1; `.error` for a tracked table that does not
  ///   exist ("no such table") or has no PRIMARY KEY, and without the
  ///   session extension; the writer's open error.
  public init(_ writer: some DatabaseWriter, tables: [String]? = nil, depth: Int = 100) throws {
    guard let coreWriter = CoreWriter(writer) else { throw CoreWriter.unsupported(writer, for: "undo histories") }
    var tracked = sqlitebridge.interop.StringList()
    for table in tables ?? [] { tracked.push_back(std.string(table)) }
    // Below 1 the core refuses the depth (size_t would wrap a negative one).
    let steps = max(depth, 0)
    let history: sqlitebridge.UndoHistory
    switch coreWriter {
    case .queue(let queue): history = ChangesetInterop.makeHistory(queue.core, tables != nil, tracked, steps)
    case .pool(let pool): history = ChangesetInterop.makeHistory(pool.core, tables != nil, tracked, steps)
    }
    let error = history.error()
    guard !error.isError() else { throw DatabaseError(error) }
    self.writer = coreWriter
    core = .allocate(capacity: 1)
    core.initialize(to: history)
  }

  deinit {
    core.deinitialize(count: 1)
    core.deallocate()
  }

  /// Whether there is a step to undo.
  public var canUndo: Bool { core.pointee.canUndo() }
  /// Whether there is a step to redo.
  public var canRedo: Bool { core.pointee.canRedo() }
  /// How many steps can be undone.
  public var undoCount: Int { core.pointee.undoCount() }
  /// How many steps can be redone.
  public var redoCount: Int { core.pointee.redoCount() }

  /// Undoes the last step: applies its inverse in a write transaction of
  /// its own. Returns true when it did, false when there was nothing to
  /// undo. `onConflict` (nil: every conflict refuses the step) is told each
  /// conflict, on this thread, as ``Database/apply(_:tables:onConflict:)``
  /// tells it.
  ///
  /// - Throws: `DatabaseError`, with nothing applied and the step kept:
  ///   `.abort` ("undo refused: ...") when a conflict refused it; `.misuse`
  ///   for a replace answered to a kind that cannot be replaced, and when
  ///   called from inside one of the writer's blocks; `.busy` and other
  ///   write failures; why recording stopped, once it has.
  @discardableResult
  public func undo(onConflict: ((ChangesetConflict) -> ChangesetConflictResolution)? = nil) throws -> Bool {
    try move(redo: false, onConflict)
  }

  /// Redoes the last undone step (as ``undo(onConflict:)``; false when there
  /// is nothing to redo).
  ///
  /// - Throws: `DatabaseError`, as ``undo(onConflict:)`` ("redo refused:
  ///   ...").
  @discardableResult
  public func redo(onConflict: ((ChangesetConflict) -> ChangesetConflictResolution)? = nil) throws -> Bool {
    try move(redo: true, onConflict)
  }

  /// Runs `body` with recording paused and returns what it returns: the
  /// transactions the writer commits meanwhile (from any thread) are not
  /// steps. Recording resumes when `body` returns or throws; pauses nest.
  ///
  /// - Throws: what `body` throws.
  @discardableResult
  public func paused<T>(_ body: () throws -> T) rethrows -> T {
    core.pointee.pause()
    defer { core.pointee.resume() }
    return try body()
  }

  private func move(redo: Bool, _ onConflict: ConflictHandlerContext.Handler?) throws -> Bool {
    var error = sqlitebridge.Error()
    let moved = ConflictHandlerContext.with(onConflict) { callback, context in
      ChangesetInterop.move(core.pointee, redo, callback, context, &error)
    }
    if !moved, error.isError() { throw DatabaseError(error) }
    return moved
  }
}
