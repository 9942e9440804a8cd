import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// Syncs tables of a ``DatabaseQueue``'s or ``DatabasePool``'s database
/// with other devices through a ``SyncHub`` (the C++
/// `sqlitebridge::SyncEngine`, its rounds driven by this type).
///
/// ```swift
/// let hub = try DatabaseSyncHub(path: "/path/hub.sqlite")
/// let engine = try SyncEngine(queue, tables: ["notes", "tags"], device: "phone", hub: hub)
/// try queue.write { db in try db.execute("INSERT INTO notes(id, title) VALUES ('n1', 'one')") }
/// let report = try await engine.sync()  // report.pushed == 1
/// ```
///
/// - From its creation on, every transaction the writer commits through the
///   library (`write`, `inTransaction`, `apply`, migrations) that changes a
///   synced table is recorded, inside that transaction, as a pending
///   changeset numbered for this device (tables `sqlitebridge_sync_state`
///   and `sqlitebridge_sync_pending` of the same database): a crash loses
///   nothing committed. A commit of such changes by other means (an
///   autocommit statement in `writeWithoutTransaction`, `COMMIT` run as
///   SQL) is refused with `.misuse` instead of going unrecorded.
/// - ``sync()`` pulls the log's new entries; when there are any from other
///   devices, it undoes the pending changes, applies the pulled ones in log
///   order, re-applies the pending ones on top (the policy settles
///   conflicts; a pending operation that would break a foreign key is
///   dropped) and keeps what they changed as the new pending changes, all
///   in one transaction; then pushes the pending ones conditionally, and
///   pulls again when the log moved meanwhile (10 times at most). Every
///   rule is the core's; this type only carries the hub's answers.
/// - Every device must have the same columns in the synced tables: an
///   entry that does not fit fails the sync with `.schema`, naming the
///   table and the columns.
///
/// It keeps its queue or pool alive. Every member may be called from any
/// task or thread, but not from inside one of the writer's blocks
/// (`.misuse`). Concurrent ``sync()`` calls of one engine wait for each
/// other and run one after the other, in the order they were made.
/// `@unchecked Sendable`: its state is the core's engine, whose every entry
/// point is thread-safe, its rounds serialized by `rounds`; the writer and
/// the hub are themselves `Sendable`.
public final class SyncEngine: @unchecked Sendable {
  /// The queue or pool, kept alive as long as the engine records on its
  /// writer.
  private let writer: CoreWriter
  /// Where the log is.
  private let hub: any SyncHub
  /// The core's engine, destroyed in `deinit`, while `writer` still lives
  /// (its destructor stops recording on the writer).
  private let core: UnsafeMutablePointer<sqlitebridge.SyncEngine>
  /// Makes the rounds of concurrent `sync()` calls take turns.
  private let rounds = SyncRoundLock()

  /// Starts recording the changes the writer of `writer` (a
  /// ``DatabaseQueue`` or a ``DatabasePool``) commits to `tables`, to sync
  /// them as `device` through `hub`, settling conflicts by `policy`.
  ///
  /// - Throws: `DatabaseError`: `.misuse` for a writer of another type (naming
  ///   it), no table, an empty device name, and a database that syncs as
  ///   another device already (naming it); `.error` for a table that does
  ///   not exist ("no such table: …") or has no PRIMARY KEY (naming it),
  ///   and without the session extension; the writer's open error.
  public init(
    _ writer: some DatabaseWriter, tables: [String], device: String, hub: some SyncHub,
    policy: SyncConflictPolicy = .hubOrderWins
  ) throws {
    guard let coreWriter = CoreWriter(writer) else { throw CoreWriter.unsupported(writer, for: "sync engines") }
    var synced = sqlitebridge.interop.StringList()
    for table in tables { synced.push_back(std.string(table)) }
    // The core releases the policy's box once the engine is gone (also
    // when it does not start).
    let policy = policy.callbacks
    let engine: sqlitebridge.SyncEngine
    switch coreWriter {
    case .queue(let queue):
      engine = SyncInterop.makeEngine(
        queue.core, synced, std.string(device), policy.callback, policy.box, policy.release)
    case .pool(let pool):
      engine = SyncInterop.makeEngine(
        pool.core, synced, std.string(device), policy.callback, policy.box, policy.release)
    }
    let error = engine.error()
    guard !error.isError() else { throw DatabaseError(error) }
    self.writer = coreWriter
    self.hub = hub
    core = .allocate(capacity: 1)
    core.initialize(to: engine)
  }

