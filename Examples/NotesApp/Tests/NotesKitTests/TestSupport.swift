import Foundation
import NotesKit
import SQLiteBridge

/// Runs `body` with the path of a fresh, empty directory that is removed
/// (with everything in it) when `body` returns or throws.
func withTemporaryDirectory<Result>(_ body: (String) throws -> Result) throws -> Result {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("NotesKitTests-\(UUID().uuidString)", isDirectory: true).path
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
  defer { try? FileManager.default.removeItem(atPath: path) }
  return try body(path)
}

/// Runs the command line in-process with `--dir directory` first.
func notes(_ directory: String, _ arguments: String...) -> CommandResult {
  NotesCommandLine.run(["--dir", directory] + arguments)
}

/// The titles of the rows `list` or `search` printed (the text from the
/// header's TITLE column on), in order.
func listedTitles(_ output: String) -> [String] {
  let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
  guard let header = lines.first, let title = header.range(of: "TITLE") else { return [] }
  let column = header.distance(from: header.startIndex, to: title.lowerBound)
  return lines.dropFirst().map { String($0.dropFirst(column)) }
}

/// Builds a version-1 notes database at `path` (the migrator up to "v1",
/// as the first release of the app left it) holding `rows` (title, body).
func makeVersion1Database(at path: String, rows: [(String, String?)]) throws {
  let db = try Database(path: path, mode: .readWriteCreate)
  try NotesMigrations.migrator.migrate(db, upTo: "v1")
  for (title, body) in rows {
    try db.execute(
      "INSERT INTO notes(title, body) VALUES (?, ?)", [.text(title), body.map(DatabaseValue.text) ?? .null])
  }
}
