import SQLiteBridge

/// `check DB`: SQLite's integrity check (every schema) and foreign-key check
/// (the main schema, whether or not foreign keys are enforced).
///
/// Prints `ok` (exit 0) when both find nothing. Otherwise prints each
/// problem on its own line, `integrity: …` as SQLite words it and
/// `foreign key: …` naming the row, then how many there were (exit 1). A
/// file too damaged to check at all, or a missing file (never created), is
/// a database error (exit 1, SQLite's code on stderr).
enum CheckCommand {
  static func run(_ arguments: inout Arguments, _ opener: DatabaseOpener) throws {
    let path = try arguments.positional("DB")
    try arguments.finish()
    let database = try opener.open(path, mode: .readWrite)
    let problems = try database.integrityCheck()
    for problem in problems { print("integrity: \(problem)") }
    let violations = try database.foreignKeyCheck()
    for violation in violations { print("foreign key: \(try describe(violation, database))") }
    let count = problems.count + violations.count
    guard count > 0 else {
      print("ok")
      return
    }
    print("\(count) problem\(count == 1 ? "" : "s") found")
    throw ReportedFailure()
  }

  /// "child row 3: parent_id references parent, which has no matching row".
  static func describe(_ violation: ForeignKeyViolation, _ database: Database) throws -> String {
    let row = violation.rowID.map { "row \($0)" } ?? "a row (WITHOUT ROWID table)"
    let keys = try database.foreignKeys(of: violation.table)
    let columns =
      keys.indices.contains(violation.foreignKeyIndex)
      ? "(" + keys[violation.foreignKeyIndex].columns.joined(separator: ", ") + ")" : "its key"
    return "\(violation.table) \(row): \(columns) references \(violation.destinationTable), "
      + "which has no matching row"
  }
}
