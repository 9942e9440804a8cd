import Foundation
import SQLiteBridge

/// The `notes` command line, callable in-process: parses the arguments,
/// runs one command against the store and returns what to print and the
/// exit status (it never exits or prints itself).
///
///     notes [--dir DIR] add TITLE [--body TEXT]   prints the new note's id
///     notes [--dir DIR] list                      id, done mark, title; by id
///     notes [--dir DIR] search WORDS              notes holding every word (or one starting with it), best first
///     notes [--dir DIR] done ID                   marks the note done
///     notes [--dir DIR] export FILE.json          every note as a JSON array
///
/// The data directory is `--dir`, else the environment's `NOTES_DIR`, else
/// the library's default (`DatabaseLocation.default`: the working directory
/// outside Apple platforms). Options may come anywhere; after `--` every
/// argument is positional (a title starting with `--`).
public enum NotesCommandLine {
  public static let usage = """
    usage: notes [--dir DIR] add TITLE [--body TEXT]
           notes [--dir DIR] list
           notes [--dir DIR] search WORDS
           notes [--dir DIR] done ID
           notes [--dir DIR] export FILE.json
    The data directory (holding notes.db) is --dir, else $NOTES_DIR, else the working directory.

    """

  /// Runs `arguments` (without the program name). Exit status 0 on
  /// success, 1 when the command fails (an unknown id, a database or file
  /// error), 2 for a usage error (also a blank title); the error output
  /// then holds one line starting with "notes: ".
  public static func run(_ arguments: [String], environment: [String: String] = [:]) -> CommandResult {
    do {
      let parsed = try ParsedArguments(arguments)
      if parsed.wantsHelp { return CommandResult(exitCode: 0, output: usage) }
      return try execute(parsed, directory: dataDirectory(parsed, environment))
    } catch let error as NotesError {
      switch error {
      case .usage, .blankTitle:
        return CommandResult(exitCode: 2, errorOutput: "notes: \(error)\n\(usage)")
      case .unknownNote, .cannotWrite:
        return CommandResult(exitCode: 1, errorOutput: "notes: \(error)\n")
      }
    } catch let error as DatabaseError {
      return CommandResult(exitCode: 1, errorOutput: "notes: database error: \(error)\n")
    } catch {
      return CommandResult(exitCode: 1, errorOutput: "notes: \(error)\n")
    }
  }

  /// `--dir`, else `NOTES_DIR` when set and not empty, else the library's
  /// default documents directory.
  static func dataDirectory(_ parsed: ParsedArguments, _ environment: [String: String]) -> String {
    if let directory = parsed.directory { return directory }
    if let directory = environment["NOTES_DIR"], !directory.isEmpty { return directory }
    return DatabaseLocation.default.documentsDirectory
  }

  private static func execute(_ parsed: ParsedArguments, directory: String) throws -> CommandResult {
    guard let command = parsed.positional.first else { throw NotesError.usage("no command given") }
    let operands = Array(parsed.positional.dropFirst())
    if parsed.body != nil && command != "add" { throw NotesError.usage("--body is an option of add only") }
    switch command {
    case "add":
      let title = try single(operands, "add", "TITLE")
      let note = try NotesStore(directory: directory).add(title: title, body: parsed.body ?? "")
      return CommandResult(exitCode: 0, output: "\(note.id ?? 0)\n")
    case "list":
      guard operands.isEmpty else { throw NotesError.usage("list takes no arguments") }
      return CommandResult(exitCode: 0, output: NoteTable.render(try NotesStore(directory: directory).all()))
    case "search":
      let words = try single(operands, "search", "WORDS")
      guard !words.isEmpty else { throw NotesError.usage("search needs non-empty WORDS") }
      return CommandResult(exitCode: 0, output: NoteTable.render(try NotesStore(directory: directory).search(words)))
    case "done":
      let text = try single(operands, "done", "ID")
      guard let id = Int64(text) else { throw NotesError.usage("ID must be a whole number, not '\(text)'") }
      let note = try NotesStore(directory: directory).markDone(id: id)
      return CommandResult(exitCode: 0, output: NoteTable.render([note]))
    case "export":
      let path = try single(operands, "export", "FILE.json")
      let notes = try NotesStore(directory: directory).all()
      try NotesExport.write(notes, to: path)
      return CommandResult(exitCode: 0, output: "exported \(notes.count) notes to \(path)\n")
    default:
      throw NotesError.usage("unknown command '\(command)'")
    }
  }

  /// The one operand `command` takes.
  private static func single(_ operands: [String], _ command: String, _ name: String) throws -> String {
    guard operands.count == 1 else {
      throw NotesError.usage(
        "\(command) takes one \(name)\(operands.isEmpty ? "" : ", not \(operands.count) arguments")")
    }
    return operands[0]
  }
}

/// The options (`--dir`, `--body`, `--help`) and the positional arguments.
struct ParsedArguments {
  var directory: String?
  var body: String?
  var wantsHelp = false
  var positional: [String] = []

  /// - Throws: `NotesError.usage` for an unknown option, an option without
  ///   its value, or an option given twice.
  init(_ arguments: [String]) throws {
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--":
        positional += remaining
        remaining = []
      case "-h", "--help":
        wantsHelp = true
      case "--dir":
        guard directory == nil else { throw NotesError.usage("--dir given twice") }
        directory = try Self.value(of: argument, &remaining)
      case "--body":
        guard body == nil else { throw NotesError.usage("--body given twice") }
        body = try Self.value(of: argument, &remaining)
      default:
        if argument.hasPrefix("-") && argument.count > 1 { throw NotesError.usage("unknown option \(argument)") }
        positional.append(argument)
      }
    }
  }

  private static func value(of option: String, _ remaining: inout ArraySlice<String>) throws -> String {
    guard let value = remaining.popFirst() else { throw NotesError.usage("\(option) needs a value") }
    return value
  }
}
