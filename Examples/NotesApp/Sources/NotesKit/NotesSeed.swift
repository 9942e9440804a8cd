import Foundation
import SQLiteBridge

/// Finds the bundled seed database, `Seed/notes.db` in NotesKit's
/// resources, the way the library's CLI finds its own: SwiftPM puts a
/// target's resources in a bundle next to the executable
/// (`NotesApp_NotesKit.resources` on Linux, `NotesApp_NotesKit.bundle` on
/// Apple platforms), and `DatabaseLocation.default.bundleDirectory` is the
/// executable's directory.
///
/// `Bundle.module` would find it too, but stops the process with
/// `fatalError` when the bundle is missing; this returns nil instead, and
/// the store then creates an empty database (no welcome note).
public enum NotesSeed {
  /// The resource bundle's name: `<package>_<target>`.
  static let bundleName = "NotesApp_NotesKit"

  /// The first directory holding `Seed/<NotesStore.databaseName>`, or nil.
  public static func directory() -> String? {
    var bases: [String] = []
    if let executableDirectory = DatabaseLocation.default.bundleDirectory { bases.append(executableDirectory) }
    // In a macOS test run the executable is xctest; the bundles sit next to
    // the .xctest bundle that holds this code.
    bases.append(Bundle(for: BundleMarker.self).bundleURL.deletingLastPathComponent().path)
    let candidates = bases.flatMap { base in
      [
        "\(base)/\(bundleName).resources/Seed",
        "\(base)/\(bundleName).bundle/Contents/Resources/Seed",
        "\(base)/\(bundleName).bundle/Seed",
      ]
    }
    return candidates.first { FileManager.default.fileExists(atPath: "\($0)/\(NotesStore.databaseName)") }
  }

  /// A class of this module, for `Bundle(for:)`.
  private final class BundleMarker {}
}
