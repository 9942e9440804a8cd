/// Arguments for named parameters, written as a dictionary literal:
/// `["id": 1, "title": "x"]`. A key without a prefix fills `:id`, `@id` and
/// `$id`; a key with one (`":id"`) fills only that parameter.
///
/// Unlike a `Dictionary`, it keeps the literal's order and hashes nothing:
/// building a Swift dictionary per call would cost more than the insert
/// itself. Repeated keys are an error when bound (SQLITE_RANGE).
public struct NamedArguments: ExpressibleByDictionaryLiteral, Sendable {
  /// The arguments in the order given.
  public var elements: [(String, DatabaseValue)]

  /// The literal's pairs, in order.
  public init(dictionaryLiteral elements: (String, DatabaseValue)...) {
    self.elements = elements
  }

  /// The dictionary's pairs (in the dictionary's order).
  public init(_ dictionary: [String: DatabaseValue]) {
    elements = dictionary.map { ($0.key, $0.value) }
  }

  /// The pairs, in order.
  public init(_ elements: [(String, DatabaseValue)]) {
    self.elements = elements
  }
}
