/// What a notes command can get wrong, besides the library's `DatabaseError`.
public enum NotesError: Error, Equatable, CustomStringConvertible {
  /// The command line is wrong (exit status 2); the text says how.
  case usage(String)
  /// `done` named an id no note has (exit status 1).
  case unknownNote(Int64)
  /// A note's title is empty or only whitespace (exit status 2).
  case blankTitle
  /// The export file could not be written (exit status 1).
  case cannotWrite(path: String, reason: String)

  public var description: String {
    switch self {
    case .usage(let text): return text
    case .unknownNote(let id): return "no note has the id \(id)"
    case .blankTitle: return "a note's title must not be empty"
    case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
    }
  }
}
