extension Database {
  /// How many prepared statements the cache keeps for `execute`, `rows`,
  /// `forEachRow` and the fetch methods (default 64); 0 turns the cache
  /// off. Lowering it finalizes the least recently used statements.
  public var statementCacheCapacity: Int {
    get { Int(core.statementCacheCapacity()) }
    set { core.setStatementCacheCapacity(max(0, newValue)) }
  }

  /// Finalizes every cached statement (a statement in use is finalized
  /// when its run ends).
  public func clearStatementCache() {
    core.clearStatementCache()
  }

  /// How many statements this connection has compiled so far; a statement
  /// reused from the cache is not compiled again.
  public var preparedStatementCount: Int { Int(core.preparedStatementCount()) }
}
