import SQLiteBridgeCore

/// One event `Database.trace(_:_:)` reports.
public struct TraceEvent: Sendable {
  /// The statement's SQL as written, with its parameters (`?`, `:name`) and
  /// never the values bound to them. A trigger is reported as SQLite names
  /// it: a comment `-- TRIGGER <name>`, then one per statement it runs
  /// (`-- INSERT INTO log VALUES (new.title)`).
  public let sql: String
  /// The SQL with the bound values written in place of its parameters; nil
  /// unless tracing asked for it (`.expandedSQL`), and nil when SQLite
  /// could not make it (out of memory).
  public let expandedSQL: String?
  /// How long the statement ran (wall-clock time, as SQLite measures it);
  /// set for `.profile` events, nil for `.statement` ones.
  public let duration: Duration?
  /// What happened: a statement started or finished.
  public let kind: Kind

  /// What a `TraceEvent` reports.
  public enum Kind: Sendable {
    /// A statement starts running (once per run, before its first row).
    case statement
    /// A statement finished running; `duration` says how long it ran.
    case profile
  }
}

extension TraceEvent.Kind {
  /// The kind the core reports (`sqlitebridge::TraceEvent::Kind`).
  init(_ kind: sqlitebridge.TraceEvent.Kind) {
    switch kind {
    case .Profile: self = .profile
    default: self = .statement
    }
  }
}
