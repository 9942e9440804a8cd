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

  struct BuildFailure: Error {
    let reason: String
  }

  /// The first C compiler found: `cc`, `clang` or `gcc` on `PATH`, else the
  /// Swift toolchain's clang.
  private static func findCompiler() -> String? {
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
    for name in ["cc", "clang", "gcc"] {
      for directory in directories where FileManager.default.isExecutableFile(atPath: directory + "/" + name) {
        return directory + "/" + name
      }
    }
    let toolchainClang = "/opt/swift/usr/bin/clang"
    return FileManager.default.isExecutableFile(atPath: toolchainClang) ? toolchainClang : nil
  }

  private static func compile() -> Result<String, BuildFailure> {
    guard let compiler = findCompiler() else {
      return .failure(
        BuildFailure(
          reason: "no C compiler (cc, clang or gcc on PATH, or /opt/swift/usr/bin/clang) to build "
            + "Tests/Fixtures/extension/test_extension.c"))
    }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("SQLiteBridgeTests-extension-\(UUID().uuidString)", isDirectory: true).path
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    } catch {
      return .failure(BuildFailure(reason: "cannot make a folder for the test extension: \(error)"))
    }
    let output = directory + "/test_extension.so"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: compiler)
    process.arguments = ["-shared", "-fPIC", "-o", output, fixturePath("extension/test_extension.c")]
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
      return .failure(BuildFailure(reason: "\(compiler) could not build the test extension: \(message)"))
    }
    return .success(output)
  }
}
