import Foundation
import SQLiteBridge

/// `generate swift|cxx DB [--table T]... [--output FILE]`: record types
/// written from the schema of the existing database DB (opened read-only),
/// one per table (`RecordSchema` decides which tables, names, types and
/// associations; `SwiftRecordRenderer` and `CxxRecordRenderer` write them),
/// to FILE or stdout. The header names DB by its file name only, so that the
/// output does not depend on where the file is.
///
/// Fails with exit 2 for a language other than swift or cxx; with exit 1,
/// writing nothing, for a missing or unreadable DB (SQLite's error), an
/// unknown `--table`, a collision of names, or a FILE that cannot be
/// written (`GenerationError` messages name the tables and columns).
enum GenerateCommand {
  static func run(_ arguments: inout Arguments, _ opener: DatabaseOpener) throws {
    var tables: [String] = []
    while let table = try arguments.option("table") { tables.append(table) }
    let output = try arguments.option("output")
    let language = try arguments.positional("LANGUAGE (swift or cxx)")
    let path = try arguments.positional("DB")
    try arguments.finish()
    guard language == "swift" || language == "cxx" else {
      throw UsageError("generate writes swift or cxx, not '\(language)'")
    }
    let database = try opener.open(path, mode: .readOnly)
    let records = try RecordSchema.read(database, tables: tables)
    let source = URL(fileURLWithPath: path).lastPathComponent
    let text =
      language == "swift"
      ? SwiftRecordRenderer.render(records, source: source) : CxxRecordRenderer.render(records, source: source)
    guard let output else {
      print(text, terminator: "")
      return
    }
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
    } catch {
      throw GenerationError("cannot write \(output): \((error as NSError).localizedDescription)")
    }
  }
}
