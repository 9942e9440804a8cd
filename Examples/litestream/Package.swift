// swift-tools-version:6.0
// An app that runs under Litestream: it writes orders to a DatabasePool that
// `litestream replicate` streams to a replica, and reads that replica through
// Litestream's VFS extension. Depends on SQLiteBridge by path, as an app would.
import PackageDescription

let package = Package(
  name: "litestream-example",
  dependencies: [.package(name: "SQLiteBridge", path: "../..")],
  targets: [
    .executableTarget(
      name: "litestream-orders",
      dependencies: [.product(name: "SQLiteBridge", package: "SQLiteBridge")],
      // Required in every target that imports SQLiteBridge.
      swiftSettings: [.interoperabilityMode(.Cxx)]
    )
  ]
)
