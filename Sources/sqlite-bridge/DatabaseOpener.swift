import Foundation
import SQLiteBridge

/// How every command opens its database: with the key read from the global
/// option `--key-file FILE` (never a key on the command line, where other
/// users of the machine and the shell history see it), or without one; and
/// through the VFS of `--vfs NAME` with the extensions of each
/// `--extension PATH[:ENTRY]` loaded, in order (the core's
/// `Configuration.vfs` and `extensions`, which decide what fails and how: an
/// unregistered VFS is SQLite error 14, an extension that cannot be loaded
/// SQLite error 1, both exit 1).
///
/// The key is the file's contents with one trailing "\n" (or "\r\n")
/// removed. A file that cannot be read, is empty, or is not UTF-8 text is a
/// usage error (exit 2). The core decides what a key does: the default build
/// refuses it (SQLite error 21, exit 1, no file made), the SQLCipher build
/// encrypts, and a wrong key fails the open with SQLite error 26 (exit 1).
struct DatabaseOpener {
  /// The key from `--key-file`; nil without the option.
  let key: String?
  /// The VFS from `--vfs`; nil without the option.
  let vfs: String?
  /// The extensions from the `--extension` options, in their order.
  let extensions: [SQLiteExtension]

  /// Whether `--vfs` or `--extension` was given.
  var hasConnectionOptions: Bool { vfs != nil || !extensions.isEmpty }

  /// Takes `--key-file FILE`, `--vfs NAME` and every `--extension
  /// PATH[:ENTRY]` out of `arguments` and reads the key.
  init(_ arguments: inout Arguments) throws {
    vfs = try arguments.option("vfs")
    var extensions: [SQLiteExtension] = []
    while let value = try arguments.option("extension") { extensions.append(try Self.parseExtension(value)) }
    self.extensions = extensions
    guard let keyFile = try arguments.option("key-file") else {
      key = nil
      return
    }
    key = try Self.readKey(keyFile)
  }

  /// `PATH[:ENTRY]`: the text after the last ":" is the entry point when it
  /// is a C identifier (a path may hold ":" too); "PATH:" is a usage error.
  static func parseExtension(_ value: String) throws -> SQLiteExtension {
    guard !value.isEmpty else { throw UsageError("--extension needs a path") }
    guard let colon = value.lastIndex(of: ":") else { return SQLiteExtension(path: value) }
    let path = String(value[..<colon])
    let entry = String(value[value.index(after: colon)...])
    guard !entry.isEmpty else { throw UsageError("--extension \(value): the entry point after ':' is empty") }
    let letters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
    let digits = Set("0123456789")
    let isIdentifier =
      entry.first.map(letters.contains) == true && entry.allSatisfy { letters.contains($0) || digits.contains($0) }
    guard isIdentifier, !path.isEmpty else { return SQLiteExtension(path: value) }
    return SQLiteExtension(path: path, entryPoint: entry)
  }

  /// A configuration with the key, the VFS and the extensions.
  private func configured(_ base: Configuration = Configuration()) -> Configuration {
    var configuration = base
    configuration.key = key
    configuration.vfs = vfs
    configuration.extensions = extensions
    return configuration
  }

  static func readKey(_ keyFile: String) throws -> String {
    let bytes: Data
    do {
      bytes = try Data(contentsOf: URL(fileURLWithPath: keyFile, isDirectory: false))
    } catch {
      throw UsageError("cannot read the key file \(keyFile): \((error as NSError).localizedDescription)")
    }
    guard var text = String(data: bytes, encoding: .utf8) else {
      throw UsageError("the key file \(keyFile) is not UTF-8 text")
    }
    // One line ending, as an editor or `echo` leaves it; "\r\n" is one
    // Character in Swift.
    if text.hasSuffix("\r\n") || text.hasSuffix("\n") { text.removeLast() }
    guard !text.isEmpty else { throw UsageError("the key file \(keyFile) is empty") }
    return text
  }

  /// Opens the file at `path` in `mode`, with the key, VFS and extensions
  /// if there are any. `.readWrite` with them still never creates the file:
  /// the path is opened as a `file:` URI with `mode=rw` (a path that is a
  /// `file:` URI already is opened as it is, as without them).
  func open(_ path: String, mode: OpenMode) throws -> Database {
    guard key != nil || hasConnectionOptions else { return try Database(path: path, mode: mode) }
    var configuration = configured()
    switch mode {
    case .readOnly:
      configuration.readOnly = true
      return try Database(path: path, configuration: configuration)
    case .readWrite where !path.hasPrefix("file:"):
      let uri = URL(fileURLWithPath: path, isDirectory: false).absoluteString + "?mode=rw"
      return try Database(path: uri, configuration: configuration)
    default:
      return try Database(path: path, configuration: configuration)
    }
  }

  /// Opens a `DatabaseQueue` on the file at `path`, which must exist (it is
  /// opened as a `file:` URI with `mode=rw`; a `file:` URI path as it is),
  /// set up by `configuration`, with the key, VFS and extensions if there
  /// are any.
  func openQueue(_ path: String, configuration: Configuration) throws -> DatabaseQueue {
    let configuration = configured(configuration)
    let target =
      path.hasPrefix("file:") ? path : URL(fileURLWithPath: path, isDirectory: false).absoluteString + "?mode=rw"
    return try DatabaseQueue(path: target, configuration: configuration)
  }

  /// Opens the database called `name` as `Database(name:createSQL:location:)`,
  /// with the key, VFS and extensions if there are any.
  func open(name: String, createSQL: String, location: DatabaseLocation) throws -> Database {
    let configuration = configured()
    return try Database(name: name, createSQL: createSQL, location: location, configuration: configuration)
  }
}
