// swift-tools-version:6.0
// A small notes manager built on SQLiteBridge (by path, as an app would
// depend on it): the library NotesKit does the work, `notes` is its
// command line, NotesKitTests calls NotesKit in-process.
import PackageDescription

// Required in every target that imports SQLiteBridge.
let cxxInterop: [SwiftSetting] = [.interoperabilityMode(.Cxx)]

let package = Package(
  name: "NotesApp",
  platforms: [.macOS(.v13)],
  products: [.executable(name: "notes", targets: ["notes"])],
  dependencies: [.package(name: "SQLiteBridge", path: "../..")],
  targets: [
    .target(
      name: "NotesKit",
      dependencies: [.product(name: "SQLiteBridge", package: "SQLiteBridge")],
      // The seed, notes-seed.db at the top of the resource bundle, copied to
      // the data directory as notes.db on first open (scripts/make-seed).
      resources: [.copy("Seed/notes-seed.db")],
      swiftSettings: cxxInterop
    ),
    .executableTarget(name: "notes", dependencies: ["NotesKit"], swiftSettings: cxxInterop),
    .testTarget(
      name: "NotesKitTests",
      dependencies: ["NotesKit", .product(name: "SQLiteBridge", package: "SQLiteBridge")],
      swiftSettings: cxxInterop
    ),
  ]
)
