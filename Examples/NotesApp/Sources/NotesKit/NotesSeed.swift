import Foundation
import SQLiteBridge

/// Where the bundled seed database is: `notes-seed.db` at the top of
/// NotesKit's SwiftPM resource bundle (`NotesApp_NotesKit.resources` on
/// Linux, `NotesApp_NotesKit.bundle` on Apple platforms, next to the
/// executable). It carries a name of its own, not the database's
/// (`NotesStore.databaseName`): the location's `seedName` tells the library
/// to copy it to `<data directory>/notes.db` on first open.
///
/// The bundle is found with `DatabaseLocation(resourceBundleNamed:…)`,
/// which throws `DatabaseError` with `.cantOpen`, naming the bundle and every
/// directory it looked in, where `Bundle.module` would stop the process.
public enum NotesSeed {
  /// The resource bundle's name: `<package>_<target>`.
  public static let resourceBundleName = "NotesApp_NotesKit"
  /// The seed's file name in the bundle (`Seed/notes-seed.db` in the
  /// sources; Package.swift copies it to the bundle's top).
  public static let seedName = "notes-seed.db"

  /// Where the bundle is looked for: next to the executable (the library's
  /// `DatabaseLocation.resourceBundleSearchDirectories`) and, for a macOS
  /// test run (whose executable is xctest), next to the `.xctest` bundle
  /// that holds this code.
  public static var searchDirectories: [String] {
    DatabaseLocation.resourceBundleSearchDirectories + [
      Bundle(for: BundleMarker.self).bundleURL.deletingLastPathComponent().path
    ]
  }

  /// The location of the notes database in `directory`, its seed
  /// `seedName` in the resource bundle found in `searchDirectories`.
  ///
  /// - Throws: `DatabaseError` with `.cantOpen` when no search directory
  ///   holds the bundle (the message names it and every directory looked in).
  public static func location(
    dataDirectory directory: String, searchDirectories: [String] = NotesSeed.searchDirectories
  )
    throws -> DatabaseLocation
  {
    try DatabaseLocation(
      resourceBundleNamed: resourceBundleName, documentsDirectory: directory, seedName: seedName,
      searchDirectories: searchDirectories)
  }

  /// A class of this module, for `Bundle(for:)`.
  private final class BundleMarker {}
}
