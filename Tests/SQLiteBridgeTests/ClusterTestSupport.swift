import Foundation
import SQLiteBridge
import SQLiteBridgeCluster
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// What the cluster tests (Cluster/) start: real dqlite nodes (go-dqlite's
// dqlite-demo), each a process of its own, and the scripted fake node
// (Tests/Fixtures/fake-dqlite-node.py). Processes are started with
// posix_spawn and ended by their pid (SIGKILL, then waitpid), always:
// Foundation's `Process` leaked under LeakSanitizer (d40da34). Every wait is
// bounded.

/// The path of `program` in a directory of `PATH`, or nil.
func executablePath(_ program: String) -> String? {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  for directory in path.split(separator: ":") {
    let candidate = "\(directory)/\(program)"
    if access(candidate, X_OK) == 0 { return candidate }
  }
  return nil
}

/// Why a test's process could not be started or answered.
struct ProcessProblem: Error, CustomStringConvertible {
  let description: String
}

/// The ports `freePort` handed out in this process: never handed out again,
/// since a node may not have bound its port yet when the next is picked.
/// (Its own lock: this file is also compiled into the DqliteTrait package's
/// tests, without ThreadSupport.swift.)
private final class HandedOutPorts: @unchecked Sendable {
  private let lock = NSLock()
  private var ports: Set<Int> = []

  /// Whether `port` was not handed out before (it is from now on).
  func claim(_ port: Int) -> Bool { lock.withLock { ports.insert(port).inserted } }
}

private let handedOutPorts = HandedOutPorts()

/// A TCP port on 127.0.0.1 nobody listens on now, and that this process
/// has not handed out before (a node's two ports, or nodes of suites that
/// start at once, would otherwise be given the same port now and then
/// before the first binds it: dqlite-demo exits when it cannot bind, even
/// after joining the cluster).
func freePort() throws -> Int {
  // Below Linux's ephemeral range (32768-60999): a port the kernel handed
  // out would also be handed out as the source port of some outgoing
  // connection (the nodes' own, among them) before the node binds it, and
  // dqlite-demo exits when it cannot.
  for _ in 0..<1000 {
    let candidate = Int.random(in: 20000...32767)
    guard handedOutPorts.claim(candidate) else { continue }
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw ProcessProblem(description: "socket failed: errno \(errno)") }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(candidate).bigEndian
    let bound = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
    if bound { return candidate }
  }
  throw ProcessProblem(description: "no free port in 20000-32767")
}

/// Whether something accepts TCP connections at 127.0.0.1:`port` now.
func acceptsConnections(port: Int) -> Bool {
  let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard socket >= 0 else { return false }
  defer { close(socket) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = UInt16(port).bigEndian
  return withUnsafePointer(to: &address) { pointer in
    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
    }
  }
}

/// Polls `condition` every 50 ms until it holds or `limit` ran out; false
/// then. For states another process reaches in its own time (a node that
/// joined, a file it wrote), where there is nothing to wait on.
func poll(within limit: Duration, _ condition: () throws -> Bool) rethrows -> Bool {
  let clock = ContinuousClock()
  let end = clock.now.advanced(by: limit)
  while true {
    if try condition() { return true }
    if clock.now >= end { return false }
    usleep(50_000)
  }
}

/// A child process, started with posix_spawn, ended by its pid. Its
/// standard output is a pipe this side reads (`readLine`) or goes, with
/// standard error, to a file; its standard input is a pipe this side holds
/// open until `kill()` (so that a child watching it ends with the test
/// process, however that ends) or /dev/null.
///
/// `@unchecked Sendable`: the pid and the descriptors change only under
/// `lock` (a test kills a node from another thread).
final class ChildProcess: @unchecked Sendable {
  let name: String
  private let lock = NSLock()
  private var pid: pid_t = 0
  private var output: Int32 = -1
  private var input: Int32 = -1

