import Foundation
import NotesKit
import SQLiteBridge
import Testing

/// The commands, run in-process through `NotesCommandLine.run` against a
/// data directory made from the bundled seed.
@Suite("Commands")
struct CommandTests {
  @Test func addPrintsTheNewIdAndListShowsEveryNoteById() throws {
    try withTemporaryDirectory { directory throws in
      let added = notes(directory, "add", "Buy milk", "--body", "oat, 2 l")
      #expect(added == CommandResult(exitCode: 0, output: "2\n"))
      #expect(notes(directory, "add", "Call mum").output == "3\n")
      let listed = notes(directory, "list")
      #expect(listed.exitCode == 0 && listed.errorOutput.isEmpty)
      #expect(
        listed.output == """
          ID  DONE  TITLE
           1  [ ]   Welcome to notes
           2  [ ]   Buy milk
           3  [ ]   Call mum

          """)
      #expect(try NotesStore(directory: directory).all()[1] == Note(id: 2, title: "Buy milk", body: "oat, 2 l"))
    }
  }

  @Test func searchFindsEveryWordAsAPrefixIgnoringCaseAndDiacriticsBestFirst() throws {
    try withTemporaryDirectory { directory throws in
      _ = notes(directory, "add", "Buy MILK")
      _ = notes(directory, "add", "Breakfast", "--body", "oat milk and coffee")
      _ = notes(directory, "add", "Über straße")
      _ = notes(directory, "add", "Unrelated")
      // The welcome note's body mentions "Buy milk" too; a title match
      // weighs most, then the shorter body.
      #expect(listedTitles(notes(directory, "search", "milk").output) == ["Buy MILK", "Breakfast", "Welcome to notes"])
      #expect(listedTitles(notes(directory, "search", "mil COFF").output) == ["Breakfast"])
      #expect(listedTitles(notes(directory, "search", "uber").output) == ["Über straße"])
      #expect(listedTitles(notes(directory, "search", "ÜBER STRASSE").output) == [])  // ß is not "ss" to unicode61
      #expect(listedTitles(notes(directory, "search", "welcome").output) == ["Welcome to notes"])
      #expect(notes(directory, "search", "nothing like it") == CommandResult(exitCode: 0, output: "no notes\n"))
      // The index follows edits: a note marked done is still found, its
      // row rewritten by update.
      _ = notes(directory, "done", "2")
      #expect(listedTitles(notes(directory, "search", "buy").output) == ["Buy MILK", "Welcome to notes"])
    }
  }

  @Test func searchTakesWhatIsTypedAsWordsNeverAsQuerySyntax() throws {
    try withTemporaryDirectory { directory throws in
      _ = notes(directory, "add", "100% sure")
      _ = notes(directory, "add", "it's done")
      _ = notes(directory, "add", "snake_case")
      _ = notes(directory, "add", "plain")
      #expect(listedTitles(notes(directory, "search", "100%").output) == ["100% sure"])
      #expect(listedTitles(notes(directory, "search", "snake_case").output) == ["snake_case"])
      #expect(listedTitles(notes(directory, "search", "\"it's\"").output) == ["it's done"])
      for noWord in ["%", "_", "'", "\"", "*", "()"] {
        #expect(notes(directory, "search", noWord) == CommandResult(exitCode: 0, output: "no notes\n"), "\(noWord)")
      }
      for hostile in [
        "' OR 1=1 --", "x'); DROP TABLE notes; --", "plain OR sure", "NEAR(plain sure)", "pla*", "^plain",
      ] {
        let found = listedTitles(notes(directory, "search", hostile).output)
        #expect(found.allSatisfy { $0 == "plain" }, "\(hostile): \(found)")
      }
      // `*` is punctuation there; "pla" is a prefix.
      #expect(listedTitles(notes(directory, "search", "pla*").output) == ["plain"])
      #expect(try NotesStore(directory: directory).all().count == 5)
    }
  }

  @Test func doneMarksTheNoteAndListShowsIt() throws {
    try withTemporaryDirectory { directory throws in
      _ = notes(directory, "add", "Buy milk")
      #expect(
        notes(directory, "done", "2") == CommandResult(exitCode: 0, output: "ID  DONE  TITLE\n 2  [x]   Buy milk\n"))
      #expect(notes(directory, "done", "2").exitCode == 0)  // again: still done
      #expect(notes(directory, "list").output.contains(" 2  [x]   Buy milk\n"))
      #expect(try NotesStore(directory: directory).all().map(\.done) == [false, true])
    }
  }

  @Test func doneOfAnUnknownIdFailsWithExitStatus1AndChangesNothing() throws {
    try withTemporaryDirectory { directory throws in
      #expect(
        notes(directory, "done", "42") == CommandResult(exitCode: 1, errorOutput: "notes: no note has the id 42\n"))
      #expect(try NotesStore(directory: directory).all().map(\.done) == [false])
      #expect(throws: NotesError.unknownNote(-7)) { try NotesStore(directory: directory).markDone(id: -7) }
    }
  }

  @Test func exportWritesEveryNoteAsJSONThatParsesBack() throws {
    try withTemporaryDirectory { directory throws in
      _ = notes(directory, "add", "Quotes \" and \\ and ünïcode", "--body", "line 1\nline 2")
      _ = notes(directory, "done", "1")
      let file = directory + "/export.json"
      #expect(notes(directory, "export", file) == CommandResult(exitCode: 0, output: "exported 2 notes to \(file)\n"))
      let exported = try NotesExport.read(from: file)
      #expect(exported == (try NotesStore(directory: directory).all()))
      try #require(exported.count == 2)
      #expect(exported.map(\.done) == [true, false])
      #expect(exported[1].body == "line 1\nline 2")
      // Plain JSON too: an array of objects with the four fields.
      let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file)))
      let objects = try #require(json as? [[String: Any]])
      try #require(objects.count == 2)
      #expect(Set(objects[0].keys) == ["id", "title", "body", "done"])
      #expect(objects[1]["title"] as? String == "Quotes \" and \\ and ünïcode")
    }
  }

  @Test func exportToAnUnwritablePlaceFailsWithExitStatus1() throws {
    try withTemporaryDirectory { directory throws in
      let result = notes(directory, "export", directory + "/no/such/dir/out.json")
      #expect(result.exitCode == 1)
      #expect(result.errorOutput.hasPrefix("notes: cannot write \(directory)/no/such/dir/out.json: "))
    }
  }

  @Test func usageErrorsExitWith2AndSayWhat() throws {
    try withTemporaryDirectory { directory throws in
      let cases: [([String], String)] = [
        ([], "no command given"),
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["add"], "add takes one TITLE"),
        (["add", "a", "b"], "add takes one TITLE, not 2 arguments"),
        (["add", "  "], "a note's title must not be empty"),
        (["add", "x", "--body"], "--body needs a value"),
        (["list", "--body", "x"], "--body is an option of add only"),
        (["list", "--verbose"], "unknown option --verbose"),
        (["done", "two"], "ID must be a whole number, not 'two'"),
        (["search", ""], "search needs non-empty WORDS"),
      ]
      for (arguments, message) in cases {
        let result = notes(directory, arguments)
        #expect(result.exitCode == 2, "\(arguments)")
        #expect(result.errorOutput.hasPrefix("notes: \(message)\nusage: notes"), "\(arguments): \(result.errorOutput)")
        #expect(result.output.isEmpty)
      }
      #expect(NotesCommandLine.run(["list", "--dir", directory + "/missing"]).exitCode == 2)
      #expect(try NotesStore(directory: directory).all().count == 1)  // nothing was added
    }
  }

  @Test func aTitleStartingWithADashFollowsDoubleDash() throws {
    try withTemporaryDirectory { directory throws in
      #expect(notes(directory, "add", "--", "--not an option").output == "2\n")
      #expect(try NotesStore(directory: directory).all().last?.title == "--not an option")
    }
  }

  @Test func theDataDirectoryComesFromDirElseNotesDir() throws {
    try withTemporaryDirectory { directory throws in
      let viaEnvironment = directory + "/env"
      let viaOption = directory + "/option"
      for path in [viaEnvironment, viaOption] {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
      }
      #expect(NotesCommandLine.run(["add", "env"], environment: ["NOTES_DIR": viaEnvironment]).exitCode == 0)
      #expect(
        NotesCommandLine.run(["add", "option", "--dir", viaOption], environment: ["NOTES_DIR": viaEnvironment])
          .exitCode == 0)
      #expect(try NotesStore(directory: viaEnvironment).all().map(\.title) == ["Welcome to notes", "env"])
      #expect(try NotesStore(directory: viaOption).all().map(\.title) == ["Welcome to notes", "option"])
    }
  }

  @Test func helpPrintsUsage() {
    #expect(NotesCommandLine.run(["--help"]) == CommandResult(exitCode: 0, output: NotesCommandLine.usage))
  }
}

/// `notes(directory, [arguments])`.
func notes(_ directory: String, _ arguments: [String]) -> CommandResult {
  NotesCommandLine.run(["--dir", directory] + arguments)
}
