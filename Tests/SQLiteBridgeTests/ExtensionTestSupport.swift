import Foundation
import Testing

/// The loadable extension of `Tests/Fixtures/extension/test_extension.c`,
/// compiled once per test process (`cc -shared -fPIC`) into a temporary
/// folder as `test_extension.so`, so that SQLite's default entry point rule
/// finds its `sqlite3_testextension_init`. Its default entry point registers
/// `bridge_ext_answer()` (42) and `bridge_ext_vfs()` (the name of the VFS
/// the main database was opened through); see the source for the others.
enum TestExtension {
  /// The entry point whose init fails with "bridge_ext refuses to load".
  static let failingEntryPoint = "sqlite3_bridgeextfail_init"
  /// The entry point that registers the VFS `bridge-ext-vfs` (the default
  /// VFS under another name) and both functions.
  static let vfsEntryPoint = "sqlite3_bridgeextvfs_init"

  /// The built extension's path, or why it could not be built.
  static let build: Result<String, BuildFailure> = compile()

  /// The built extension's path; nil when no C compiler was found or the
  /// build failed (the tests that need it are then disabled, saying why).
  static var path: String? { try? build.get() }

  /// Why the tests that load the extension are disabled (empty when they
  /// are not).
  static var unavailableReason: Comment {
    switch build {
    case .success: return ""
    case .failure(let failure): return Comment(rawValue: failure.reason)
    }
  }

  private static func compile() -> Result<String, BuildFailure> {
    buildLoadableExtension(
      source: "extension/test_extension.c", fileName: "test_extension.so", compilers: ["cc", "clang", "gcc"],
      toolchainCompiler: "/opt/swift/usr/bin/clang", arguments: [])
  }
}

/// Why a test extension could not be built.
struct BuildFailure: Error {
  let reason: String
}

/// Compiles the fixture `source` (a path in `Tests/Fixtures/`) with the first
/// of `compilers` found on `PATH` (else `toolchainCompiler`) into a shared
/// library called `fileName` in a new temporary folder; its path, or why it
/// could not be built.
func buildLoadableExtension(
  source: String, fileName: String, compilers: [String], toolchainCompiler: String, arguments: [String]
) -> Result<String, BuildFailure> {
  let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
  let found =
    compilers.lazy.flatMap { name in directories.lazy.map { $0 + "/" + name } }
    .first { FileManager.default.isExecutableFile(atPath: $0) }
    ?? (FileManager.default.isExecutableFile(atPath: toolchainCompiler) ? toolchainCompiler : nil)
  guard let compiler = found else {
    return .failure(
      BuildFailure(
        reason: "no compiler (\(compilers.joined(separator: ", ")) on PATH, or \(toolchainCompiler)) to build "
          + "Tests/Fixtures/\(source)"))
  }
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("SQLiteBridgeTests-extension-\(UUID().uuidString)", isDirectory: true).path
  do {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
  } catch {
    return .failure(BuildFailure(reason: "cannot make a folder for the test extension: \(error)"))
  }
  removeAtExit(directory)
  let output = directory + "/" + fileName
  let process = Process()
  process.executableURL = URL(fileURLWithPath: compiler)
  process.arguments = arguments + ["-shared", "-fPIC", "-o", output, fixturePath(source)]
  let errors = Pipe()
  process.standardError = errors
  do {
    try process.run()
  } catch {
    return .failure(BuildFailure(reason: "cannot run \(compiler): \(error)"))
  }
  let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  process.waitUntilExit()
  guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: output) else {
    return .failure(BuildFailure(reason: "\(compiler) could not build Tests/Fixtures/\(source): \(message)"))
  }
  return .success(output)
}

/// The folders of built extensions, removed when the test process exits: a
/// loaded extension is in use until then, and each run builds its own (the
/// folders of earlier runs once piled up in the temporary directory).
private let foldersToRemoveAtExit = Locked<[String]>([])

/// Registers the one `atexit` handler that removes `foldersToRemoveAtExit`.
private let removingFoldersAtExit: Void = {
  atexit {
    for folder in foldersToRemoveAtExit.current { try? FileManager.default.removeItem(atPath: folder) }
  }
}()

/// Removes `folder` (with what it holds) when the test process exits.
private func removeAtExit(_ folder: String) {
  _ = removingFoldersAtExit
  foldersToRemoveAtExit.withLock { $0.append(folder) }
}
