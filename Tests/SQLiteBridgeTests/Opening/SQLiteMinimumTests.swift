import CxxStdlib
import SQLiteBridge
import SQLiteBridgeCore
import SQLiteBridgeCore.Testing
import Testing

/// The oldest SQLite the library runs on, 3.37.0, from Swift: an older
/// loaded library fails every open with an error naming both versions. The
/// library this suite runs on is what it is, so the refusal is tested on
/// version numbers, through the check every open makes. (SQLiteMinimumTests.cpp
/// checks the same in C++.)
@Suite("SQLite minimum")
struct SQLiteMinimumTests {
  private func problem(_ versionNumber: Int32) -> String {
    var message = std.string()
    #expect(sqlitebridge.interop.OpeningTesting.sqliteVersionProblem(versionNumber, &message))
    return String(message)
  }

  @Test func anOlderSQLiteIsRefusedNamingBothVersions() {
    let message = problem(3_036_000)
    #expect(
      message.hasPrefix("SQLiteBridge needs SQLite 3.37.0 or newer, but the SQLite library loaded is 3.36.0 "),
      "\(message)")
    #expect(message.contains("(compiled with sqlite3.h "), "\(message)")
  }

  @Test func theMinimumAndNewerAreAccepted() {
    #expect(problem(3_037_000) == "")
    #expect(problem(3_053_004) == "")
    #expect(problem(sqlite3_libversion_number()) == "")
  }

  @Test func theSQLiteThisSuiteRunsOnIsNewEnoughAndOpens() throws {
    #expect(sqlite3_libversion_number() >= 3_037_000)
    let database = try Database(path: ":memory:")
    #expect(try scalar(database, "SELECT 1") == .integer(1))
  }
}
