import Foundation

/// `notes export`: every note as a JSON array of `Note` (Codable).
public enum NotesExport {
  /// The notes as pretty-printed JSON, keys sorted:
  /// `[{"body": "", "done": false, "id": 1, "title": "Welcome"}]`.
  ///
  /// - Throws: `EncodingError` (not expected for `Note`).
  public static func json(_ notes: [Note]) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return try encoder.encode(notes)
  }

  /// Writes `json(notes)` and a newline to `path`, replacing the file
  /// atomically.
  ///
  /// - Throws: `NotesError.cannotWrite` when the file cannot be written
  ///   (a missing directory, no permission).
  public static func write(_ notes: [Note], to path: String) throws {
    let data = try json(notes) + Data("\n".utf8)
    do {
      try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw NotesError.cannotWrite(path: path, reason: (error as NSError).localizedDescription)
    }
  }

  /// Reads a file `write` made back into notes.
  ///
  /// - Throws: the file's read error, or `DecodingError` when it is not a
  ///   JSON array of notes.
  public static func read(from path: String) throws -> [Note] {
    try JSONDecoder().decode([Note].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
  }
}
