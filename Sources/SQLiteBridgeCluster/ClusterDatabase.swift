import CxxStdlib
import SQLiteBridge
import SQLiteBridgeClusterCore
import SQLiteBridgeClusterCore.Interop
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// A database replicated by a dqlite cluster (dqlite 1.11 nodes: a
/// `ClusterNode`, or any other dqlite node), backed by the C++
/// `sqlitebridge::ClusterDatabase`: one client connection to the cluster's
/// leader, which it finds by asking the configured servers and keeps
/// following. It speaks dqlite's wire protocol itself: no library beyond
/// the core is needed, in any build.
///
/// Every rule is the core's; this class converts types and throws
/// `DatabaseError`:
/// - **Retries, never applying a write twice.** A read (a statement that
///   returns rows, outside a transaction) that meets a leader change or a
///   broken connection runs again on the new leader. A write answered
///   `.ioErrorNotLeader` (or Raft's own "not leader") was not applied and is
///   sent again to the new leader. A statement that commits when it
///   succeeds (a write outside a transaction, a PRAGMA that writes, COMMIT,
///   the RELEASE of the outermost savepoint of a transaction SAVEPOINT
///   opened) whose outcome is unknown is never sent again: it throws
///   `.ioErrorLeadershipLost`, message "outcome in doubt…". Unknown: the
///   connection broke (or the answer was garbled) after it was sent, or the
///   node answered the leadership lost, `.ioError`, `.ioErrorWrite` or
///   `.abort` (dqlite 1.11's answers when Raft's apply failed after followers
///   may have the entry). Inside a transaction nothing is retried statement
///   by statement: the transaction lives on the leader's connection and is
///   gone with it (`.abortRollback` until COMMIT or ROLLBACK ends it here
///   too); the same after a statement failed and the node rolled the
///   transaction back by itself (`.full`, an I/O error, OR ROLLBACK,
///   RAISE(ROLLBACK)), which the failure's message says.
/// - **Refusals before anything is sent:** text holding a NUL character,
///   SQL holding one or more than one statement (`.misuse`), more than 255
///   arguments (`.range`).
/// - **Values that would make every dqlite 1.11 node abort** when read back
///   (text, a real or a blob in a column declared BOOLEAN; a real or a blob
///   in one declared DATETIME, DATE or TIMESTAMP) are refused with `.misuse`
///   naming the column, and nothing is stored (main and TEMP tables,
///   generated columns, tables other clients create); so is `ALTER TABLE …
///   ADD COLUMN` of such a column with a default of such a kind, and a read
///   whose result column is declared so by the first SELECT of a
///   compound one (select it as `+x`), and a write with RETURNING, ATTACH
///   and DETACH (dqlite 1.11 can do neither).
/// - **What the nodes convert on the way out is reported as it arrives:** a
///   NULL in a BOOLEAN column reads as the integer 0, an empty text (or a
///   NULL) in a DATETIME, DATE or TIMESTAMP column reads as NULL.
///
/// Threads: like `Database`, one connection used by one thread (or task) at
/// a time; it is not `Sendable`. Every call blocks the calling thread until
/// the cluster answers: at most `retryTimeout` per request, plus the search
/// for a leader.
public final class ClusterDatabase {
  /// Unchecked: a `write` block calls back into this same client while the
  /// core's `runWriteBlock` runs on it (the core's design: the block's
  /// statements go through the transaction `write` opened), which a checked
  /// access would report as overlapping. One thread uses a client at a time.
  @exclusivity(unchecked) var core: sqlitebridge.ClusterDatabase

  /// Connects to the leader of the cluster `configuration` names and opens
  /// the database `name` there (creating it when new).
  ///
  /// Blocks the calling thread until a leader answered, at most
  /// `configuration.retryTimeout`.
  ///
  /// - Throws: `DatabaseError` with `.misuse` when `configuration.servers`
  ///   is empty or `name` is empty or holds NUL; `.cantOpen` when no leader
  ///   answered within `configuration.retryTimeout` (the message names
  ///   every server tried and what each said).
  public init(name: String, configuration: ClusterConfiguration) throws {
    core = sqlitebridge.ClusterDatabase.open(std.string(name), configuration.cxx)
    guard core.isOpen() else { throw lastError }
  }

