// Uses every name of SQLiteBridge's Swift API contract and checks the
// results; exits non-zero on the first mismatch.
import Foundation
import SQLiteBridge

func check(_ condition: Bool, _ what: String, line: Int = #line) {
  if !condition {
    FileHandle.standardError.write(Data("swift-consumer: check failed (line \(line)): \(what)\n".utf8))
    exit(1)
  }
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swift-consumer-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

// DatabaseValue and its literals.
let values: [DatabaseValue] = [nil, 42, 1.5, "text", .blob(Data([0, 1])), .integer(-1), .real(0), .text("")]
check(
  values[0] == .null && values[1] == .integer(42) && values[2] == .real(1.5) && values[3] == .text("text"), "literals")
check(Set(values).count == values.count, "DatabaseValue is Hashable")

// DatabaseLocation and the by-name constructor (created with its SQL).
let location = DatabaseLocation(documentsDirectory: directory.path, bundleDirectory: nil)
let defaultLocation: DatabaseLocation = .default
check(!defaultLocation.documentsDirectory.isEmpty, "DatabaseLocation.default")
let notes = try Database(
  name: "notes.db", createSQL: "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE)",
  location: location)
check(notes.path == directory.appendingPathComponent("notes.db").path, "path")

// execute with positional arguments, lastInsertRowID, changes.
try notes.execute("INSERT INTO notes(title) VALUES (?)", ["first"])
check(notes.lastInsertRowID == 1 && notes.changes == 1, "lastInsertRowID and changes")
let dictionaries: [[String: DatabaseValue]] = try notes.execute("SELECT id, title FROM notes")
check(dictionaries == [["id": 1, "title": "first"]], "execute returns dictionaries")

// rows and Row.
let rows: [Row] = try notes.rows("SELECT id, title, title AS TITLE FROM notes")
let row = rows[0]
check(row.columnNames == ["id", "title", "TITLE"], "columnNames")
check(row.values == [1, "first", "first"], "values")
check(row[0] == 1 && row["Title"] == "first" && row["missing"] == nil, "subscripts")
check(row.dictionary == ["id": 1, "title": "first", "TITLE": "first"], "dictionary")

// Schema.
check(try notes.hasTableColumn("notes", "TITLE") && !(try notes.hasTableColumn("notes", "body")), "hasTableColumn")
check(try notes.tableColumns("notes") == ["id", "title"], "tableColumns")
try notes.updateTable(
  create: "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE, body TEXT NOT NULL DEFAULT '')",
  insert: "INSERT INTO notes(id, title) SELECT id, title FROM notes_old", name: "notes")
try notes.updateTable(create: "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT, body TEXT)", name: "notes")
check(try notes.tableColumns("notes") == ["id", "title", "body"], "updateTable")

// DatabaseError.
do {
  try notes.execute("INSERT INTO notes(id, title) VALUES (1, 'again')")
  check(false, "a duplicate key must throw")
} catch let error as DatabaseError {
  check(
    error.resultCode == .constraint && error.extendedResultCode == .constraintPrimaryKey && !error.message.isEmpty,
    "error codes")
  check(error.sql == "INSERT INTO notes(id, title) VALUES (1, 'again')", "error sql")
}
do {
  try notes.execute("INSERT INTO notes(id, title) VALUES (1, 'again')")
  check(false, "a duplicate key must throw")
} catch ResultCode.constraintUnique {
  check(false, "a primary key violation is not a UNIQUE one")
} catch ResultCode.constraint {
  check(true, "catch ResultCode.constraint")
} catch {
  check(false, "unexpected \(error)")
}

// Open by path, each mode.
let path = directory.appendingPathComponent("by-path.db").path
let created = try Database(path: path, mode: .readWriteCreate)
try created.execute("CREATE TABLE t(x)")
_ = try Database(path: path, mode: .readWrite)
let readOnly = try Database(path: path, mode: .readOnly)
do {
  try readOnly.execute("INSERT INTO t VALUES (1)")
  check(false, "a read-only database must refuse writes")
} catch let error as DatabaseError {
  check(error.resultCode == .readOnly, "SQLITE_READONLY")
}
readOnly.close()
check(!readOnly.isOpen, "closed")
do {
  _ = try readOnly.execute("SELECT 1")
  check(false, "a closed database must refuse every call")
} catch let error as DatabaseError {
  check(error.resultCode == .misuse, "SQLITE_MISUSE after close")
}
let memory = try Database(path: ":memory:")
check(try memory.execute("SELECT 1 + 1 AS two") == [["two": 2]], "in-memory database")
let _: OpenMode = .readWriteCreate

// The by-name constructor with its defaults: DatabaseLocation.default (the
// working directory here) and no creation SQL.
let previousDirectory = FileManager.default.currentDirectoryPath
check(FileManager.default.changeCurrentDirectoryPath(directory.path), "cd into the temporary directory")
let byDefaults = try Database(name: "defaults.db")
check(try byDefaults.execute("SELECT count(*) AS n FROM sqlite_master") == [["n": 0]], "empty database by name")
check(FileManager.default.fileExists(atPath: directory.appendingPathComponent("defaults.db").path), "default location")
check(FileManager.default.changeCurrentDirectoryPath(previousDirectory), "cd back")

// Statements and values (issue 3): named arguments, typed values, streaming,
// Decodable rows, scripts, validation, the statement cache.
let store = try Database(path: ":memory:")
try store.executeScript(
  """
  CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, created_at TEXT, score REAL);
  INSERT INTO notes(title, score) VALUES ('a', 1.5);
  """)
let named: NamedArguments = ["title": "b", "score": 2.0]
try store.execute("INSERT INTO notes(title, score) VALUES (:title, :score)", named)
check(try store.rows("SELECT title FROM notes WHERE id = :id", ["id": 2])[0]["title"] == "b", "named rows")
check(NamedArguments(["id": 1]).elements.count == 1, "NamedArguments(dictionary)")
let now = Date(timeIntervalSince1970: 1_700_000_000.25)
let title: String = "c"
try store.execute("INSERT INTO notes(title, created_at) VALUES (?, ?)", [title, now])
check(Int.fromDatabaseValue(.real(2.0)) == 2 && Int.fromDatabaseValue(.real(2.5)) == nil, "exact conversions")
check(42.databaseValue == .integer(42), "DatabaseValueConvertible")

var streamed = 0
try store.forEachRow("SELECT id, title, created_at FROM notes ORDER BY id") { (row: RowView) in
  streamed += 1
  check(row.count == 3 && row.columnName(1) == "title", "RowView shape")
  check(row[0] == .integer(Int64(streamed)) && row["TITLE"] != nil, "RowView subscripts")
  check(try row.get("id", as: Int.self) == streamed, "RowView.get")
  if streamed == 3 { check(try row.get("created_at", as: Date.self) == now, "dates round-trip") }
  check(row.copy().columnNames == ["id", "title", "created_at"], "RowView.copy")
}
check(streamed == 3, "forEachRow")
check(try store.rows("SELECT id FROM notes")[0].get("id", as: Int.self) == 1, "Row.get")

struct DecodedNote: Decodable, Equatable {
  let id: Int
  let title: String
  let createdAt: Date?
  let score: Double?
}
let notesDecoded = try store.fetch(
  DecodedNote.self, "SELECT * FROM notes ORDER BY id", keyDecoding: .convertFromSnakeCase)
check(notesDecoded.map(\.title) == ["a", "b", "c"] && notesDecoded[2].createdAt == now, "fetch")
check(try store.fetchOne(DecodedNote.self, "SELECT * FROM notes WHERE id = ?", [1])?.score == 1.5, "fetchOne")
check(try store.fetchOne(DecodedNote.self, "SELECT * FROM notes WHERE id = ?", [99]) == nil, "fetchOne none")

var scriptRows = 0
try store.executeScript("SELECT 1; SELECT 2 UNION ALL SELECT 3") { _ in scriptRows += 1 }
check(scriptRows == 3, "executeScript rows")
try store.validateSQL("SELECT * FROM notes")
do {
  try store.validateSQL("SELECT * FROM nowhere")
  check(false, "validateSQL must throw")
} catch let error as DatabaseError {
  check(error.resultCode == .error, "validateSQL error")
}
store.statementCacheCapacity = 8
check(store.statementCacheCapacity == 8, "statementCacheCapacity")
store.clearStatementCache()

// Prepared statements, firstRow and RowCursor (issue 10), and the busy
// timeout (issue 9).
let select = try store.makeStatement("SELECT title FROM notes WHERE id = ?")
check(select.sql == "SELECT title FROM notes WHERE id = ?" && select.parameterCount == 1, "Statement.sql")
check(select.parameterNames == [nil] && select.columnNames == ["title"] && select.isReadOnly, "Statement metadata")
check(try select.execute([2]) == [["title": "b"]] && (try select.rows([3]))[0]["title"] == "c", "Statement runs")
var selected = 0
try select.forEachRow([1]) { _ in selected += 1 }
check(selected == 1, "Statement.forEachRow")
let namedStatement = try store.makeStatement("SELECT :a + 1 AS b")
check(try namedStatement.execute(["a": 1]) == [["b": 2]], "Statement with named arguments")
check(try store.makeStatements("SELECT 1; SELECT 2").count == 2, "makeStatements")
check(try store.firstRow("SELECT id FROM notes ORDER BY id DESC")?["id"] == 3, "firstRow")
let cursor = try store.cursor("SELECT id FROM notes WHERE id > ? ORDER BY id", [1])
var cursorIDs: [Int] = []
while let row = try cursor.next() { cursorIDs.append(try row.get("id", as: Int.self)) }
check(cursorIDs == [2, 3] && cursor.columnNames == ["id"], "RowCursor")
var configuration = Configuration()
configuration.busyTimeout = .milliseconds(250)
let patient = try Database(path: ":memory:", configuration: configuration)
check(patient.busyTimeout == .milliseconds(250) && store.busyTimeout == .seconds(5), "busyTimeout")
check(ResultCode.constraintUnique.primary == .constraint, "ResultCode.primary")

// Transactions, migrations, schema introspection, table helpers, backup and
// database files (issue 11).
let issue11Path = directory.appendingPathComponent("issue11.db").path
let app = try Database(path: issue11Path)
var migrator = DatabaseMigrator()
migrator.registerMigration("create notes") { db in
  try db.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
}
migrator.registerMigration("tags") { db in
  try db.execute("CREATE TABLE tags(note INTEGER NOT NULL REFERENCES notes(id), name TEXT UNIQUE)")
}
try migrator.migrate(app, upTo: "create notes")
check(try !migrator.hasCompletedMigrations(app), "hasCompletedMigrations before")
try migrator.migrate(app)
check(try migrator.appliedMigrations(app) == ["create notes", "tags"], "appliedMigrations")
check(try migrator.hasCompletedMigrations(app) && app.userVersion() == 2, "migrated")

try app.inTransaction(.immediate) {
  try app.execute("INSERT INTO notes(title) VALUES ('kept')")
  try app.inSavepoint {
    try app.execute("INSERT INTO notes(title) VALUES ('undone')")
    return .rollback
  }
  return .commit
}
struct Cancelled: Error {}
do {
  try app.transaction(.exclusive) {
    try app.execute("INSERT INTO notes(title) VALUES ('dropped')")
    throw Cancelled()
  }
} catch is Cancelled {}
let inserted: Int64 = try app.transaction {
  try app.execute("INSERT INTO notes(title) VALUES ('saved')")
  return app.lastInsertRowID
}
check(
  try app.execute("SELECT title FROM notes ORDER BY id") == [["title": "kept"], ["title": "saved"]] && inserted == 2,
  "transactions")
try app.setUserVersion(7)
check(try app.userVersion() == 7, "userVersion")

check(try app.tableExists("NOTES") && !app.tableExists("nowhere") && !app.viewExists("notes"), "tableExists")
check(try !app.triggerExists("notes") && app.indexExists("sqlite_autoindex_tags_1"), "triggerExists/indexExists")
check(try app.tableNames() == ["notes", "sqlitebridge_migrations", "tags"], "tableNames")
let noteColumns = try app.columns(in: "notes")
check(
  noteColumns.map(\.name) == ["id", "title"] && noteColumns[1].isNotNull && noteColumns[0].primaryKeyIndex == 1,
  "columns")
check(try app.primaryKey(of: "tags") == ["rowid"], "primaryKey")
let tagIndexes = try app.indexes(on: "tags")
check(tagIndexes.count == 1 && tagIndexes[0].origin == .uniqueConstraint && tagIndexes[0].isUnique, "indexes")
let tagKeys = try app.foreignKeys(of: "tags")
check(tagKeys.count == 1 && tagKeys[0].destinationTable == "notes" && tagKeys[0].onDelete == "NO ACTION", "foreignKeys")
check(try app.integrityCheck() == [], "integrityCheck")
try app.execute("PRAGMA foreign_keys = OFF")
try app.execute("INSERT INTO tags(note, name) VALUES (99, 'orphan')")
let violations = try app.foreignKeyCheck()
check(
  violations.count == 1 && violations[0].table == "tags" && violations[0].destinationTable == "notes", "foreignKeyCheck"
)

// Table helpers: identifiers quoted, values bound, an empty WHERE refused.
let hostile = "x\"; DROP TABLE notes; --"
try app.createTable(
  hostile, ifNotExists: false,
  [
    ColumnDefinition("id", "INTEGER", primaryKey: true, autoincrement: true),
    ColumnDefinition("name", "TEXT", notNull: true, unique: true),
    ColumnDefinition("score", "REAL", defaultValue: 1.5),
    ColumnDefinition("note", "INTEGER", references: "notes(id)"),
  ])
check(try app.insert(into: hostile, ["name": "a"]) == 1, "insert")
try app.insert(into: hostile, ["name": "a", "score": 2.0], onConflict: .replace)
check(try app.update(hostile, set: ["score": 3.0], where: "name = ?", ["a"]) == 1, "update")
do {
  try app.delete(from: hostile, where: "")
  check(false, "an empty where must throw")
} catch let error as DatabaseError {
  check(error.resultCode == .misuse, "empty where")
}
try app.addColumn(ColumnDefinition("pinned", "INTEGER", notNull: true, defaultValue: 0), to: hostile)
let selectedRows = try app.select(
  ["name", "score", "pinned"], from: hostile, where: "score > ?", [2], orderBy: ["name"], limit: 5)
check(selectedRows == [["name": "a", "score": 3.0, "pinned": 0]], "select")
check(try app.delete(from: hostile, where: "1") == 1, "delete")
try app.dropTable(hostile)
try app.dropTable(hostile, ifExists: true)
check(try app.tableExists("notes"), "the hostile name stayed a name")

let appCopy = try Database(path: ":memory:")
var backupSteps = 0
try app.backup(to: appCopy, pagesPerStep: 1) { remaining, total in backupSteps += remaining < total ? 1 : 0 }
let copiedNotes = try appCopy.execute("SELECT count(*) AS n FROM notes")
check(backupSteps > 0 && copiedNotes == [["n": 2]], "backup")
check(try app.fileSize() > 0, "fileSize")
do {
  try Database.removeDatabase(atPath: issue11Path)
  check(false, "removeDatabase must refuse an open database")
} catch let error as DatabaseError {
  check(error.resultCode == .busy, "removeDatabase busy")
}
app.close()
try Database.removeDatabase(atPath: issue11Path)
try Database.removeDatabase(name: "issue11.db", location: DatabaseLocation(documentsDirectory: directory.path))
check(!FileManager.default.fileExists(atPath: issue11Path), "removeDatabase")

// Sharing a database: DatabaseQueue and DatabasePool. Inside an async
// function `read` and `write` are the async ones (awaited, on the library's
// threads); elsewhere the blocking ones.
func sharingBlocking(_ pool: DatabasePool, _ queue: DatabaseQueue, in directory: URL) throws {
  try pool.write { db in try db.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, n INT)") }
  check(try pool.read { db in try db.tableExists("notes") }, "pool sync read")
  do {
    try pool.read { _ in try pool.write { _ in } }
    check(false, "reentrant access must throw")
  } catch let error as DatabaseError {
    check(error.resultCode == .misuse, "reentrant access")
  }
  try pool.writeWithoutTransaction { db in try db.execute("PRAGMA user_version = 1") }
  try pool.checkpoint(.truncate)
  pool.interrupt()
  try queue.write { db in try db.execute("CREATE TABLE t(x)") }
  try queue.writeWithoutTransaction { db in try db.execute("VACUUM") }
  queue.interrupt()
  let namedQueue = try DatabaseQueue(
    name: "queue.db", createSQL: "CREATE TABLE t(x)", location: DatabaseLocation(documentsDirectory: directory.path))
  check(try namedQueue.read { db in try db.tableExists("t") }, "queue by name")
  let plain = try Database(path: ":memory:", configuration: Configuration())
  plain.interrupt()  // the one Database method safe from another thread
  do {
    _ = try DatabasePool(path: ":memory:")
    check(false, "a pool in memory must throw")
  } catch let error as DatabaseError {
    check(error.resultCode == .cantOpen, "pool in memory")
  }
  let modes: [CheckpointMode] = [.passive, .full, .restart, .truncate]
  check(modes.count == 4, "checkpoint modes")
}

func sharingAsync(_ pool: DatabasePool, _ queue: DatabaseQueue) async throws {
  try await withThrowingTaskGroup(of: Void.self) { group in
    for n in 0..<20 {
      group.addTask {
        try await pool.write { db in _ = try db.execute("INSERT INTO notes(n) VALUES (?)", [.integer(Int64(n))]) }
      }
    }
    try await group.waitForAll()
  }
  let count = try await pool.read { db in try db.rows("SELECT count(*) FROM notes")[0].get(0, as: Int.self) }
  check(count == 20, "pool async writes")
  let inserted = try await queue.write { db in try db.execute("INSERT INTO t VALUES (1)") }
  check(inserted.isEmpty, "queue async write")
  check(try await queue.read { db in try db.rows("SELECT count(*) FROM t")[0][0] } == 1, "queue async read")
  let cancelled = Task { try await queue.read { db in try db.rows("SELECT 1") } }
  cancelled.cancel()
  _ = try? await cancelled.value
}

var sharedConfiguration = Configuration()
sharedConfiguration.maximumReaderCount = 2
let sharedPool = try DatabasePool(
  path: directory.appendingPathComponent("shared.db").path, configuration: sharedConfiguration)
let sharedQueue = try DatabaseQueue(path: ":memory:")
try sharingBlocking(sharedPool, sharedQueue, in: directory)
try await sharingAsync(sharedPool, sharedQueue)

// Open options (issue 13).
var options = Configuration()
options.journalMode = JournalMode.wal
options.synchronous = Synchronous.normal
options.noFollowSymlinks = true
options.uriFilenames = true
let optionsDatabase = try Database(
  path: directory.appendingPathComponent("options.db").path, configuration: options)
check(try optionsDatabase.rows("PRAGMA journal_mode")[0][0] == .text(JournalMode.wal.rawValue), "journalMode")
var sharedCache = Configuration()
sharedCache.sharedCacheName = "swift-consumer"
let cacheWriter = try Database(path: ":memory:", configuration: sharedCache)
let cacheReader = try Database(path: ":memory:", configuration: sharedCache)
try cacheWriter.execute("CREATE TABLE t(x)")
check(try cacheReader.rows("SELECT count(*) FROM sqlite_master")[0][0] == 1, "sharedCacheName")

// Custom functions, aggregates and collations.
struct ConsumerTotal: DatabaseAggregate {
  var sum: Int64 = 0
  init() {}
  mutating func step(_ arguments: [DatabaseValue]) throws { if case .integer(let n) = arguments[0] { sum += n } }
  func finalize() throws -> DatabaseValue { .integer(sum) }
}
let functionsDatabase = try Database(path: ":memory:")
try functionsDatabase.createFunction("double_it", argumentCount: 1, deterministic: true) { arguments in
  guard case .integer(let n) = arguments[0] else { throw DatabaseError(code: 1, message: "not an integer") }
  return .integer(n * 2)
}
try functionsDatabase.createAggregate("total", argumentCount: 1, ConsumerTotal.self)
try functionsDatabase.createCollation("reversed") { a, b in
  a < b ? .orderedDescending : a > b ? .orderedAscending : .orderedSame
}
try functionsDatabase.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2);")
let functionRow = try functionsDatabase.rows(
  "SELECT double_it(21), total(x), (SELECT x FROM t ORDER BY CAST(x AS TEXT) COLLATE reversed) FROM t")[0]