  deinit {
    core.deinitialize(count: 1)
    core.deallocate()
  }

  /// How many committed transactions wait to be pushed.
  ///
  /// - Throws: `DatabaseError` when the writer cannot read them (`.busy`,
  ///   `.misuse` from inside one of the writer's blocks); why recording
  ///   stopped, once it has.
  public var pendingCount: Int {
    get throws {
      var count: Int64 = 0
      var error = sqlitebridge.Error()
      guard SyncInterop.pendingCount(core.pointee, &count, &error) else { throw DatabaseError(error) }
      return Int(count)
    }
  }

  /// Records every row now in the synced tables as one pending change (an
  /// insert per row), pushed by the next ``sync()``, and returns how many
  /// rows that is.
  ///
  /// For the device whose rows are the starting point when syncing begins
  /// on a database that has data already: what was there before the
  /// engine's first start is otherwise never pushed. Call it once, on one
  /// device: copies that hold rows with the same keys (a bundled database
  /// copied everywhere) meet them as conflicts
  /// (``ChangesetConflictKind/conflict``, settled by the policy). Empty
  /// tables record nothing (0).
  ///
  /// - Throws: `DatabaseError`, nothing recorded: `.misuse` from inside one
  ///   of the writer's blocks; `.busy`; why recording stopped, once it has.
  @discardableResult
  public func recordExistingRows() throws -> Int {
    var rows: Int64 = 0
    var error = sqlitebridge.Error()
    guard SyncInterop.recordExistingRows(core.pointee, &rows, &error) else { throw DatabaseError(error) }
    return Int(rows)
  }

  /// One sync: pulls the hub's new entries, rewrites this copy with them,
  /// pushes the pending changes, and repeats while the log moved meanwhile.
  /// Returns what it did once every pending change is in the log.
  ///
  /// The local work (transactions on the writer) waits on a thread of
  /// Dispatch's, never on one of Swift's cooperative pool; the hub's calls
  /// are awaited. A second call on the same engine waits until the first
  /// one is over. Observers see one commit
  /// per rewrite of the copy.
  ///
  /// - Throws: the error the hub threw, unchanged (the pending changes are
  ///   kept for a later sync; after a failed append, the next sync pulls
  ///   before it pushes again, so nothing is appended twice);
  ///   `CancellationError` when the task is cancelled between two steps
  ///   (pending changes kept); otherwise `DatabaseError`, the copy as the
  ///   last committed step left it and the pending changes kept: `.busy`
  ///   when the log moved before each of 10 pushes; `.schema` for an entry
  ///   that does not fit a synced table (naming it and the columns);
  ///   `.abort` when the policy aborted (the copy as before the round);
  ///   `.misuse` when a replace was answered to a kind that cannot be
  ///   replaced;
  ///   `.corrupt` when the hub's log breaks its rules (a gap, this device's
  ///   entries it did not push); why the engine stopped recording, once it
  ///   has.
  public func sync() async throws -> SyncReport {
    await rounds.lock()
    do {
      let report = try await runRound()
      await rounds.unlock()
      return report
    } catch {
      await rounds.unlock()
      throw error
    }
  }

  /// How many `sync()` calls wait for the one running (for tests that must
  /// know a call is queued).
  var waitingSyncCount: Int {
    get async { await rounds.waitingCount }
  }

