import Foundation
import SQLiteBridge
import SQLiteBridgeCore
import Testing

/// `Database.sqliteVersion`, `compileOptions()` and `sqliteHandle` from
/// Swift. (LibraryInfoTests.cpp checks the same in C++.)
@Suite("Library info")
struct LibraryInfoTests {
  @Test func sqliteVersionIsTheLibrarys() throws {
    #expect(Database.sqliteVersion == String(cString: sqlite3_libversion()))
    #expect(try scalar(memoryDatabase(), "SELECT sqlite_version()") == .text(Database.sqliteVersion))
  }

  @Test func compileOptionsAreThoseThePragmaLists() throws {
    let options = Database.compileOptions()
    #expect(!options.isEmpty)
    #expect(options.contains { $0.hasPrefix("THREADSAFE=") })
    let listed = try memoryDatabase().rows("PRAGMA compile_options").map { $0[0] }
    #expect(listed == options.map { DatabaseValue.text($0) })
  }

  @Test func sqliteHandleIsTheOpenConnectionsAndNilOnceClosed() throws {
    let database = try memoryDatabase()
    let handle = try #require(database.sqliteHandle)
    #expect(sqlite3_get_autocommit(handle) == 1)
    try database.execute("BEGIN")
    #expect(sqlite3_get_autocommit(handle) == 0)
    try database.execute("ROLLBACK")
    database.close()
    #expect(database.sqliteHandle == nil)
  }
}