  /// Starts `executable` with `arguments`; `logFile` set: its output and
  /// errors go there (otherwise its output is read with `readLine`).
  init(_ executable: String, _ arguments: [String], name: String, logFile: String? = nil, holdInput: Bool = false)
    throws
  {
    self.name = name
    // Close-on-exec, so that no later child inherits this one's pipes (a
    // child holding another's input would keep it from seeing it close).
    var outputPipe: [Int32] = [-1, -1]
    var inputPipe: [Int32] = [-1, -1]
    guard logFile != nil || pipe2(&outputPipe, O_CLOEXEC) == 0,
      !holdInput || pipe2(&inputPipe, O_CLOEXEC) == 0
    else { throw ProcessProblem(description: "pipe2 failed: errno \(errno)") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let logFile {
      posix_spawn_file_actions_addopen(&actions, 1, logFile, O_WRONLY | O_CREAT | O_APPEND, 0o644)
      posix_spawn_file_actions_adddup2(&actions, 1, 2)
    } else {
      posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
    }
    if holdInput {
      posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
    } else {
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    }
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var child: pid_t = 0
    let spawned = posix_spawn(&child, executable, &actions, nil, argv, environ)
    if outputPipe[1] >= 0 { close(outputPipe[1]) }
    if inputPipe[0] >= 0 { close(inputPipe[0]) }
    output = outputPipe[0]
    input = inputPipe[1]
    guard spawned == 0 else {
      closeDescriptors()
      throw ProcessProblem(description: "posix_spawn \(executable) failed: \(String(cString: strerror(spawned)))")
    }
    pid = child
  }

  deinit { kill() }

  /// The next line of the child's output, without its newline; nil when
  /// `limit` ran out or the output ended first.
  func readLine(within limit: Duration) -> String? {
    let clock = ContinuousClock()
    let end = clock.now.advanced(by: limit)
    var line: [UInt8] = []
    var byte: UInt8 = 0
    let descriptor = lock.withLock { output }
    while true {
      let left = clock.now.duration(to: end)
      guard left > .zero else { return nil }
      var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let milliseconds = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
      guard Glibc.poll(&entry, 1, max(milliseconds, 1)) > 0 else { continue }
      guard read(descriptor, &byte, 1) == 1 else { return nil }
      if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
      line.append(byte)
    }
  }

  /// Whether the process still runs (one that ended is reaped here).
  var isRunning: Bool {
    lock.withLock {
      guard pid > 0 else { return false }
      var status: Int32 = 0
      if waitpid(pid, &status, WNOHANG) == 0 { return true }
      pid = 0
      return false
    }
  }

  /// Ends the process with SIGKILL and reaps it (waiting at most 30 s);
  /// false when it had not ended by then. Does nothing once it ended.
  @discardableResult
  func kill() -> Bool {
    lock.withLock {
      defer { closeDescriptors() }
      guard pid > 0 else { return true }
      Glibc.kill(pid, SIGKILL)
      let ended = poll(within: .seconds(30)) {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) != 0
      }
      pid = 0
      return ended
    }
  }

  private func closeDescriptors() {
    if output >= 0 { close(output) }
    if input >= 0 { close(input) }
    output = -1
    input = -1
  }
}

// MARK: Real nodes: go-dqlite's dqlite-demo

/// One dqlite-demo node: `dqlite-demo --api 127.0.0.1:A --db 127.0.0.1:D
/// --dir DIR [--join …]`, its data in DIR/<db address>.
final class DemoNode: Sendable {
  /// The node's dqlite address ("127.0.0.1:D").
  let address: String
  /// The port of its HTTP API (dqlite-demo's `--api`).
  let apiPort: Int
  let process: ChildProcess
  /// Where the node keeps its Raft data (dqlite-demo adds the address).
  let dataDirectory: String
  /// What the node printed.
  let logFile: String

  /// The last lines the node printed (for a failure's message).
  var logTail: String {
    let text = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").suffix(5).joined(separator: " | ")
  }

  init(directory: String, join: [String], name: String) throws {
    guard let program = DemoCluster.program else {
      throw ProcessProblem(description: "dqlite-demo is not installed (Debian package go-dqlite)")
    }
    let port = try freePort()
    address = "127.0.0.1:\(port)"
    dataDirectory = directory + "/" + address
    logFile = directory + "/\(name).log"
    apiPort = try freePort()
    var arguments = ["--api", "127.0.0.1:\(apiPort)", "--db", address, "--dir", directory]
    for member in join { arguments += ["--join", member] }
    process = try ChildProcess(program, arguments, name: name, logFile: logFile)
  }

  var port: Int { Int(address.split(separator: ":").last!)! }

  /// The Raft id the node chose (go-dqlite keeps it in info.yaml), waiting
  /// at most `limit` for the file.
  func id(within limit: Duration = .seconds(60)) throws -> UInt64 {
    var id: UInt64?
    _ = poll(within: limit) {
      guard let info = try? String(contentsOfFile: dataDirectory + "/info.yaml", encoding: .utf8) else { return false }
      id =
        info.split(separator: "\n").lazy.compactMap { line -> UInt64? in
          line.hasPrefix("ID: ") ? UInt64(line.dropFirst(4).trimmingCharacters(in: .whitespaces)) : nil
        }.first
      return id != nil
    }
    guard let id else { throw ProcessProblem(description: "\(process.name) wrote no id in \(limit)") }
    return id
  }
}

/// A cluster of dqlite-demo processes on 127.0.0.1, data in a temporary
/// folder: the first node bootstraps it, the others join through it (and
/// go-dqlite makes them voters). `stop()` ends every process and removes
/// the folder.
final class DemoCluster: Sendable {
  /// The cluster a suite's tests share (see `DemoClusterScope`).
  @TaskLocal static var current: DemoCluster?

