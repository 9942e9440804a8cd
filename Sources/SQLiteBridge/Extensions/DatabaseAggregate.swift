/// A custom aggregate function's state for one group, registered with
/// `Database.createAggregate(_:argumentCount:deterministic:_:)`.
///
/// SQLite makes one with `init()` per group (one for the whole result
/// without GROUP BY, also when there are no rows), calls `step` once per row
/// of the group, then `finalize` once; the value is released afterwards,
/// also when the query fails or is abandoned midway. An error thrown by
/// `step` or `finalize` fails the query with `ResultCode.error` and the
/// error's message (a `DatabaseError`'s `message`, otherwise
/// `String(describing:)` of the error); it never crashes.
public protocol DatabaseAggregate {
  /// A new group's state.
  init()
  /// Takes one row's arguments (every value exactly as SQLite holds it;
  /// text that is not valid UTF-8 arrives as `.blob`).
  mutating func step(_ arguments: [DatabaseValue]) throws
  /// The group's result.
  func finalize() throws -> DatabaseValue
}
