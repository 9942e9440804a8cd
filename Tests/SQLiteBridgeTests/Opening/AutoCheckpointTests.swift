import Foundation
import SQLiteBridge
import Testing

/// `Configuration.autoCheckpointPages` from Swift (issue 27): nil and -1
/// leave SQLite's default (1000), 0 turns automatic checkpoints off, a
/// positive number sets `PRAGMA wal_autocheckpoint`, any other negative
/// number throws `.misuse` before any file is made. (AutoCheckpointTests.cpp
/// checks the same in C++, with what it does to the WAL's growth.)
@Suite("Automatic checkpoints")
struct AutoCheckpointTests {
  private func withAutoCheckpoint(_ pages: Int?) -> Configuration {
    var configuration = Configuration()
    configuration.autoCheckpointPages = pages
    return configuration
  }

  @Test func nilAndMinusOneLeaveSQLitesDefault() throws {
    #expect(Configuration().autoCheckpointPages == nil)
    try withTemporaryDirectory { directory in
      for pages in [nil, -1] as [Int?] {
        let database = try Database(path: directory + "/a.db", configuration: withAutoCheckpoint(pages))
        #expect(try scalar(database, "PRAGMA wal_autocheckpoint") == .integer(1000))
      }
    }
  }

  @Test(arguments: [0, 1, 7, 5000])
  func zeroAndPositiveValuesAreSetAtOpen(pages: Int) throws {
    try withTemporaryDirectory { directory in
      let database = try Database(path: directory + "/a.db", configuration: withAutoCheckpoint(pages))
      #expect(try scalar(database, "PRAGMA wal_autocheckpoint") == .integer(Int64(pages)))
      let queue = try DatabaseQueue(path: directory + "/a.db", configuration: withAutoCheckpoint(pages))
      #expect(try queue.read { try scalar($0, "PRAGMA wal_autocheckpoint") } == .integer(Int64(pages)))
    }
  }

  @Test(arguments: [-2, -1000, Int.min])
  func otherNegativeValuesThrowMisuseBeforeAnyFileIsMade(pages: Int) throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/a.db"
      let error = databaseError { _ = try Database(path: path, configuration: withAutoCheckpoint(pages)) }
      #expect(error?.resultCode == .misuse)
      #expect(error?.message.contains("autoCheckpointPages") == true, "\(String(describing: error))")
      #expect(!fileExists(path))
    }
  }
}
