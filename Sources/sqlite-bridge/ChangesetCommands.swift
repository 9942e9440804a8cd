import Foundation
import SQLiteBridge

/// `diff A B [--table T]... [--patchset] --output FILE`: writes the changeset
/// (or patchset) that turns database A into database B, made by SQLite's
/// session extension (`DatabaseSession.diff(from:table:)`) on B with A
/// attached. Without `--table`, every table of B's main schema that has a
/// PRIMARY KEY (SQLite's rule for changesets); a keyless table is skipped
/// with a note on stderr, as is a table only A holds. A table given or found
/// in B but missing from A, or whose columns or primary key differ, fails
/// (exit 1) naming it. Both files are opened read-only; neither changes.
enum DiffCommand {
  /// The schema name A is attached under while diffing.
  static let sourceSchema = "sqlitebridge_diff_source"

  static func run(_ arguments: inout Arguments, _ opener: DatabaseOpener) throws {
    let sourcePath = try arguments.positional("A")
    let targetPath = try arguments.positional("B")
    var tables: [String] = []
    while let table = try arguments.option("table") { tables.append(table) }
    let patchset = try arguments.flag("patchset")
    guard let output = try arguments.option("output") else { throw UsageError("diff needs --output FILE") }
    try arguments.finish()
    if opener.key != nil { throw UsageError("diff does not take --key-file (it attaches A, which needs no key)") }
    guard FileManager.default.fileExists(atPath: sourcePath) else {
      throw DatabaseError(code: ResultCode.cantOpen.rawValue, message: "no database file at \(sourcePath)")
    }
    let target = try opener.open(targetPath, mode: .readOnly)
    try target.execute("ATTACH ? AS \(sourceSchema)", [sourcePath])
    let session = try DatabaseSession(target)
    let sourceTables = Set(try tableNames(target, schema: sourceSchema))
    if tables.isEmpty {
      for table in try target.tableNames() {
        if try target.primaryKey(of: table).isEmpty {
          CommandLineTool.printError("note: \(table) has no PRIMARY KEY: not in the changeset")
        } else if !sourceTables.contains(table) {
          throw DatabaseError(
            code: ResultCode.error.rawValue,
            message: "table \(table) is in B but not in A: a diff needs it in both (pass the others with --table)")
        } else {
          tables.append(table)
        }
      }
      let targetTables = Set(try target.tableNames())
      for table in sourceTables.sorted() where !targetTables.contains(table) {
        CommandLineTool.printError("note: \(table) is only in A: not in the changeset")
      }
    }
    for table in tables {
      try session.diff(from: sourceSchema, table: table)
    }
    let changes = patchset ? try session.patchset() : try session.changeset()
    try changes.data.write(to: URL(fileURLWithPath: output))
    let count = try changes.operations().count
    print(
      "wrote \(count) change\(count == 1 ? "" : "s") in \(tables.count) table\(tables.count == 1 ? "" : "s") to \(output)"
    )
  }

  /// The tables of `schema` (without SQLite's own), sorted.
  static func tableNames(_ database: Database, schema: String) throws -> [String] {
    try database.execute(
      "SELECT name FROM \(schema).sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
    ).compactMap { row in
      if case .text(let name)? = row["name"] { return name }
      return nil
    }
  }
}

/// `apply DB FILE [--on-conflict abort|omit|replace]`: applies the changeset
/// or patchset in FILE to DB in one transaction (`Database.apply`),
/// printing each conflict and what was done, then how many changes were
/// applied. `abort` (the default) stops at the first conflict; `omit` skips
/// conflicting changes; `replace` overwrites the conflicting row for data
/// conflicts and conflicts, and aborts on the others (SQLite can replace
/// nothing else). An abort exits 1 with DB unchanged.
enum ApplyCommand {
  static func run(_ arguments: inout Arguments, _ opener: DatabaseOpener) throws {
    let path = try arguments.positional("DB")
    let file = try arguments.positional("FILE")
    let mode = try arguments.option("on-conflict") ?? "abort"
    try arguments.finish()
    guard ["abort", "omit", "replace"].contains(mode) else {
      throw UsageError("--on-conflict must be abort, omit or replace, not '\(mode)'")
    }
    let changes = try ChangesetFile.read(file)
    let total = try changes.operations().count
    let database = try opener.open(path, mode: .readWrite)
    var omitted = 0
    do {
      try database.apply(changes) { conflict in
        let answer = Self.answer(mode, to: conflict.kind)
        if answer == .omit { omitted += 1 }
        print("conflict: \(ChangesetText.describe(conflict)): \(answer)")
        return answer
      }
    } catch let error as DatabaseError where error.resultCode == .abort {
      CommandLineTool.printError("error: \(error)\n\(path) is unchanged")
      throw ReportedFailure()
    }
    print("applied \(total - omitted) of \(total) change\(total == 1 ? "" : "s") to \(path)")
  }

