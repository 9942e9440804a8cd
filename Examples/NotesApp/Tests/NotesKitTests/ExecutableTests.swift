import Foundation
import SQLiteBridge
import Testing

/// The built `notes` executable, end to end: its seed bundle is found next
/// to it (and, when it is missing, the executable says so and exits 1
/// instead of trapping), and its output and exit status are
/// NotesCommandLine's.
@Suite("The notes executable")
struct ExecutableTests {
  /// `notes` next to the test binary (`swift test` builds it there).
  static let executable: String? = {
    guard let directory = DatabaseLocation.default.bundleDirectory else { return nil }
    let path = directory + "/notes"
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
  }()

  @Test(.enabled(if: executable != nil, "the notes executable is built next to the tests"))
  func addListDoneAndAnUnknownId() throws {
    try withTemporaryDirectory { directory throws in
      let environment = ["NOTES_DIR": directory]
      #expect(try run(["add", "From a process"], environment) == Outcome(status: 0, output: "2\n", errors: ""))
      #expect(try run(["done", "2"], environment).status == 0)
      #expect(
        try run(["list"], environment)
          == Outcome(
            status: 0, output: "ID  DONE  TITLE\n 1  [ ]   Welcome to notes\n 2  [x]   From a process\n", errors: ""))
      #expect(
        try run(["done", "9"], environment) == Outcome(status: 1, output: "", errors: "notes: no note has the id 9\n"))
      #expect(try run(["bogus"], environment).status == 2)
    }
  }

  @Test(.enabled(if: executable != nil, "the notes executable is built next to the tests"))
  func withoutItsResourceBundleItFailsSayingSoInsteadOfTrapping() throws {
    try withTemporaryDirectory { directory throws in
      // A copy of the executable alone: no resource bundle next to it.
      try FileManager.default.createDirectory(atPath: directory + "/bin", withIntermediateDirectories: false)
      try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: false)
      let copy = directory + "/bin/notes"
      try FileManager.default.copyItem(atPath: try #require(Self.executable), toPath: copy)
      let outcome = try run(["list"], ["NOTES_DIR": directory + "/data"], executable: copy)
      #expect(outcome.status == 1)
      #expect(outcome.output == "")
      #expect(
        outcome.errors.hasPrefix(
          "notes: database error: SQLite error 14: the resource bundle \"NotesApp_NotesKit\" (NotesApp_NotesKit.resources or NotesApp_NotesKit.bundle) was not found in any of: "
        ), "\(outcome.errors)")
      #expect(outcome.errors.contains(directory + "/bin"))
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/data") == [])
    }
  }

  struct Outcome: Equatable {
    var status: Int32
    var output: String
    var errors: String
  }

  /// Runs the executable; fails after 60 s instead of waiting for ever.
  private func run(_ arguments: [String], _ environment: [String: String], executable: String? = nil) throws
    -> Outcome
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(executable ?? Self.executable))
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
    // The outputs are small (well under a pipe's buffer): read after exit.
    guard exited.wait(timeout: .now() + 60) == .success else {
      process.terminate()
      Issue.record("notes \(arguments) did not exit within 60 s")
      return Outcome(status: -1, output: "", errors: "")
    }
    return Outcome(
      status: process.terminationStatus,
      output: String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
      errors: String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
  }
}