  static let program = executablePath("dqlite-demo")
  static var isInstalled: Bool { program != nil }

  let directory: String
  let nodes: [DemoNode]

  /// Starts `count` nodes one at a time: each is started only once a
  /// client sees every node before it in the cluster (at most a minute
  /// each), so no two joins change the configuration at once (go-dqlite
  /// refuses the second, and a loaded machine made that common); then waits
  /// (at most a minute) until all are voters. On failure, whatever started
  /// is ended.
  init(count: Int) throws {
    directory =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("SQLiteBridgeTests-dqlite-\(UUID().uuidString)", isDirectory: true).path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    var started: [DemoNode] = []
    do {
      for index in 0..<count {
        let join = started.first.map { [$0.address] } ?? []
        started.append(try DemoNode(directory: directory, join: join, name: "node\(index + 1)"))
        try Self.waitForMembers(started, asVoters: started.count == count, within: .seconds(60))
      }
      try Self.waitForServing(started, within: .seconds(60))
      nodes = started
    } catch {
      for node in started { node.process.kill() }
      try? FileManager.default.removeItem(atPath: directory)
      throw error
    }
  }

  /// How a client reaches the cluster: every node, short connect attempts,
  /// 30 s to find a leader.
  var configuration: ClusterConfiguration {
    var configuration = ClusterConfiguration(servers: nodes.map(\.address))
    configuration.connectTimeout = .seconds(2)
    configuration.retryTimeout = .seconds(30)
    return configuration
  }

  /// The index of the node at `address`, or nil.
  func index(of address: String?) -> Int? { nodes.firstIndex { $0.address == address } }

  /// Waits until a client sees every one of `nodes` in the cluster (as a
  /// voter when `asVoters`; go-dqlite keeps a second node a standby until a
  /// third makes an odd number of voters). go-dqlite
  /// joins and promotes a node itself, but when an attempt fails (another
  /// change of the configuration in progress, a loaded machine) it may try
  /// again only much later (its roles are adjusted every 30 s), or not at
  /// all: once the membership has not changed for 5 s, the client adds the
  /// nodes still missing (by the id each wrote) and (when `asVoters`)
  /// assigns the voter role to those still without it, and waits on the condition again. Each
  /// look is short (1 s to connect, 2 s to find a leader), so a look that
  /// finds no leader yet is soon repeated instead of holding the wait.
  static func waitForMembers(_ nodes: [DemoNode], asVoters: Bool, within limit: Duration) throws {
    var configuration = ClusterConfiguration(servers: nodes.map(\.address))
    configuration.connectTimeout = .seconds(1)
    configuration.retryTimeout = .seconds(2)
    var last = "no answer yet"
    let clock = ContinuousClock()
    var unchanged: (members: [ClusterMember], since: ContinuousClock.Instant)?
    var exited: DemoNode?
    let joined = poll(within: limit) {
      // A node that exited never joins: fail now, so that the caller can
      // form another cluster instead of waiting out the limit.
      if let gone = nodes.first(where: { !$0.process.isRunning }) {
        exited = gone
        return true
      }
      do {
        let client = try ClusterDatabase(name: "readiness", configuration: configuration)
        let members = try client.members()
        let voters = members.filter { $0.role == .voter }
        last = "\(voters.count) voter(s) of \(members.count) member(s)"
        let present = asVoters ? voters : members
        if nodes.allSatisfy({ node in present.contains { $0.address == node.address } }) { return true }
        if unchanged?.members != members { unchanged = (members, clock.now) }
        guard let since = unchanged?.since, clock.now - since >= .seconds(5) else { return false }
        unchanged = nil
        for node in nodes where node.process.isRunning && !members.contains(where: { $0.address == node.address }) {
          try client.add(ClusterMember(id: try node.id(within: .seconds(5)), address: node.address, role: .spare))
        }
        if asVoters {
          for member in try client.members() where member.role != .voter {
            try client.assign(id: member.id, role: .voter)
          }
        }
        return false
      } catch {
        last = "\(error)"
        return false
      }
    }
    if let exited {
      throw ProcessProblem(
        description: "\(exited.process.name) of the dqlite-demo cluster exited (\(last)); it printed: \(exited.logTail)"
      )
    }
    guard joined else {
      throw ProcessProblem(
        description:
          "the dqlite-demo cluster did not reach \(nodes.count) \(asVoters ? "voters" : "members") in \(limit): \(last)"
      )
    }
  }

