/// The arguments of a statement: written positionally as an array literal
/// (`[id, name, date]`, `["a", 1, nil]`, `[.integer(r), .text(s)]`) or by
/// name as a dictionary literal (`["id": id, "name": name]`), with values of
/// any `DatabaseValueConvertible` type. Every call that runs SQL with
/// arguments (`execute`, `rows`, `forEachRow`, `fetch`, `fetchOne`,
/// `forEach`, a `Statement`'s runs) takes this one type.
///
/// Each value is converted with `databaseValue` when the arguments are made,
/// so they hold only `DatabaseValue`s (and are `Sendable`); `nil` (or a nil
/// optional) binds NULL. `DatabaseValue`'s case names (`.integer(1)`,
/// `.text("x")`, `.null`, …) may be written in the literals too (see
/// `StatementArguments.Argument`). Named arguments keep the literal's order and
/// match parameters as `NamedArguments` does.
public struct StatementArguments: ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, Sendable {
  enum Storage: Sendable {
    case positional([DatabaseValue])
    case named(NamedArguments)
  }

  let storage: Storage

  /// Positional arguments for `?` and `?NNN` (and, positionally, named)
  /// parameters, in order.
  public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
    storage = .positional(elements.map { $0?.databaseValue ?? .null })
  }

  /// Named arguments for `:name`, `@name` and `$name` parameters, matched
  /// as `NamedArguments` matches them; literal order is kept.
  public init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
    storage = .named(NamedArguments(elements.map { ($0.0, $0.1?.databaseValue ?? .null) }))
  }

  /// Positional arguments (bound as they are, with no conversion).
  public init(_ values: [DatabaseValue]) {
    storage = .positional(values)
  }

  /// Named arguments (bound as they are, with no conversion).
  public init(_ arguments: NamedArguments) {
    storage = .named(arguments)
  }

  /// The positional values; nil for named arguments.
  public var positionalValues: [DatabaseValue]? {
    if case .positional(let values) = storage { return values }
    return nil
  }

  /// The named arguments; nil for positional ones.
  public var namedArguments: NamedArguments? {
    if case .named(let arguments) = storage { return arguments }
    return nil
  }
}

extension NamedArguments {
  /// Named arguments from Swift values of any `DatabaseValueConvertible`
  /// type, in order: `NamedArguments(["id": id, "name": name])`. A nil
  /// value binds NULL.
  public init(values: KeyValuePairs<String, (any DatabaseValueConvertible)?>) {
    self.init(values.map { ($0.key, $0.value?.databaseValue ?? .null) })
  }
}
