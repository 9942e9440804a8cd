import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// A ``SyncHub`` whose log is the table `sync_log` of a SQLite file (made
/// when missing), for devices on one machine (processes, simulators, tests)
/// or a shared file system (the C++ `sqlitebridge::DatabaseSyncHub`).
///
/// ```swift
/// let hub = try DatabaseSyncHub(path: "/path/hub.sqlite")
/// let engine = try SyncEngine(queue, tables: ["notes"], device: "phone", hub: hub)
/// ```
///
/// The table is `position INTEGER PRIMARY KEY, device, sequence,
/// changeset`, with (device, sequence) unique. Appends run in one IMMEDIATE
/// transaction, so processes sharing the file append one at a time
/// (waiting up to the busy timeout, 5 s).
///
/// Its async calls wait for SQLite (an append up to the busy timeout for
/// another process's) on a thread of Dispatch's, not of Swift's
/// cooperative pool.
/// `@unchecked Sendable`: its one stored value shares the core's hub, whose
/// every entry point is thread-safe (its own `DatabaseQueue` serializes
/// them).
public final class DatabaseSyncHub: SyncHub, @unchecked Sendable {
  private let core: CoreSyncHub

  /// Opens (or creates) the hub at `path`.
  ///
  /// - Throws: `DatabaseError`: the file's open error (`.cantOpen` for a
  ///   path that cannot be opened); `.error` when the file holds a
  ///   `sync_log` table of another shape (naming its columns); `.noMemory`
  ///   when memory runs out.
  public init(path: String) throws {
    var error = sqlitebridge.Error()
    let handle = SyncInterop.openHub(std.string(path), &error)
    guard !error.isError() else { throw DatabaseError(error) }
    core = CoreSyncHub(handle)
  }

  /// Appends `entries` after position `last` when that is still the log's
  /// last position (true), in one transaction; appends nothing and returns
  /// false when the log ends elsewhere. An empty `entries` only tells
  /// whether `last` is the last position.
  ///
  /// - Throws: `DatabaseError`, with nothing appended: `.constraint` when
  ///   an entry's (device, sequence) is in the log already or twice in
  ///   `entries` (naming the device and sequence); `.misuse` for an entry
  ///   with an empty device name or a sequence below 1 (naming the entry);
  ///   `.busy` past the busy timeout and other write failures.
  public func append(_ entries: [SyncEntry], after last: Int64) async throws -> Bool {
    try await core.append(entries, after: last)
  }

  /// The entries after `position`, in order, at most `limit` of them (a
  /// negative `limit` asks for none).
  ///
  /// - Throws: `DatabaseError`: `.corrupt` for an entry whose changeset
  ///   does not parse (naming its position; none of the page is returned);
  ///   read failures (`.busy`, `.ioError`, ...).
  public func entries(after position: Int64, limit: Int) async throws -> [SyncEntry] {
    try await core.entries(after: position, limit: limit)
  }

  /// The log's last position (0 when it is empty).
  ///
  /// - Throws: `DatabaseError` when the file cannot be read.
  public func lastPosition() throws -> Int64 {
    try core.lastPosition()
  }
}