  /// Waits until every node serves its HTTP API, the last thing
  /// dqlite-demo starts once it has joined: a node that could not (its port
  /// taken) exits then, a member of the cluster that is gone. Fails naming
  /// such a node and what it printed, or when `limit` runs out.
  static func waitForServing(_ nodes: [DemoNode], within limit: Duration) throws {
    var exited: DemoNode?
    let serving = poll(within: limit) {
      if let gone = nodes.first(where: { !$0.process.isRunning }) {
        exited = gone
        return true
      }
      return nodes.allSatisfy { acceptsConnections(port: $0.apiPort) }
    }
    if let exited {
      throw ProcessProblem(
        description:
          "\(exited.process.name) of the dqlite-demo cluster exited after joining; it printed: \(exited.logTail)")
    }
    guard serving else { throw ProcessProblem(description: "the dqlite-demo nodes did not all serve in \(limit)") }
  }

  /// Ends every node (SIGKILL) and removes the data.
  func stop() {
    for node in nodes { node.process.kill() }
    try? FileManager.default.removeItem(atPath: directory)
  }
}

/// Runs the tests of a suite against one `DemoCluster` of `nodes` nodes,
/// started before its first test and stopped after its last
/// (`DemoCluster.current` inside).
struct DemoClusterScope: SuiteTrait, TestScoping {
  let nodes: Int
  var isRecursive: Bool { false }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    // go-dqlite can leave a joining node out for good (its join gave up;
    // seen in a CI run as "1 voter(s) of 2 member(s)" after 120 s), and a
    // node can exit: another cluster, formed from scratch, is tried (three
    // in all) before the suite fails; each failure is printed.
    var attempt = 1
    let cluster: DemoCluster
    while true {
      do {
        cluster = try DemoCluster(count: nodes)
        break
      } catch  where attempt < 3 {
        FileHandle.standardError.write(Data("dqlite-demo cluster not formed (\(error)); forming another\n".utf8))
        attempt += 1
      }
    }
    defer { cluster.stop() }
    try await DemoCluster.$current.withValue(cluster) { try await function() }
  }
}

extension Trait where Self == DemoClusterScope {
  /// A `DemoCluster` of `nodes` dqlite-demo nodes for the suite's tests.
  static func demoCluster(nodes: Int = 3) -> Self { DemoClusterScope(nodes: nodes) }
}

// MARK: The scripted node

/// Tests/Fixtures/fake-dqlite-node.py running `scenario`, with the counts
/// it writes.
final class FakeDqliteNode {
  let address: String
  private let process: ChildProcess
  private let countsPath: String

  init(_ scenario: String, directory: String) throws {
    guard let python = executablePath("python3") else { throw ProcessProblem(description: "python3 is not on PATH") }
    countsPath = directory + "/counts.json"
    process = try ChildProcess(
      python, [fixturePath("fake-dqlite-node.py"), scenario, countsPath], name: "fake node (\(scenario))",
      holdInput: true)
    guard let line = process.readLine(within: .seconds(60)), let port = Int(line) else {
      process.kill()
      throw ProcessProblem(description: "the fake node (\(scenario)) did not say its port")
    }
    address = "127.0.0.1:\(port)"
  }

  deinit { process.kill() }

  /// Ends the fake (SIGKILL, reaped).
  func stop() { process.kill() }

  /// A client configuration for this node alone: 1 s connect attempts,
  /// `retryTimeout` to find a leader.
  func configuration(retryTimeout: Duration = .seconds(3)) -> ClusterConfiguration {
    var configuration = ClusterConfiguration(servers: [address])
    configuration.connectTimeout = .seconds(1)
    configuration.retryTimeout = retryTimeout
    return configuration
  }

  /// The fake's counts file, read whole.
  private func state() throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: countsPath))
    return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
  }

  /// How many requests of `type` ("EXEC", "QUERY", "PREPARE", …) arrived.
  func count(_ type: String) throws -> Int {
    (try state()["counts"] as? [String: Int])?[type] ?? 0
  }

  /// The SQL of every EXEC that arrived, in order.
  func executed() throws -> [String] {
    try state()["executed"] as? [String] ?? []
  }

  /// "EXEC <sql>" and "EXEC_SQL <sql>" for every EXEC and EXEC_SQL that
  /// arrived, in order.
  func log() throws -> [String] {
    try state()["log"] as? [String] ?? []
  }

  /// Whether an EXEC_SQL holding `text` arrived before the EXEC of `sql`.
  func guarded(_ text: String, before sql: String) throws -> Bool {
    var guarded = false
    for entry in try log() {
      if entry.hasPrefix("EXEC_SQL ") && entry.contains(text) { guarded = true }
      if entry == "EXEC " + sql { return guarded }
    }
    return false
  }
}

/// Runs `body` with a fake node running `scenario`, ended afterwards.
func withFakeNode<Result>(_ scenario: String, _ body: (FakeDqliteNode) throws -> Result) throws -> Result {
  try withTemporaryDirectory { directory in
    let node = try FakeDqliteNode(scenario, directory: directory)
    defer { node.stop() }
    return try body(node)
  }
}
