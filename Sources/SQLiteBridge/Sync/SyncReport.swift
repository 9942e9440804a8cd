/// What one ``SyncEngine/sync()`` did.
public struct SyncReport: Sendable {
  /// Entries this device appended to the hub.
  public var pushed: Int
  /// Entries of other devices applied to this copy.
  public var pulled: Int
  /// Every conflict the round settled (by the ``SyncConflictPolicy``), and
  /// every pending operation dropped because it would break a foreign key
  /// (kind ``ChangesetConflictKind/foreignKey``, with the operation), in the
  /// order met.
  public var conflicts: [ChangesetConflict]
  /// How many times the round pulled (1 when the log did not move between
  /// its pull and its push).
  public var rounds: Int

  /// A report with these fields. Never fails.
  public init(pushed: Int, pulled: Int, conflicts: [ChangesetConflict], rounds: Int) {
    self.pushed = pushed
    self.pulled = pulled
    self.conflicts = conflicts
    self.rounds = rounds
  }
}
