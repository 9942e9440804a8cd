import CxxStdlib
import SQLiteBridgeCore

/// One prepared statement, compiled once and run as often as needed with
/// new arguments (`Database.makeStatement`). Not `Sendable`: it belongs to
/// its `Database` and is used on the same thread (or task) at a time.
///
/// Every run starts from the beginning and binds every parameter afresh
/// (a wrong count or an unmatched name is `.range`, never a silent NULL),
/// and the statement is reset afterwards, so it holds no lock between runs.
/// It keeps its `Database` alive; closing that `Database` leaves the
/// statement working (its connection closes when the statement goes), as in
/// C++.
public final class Statement {
  let database: Database
  /// Heap storage with a stable address: a `RowView` points at it while a
  /// row is read.
  let core: UnsafeMutablePointer<sqlitebridge.Statement>

  /// The arguments of the `SQL` literal the statement was made from
  /// (`Database.makeStatement(literal:)`): bound on every run that is given
  /// no positional arguments of its own.
  let literalArguments: [DatabaseValue]

  init(database: Database, statement: consuming sqlitebridge.Statement, literalArguments: [DatabaseValue] = []) {
    self.database = database
    self.literalArguments = literalArguments
    core = .allocate(capacity: 1)
    core.initialize(to: statement)
  }

  deinit {
    core.deinitialize(count: 1)
    core.deallocate()
  }

  /// The SQL text the statement was prepared from.
  public var sql: String { String(core.pointee.sql()) }

  /// The largest parameter index (`?NNN` counts up to NNN).
  public var parameterCount: Int { Int(core.pointee.parameterCount()) }

  /// Each parameter's name with its prefix (`:id`, `@id`, `$id`, `?3`), in
  /// index order; nil for a plain `?`.
  public var parameterNames: [String?] {
    (0..<core.pointee.parameterCount()).map { index in
      let name = String(core.pointee.parameterName(index + 1))
      return name.isEmpty ? nil : name
    }
  }

  /// The result columns' names as SQL gives them (alias or column name);
  /// empty for a statement that returns no rows.
  public var columnNames: [String] {
    (0..<core.pointee.columnCount()).map { String(core.pointee.columnName($0)) }
  }

  /// True when running the statement cannot change the database.
  public var isReadOnly: Bool { core.pointee.isReadOnly() }

  /// Runs the statement with `arguments` bound to its parameters 1...n and
  /// returns every row as a dictionary (the leftmost column wins when names
  /// repeat). A statement made from an `SQL` literal binds the literal's
  /// arguments when `arguments` is empty (given ones replace them for the
  /// run).
  ///
  /// - Throws: `DatabaseError` with `.range` when the argument count does
  ///   not match the parameters; SQLite's error when a step fails.
  @discardableResult
  public func execute(_ arguments: [DatabaseValue] = []) throws -> [[String: DatabaseValue]] {
    try run {
      try $0.bindAll(arguments.isEmpty ? literalArguments : arguments)
    } read: {
      try database.dictionaries(&$0)
    }
  }

  /// Runs the statement with named arguments (`:name`, `@name`, `$name`).
  ///
  /// - Throws: `DatabaseError` with `.range`, naming the parameter, when a
  ///   parameter has no argument, an argument matches no parameter or is
  ///   given twice, or the statement has positional parameters.
  @discardableResult
  public func execute(_ arguments: NamedArguments) throws -> [[String: DatabaseValue]] {
    try run {
      try $0.bindAll(arguments)
    } read: {
      try database.dictionaries(&$0)
    }
  }

  /// Runs the statement and returns its rows with every column kept.
  ///
  /// - Throws: `DatabaseError`, as `execute(_:)`.
  public func rows(_ arguments: [DatabaseValue] = []) throws -> [Row] {
    try run {
      try $0.bindAll(arguments.isEmpty ? literalArguments : arguments)
    } read: {
      try database.rows(&$0)
    }
  }

  /// Runs the statement, handing `body` each row as it is stepped, read in
  /// place (valid only during the call; `copy()` keeps it).
  ///
  /// - Throws: `DatabaseError`, as `execute(_:)`, or what `body` throws
  ///   (which stops the run).
  public func forEachRow(_ arguments: [DatabaseValue] = [], _ body: (RowView) throws -> Void) throws {
    try run {
      try $0.bindAll(arguments.isEmpty ? literalArguments : arguments)
    } read: {
      try database.forEachRow(of: &$0, body)
    }
  }

  /// Runs the statement with arguments given as Swift values (`[id,
  /// date]`, `["id": id]`), as `execute(_:)` with `[DatabaseValue]` or
  /// `NamedArguments` does (empty positional arguments bind the `SQL`
  /// literal's).
  ///
  /// - Throws: `DatabaseError`, as those overloads.
  @_disfavoredOverload
  @discardableResult
  public func execute(_ arguments: StatementArguments) throws -> [[String: DatabaseValue]] {
    try run {
      try bind(arguments, to: &$0)
    } read: {
      try database.dictionaries(&$0)
    }
  }

  /// `rows(_:)` with arguments given as Swift values.
  ///
  /// - Throws: `DatabaseError`, as `execute(_:)`.
  @_disfavoredOverload
  public func rows(_ arguments: StatementArguments) throws -> [Row] {
    try run {
      try bind(arguments, to: &$0)
    } read: {
      try database.rows(&$0)
    }
  }

  /// `forEachRow(_:_:)` with arguments given as Swift values.
  ///
  /// - Throws: `DatabaseError`, as `execute(_:)`, or what `body` throws.
  @_disfavoredOverload
  public func forEachRow(_ arguments: StatementArguments, _ body: (RowView) throws -> Void) throws {
    try run {
      try bind(arguments, to: &$0)
    } read: {
      try database.forEachRow(of: &$0, body)
    }
  }

  /// Binds `arguments`, each kind by its own path; no positional arguments
  /// bind the `SQL` literal's.
  private func bind(_ arguments: StatementArguments, to statement: inout sqlitebridge.Statement) throws {
    switch arguments.storage {
    case .positional(let values): try statement.bindAll(values.isEmpty ? literalArguments : values)
    case .named(let named): try statement.bindAll(named)
    }
  }

  /// One run: from the start, bound by `bind`, read by `read`, and reset
  /// afterwards however it ended, so that no lock outlives it.
  private func run<Result>(
    bind: (inout sqlitebridge.Statement) throws -> Void,
    read: (inout sqlitebridge.Statement) throws -> Result
  ) throws -> Result {
    _ = core.pointee.reset()
    defer { _ = core.pointee.reset() }
    try bind(&core.pointee)
    return try read(&core.pointee)
  }
}
