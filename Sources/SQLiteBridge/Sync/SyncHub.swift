/// An append-only log of ``SyncEntry``s that keeps one order for every
/// device: a SQLite file (``DatabaseSyncHub``) or a type of your own (a
/// server, a cloud store), which a ``SyncEngine`` drives through these two
/// calls only.
///
/// An implementation must keep the log's rules, which every copy's
/// convergence rests on: positions 1, 2, 3, ... with no gap; an append is
/// conditional (fast-forward only) and all or nothing; a (device, sequence)
/// pair is in the log at most once. Each call may come from any task.
public protocol SyncHub: Sendable {
  /// Appends when `last` is still the log's last position; returns false
  /// (appending nothing) when it is not.
  ///
  /// Appends `entries` (in order, at the places after `last`; their own
  /// `position` is ignored) in one step when the log's last position is
  /// `last` (0 for an empty log), and returns true. When the log ends
  /// elsewhere it appends nothing and returns false: the engine then pulls
  /// again.
  ///
  /// - Throws: whatever keeps the hub from answering; a throw may leave the
  ///   outcome unknown (the entries may be in the log): the engine keeps
  ///   its pending changes and pulls before it pushes again, so nothing is
  ///   appended twice. An implementation must throw, appending nothing,
  ///   when an entry's (device, sequence) is in the log already.
  func append(_ entries: [SyncEntry], after last: Int64) async throws -> Bool

  /// The entries after `position`, in order, at most `limit` of them (fewer
  /// only at the end of the log).
  ///
  /// - Throws: whatever keeps the hub from answering, and for an entry
  ///   whose changeset does not parse.
  func entries(after position: Int64, limit: Int) async throws -> [SyncEntry]
}
