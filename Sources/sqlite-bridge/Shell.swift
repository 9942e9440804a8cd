import Foundation
import SQLiteBridge

/// The `shell` command's read-run-print loop, on one open database.
///
/// Lines are read from stdin until EOF or `.quit`. SQL collects until it
/// ends a statement by SQLite's rule (`Database.isCompleteStatement`): a statement may
/// span lines, and a `;` inside a string, quoted name, comment or trigger
/// body does not end it. Each statement then runs on its own, in order, and
/// its rows print in the current mode; statements that return no columns
/// (INSERT, CREATE …) print nothing. At EOF an unfinished statement is run
/// as it is (SQLite then says what is wrong with it, or runs it when only
/// the `;` was missing). A line starting with `.` when no statement is
/// unfinished is a dot command (`ShellDotCommand`).
///
/// A failing statement or dot command prints `error: …` (with the SQLite
/// result code) on stderr, counts in `failures`, and the shell goes on with
/// the next one, as sqlite3 does without `-bail`. Prompts are written only
/// when `interactive` (stdin is a terminal).
final class Shell {
  let session: any ShellSession
  var mode: RowFormat
  let interactive: Bool
  /// How many statements and dot commands failed so far.
  private(set) var failures = 0
  /// The lines of a statement not yet ended.
  private var pending = ""

  static let prompt = "sqlite-bridge> "
  static let continuationPrompt = "          ...> "

  init(session: any ShellSession, mode: RowFormat, interactive: Bool) {
    self.session = session
    self.mode = mode
    self.interactive = interactive
  }

  /// Reads and runs stdin to its end or to `.quit`.
  func run() {
    while true {
      if interactive { write(pending.isEmpty ? Self.prompt : Self.continuationPrompt) }
      guard let line = readLine(strippingNewline: false) else { break }
      if pending.isEmpty, let command = ShellDotCommand(line) {
        do {
          if try command.run(in: self) == .quit { return }
        } catch {
          fail(error)
        }
        continue
      }
      pending += line
      if pending.allSatisfy(\.isWhitespace) {
        pending = ""
      } else if Database.isCompleteStatement(pending) {
        runSQL(pending)
        pending = ""
      }
    }
    if interactive { write("\n") }
    if !pending.isEmpty { runSQL(pending) }
  }

  /// Runs every statement of `text` in order, each prepared after the one
  /// before it ran (so a script may use what it just created); a failing
  /// one is reported and the rest still run.
  private func runSQL(_ text: String) {
    let pieces: [String]
    do {
      let (statements, rest) = try Database.splitStatements(text)
      pieces = statements + [rest]
    } catch {
      fail(error)
      return
    }
    for piece in pieces {
      do {
        // One statement per piece at most; none for filler such as ";".
        for result in try session.run(piece) { printRows(mode.render(columns: result.columns, rows: result.rows)) }
      } catch {
        fail(error)
      }
    }
  }

  /// Prints rendered rows: CSV records end with CRLF already.
  func printRows(_ text: String) {
    write(mode == .csv ? text : text + "\n")
  }

  /// Writes `text` to stdout at once (so a prompt shows before input is read,
  /// and output never trails an error printed after it).
  func write(_ text: String) {
    print(text, terminator: "")
    fflush(nil)  // every C output stream; stdout is the one print buffers
  }

  /// Reports `error` on stderr and counts it.
  func fail(_ error: Error) {
    failures += 1
    switch error {
    case let usage as UsageError: CommandLineTool.printError("error: \(usage.message)")
    default: CommandLineTool.printError("error: \(error)")
    }
  }
}