check(functionRow[0] == 42 && functionRow[1] == 3 && functionRow[2] == 2, "functions, aggregates, collations")
check((try? functionsDatabase.execute("SELECT double_it('a')")) == nil, "a throwing function fails the query")
try functionsDatabase.removeFunction("double_it", argumentCount: 1)
try functionsDatabase.removeCollation("reversed")

// Tracing, hooks and library info.
do {
  let db = try Database(path: ":memory:")
  var events: [TraceEvent] = []
  db.trace([TraceOptions.statements, .profile, .expandedSQL]) { (event: TraceEvent) in events.append(event) }
  var commits = 0
  var rollbacks = 0
  var changes: [ChangeKind] = []
  db.onCommit { commits += 1 }
  db.onRollback { rollbacks += 1 }
  db.onChange { kind, _, _ in changes.append(kind) }
  try db.execute("CREATE TABLE t(x)")
  try db.execute("INSERT INTO t VALUES (?)", [42])
  check(events.count == 4, "trace events")
  check(
    events.count == 4 && events[2].kind == TraceEvent.Kind.statement && events[2].sql == "INSERT INTO t VALUES (?)",
    "trace statement")
  check(events.count == 4 && events[2].expandedSQL == "INSERT INTO t VALUES (42)", "trace expanded SQL")
  check(events.count == 4 && events[3].kind == .profile && events[3].duration != nil, "trace profile")
  check(commits == 2 && changes == [.insert], "commit and change hooks")
  try db.execute("BEGIN")
  try db.execute("ROLLBACK")
  check(rollbacks == 1, "rollback hook")
  db.trace(.statements, nil)
  db.onCommit(nil)
  db.onRollback(nil)
  db.onChange(nil)
  check(!Database.sqliteVersion.isEmpty && !Database.compileOptions().isEmpty, "library info")
  check(db.sqliteHandle != nil, "sqliteHandle")
  db.close()
  check(db.sqliteHandle == nil, "sqliteHandle after close")
}