  /// Drives one core round with the hub's answers. The round's local work
  /// (reading where the copy stands, the rewrite, the acknowledgement: each
  /// a transaction on the writer, which may wait for it) runs on a thread
  /// of its own (`local`), never on a thread of Swift's cooperative pool.
  private func runRound() async throws -> SyncReport {
    let round = RoundHandle()
    defer { round.pointer.deinitialize(count: 1).deallocate() }
    let engine = EngineHandle(pointer: core)
    await Self.local { round.pointer.initialize(to: SyncInterop.startRound(engine.pointer.pointee)) }
    while true {
      switch round.pointer.pointee.step() {
      case .Pull:
        let after = round.pointer.pointee.after()
        let limit = Int(clamping: round.pointer.pointee.limit())
        let page: [SyncEntry]
        do {
          try Task.checkCancellation()
          page = try await hub.entries(after: after, limit: limit)
          for entry in page { round.pointer.pointee.addPulled(try entry.core()) }
        } catch {
          round.pointer.pointee.hubFailed(Self.hubFailure(error))
          throw error
        }
        await Self.local { round.pointer.pointee.endPull() }
      case .Push:
        var entries: [SyncEntry] = []
        let count = SyncInterop.pushCount(round.pointer.pointee)
        entries.reserveCapacity(count)
        for index in 0..<count { entries.append(SyncEntry(SyncInterop.pushEntry(round.pointer.pointee, index)!)) }
        let after = round.pointer.pointee.after()
        let appended: Bool
        do {
          try Task.checkCancellation()
          appended = try await hub.append(entries, after: after)
        } catch {
          round.pointer.pointee.hubFailed(Self.hubFailure(error))
          throw error
        }
        await Self.local { round.pointer.pointee.pushed(appended) }
      case .Finished:
        return Self.report(of: round.pointer.pointee)
      default:
        throw DatabaseError(round.pointer.pointee.error())
      }
    }
  }

  /// Runs `work` (a step of the round that uses the database) off Swift's
  /// cooperative pool and waits for it.
  private static func local(_ work: @escaping @Sendable () -> Void) async {
    // `work` throws nothing: the round keeps its failure.
    _ = try? await awaitOffThePool(work)
  }

  /// What a finished round did.
  private static func report(of round: borrowing sqlitebridge.SyncRound) -> SyncReport {
    var conflicts: [ChangesetConflict] = []
    let count = SyncInterop.conflictCount(round)
    conflicts.reserveCapacity(count)
    for index in 0..<count { conflicts.append(ChangesetConflict(SyncInterop.conflict(round, index)!)) }
    let report = SyncInterop.report(round)!
    return SyncReport(
      pushed: Int(report.pointee.pushed), pulled: Int(report.pointee.pulled), conflicts: conflicts,
      rounds: Int(report.pointee.rounds))
  }

  /// The core's record of why the hub (or the task) failed a round: the
  /// round ends with it, releasing the engine for the next one. The caller
  /// throws the original error itself.
  private static func hubFailure(_ error: any Error) -> sqlitebridge.Error {
    if let error = error as? DatabaseError { return error.cxx }
    var failure = sqlitebridge.Error()
    let code = error is CancellationError ? ResultCode.interrupt : ResultCode.ioError
    failure.code = code.rawValue
    failure.extendedCode = code.rawValue
    failure.message = std.string(
      error is CancellationError ? "the sync was cancelled" : "the hub failed: \(String(describing: error))")
    return failure
  }
}

/// The round of one `sync()` call, used by one thread at a time: the call's
/// task between its awaits, and the Dispatch thread of a local step while
/// the task waits for it (`@unchecked Sendable` for that hand-over, which
/// the continuation orders).
private final class RoundHandle: @unchecked Sendable {
  let pointer = UnsafeMutablePointer<sqlitebridge.SyncRound>.allocate(capacity: 1)
}

/// The core's engine for a local step (its entry points are thread-safe;
/// the `SyncEngine` outlives the step, which its `sync()` call awaits).
private struct EngineHandle: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<sqlitebridge.SyncEngine>
}
