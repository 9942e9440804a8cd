import SQLiteBridge

/// One of the shell's dot commands: a line whose first non-blank character
/// is `.`, then the command's name and its arguments, split at blanks.
struct ShellDotCommand {
  /// What the shell does after a dot command.
  enum Outcome {
    case proceed
    case quit
  }

  static let help = """
    .help                     Show this text.
    .mode [json|table|csv]    Print rows as JSON, an aligned table, or RFC 4180 CSV; alone: say the mode.
    .quit  (or .exit)         Leave the shell (so does end of input).
    .schema [TABLE]           Columns, primary key, indexes and foreign keys of TABLE or of every table.
    .tables                   The names of the main schema's tables.
    Anything else is SQL: end each statement with ';' (it may span lines).
    """

  let name: String
  let arguments: [String]

  /// Nil when `line` is not a dot command.
  init?(_ line: String) {
    let trimmed = line.drop(while: \.isWhitespace)
    guard trimmed.first == "." else { return nil }
    let words = trimmed.split(whereSeparator: \.isWhitespace).map(String.init)
    name = words[0]
    arguments = Array(words.dropFirst())
  }

  /// Runs the command in `shell`.
  ///
  /// - Throws: `UsageError` for an unknown command, a wrong number of
  ///   arguments or an unknown mode; `DatabaseError` when the database
  ///   cannot answer (`.schema` of a missing table: SQLite error 1).
  func run(in shell: Shell) throws -> Outcome {
    switch name {
    case ".quit", ".exit":
      try expectArguments(0)
      return .quit
    case ".help":
      try expectArguments(0)
      shell.write(Self.help + "\n")
    case ".mode":
      try expectArguments(0...1)
      if let mode = arguments.first {
        shell.mode = try RowFormat(named: mode, for: ".mode")
      } else {
        shell.write("mode: \(shell.mode.rawValue)\n")
      }
    case ".tables":
      try expectArguments(0)
      let names = try shell.session.tableNames()
      shell.write(TablesCommand.render(names, schemaFormat(shell)) + "\n")
    case ".schema":
      try expectArguments(0...1)
      shell.write(try shell.session.schema(arguments.first, schemaFormat(shell)) + "\n")
    default:
      throw UsageError("unknown command '\(name)' (.help lists the dot commands)")
    }
    return .proceed
  }

  /// `.tables` and `.schema` print as the `tables` and `schema` commands
  /// do: JSON in json mode, tables otherwise.
  private func schemaFormat(_ shell: Shell) -> OutputFormat {
    shell.mode == .json ? .json : .table
  }

  private func expectArguments(_ count: Int) throws {
    try expectArguments(count...count)
  }

  private func expectArguments(_ counts: ClosedRange<Int>) throws {
    guard counts.contains(arguments.count) else {
      let expected = counts.count == 1 ? "\(counts.lowerBound)" : "\(counts.lowerBound) to \(counts.upperBound)"
      throw UsageError("\(name) takes \(expected) argument\(counts.upperBound == 1 ? "" : "s"), not \(arguments.count)")
    }
  }
}