// Records (issue 14): the README's notes example, as it is written there.
struct Note: FetchableRecord, PersistableRecord {
  static let databaseTableName = "notes"
  var id: Int64?
  var title: String
}
extension Note {  // in an extension, so that Note keeps its memberwise init
  init(row: RowView) throws {
    id = try row.get("id", as: Int64.self)
    title = try row.get("title", as: String.self)
  }
  func encode(to container: inout PersistenceContainer) {
    container["id"] = id  // nil: NULL, so SQLite picks the rowid
    container["title"] = title
  }
}

do {
  let documentsPath = directory.appendingPathComponent("records").path
  try FileManager.default.createDirectory(atPath: documentsPath, withIntermediateDirectories: true)
  let bundlePath: String? = nil
  let db = try Database(
    name: "notes.db",
    createSQL: "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL)",
    location: DatabaseLocation(documentsDirectory: documentsPath, bundleDirectory: bundlePath))

  var note = Note(id: nil, title: "Buy milk")
  note.id = try db.insert(note)  // the new rowid
  note.title = "Buy oat milk"
  try db.update(note)  // by primary key; no such row: .notFound
  let notes: [Note] = try db.fetch(Note.self, "SELECT * FROM notes ORDER BY id")
  let first: Note? = try db.fetchOne(Note.self, key: 1)
  try db.save(Note(id: 2, title: "Call mum"))  // update, else insert

  try db.execute("INSERT INTO notes(title) VALUES (?)", ["Water plants"])  // or plain SQL
  let rows: [Row] = try db.rows("SELECT id, title AS t, title FROM notes WHERE id = ?", [1])
  check(note.id == 1 && notes.map(\.title) == ["Buy oat milk"] && first?.title == "Buy oat milk", "records")
  check(rows[0]["T"] == .text("Buy oat milk") && db.lastInsertRowID == 3, "records next to SQL")
  check(try db.fetchAll(Note.self).map(\.title) == ["Buy oat milk", "Call mum", "Water plants"], "fetchAll")
  do {
    try db.update(Note(id: 9, title: "gone"))
    check(false, "updating a missing row must throw")
  } catch ResultCode.notFound {
    check(true, "update of a missing row")
  }
  check(try db.delete(note) && !(try db.delete(note)), "delete")
  var streamedTitles: [String] = []
  try db.forEach(Note.self, "SELECT * FROM notes WHERE id > ?", [1]) { streamedTitles.append($0.title) }
  check(streamedTitles == ["Call mum", "Water plants"], "forEach")
  check(try db.insert(Note(id: 2, title: "x"), onConflict: .ignore) == 0, "onConflict")
  var container = PersistenceContainer()
  container["title"] = "t"
  check(container["TITLE"] == .text("t") && container.columns == ["title"], "PersistenceContainer")
}

// Values bound without an array (issue 14).
do {
  let db = try Database(path: ":memory:")
  try db.execute("CREATE TABLE t(a INTEGER, b TEXT)")
  try db.execute("INSERT INTO t VALUES (?, ?)", values: 1, "one")
  var seen: [String] = []
  try db.forEachRow("SELECT b FROM t WHERE a = ?", values: 1) { row in seen.append(try row.get(0, as: String.self)) }
  check(seen == ["one"], "execute(_:values:) and forEachRow(_:values:body:)")
}

print("swift-consumer: every Swift contract name used and checked")
