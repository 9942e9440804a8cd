import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

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

  // Lending from the core's statement cache (`DatabaseAccess::lendForArguments`,
  // interop/Statements.hpp): the path of every query the facade runs.

  /// The statement cache's statement for `sql`, unbound, for a caller that
  /// binds every parameter before stepping (so earlier bindings need no
  /// clearing).
  @usableFromInline
  func cachedStatement(_ sql: String) throws -> sqlitebridge.Statement {
    var statement = sqlitebridge.Statement()
    try lend(sql, into: &statement)
    return statement
  }

  /// Puts the cached statement for `sql` into `statement`, in place (each
  /// move of a C++ statement costs a call).
  @inline(__always)
  func lend(_ sql: String, into statement: inout sqlitebridge.Statement) throws {
    // Native strings lend their UTF-8 without a copy.
    let lent =
      sql.utf8.withContiguousStorageIfAvailable {
        sqlitebridge.interop.DatabaseAccess.lendForArguments(&core, $0.baseAddress, $0.count, &statement)
      }
      ?? {
        var copy = sql
        return copy.withUTF8 {
          sqlitebridge.interop.DatabaseAccess.lendForArguments(&core, $0.baseAddress, $0.count, &statement)
        }
      }()
    guard lent else { throw lastError }
  }
}
