/// Arguments written with Swift values of any `DatabaseValueConvertible`
/// type: positionally as an array literal (`[id, name, date]`) or by name as
/// a dictionary literal (`["id": id, "name": name]`, the literal's order
/// kept). Each value is converted with `databaseValue` when the arguments
/// are made; `nil` (or a nil optional) binds NULL. `DatabaseValue`'s case
/// names mix with the values (`[.text(title), id]`: see
/// `StatementArguments.Argument`). Every call that takes `[DatabaseValue]`
/// or `NamedArguments` takes these too, a `Statement`'s runs included.
///
/// Literals that are all `DatabaseValue` literals (`["a", 1, nil]`,
/// `[.integer(r)]`, `["id": 1]`) keep choosing the `[DatabaseValue]` and
/// `NamedArguments` overloads: a literal of this type holds each value as
/// an existential until it is converted, which costs several hundred
/// instructions a value, where those bind the values as they are.
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
