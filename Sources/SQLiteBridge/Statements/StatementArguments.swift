/// Arguments written with Swift values of any `DatabaseValueConvertible`
/// type: positionally as an array literal (`[id, name, date]`) or by name as
/// a dictionary literal (`["id": id, "name": name]`). Each value is
/// converted with `databaseValue` when the arguments are made; `nil` (or a
/// nil optional) binds NULL.
///
/// Literals that are all `DatabaseValue` literals (`["a", 1, nil]`,
/// `["id": 1]`) keep choosing the `[DatabaseValue]` and `NamedArguments`
/// overloads; these arguments are used when a value is a variable of another
/// type.
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

  /// Positional arguments.
  public init(_ values: [DatabaseValue]) {
    storage = .positional(values)
  }

  /// Named arguments.
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