  /// True until `close()` is called.
  public var isOpen: Bool { core.isOpen() }

  /// The error the core reported for the call that just failed.
  var lastError: DatabaseError { DatabaseError(sqlitebridge.interop.ClusterAccess.lastError(core)) }

  // MARK: Running SQL

  /// Runs exactly one statement with `arguments` bound to its parameters,
  /// on the leader, and returns every row as a dictionary keyed by column
  /// name (the leftmost column wins when names repeat; use `rows` to keep
  /// them all). A statement that changes rows returns none.
  ///
  /// - Throws: `DatabaseError` with the node's code and message for SQL
  ///   errors (`.error`, `.constraintUnique`, …); `.misuse` when closed,
  ///   when `sql` holds no statement, more than one or a NUL character, when
  ///   an argument is text holding NUL, or when a value would make the
  ///   nodes abort (see the type's comment); `.range` for more than 255
  ///   arguments or not as many as the statement's parameters;
  ///   `.ioErrorLeadershipLost` when a write's outcome is in doubt;
  ///   `.abortRollback` inside a transaction whose leader went away;
  ///   `.cantOpen` when no leader could be found in time.
  @discardableResult
  public func execute(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> [[String: DatabaseValue]] {
    try withResult(sql, arguments) { result in
      let table = ColumnTable(names: result.columnNames)
      return result.map { row in table.dictionaryTemplate.mapValues { result.value(row, $0) } }
    }
  }

  /// Runs exactly one statement, like `execute`, and returns its rows with
  /// every column kept in order.
  ///
  /// - Throws: `DatabaseError`, as `execute`.
  public func rows(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> [Row] {
    try withResult(sql, arguments) { result in
      let names = result.columnNames
      return result.map { row in Row(columnNames: names, values: (0..<names.count).map { result.value(row, $0) }) }
    }
  }

  /// Runs exactly one statement and decodes every row as `T`, as
  /// `Database.fetch(_:_:_:)` does (the same decoder): `T`'s coding keys
  /// match column names (ASCII case-insensitive, leftmost column wins); a
  /// `T` that is `DatabaseValueConvertible` reads each row's first column.
  ///
  /// - Throws: `DatabaseError`, as `execute`, and `DecodingError` when a
  ///   row does not decode, as `Database.fetch(_:_:_:)` says.
  public func fetch<T: Decodable>(_ type: T.Type, _ sql: String, _ arguments: [DatabaseValue] = []) throws -> [T] {
    try withResult(sql, arguments) { result in
      let context = RowDecodingContext(
        rows: result.list, columnNames: result.columnNames, sql: sql, keyDecoding: .useDefaultKeys, decoding: type)
      // Kept alive to the end: the keyed container does not own it.
      defer { withExtendedLifetime(context) { context.endQuery() } }
      var decoded: [T] = []
      decoded.reserveCapacity(result.count)
      for row in 0..<result.count {
        context.heldRow = row
        decoded.append(try context.decodeRow(type))
      }
      return decoded
    }
  }

  /// Runs `body` between BEGIN and COMMIT on the leader, and returns what it
  /// returns: commits when it returns, rolls back when it throws (and
  /// rethrows its error) or when one of its statements fails.
  ///
  /// **The block may run more than once.** When the leader is lost (or
  /// steps down) before COMMIT was sent, the transaction certainly did not
  /// commit, and the core runs the whole block again on the new leader
  /// (within `retryTimeout`); the value of its last run is returned. Keep
  /// its effects outside the database idempotent. **A COMMIT whose outcome
  /// is unknown is never retried:** `write` throws `DatabaseError` with
  /// `.ioErrorLeadershipLost` ("outcome in doubt"): the transaction may or
  /// may not have committed. Nor is a block whose transaction the node
  /// rolled back after one of its statements failed (`.abortRollback` for
  /// the statements after it).
  ///
  /// Runs on the calling thread; `body` must use only the `ClusterDatabase`
  /// it is given (this client).
  ///
  /// - Throws: what `body` throws, after the rollback; `DatabaseError` with
  ///   `.misuse` when a transaction is already open (a `write` inside a
  ///   `write`, or after a BEGIN of your own) or when closed;
  ///   `.ioErrorLeadershipLost` for a COMMIT in doubt; the failing
  ///   statement's error when a statement of the block or COMMIT fails.
  @discardableResult
  public func write<T>(_ body: (ClusterDatabase) throws -> T) throws -> T {
    var outcome: Result<T, any Error>?
    var failure = sqlitebridge.Error()
    let committed = withoutActuallyEscaping(body) { body in
      // Each run replaces the last one's outcome: only the last counts.
      var run: () -> Bool = {
        do {
          outcome = .success(try body(self))
          return true
        } catch {
          outcome = .failure(error)
          return false
        }
      }
      return withUnsafeMutablePointer(to: &run) { context in
        sqlitebridge.interop.ClusterAccess.write(
          &core, { context in context!.assumingMemoryBound(to: (() -> Bool).self).pointee() }, context, &failure)
      }
    }
    switch outcome {
    case .success(let value) where committed: return value
    case .failure(let error): throw error
    default: throw DatabaseError(failure)
    }
  }

  // MARK: State

  /// The rowid of the last row the last successful write inserted (as the
  /// leader reported it).
  public var lastInsertRowID: Int64 { core.lastInsertRowId() }

  /// The rows the last successful write changed (as the leader reported
  /// it).
  public var changes: Int { Int(core.changes()) }

  /// The column names of the last successful statement's result, in order,
  /// also when it had no rows (a `Row` has them only when there is one);
  /// empty after a statement that returns no columns (the core's
  /// `lastColumnNames`). Empty, too, in the unlikely case that memory runs
  /// out while copying them.
  public var lastColumnNames: [String] {
    var names = sqlitebridge.interop.StringList()
    guard sqlitebridge.interop.ClusterAccess.lastColumnNames(core, &names) else { return [] }
    return (0..<names.size()).map { String(names[$0]) }
  }

  /// Whether a transaction is open on the leader's connection (a `write`
  /// block, or a BEGIN or SAVEPOINT this client ran).
  public var isInTransaction: Bool { core.isInTransaction() }

  /// "host:port" of the leader this client is connected to; nil when it is
  /// not connected (it connects again on the next call).
  public var leaderAddress: String? {
    let address = String(sqlitebridge.interop.ClusterAccess.leaderAddress(core))
    return address.isEmpty ? nil : address
  }

  // MARK: Membership

  /// The cluster's members (ids, addresses, roles), as the leader knows
  /// them.
  ///
  /// - Throws: `DatabaseError` as `execute` does when no leader can be
  ///   reached (`.cantOpen`), and `.misuse` when closed.
  public func members() throws -> [ClusterMember] {
    var members = sqlitebridge.interop.ClusterMemberList()
    guard core.members(&members) else { throw lastError }
    return (0..<members.size()).map { ClusterMember(members[$0]) }
  }

  /// The current leader; nil when the member the client reached knows of
  /// no leader right now (the core's `.ioErrorNotLeader` answer, during an
  /// election).
  ///
  /// - Throws: `DatabaseError` as `execute` does when no member can be
  ///   reached (`.cantOpen`), and `.misuse` when closed.
  public func leader() throws -> ClusterMember? {
    var member = sqlitebridge.ClusterMember()
    guard core.leader(&member) else {
      let error = lastError
      if error.extendedResultCode == .ioErrorNotLeader { return nil }
      throw error
    }
    return ClusterMember(member)
  }

  /// Adds `member` to the cluster: it joins as a spare, then is assigned
  /// `member.role`. The member's node should be running.
  ///
  /// - Throws: `DatabaseError` with the node's error when the id or
  ///   address is already in use; `.misuse` for id 0, an address holding
  ///   NUL, or when closed; `.ioErrorLeadershipLost` when the outcome is in
  ///   doubt, as for a write.
  public func add(_ member: ClusterMember) throws {
    guard core.add(member.cxx) else { throw lastError }
  }

  /// Gives member `id` another role.
  ///
  /// - Throws: `DatabaseError` with the node's error when there is no such
  ///   member; `.misuse` when closed; `.ioErrorLeadershipLost` when the
  ///   outcome is in doubt.
  public func assign(id: UInt64, role: ClusterRole) throws {
    guard core.assign(id, role.cxx) else { throw lastError }
  }

  /// Removes member `id` from the cluster.
  ///
  /// - Throws: `DatabaseError`, as `assign(id:role:)`.
  public func remove(id: UInt64) throws {
    guard core.remove(id) else { throw lastError }
  }

  /// Closes the connection (the leader rolls back a transaction left
  /// open). Afterwards every call throws `DatabaseError` with `.misuse`.
  /// Never fails; closing a closed client does nothing. Without a call, the
  /// connection closes when the `ClusterDatabase` is released.
  public func close() {
    core.close()
  }

  // MARK: Results

  /// Runs `sql` with `arguments` through the core and hands `body` the rows
  /// it returned whole, read in place.
  private func withResult<R>(
    _ sql: String, _ arguments: [DatabaseValue], _ body: (ClusterRows) throws -> R
  ) throws -> R {
    var values = sqlitebridge.interop.ValueList()
    values.reserve(arguments.count)
    for argument in arguments {
      guard ClusterRows.append(argument, to: &values) else {
        throw DatabaseError(code: ResultCode.noMemory.rawValue, message: "out of memory", sql: sql)
      }
    }
    var rows = sqlitebridge.interop.RowList()
    // Through pointers: Swift passes a C++ value held in a variable to a
    // `const&` parameter as a copy (a whole 1 MiB blob, or the whole result
    // on every read of a value).
    let executed = withUnsafePointer(to: &values) {
      sqlitebridge.interop.ClusterAccess.execute(&core, std.string(sql), $0.pointee, &rows)
    }
    guard executed else { throw lastError }
    return try withUnsafePointer(to: &rows) { try body(ClusterRows($0)) }
  }
}

/// The rows of one cluster call as the core returned them, read in place
/// (valid during the call that hands them out).
struct ClusterRows {
  typealias Access = sqlitebridge.interop.RowListAccess

  let list: UnsafePointer<sqlitebridge.interop.RowList>
  /// Number of rows.
  let count: Int
  /// The column names (none without rows: the core names columns per row).
  let columnNames: [String]

  init(_ list: UnsafePointer<sqlitebridge.interop.RowList>) {
    self.list = list
    count = Int(Access.rowCount(list.pointee))
    columnNames = (0..<Access.columnCount(list.pointee)).map { String(Access.columnName(list.pointee, $0)) }
  }

  /// Column `column` of row `row`, copied.
  func value(_ row: Int, _ column: Int) -> DatabaseValue {
    DatabaseValue(Access.column(list.pointee, row, column))
  }

  /// `transform` of each row index, in order.
  func map<T>(_ transform: (Int) throws -> T) rethrows -> [T] {
    try (0..<count).map(transform)
  }

  /// Appends `value` to the core's argument list; false when memory ran out.
  static func append(_ value: DatabaseValue, to values: inout sqlitebridge.interop.ValueList) -> Bool {
    switch value {
    case .null: return Access.appendNull(&values)
    case .integer(let integer): return Access.appendInteger(&values, integer)
    case .real(let real): return Access.appendReal(&values, real)
    case .text(var text): return text.withUTF8 { Access.appendText(&values, $0.baseAddress, $0.count) }
    case .blob(let data): return data.withUnsafeBytes { Access.appendBlob(&values, $0.baseAddress, $0.count) }
    }
  }
}
