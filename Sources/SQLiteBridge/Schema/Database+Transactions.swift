import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// How a transaction takes its locks (SQLite's BEGIN DEFERRED, IMMEDIATE,
/// EXCLUSIVE).
public enum TransactionKind: Sendable {
  /// Locks on the first read or write.
  case deferred
  /// Takes the write lock at once: other writers wait (busy timeout).
  case immediate
  /// Also keeps readers out (rollback-journal mode).
  case exclusive

  var cxx: sqlitebridge.TransactionKind {
    switch self {
    case .deferred: return .Deferred
    case .immediate: return .Immediate
    case .exclusive: return .Exclusive
    }
  }
}

/// What a transaction body asks for when it returns.
public enum TransactionCompletion: Sendable {
  /// Commit the transaction (release the savepoint when nested).
  case commit
  /// Roll the transaction (or the nested savepoint) back.
  case rollback
}

extension Database {
  /// Runs `body` in a transaction of `kind`: commits when it returns
  /// `.commit`, rolls back when it returns `.rollback` (no error) or throws
  /// (the error is rethrown). Inside an open transaction it runs as a
  /// savepoint (`kind` is ignored). The sequencing is the core's
  /// (`Database::inTransaction` takes the same steps).
  ///
  /// - Throws: `DatabaseError` when the transaction cannot begin (`.busy`
  ///   past the busy timeout, `.misuse` when closed) or the commit fails (it
  ///   is rolled back then: `.constraintForeignKey` for a deferred foreign
  ///   key, say); whatever `body` throws.
  public func inTransaction(_ kind: TransactionKind = .deferred, _ body: () throws -> TransactionCompletion) throws {
    try scoped(kind, asSavepoint: false) { try body() == .commit }
  }

  /// Runs `body` in a transaction of `kind` and returns its value: commits
  /// when it returns, rolls back when it throws. Inside an open transaction
  /// it runs as a savepoint.
  ///
  /// - Throws: as `inTransaction(_:_:)`.
  public func transaction<T>(_ kind: TransactionKind = .deferred, _ body: () throws -> T) throws -> T {
    var result: T?
    try scoped(kind, asSavepoint: false) {
      result = try body()
      return true
    }
    return result!
  }

  /// Runs `body` in a savepoint (a transaction when none is open): releases
  /// it when `body` returns `.commit`, rolls back to it and releases it on
  /// `.rollback` or a thrown error (rethrown).
  ///
  /// - Throws: as `inTransaction(_:_:)`.
  public func inSavepoint(_ body: () throws -> TransactionCompletion) throws {
    try scoped(.deferred, asSavepoint: true) { try body() == .commit }
  }

  /// `PRAGMA user_version`: the version number apps keep in the file.
  ///
  /// - Throws: `DatabaseError` (`.misuse` when closed).
  public func userVersion() throws -> Int {
    var version: Int64 = 0
    guard core.userVersion(&version) else { throw lastError }
    return Int(version)
  }

  /// Sets `PRAGMA user_version`.
  ///
  /// - Throws: `DatabaseError` with `.range` when `version` does not fit the
  ///   32-bit signed integer SQLite keeps there.
  public func setUserVersion(_ version: Int) throws {
    guard core.setUserVersion(Int64(version)) else { throw lastError }
  }

  /// The core's two steps around `body` (true: commit).
  private func scoped(_ kind: TransactionKind, asSavepoint: Bool, _ body: () throws -> Bool) throws {
    var savepoint = std.string()
    guard sqlitebridge.interop.TransactionAccess.beginScope(&core, kind.cxx, asSavepoint, &savepoint) else {
      throw lastError
    }
    let commit: Bool
    do {
      commit = try body()
    } catch {
      _ = sqlitebridge.interop.TransactionAccess.finishScope(&core, false, savepoint)
      throw error
    }
    guard sqlitebridge.interop.TransactionAccess.finishScope(&core, commit, savepoint) else { throw lastError }
  }
}
