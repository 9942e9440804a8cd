// swift-tools-version:6.0
// A separate package that depends on SQLiteBridge by path, as an app would.
import PackageDescription

let package = Package(
  name: "swift-consumer",
  dependencies: [.package(name: "SQLiteBridge", path: "../..")],
  targets: [
    .executableTarget(
      name: "swift-consumer",
      dependencies: [.product(name: "SQLiteBridge", package: "SQLiteBridge")],
      // Required in every target that imports SQLiteBridge.
      swiftSettings: [.interoperabilityMode(.Cxx)]
    )
  ]
)
