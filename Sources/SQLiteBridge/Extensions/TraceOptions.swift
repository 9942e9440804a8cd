/// What `Database.trace(_:_:)` reports.
public struct TraceOptions: OptionSet, Sendable {
  /// The core's `TraceOptions` bits.
  public let rawValue: UInt32

  /// Options from the core's bits (1 statements, 2 profile, 4 expanded
  /// SQL); other bits are ignored.
  public init(rawValue: UInt32) {
    self.rawValue = rawValue
  }

  /// A `.statement` event as each statement starts.
  public static let statements = TraceOptions(rawValue: 1)
  /// A `.profile` event, with its duration, as each statement finishes.
  public static let profile = TraceOptions(rawValue: 2)
  /// Fill `TraceEvent.expandedSQL` (bound values included) in the events
  /// asked for. Alone, it reports nothing.
  public static let expandedSQL = TraceOptions(rawValue: 4)
}
