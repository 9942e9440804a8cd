import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

extension Database {
  /// Calls `callback` with a `TraceEvent` for each statement this
  /// connection runs: as it starts (`.statements`) and as it finishes, with
  /// how long it ran (`.profile`); with `.expandedSQL`, the events also carry
  /// the SQL with the bound values in place (otherwise no bound value
  /// appears in an event). Replaces the trace callback installed before;
  /// nil, or options asking for no event, stops tracing.
  ///
  /// The callback is called on the thread running the statement, while it
  /// runs, and must not use this `Database` (SQLite's rule). It is released
  /// when replaced or removed, and when the connection closes. The core
  /// installs it (`Database::trace`); on a closed database nothing is
  /// installed and the callback is released. Never fails.
  public func trace(_ options: TraceOptions = .statements, _ callback: ((TraceEvent) -> Void)?) {
    guard let callback else {
      sqlitebridge.interop.HookAccess.trace(&core, 0, nil, nil, nil)
      return
    }
    sqlitebridge.interop.HookAccess.trace(
      &core, options.rawValue,
      { context, kind, sql, expandedSQL, nanoseconds in
        let event = TraceEvent(
          sql: sql.map { String(cString: $0) } ?? "", expandedSQL: expandedSQL.map { String(cString: $0) },
          duration: nanoseconds >= 0 ? .nanoseconds(nanoseconds) : nil, kind: TraceEvent.Kind(kind))
        HookBox<(TraceEvent) -> Void>.callback(at: context)(event)
      }, HookBox.retained(callback), releaseHookBox)
  }
}
