import Foundation
import SQLiteBridge
import Testing

/// `DatabaseLocation(bundle:…)` and `DatabaseLocation(resourceBundleNamed:…)`:
/// the seed directory of a real `Bundle`, SwiftPM's resource bundle found by
/// name, and `.cantOpen` (never a trap) when there is no usable directory or
/// no such bundle. The rules are the core's (interop::BundleLookup,
/// Tests/CxxTests/Opening/BundleLookupTests.cpp).
@Suite("DatabaseLocation from a bundle")
struct BundleLocationTests {
  private let seedScript = "CREATE TABLE notes(title TEXT); INSERT INTO notes VALUES ('from the bundle')"

  private func makeDirectory(_ path: String) throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  private func titles(_ database: Database) throws -> [DatabaseValue] {
    try database.rows("SELECT title FROM notes").map { $0[0] }
  }

  // MARK: init(bundle:documentsDirectory:seedName:)

  @Test func aBundlesSeedIsReadFromItsResourcesDirectory() throws {
    try withLocationDirectories { root, documents, _ in
      // A macOS-style bundle: its resources are in Contents/Resources.
      try makeDirectory(root + "/Seeds.bundle/Contents/Resources")
      let bundle = try #require(Bundle(path: root + "/Seeds.bundle"))
      let resources = try #require(bundle.resourcePath)
      #expect(resources.hasSuffix("/Seeds.bundle/Contents/Resources"))
      try makeDatabaseFile(at: resources + "/notes-seed.db", script: seedScript)

      let location = try DatabaseLocation(bundle: bundle, documentsDirectory: documents, seedName: "notes-seed.db")
      #expect(location.bundleDirectory == resources)
      #expect(location.documentsDirectory == documents)
      #expect(location.seedName == "notes-seed.db")
      let database = try Database(name: "notes.db", createSQL: "CREATE TABLE created(x)", location: location)
      #expect(try titles(database) == ["from the bundle"])
      #expect(try directoryContents(documents) == ["notes.db"])
      #expect(try directoryContents(resources) == ["notes-seed.db"])
    }
  }

  @Test func aFlatBundlesSeedIsReadFromTheBundlesDirectory() throws {
    try withLocationDirectories { _, documents, flat in
      try makeDatabaseFile(at: flat + "/notes.db", script: seedScript)
      let bundle = try #require(Bundle(path: flat))
      let location = try DatabaseLocation(bundle: bundle, documentsDirectory: documents)
      #expect(location.bundleDirectory == bundle.resourcePath ?? bundle.bundlePath)
      #expect(location.seedName == nil)
      let database = try Database(name: "notes.db", location: location)
      #expect(try titles(database) == ["from the bundle"])
    }
  }

