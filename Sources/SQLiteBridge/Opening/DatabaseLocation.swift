import CxxStdlib
import SQLiteBridgeCore

/// Where a database opened by name lives (`documentsDirectory/name`) and
/// where its bundled seed copy is looked for on first open
/// (`bundleDirectory/name`).
public struct DatabaseLocation: Sendable, Equatable {
  /// The writable directory holding the database. It must exist.
  public var documentsDirectory: String
  /// Where a read-only seed database is looked for; nil for none (the
  /// database is then always created with its creation SQL).
  public var bundleDirectory: String?

  /// A location with the given directories.
  public init(documentsDirectory: String, bundleDirectory: String? = nil) {
    self.documentsDirectory = documentsDirectory
    self.bundleDirectory = bundleDirectory
  }

  /// On Apple platforms the app's Documents directory and the main bundle's
  /// resources; elsewhere the current working directory and the directory of
  /// the running executable (as the C++ `Location::defaults()`).
  public static var `default`: DatabaseLocation {
    let location = sqlitebridge.Location.defaults()
    let bundle = String(location.bundleDirectory)
    return DatabaseLocation(
      documentsDirectory: String(location.documentsDirectory), bundleDirectory: bundle.isEmpty ? nil : bundle)
  }

  var cxx: sqlitebridge.Location {
    var location = sqlitebridge.Location()
    location.documentsDirectory = std.string(documentsDirectory)
    location.bundleDirectory = std.string(bundleDirectory ?? "")
    return location
  }
}