  static func answer(_ mode: String, to kind: ChangesetConflictKind) -> ChangesetConflictResolution {
    switch mode {
    case "omit": return .omit
    case "replace": return kind == .data || kind == .conflict ? .replace : .abort
    default: return .abort
    }
  }
}

/// `changeset show FILE [--format json|table]` and `changeset invert FILE
/// --output OUT`: what a changeset file holds, and the changeset that undoes
/// it (a patchset cannot be inverted: exit 1).
enum ChangesetCommand {
  static func run(_ arguments: inout Arguments) throws {
    let action = try arguments.positional("show or invert")
    let file = try arguments.positional("FILE")
    switch action {
    case "show":
      let format = try OutputFormat(&arguments)
      try arguments.finish()
      let changes = try ChangesetFile.read(file)
      let operations = try changes.operations()
      switch format {
      case .json: print(ChangesetText.json(operations, isPatchset: changes.isPatchset))
      case .table: print(ChangesetText.table(operations))
      }
    case "invert":
      guard let output = try arguments.option("output") else {
        throw UsageError("changeset invert needs --output FILE")
      }
      try arguments.finish()
      let inverse = try ChangesetFile.read(file).inverted()
      try inverse.data.write(to: URL(fileURLWithPath: output))
      let count = try inverse.operations().count
      print("wrote the inverse (\(count) change\(count == 1 ? "" : "s")) to \(output)")
    default:
      throw UsageError("changeset takes show or invert, not '\(action)'")
    }
  }
}

/// Reading a changeset file: its bytes, parsed by the core (`Changeset(data:)`:
/// bytes that are not a changeset fail with SQLite error 11).
enum ChangesetFile {
  static func read(_ path: String) throws -> Changeset {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw DatabaseError(code: ResultCode.cantOpen.rawValue, message: "cannot read \(path)")
    }
    return try Changeset(data: data)
  }
}

/// How the changeset commands print changes and conflicts.
enum ChangesetText {
  /// A JSON object: `patchset` and `changes`, each change with its table,
  /// kind, indirect flag, primary key flags and old and new values (a value
  /// as `query` prints it; a column without a value `{"absent": true}`).
  static func json(_ operations: [ChangesetOperation], isPatchset: Bool) -> String {
    let changes = operations.map { operation in
      "{\"table\": \(RowPrinting.jsonString(operation.table)), \"kind\": \"\(kindName(operation.kind))\", "
        + "\"indirect\": \(operation.isIndirect), "
        + "\"primaryKey\": [\(operation.primaryKey.map(String.init).joined(separator: ", "))], "
        + "\"old\": \(jsonValues(operation.oldValues)), \"new\": \(jsonValues(operation.newValues))}"
    }
    return "{\"patchset\": \(isPatchset), \"changes\": [" + changes.joined(separator: ", ") + "]}"
  }

  /// A table: one line per change; values separated by commas, primary
  /// key columns marked with `*`, a column without a value as `-`.
  static func table(_ operations: [ChangesetOperation]) -> String {
    RowPrinting.table(
      header: ["table", "kind", "indirect", "old", "new"],
      cells: operations.map { operation in
        [
          operation.table, kindName(operation.kind), operation.isIndirect ? "yes" : "no",
          cells(operation.oldValues, operation.primaryKey), cells(operation.newValues, operation.primaryKey),
        ]
      })
  }

  /// A conflict in one line: its kind, the change's kind and table, and its
  /// primary key values (or the count of broken foreign keys).
  static func describe(_ conflict: ChangesetConflict) -> String {
    guard let operation = conflict.operation else {
      return "\(conflict.kind) (\(conflict.foreignKeyViolations) broken foreign key"
        + "\(conflict.foreignKeyViolations == 1 ? "" : "s"))"
    }
    let values = operation.kind == .insert ? operation.newValues : operation.oldValues
    let key = zip(values, operation.primaryKey).filter(\.1).map { $0.0.map(RowPrinting.text) ?? "-" }
    return "\(conflict.kind) at \(kindName(operation.kind)) of \(operation.table) (\(key.joined(separator: ", ")))"
  }

  static func kindName(_ kind: ChangeKind) -> String {
    switch kind {
    case .insert: return "insert"
    case .update: return "update"
    case .delete: return "delete"
    }
  }

  static func jsonValues(_ values: [DatabaseValue?]) -> String {
    "[" + values.map { $0.map(RowPrinting.jsonValue) ?? "{\"absent\": true}" }.joined(separator: ", ") + "]"
  }

  static func cells(_ values: [DatabaseValue?], _ primaryKey: [Bool]) -> String {
    zip(values, primaryKey).map { value, key in
      (value.map(RowPrinting.text) ?? "-") + (key ? "*" : "")
    }.joined(separator: ", ")
  }
}
