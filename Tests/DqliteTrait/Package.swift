// swift-tools-version:6.1
// The Swift tests that need the SwiftPM trait Dqlite: ClusterNode, a dqlite
// node in the process. They are a package of their own, depending on
// SQLiteBridge with the trait, so that scripts/dqlite-ci compiles the
// library once for them and for the CLI with the trait (built as this
// package's dependency product), instead of every test target again; the main suite runs without
// the trait (and checks there that a node cannot start). Their support
// files are the main suite's (symbolic links).
//
//   swift test --package-path Tests/DqliteTrait --scratch-path .build --disable-build-manifest-caching
import PackageDescription

let package = Package(
  name: "dqlite-trait-tests",
  dependencies: [.package(name: "SQLiteBridge", path: "../..", traits: ["Dqlite"])],
  targets: [
    .testTarget(
      name: "DqliteTraitTests",
      dependencies: [
        .product(name: "SQLiteBridge", package: "SQLiteBridge"),
        .product(name: "SQLiteBridgeCluster", package: "SQLiteBridge"),
      ],
      path: "Tests",
      swiftSettings: [.interoperabilityMode(.Cxx)]
    )
  ],
  cxxLanguageStandard: .cxx17
)
