import Foundation
import SQLiteBridge

/// Where the CLI's bundled seed database is looked for.
enum SeedDatabase {
  /// SwiftPM's resource bundle of this target (`<package>_<target>`).
  static let resourceBundleName = "SQLiteBridge_sqlite-bridge"

  /// The location of a database in `documentsDirectory` whose seed is
  /// looked for in SwiftPM's resource bundle next to the executable, found
  /// by `DatabaseLocation(resourceBundleNamed:…)` (which throws instead of
  /// trapping as `Bundle.module` does when the bundle is missing), else in
  /// the executable's own directory, where CMake builds and installs put the
  /// seed (`DatabaseLocation.default`'s bundle directory).
  static func location(documentsDirectory: String) -> DatabaseLocation {
    if let location = try? DatabaseLocation(
      resourceBundleNamed: resourceBundleName, documentsDirectory: documentsDirectory)
    {
      return location
    }
    return DatabaseLocation(
      documentsDirectory: documentsDirectory, bundleDirectory: DatabaseLocation.default.bundleDirectory)
  }

  /// The directory holding the seed `name` at `location`, or nil when there
  /// is none (opening by name then creates the database).
  static func directory(containing name: String, at location: DatabaseLocation) -> String? {
    guard let directory = location.bundleDirectory else { return nil }
    return FileManager.default.fileExists(atPath: "\(directory)/\(location.seedName ?? name)") ? directory : nil
  }
}
