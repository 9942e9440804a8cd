import SQLiteBridge
import SQLiteBridgeCluster

/// `cluster members|leader --cluster ADDR,… [--format json|table]`: the
/// cluster's members (id, address, role) or its leader, as the leader tells.
enum ClusterCommand {
  static func run(_ arguments: inout Arguments, _ cluster: ClusterTarget?) throws {
    guard let cluster else { throw UsageError("cluster needs --cluster HOST:PORT[,HOST:PORT...]") }
    let format = try OutputFormat(&arguments)
    let what = try arguments.positional("members or leader")
    try arguments.finish()
    guard what == "members" || what == "leader" else {
      throw UsageError("cluster takes members or leader, not '\(what)'")
    }
    // Membership needs no database of its own: the client opens one by a
    // name that nothing writes to.
    let database = try cluster.open("sqlite-bridge-cluster")
    defer { database.close() }
    let members = what == "members" ? try database.members() : try database.leader().map { [$0] } ?? []
    switch format {
    case .json:
      let objects = members.map {
        "{\"id\": \($0.id), \"address\": \(RowPrinting.jsonString($0.address)), \"role\": \"\($0.role)\"}"
      }
      print(what == "leader" ? (objects.first ?? "null") : "[" + objects.joined(separator: ", ") + "]")
    case .table:
      print(
        RowPrinting.table(
          header: ["id", "address", "role"], cells: members.map { ["\($0.id)", $0.address, "\($0.role)"] }))
    }
  }
}
