import Foundation
import SQLiteBridge

/// How every command opens its database: with the key read from the global
/// option `--key-file FILE` (never a key on the command line, where other
/// users of the machine and the shell history see it), or without one.
///
/// The key is the file's contents with one trailing "\n" (or "\r\n")
/// removed. A file that cannot be read, is empty, or is not UTF-8 text is a
/// usage error (exit 2). The core decides what a key does: the default build
/// refuses it (SQLite error 21, exit 1, no file made), the SQLCipher build
/// encrypts, and a wrong key fails the open with SQLite error 26 (exit 1).
struct DatabaseOpener {
  /// The key from `--key-file`; nil without the option.
  let key: String?

  /// Takes `--key-file FILE` out of `arguments` and reads the key.
  init(_ arguments: inout Arguments) throws {
    guard let keyFile = try arguments.option("key-file") else {
      key = nil
      return
    }
    key = try Self.readKey(keyFile)
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

  /// Opens the file at `path` in `mode`, with the key if there is one.
  /// `.readWrite` with a key still never creates the file: the path is
  /// opened as a `file:` URI with `mode=rw` (a path that is a `file:` URI
  /// already is opened as it is, as without a key).
  func open(_ path: String, mode: OpenMode) throws -> Database {
    guard let key else { return try Database(path: path, mode: mode) }
    var configuration = Configuration()
    configuration.key = key
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
  /// set up by `configuration`, with the key if there is one.
  func openQueue(_ path: String, configuration: Configuration) throws -> DatabaseQueue {
    var configuration = configuration
    configuration.key = key
    let target =
      path.hasPrefix("file:") ? path : URL(fileURLWithPath: path, isDirectory: false).absoluteString + "?mode=rw"
    return try DatabaseQueue(path: target, configuration: configuration)
  }

  /// Opens the database called `name` as `Database(name:createSQL:location:)`,
  /// with the key if there is one.
  func open(name: String, createSQL: String, location: DatabaseLocation) throws -> Database {
    var configuration = Configuration()
    configuration.key = key
    return try Database(name: name, createSQL: createSQL, location: location, configuration: configuration)
  }
}
