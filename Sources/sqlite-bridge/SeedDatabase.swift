import Foundation
import SQLiteBridge

/// Finds the directory holding the CLI's bundled seed database.
enum SeedDatabase {
  /// The first directory that holds `name`: SwiftPM's resource bundle next
  /// to the executable, or the executable's own directory (CMake builds and
  /// installs put the seed there). Nil when none does.
  static func directory(containing name: String) -> String? {
    guard let executableDirectory = DatabaseLocation.default.bundleDirectory else { return nil }
    let candidates = [
      "\(executableDirectory)/SQLiteBridge_sqlite-bridge.resources",
      "\(executableDirectory)/SQLiteBridge_sqlite-bridge.bundle/Contents/Resources",
      "\(executableDirectory)/SQLiteBridge_sqlite-bridge.bundle",
      executableDirectory,
    ]
    return candidates.first { FileManager.default.fileExists(atPath: "\($0)/\(name)") }
  }
}