  @Test func aBundleWhoseDirectoryIsGoneThrowsCantOpenNamingIt() throws {
    try withLocationDirectories { root, documents, _ in
      try makeDirectory(root + "/Gone.bundle")
      let bundle = try #require(Bundle(path: root + "/Gone.bundle"))
      try FileManager.default.removeItem(atPath: root + "/Gone.bundle")
      let error = try #require(throws: DatabaseError.self) {
        _ = try DatabaseLocation(bundle: bundle, documentsDirectory: documents)
      }
      #expect(error.resultCode == .cantOpen)
      #expect(error.extendedResultCode == .cantOpen)
      #expect(error.sql == nil)
      #expect(error.message.hasPrefix("the bundle \"\(bundle.bundlePath)\" has no usable directory for seed databases"))
      #expect(try directoryContents(root) == ["bundle", "documents"])
      #expect(try directoryContents(documents).isEmpty)
    }
  }

  // MARK: init(resourceBundleNamed:documentsDirectory:seedName:searchDirectories:)

  @Test func aResourceBundleIsFoundInAGivenSearchDirectory() throws {
    try withLocationDirectories { root, documents, _ in
      try makeDirectory(root + "/empty")
      let resources = root + "/build/MyApp_MyTarget.resources"
      try makeDirectory(resources)
      try makeDatabaseFile(at: resources + "/notes-seed.db", script: seedScript)

      let location = try DatabaseLocation(
        resourceBundleNamed: "MyApp_MyTarget", documentsDirectory: documents, seedName: "notes-seed.db",
        searchDirectories: [root + "/empty", root + "/build"])
      #expect(location.bundleDirectory == resources)
      #expect(location.seedName == "notes-seed.db")
      let database = try Database(name: "notes.db", location: location)
      #expect(try titles(database) == ["from the bundle"])
      #expect(try directoryContents(documents) == ["notes.db"])
      #expect(try directoryContents(resources) == ["notes-seed.db"])
    }
  }

  @Test func anAppleResourceBundleIsFoundToo() throws {
    try withTemporaryDirectory { root in
      try makeDirectory(root + "/MyApp_MyTarget.bundle/Contents/Resources")
      let location = try DatabaseLocation(
        resourceBundleNamed: "MyApp_MyTarget", documentsDirectory: root, searchDirectories: [root])
      #expect(location.bundleDirectory == root + "/MyApp_MyTarget.bundle/Contents/Resources")
    }
  }

  @Test func aMissingResourceBundleThrowsCantOpenNamingItAndEveryPlaceLookedIn() throws {
    try withLocationDirectories { root, documents, bundle in
      let missing = root + "/missing"
      let error = try #require(throws: DatabaseError.self) {
        _ = try DatabaseLocation(
          resourceBundleNamed: "MyApp_Absent", documentsDirectory: documents, seedName: "notes-seed.db",
          searchDirectories: [bundle, missing, bundle])
      }
      #expect(error.resultCode == .cantOpen)
      #expect(error.extendedResultCode == .cantOpen)
      #expect(
        error.message
          == "the resource bundle \"MyApp_Absent\" (MyApp_Absent.resources or MyApp_Absent.bundle) was not found in any of: \(bundle), \(missing)"
      )
      #expect(try directoryContents(root) == ["bundle", "documents"])
    }
  }

  @Test func noSearchDirectoryThrowsCantOpen() throws {
    let error = try #require(throws: DatabaseError.self) {
      _ = try DatabaseLocation(resourceBundleNamed: "MyApp_MyTarget", documentsDirectory: "/x", searchDirectories: [])
    }
    #expect(error.resultCode == .cantOpen)
    #expect(error.message == "the resource bundle \"MyApp_MyTarget\" was not found: there was no directory to look in")
  }

  @Test(arguments: ["", "../MyApp_MyTarget", "a/b", "a\u{0}b"])
  func anInvalidResourceBundleNameThrowsCantOpen(_ name: String) throws {
    try withTemporaryDirectory { root in
      let error = try #require(throws: DatabaseError.self) {
        _ = try DatabaseLocation(resourceBundleNamed: name, documentsDirectory: root, searchDirectories: [root])
      }
      #expect(error.resultCode == .cantOpen)
      #expect(error.message.hasPrefix("invalid resource bundle name"))
    }
  }

  @Test func theDefaultSearchDirectoriesAreNextToTheExecutable() throws {
    let places = DatabaseLocation.resourceBundleSearchDirectories
    #expect(Set(places).count == places.count, "each place once")
    #expect(places.first == Bundle.main.bundleURL.path)
    let executable = try #require(Bundle.main.executableURL)
    #expect(places.contains(executable.deletingLastPathComponent().path))
  }

  /// The CLI's resource bundle, which SwiftPM builds next to the test
  /// program (`swift build --build-tests` builds every target); nil when it
  /// is not there (a build of the tests alone).
  static let cliBundle: String? = {
    let directory = Bundle.main.executableURL?.deletingLastPathComponent().path ?? ""
    let candidates = ["SQLiteBridge_sqlite-bridge.resources", "SQLiteBridge_sqlite-bridge.bundle"]
    return candidates.map { directory + "/" + $0 }.first { FileManager.default.fileExists(atPath: $0) }
  }()

  @Test(.enabled(if: cliBundle != nil, "the CLI's resource bundle is built next to the tests"))
  func theDefaultSearchFindsAResourceBundleNextToTheExecutable() throws {
    try withTemporaryDirectory { documents in
      let location = try DatabaseLocation(
        resourceBundleNamed: "SQLiteBridge_sqlite-bridge", documentsDirectory: documents)
      let bundle = try #require(location.bundleDirectory)
      #expect(bundle.hasPrefix(try #require(Self.cliBundle)))
      // The CLI's seed, copied by name.
      let database = try Database(name: "notes.db", location: location)
      #expect(try tableNames(database).contains("notes"))
    }
  }
}
