import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

// The commit, rollback and change hooks. Each callback is called on the
// thread running the statement, while it runs, and must not use this
// `Database` (SQLite's rule). It is released when replaced or removed (nil),
// and when the connection closes. The core installs them
// (`Database::onCommit`, `onRollback`, `onChange`); on a closed database
// nothing is installed and the callback is released. They never fail.
extension Database {
  /// Calls `callback` each time a transaction that wrote commits (COMMIT,
  /// RELEASE of the outermost savepoint, or a write statement outside a
  /// transaction). SQLite calls it as the commit starts, before the commit
  /// is written (to the database file or its write-ahead log): other
  /// connections do not see the changes yet, and the commit can still fail
  /// (`.busy`, an I/O error) after calling it; a retried COMMIT calls it
  /// again. A transaction that wrote nothing does not call it; it never
  /// turns the commit into a rollback. Replaces the one installed before;
  /// nil removes it.
  public func onCommit(_ callback: (() -> Void)?) {
    installTransactionHook(callback, sqlitebridge.interop.HookAccess.onCommit)
  }

  /// Calls `callback` each time a transaction rolls back: ROLLBACK, and a
  /// transaction SQLite rolls back itself (a write outside a transaction
  /// that fails, an error that ends the transaction). Not for ROLLBACK TO a
  /// savepoint, nor for a transaction left open when the connection closes.
  /// Replaces the one installed before; nil removes it.
  public func onRollback(_ callback: (() -> Void)?) {
    installTransactionHook(callback, sqlitebridge.interop.HookAccess.onRollback)
  }

  /// Hands `callback` (nil: none) to the core's `install` (its commit or
  /// rollback hook) as a retained box the core releases.
  private func installTransactionHook(
    _ callback: (() -> Void)?,
    _ install: (
      inout sqlitebridge.Database, (@convention(c) (UnsafeMutableRawPointer?) -> Void)?, UnsafeMutableRawPointer?,
      (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
    ) -> Void
  ) {
    guard let callback else {
      install(&core, nil, nil, nil)
      return
    }
    install(
      &core, { context in HookBox<() -> Void>.callback(at: context)() }, HookBox.retained(callback), releaseHookBox)
  }

  /// Calls `callback(kind, table, rowID)` for each row an INSERT, UPDATE or
  /// DELETE changes in a rowid table, as it changes (before the transaction
  /// commits; it may still roll back). Not for WITHOUT ROWID tables,
  /// SQLite's own tables, rows a REPLACE conflict deletes, or a DELETE
  /// without WHERE that SQLite runs by truncating the table. Replaces the
  /// one installed before; nil removes it.
  public func onChange(_ callback: ((ChangeKind, String, Int64) -> Void)?) {
    guard let callback else {
      sqlitebridge.interop.HookAccess.onChange(&core, nil, nil, nil)
      return
    }
    sqlitebridge.interop.HookAccess.onChange(
      &core,
      { context, kind, table, rowID in
        HookBox<(ChangeKind, String, Int64) -> Void>.callback(at: context)(
          ChangeKind(kind), table.map { String(cString: $0) } ?? "", rowID)
      }, HookBox.retained(callback), releaseHookBox)
  }
}
