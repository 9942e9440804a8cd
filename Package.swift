// swift-tools-version:6.1
import PackageDescription

// Swift targets that import the C++ core (and every client target that
// imports SQLiteBridge) need C++ interoperability.
let cxxInterop: [SwiftSetting] = [.interoperabilityMode(.Cxx)]

// The core's concern folders (docs/ARCHITECTURE.md). Its internal headers are
// included by file name, so each folder is on its header search path.
let coreFolders = [
  "Opening", "Statements", "Values", "Errors", "Schema", "Records", "Concurrency", "Extensions", "Observation",
  "Interop", "Query", "Changesets", "Sync",
]

let package = Package(
  name: "SQLiteBridge",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "SQLiteBridge", targets: ["SQLiteBridge"]),
    .library(name: "SQLiteBridgeCore", targets: ["SQLiteBridgeCore"]),
    // The dqlite cluster client (and node), a module of its own on top of
    // SQLiteBridge: `import SQLiteBridgeCluster`.
    .library(name: "SQLiteBridgeCluster", targets: ["SQLiteBridgeCluster"]),
    .library(name: "SQLiteBridgeClusterCore", targets: ["SQLiteBridgeClusterCore"]),
    .executable(name: "sqlite-bridge", targets: ["sqlite-bridge"]),
    .executable(name: "sqlite-bridge-bench", targets: ["sqlite-bridge-bench"]),
  ],
  // Which SQLite the core links. One of the two, never both (the core's
  // SQLiteHeader.hpp stops the build): `swift build --traits SQLCipher`
  // replaces the default, and a dependency asks with
  // `.package(path: …, traits: ["SQLCipher"])`. `Dqlite` adds the
  // in-process dqlite node (ClusterNode, in SQLiteBridgeClusterCore) on top
  // of the system SQLite, which libdqlite links itself; the cluster client
  // needs no trait.
  traits: [
    .default(enabledTraits: ["SystemSQLite"]),
    .trait(
      name: "SystemSQLite",
      description: "Link the system SQLite (libsqlite3). The default; no encryption."
    ),
    .trait(
      name: "SQLCipher",
      description:
        "Link SQLCipher 4.19.0 as scripts/build-engine sqlcipher installs it (static, with OpenSSL's libcrypto; its "
        + "prefix's lib/pkgconfig must be on PKG_CONFIG_PATH) instead of the system SQLite, so that "
        + "Configuration.key encrypts the database. Replaces SystemSQLite: enable it alone "
        + "(swift build --traits SQLCipher)."
    ),
    .trait(
      name: "CurrentSQLite",
      description:
        "Link SQLite 3.53.4 as scripts/build-engine sqlite installs it (static; its prefix's lib/pkgconfig must be on "
        + "PKG_CONFIG_PATH) instead of the system SQLite. Replaces SystemSQLite: enable it alone "
        + "(swift build --traits CurrentSQLite)."
    ),
    .trait(
      name: "Dqlite",
      description:
        "Build ClusterNode, a dqlite node running in the process, by linking libdqlite (Debian: libdqlite-dev). "
        + "Enables SystemSQLite too (libdqlite links the system SQLite) and cannot be combined with SQLCipher. "
        + "Applies to the cluster module (SQLiteBridgeClusterCore); ClusterDatabase, the cluster client, needs no "
        + "trait.",
      enabledTraits: ["SystemSQLite"]
    ),
  ],
  targets: [
    // The C++ core. It lives at the package root so that the public headers
    // stay in the top-level include/ folder that CMake installs too.
    // The current plain SQLite (trait CurrentSQLite), found by pkg-config.
    .systemLibrary(name: "CSQLiteEngine", path: "Sources/CSQLiteEngine", pkgConfig: "sqlitebridge-sqlite"),
    // SQLCipher 4 (trait SQLCipher), found by pkg-config the same way.
    .systemLibrary(name: "CSQLCipherEngine", path: "Sources/CSQLCipherEngine", pkgConfig: "sqlitebridge-sqlcipher"),
    .target(
      name: "SQLiteBridgeCore",
      dependencies: [
        .target(name: "CSQLiteEngine", condition: .when(traits: ["CurrentSQLite"])),
        .target(name: "CSQLCipherEngine", condition: .when(traits: ["SQLCipher"])),
      ],
      path: ".",
      sources: ["Sources/SQLiteBridgeCore"],
      publicHeadersPath: "include",
      cxxSettings: [
        .define("SQLITEBRIDGE_SYSTEM_SQLITE", .when(traits: ["SystemSQLite"])),
        .define("SQLITEBRIDGE_SQLCIPHER", .when(traits: ["SQLCipher"])),
        // The trait links the SQLCipher 4 scripts/build-engine built, with
        // SQLITE_ENABLE_SNAPSHOT: the core calls its snapshot API directly
        // (CMake defines the same with SQLITEBRIDGE_ENGINE_PREFIX).
        .define("SQLITEBRIDGE_CURRENT_SQLCIPHER", .when(traits: ["SQLCipher"])),
        .define("SQLITEBRIDGE_CURRENT_SQLITE", .when(traits: ["CurrentSQLite"])),
        .headerSearchPath("Sources/SQLiteBridgeCore"),
      ] + coreFolders.map { .headerSearchPath("Sources/SQLiteBridgeCore/\($0)") },
      linkerSettings: [
        .linkedLibrary("sqlite3", .when(traits: ["SystemSQLite"])),
        .linkedFramework("CoreFoundation", .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS])),
      ]
    ),
    .target(
      name: "SQLiteBridge",
      dependencies: ["SQLiteBridgeCore"],
      swiftSettings: cxxInterop
    ),
    // The C++ cluster client and node, on top of the core. Rooted at the
    // package root like the core (so that the core's folders can be on its
    // header search path: it calls two of the core's internal helpers, SQL
    // text and SQLite features, whose headers include others by file name);
    // its public headers and module map are in its own include/, outside the
    // core's umbrella folder: <sqlitebridge/cluster/ClusterDatabase.hpp>.
    .target(
      name: "SQLiteBridgeClusterCore",
      dependencies: ["SQLiteBridgeCore"],
      path: ".",
      // (The module map is not a source to compile.)
      exclude: ["Sources/SQLiteBridgeClusterCore/include/module.modulemap"],
      sources: ["Sources/SQLiteBridgeClusterCore"],
      publicHeadersPath: "Sources/SQLiteBridgeClusterCore/include",
      cxxSettings: [
        .define("SQLITEBRIDGE_DQLITE", .when(traits: ["Dqlite"])),
        .headerSearchPath("Sources/SQLiteBridgeClusterCore"),
        .headerSearchPath("Sources/SQLiteBridgeCore"),
      ] + coreFolders.map { .headerSearchPath("Sources/SQLiteBridgeCore/\($0)") },
      linkerSettings: [
        .linkedLibrary("dqlite", .when(traits: ["Dqlite"]))
      ]
    ),
    // The Swift cluster facade: ClusterDatabase, ClusterNode.
    .target(
      name: "SQLiteBridgeCluster",
      dependencies: ["SQLiteBridge", "SQLiteBridgeCore", "SQLiteBridgeClusterCore"],
      swiftSettings: cxxInterop
    ),
    .executableTarget(
      name: "sqlite-bridge",
      dependencies: ["SQLiteBridge", "SQLiteBridgeCluster"],
      resources: [.copy("Resources/notes.db")],
      swiftSettings: cxxInterop
    ),
    // Release-mode benchmarks against the raw sqlite3 C API:
    // swift run -c release sqlite-bridge-bench
    .executableTarget(
      name: "sqlite-bridge-bench",
      dependencies: ["SQLiteBridge", "SQLiteBridgeCore"],
      path: "Benchmarks/Swift",
      swiftSettings: cxxInterop
    ),
    // One suite for both modules: the cluster tests (Cluster/) import
    // SQLiteBridgeCluster and share the suite's support files.
    .testTarget(
      name: "SQLiteBridgeTests",
      dependencies: ["SQLiteBridge", "SQLiteBridgeCluster"],
      swiftSettings: cxxInterop
    ),
  ],
  cxxLanguageStandard: .cxx17
)
