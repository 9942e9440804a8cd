import CxxStdlib
import Foundation
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// Where a database opened by name lives (`documentsDirectory/name`), where
/// its bundled seed copy is looked for on first open
/// (`bundleDirectory/seedName`), and under which name.
public struct DatabaseLocation: Sendable, Equatable {
  /// The writable directory holding the database. It must exist.
  public var documentsDirectory: String
  /// Where a read-only seed database is looked for; nil for none (the
  /// database is then always created with its creation SQL).
  public var bundleDirectory: String?
  /// The seed's file name in `bundleDirectory`; nil (or empty) for the
  /// database's own name. On first open `bundleDirectory/seedName` is copied
  /// to `documentsDirectory/name` (atomically, as a seed of the database's
  /// own name is); without such a file the database is created with its
  /// creation SQL.
  ///
  /// A seed name obeys the rules of a database name (a file name directly
  /// inside the directory: not `.` or `..`, no `/`, `\` or NUL, at most 247
  /// bytes of UTF-8, not ending in `-journal`, `-wal` or `-shm`, not
  /// starting with `.sqlitebridge-`): opening by name with an invalid one
  /// throws `DatabaseError` with `.cantOpen` ("invalid seed name …") before
  /// anything is read or made, whether or not a copy would be needed.
  /// `Database.removeDatabase(name:location:)` ignores it.
  public var seedName: String?

  /// A location with the given directories and seed name (nil: the
  /// database's own name). Checks nothing: opening by name does.
  public init(documentsDirectory: String, bundleDirectory: String? = nil, seedName: String? = nil) {
    self.documentsDirectory = documentsDirectory
    self.bundleDirectory = bundleDirectory
    self.seedName = seedName
  }

  /// A location whose seed is looked for in `bundle`: in its resources
  /// directory (`bundle.resourcePath`), or in the bundle's own directory
  /// (`bundlePath`) when that is not a directory (as for an executable's
  /// flat bundle outside Apple platforms). Unlike `Bundle.module`, which
  /// stops the process when SwiftPM's resource bundle is missing, this
  /// throws.
  ///
  /// - Throws: `DatabaseError` with `.cantOpen` and a message naming the
  ///   bundle and its paths when neither is an existing directory (a bundle
  ///   whose directory was moved or removed since it was loaded).
  public init(bundle: Bundle, documentsDirectory: String, seedName: String? = nil) throws {
    var directory = std.string()
    var error = sqlitebridge.Error()
    guard
      sqlitebridge.interop.BundleLookup.bundleDirectory(
        std.string(bundle.bundlePath), std.string(bundle.resourcePath ?? ""), &directory, &error)
    else { throw DatabaseError(error) }
    self.init(documentsDirectory: documentsDirectory, bundleDirectory: String(directory), seedName: seedName)
  }

  /// A location whose seed is looked for in SwiftPM's resource bundle
  /// `name` (`<package>_<target>`, such as `MyApp_MyTarget` for the
  /// resources of target MyTarget in package MyApp): `<name>.resources` on
  /// Linux, `<name>.bundle` (its `Contents/Resources` on macOS) on Apple
  /// platforms, looked for in each of `searchDirectories` in order, by
  /// default ``resourceBundleSearchDirectories`` (next to the executable).
  /// The seed is then `<resource directory>/<seedName>`: resources that a
  /// target lists with `.copy("file")` sit there directly.
  ///
  /// Unlike `Bundle.module`, which stops the process when the bundle is
  /// missing (a moved executable, an installer that left the bundle out),
  /// this throws, so that an app can say so or open without a seed.
  ///
  /// - Throws: `DatabaseError` with `.cantOpen` when no search directory
  ///   holds the bundle (the message names the bundle and every directory
  ///   looked in), or when `name` is empty or holds `/` or NUL.
  public init(
    resourceBundleNamed name: String, documentsDirectory: String, seedName: String? = nil,
    searchDirectories: [String]? = nil
  ) throws {
    var places = sqlitebridge.interop.StringList()
    for place in searchDirectories ?? Self.resourceBundleSearchDirectories { places.push_back(std.string(place)) }
    var directory = std.string()
    var error = sqlitebridge.Error()
    guard sqlitebridge.interop.BundleLookup.findResourceBundle(std.string(name), places, &directory, &error) else {
      throw DatabaseError(error)
    }
    self.init(documentsDirectory: documentsDirectory, bundleDirectory: String(directory), seedName: seedName)
  }

  /// Where `init(resourceBundleNamed:documentsDirectory:seedName:searchDirectories:)`
  /// looks by default, in order (each once): the main bundle's directory
  /// (`Bundle.main.bundleURL`), the running executable's directory and the
  /// main bundle's resources directory (`Bundle.main.resourceURL`). SwiftPM
  /// puts resource bundles next to the executable it builds; an app bundle
  /// on Apple platforms holds them in its resources. Add a directory to
  /// look in more places (a test bundle's, say).
  public static var resourceBundleSearchDirectories: [String] {
    let main = Bundle.main
    let urls = [main.bundleURL, main.executableURL?.deletingLastPathComponent(), main.resourceURL]
    var places: [String] = []
    for case let url? in urls where !places.contains(url.path) { places.append(url.path) }
    return places
  }

  /// On Apple platforms the app's Documents directory and the main bundle's
  /// resources; elsewhere the current working directory and the directory of
  /// the running executable (as the C++ `Location::defaults()`). No seed
  /// name: a seed carries the database's own name.
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
    location.seedName = std.string(seedName ?? "")
    return location
  }
}
