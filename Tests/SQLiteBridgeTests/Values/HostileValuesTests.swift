import Foundation
import SQLiteBridge
import Testing

@Suite("Hostile input: values", .serialized)
struct HostileValuesTests {
  // MARK: Invalid UTF-8

  /// Byte strings that are not valid UTF-8, each for a different reason.
  static let invalidUTF8: [[UInt8]] = [
    [0xFF],  // never valid
    [0xC3, 0x28],  // bad continuation
    [0xE2, 0x82],  // truncated sequence
    [0xED, 0xA0, 0x80],  // UTF-16 surrogate
    [0xF4, 0x90, 0x80, 0x80],  // beyond U+10FFFF
    [0xC0, 0xAF],  // overlong "/"
    [0x80, 0x80],  // lone continuations
    Array("café ".utf8) + [0xFE, 0xFE] + Array(" ok".utf8),  // valid around invalid
    [0x61, 0x00, 0xFF, 0x00, 0x62],  // with NUL bytes
    [0xF0, 0x9F, 0x98],  // emoji cut short
    [UInt8](repeating: 0xA0, count: 300) + Array("long tail".utf8),
  ]

  struct Note: Decodable {
    var title: String
  }

  struct OptionalNote: Decodable {
    var title: String?
  }

  struct RawNote: Decodable {
    var title: Data
  }

  /// A table `notes(id, title)` whose row 1 holds `bytes` as TEXT, and row 2
  /// valid text.
  func notes(holding bytes: [UInt8]) throws -> Database {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT)")
    try database.execute("INSERT INTO notes(id, title) VALUES (1, CAST(? AS TEXT))", [.blob(Data(bytes))])
    try database.execute("INSERT INTO notes(id, title) VALUES (2, 'valid ✓')")
    #expect(try scalar(database, "SELECT typeof(title) FROM notes WHERE id = 1") == "text")
    return database
  }

  @Test(arguments: invalidUTF8)
  func invalidUTF8TextReadsAsABlobOfItsExactBytesInEveryReadPath(bytes: [UInt8]) throws {
    let database = try notes(holding: bytes)
    let exact = DatabaseValue.blob(Data(bytes))
    let sql = "SELECT title FROM notes ORDER BY id"
    // Dictionaries, rows, a streamed row view, a copied row, a script's rows.
    #expect(try database.execute(sql).map { $0["title"] } == [exact, "valid ✓"])
    #expect(try database.rows(sql).map { $0[0] } == [exact, "valid ✓"])
    var viewed: [DatabaseValue] = []
    var copied: [DatabaseValue] = []
    try database.forEachRow(sql) { row in
      viewed.append(row[0])
      copied.append(row.copy()[0])
    }
    #expect(viewed == [exact, "valid ✓"])
    #expect(copied == [exact, "valid ✓"])
    var scripted: [DatabaseValue] = []
    try database.executeScript(sql) { scripted.append($0[0]) }
    #expect(scripted == [exact, "valid ✓"])
    // As Data it reads exactly; reading never changed the stored text.
    #expect(try database.rows(sql)[0].get(0, as: Data.self) == Data(bytes))
    #expect(try database.fetch(RawNote.self, "SELECT title FROM notes WHERE id = 1").first?.title == Data(bytes))
    #expect(try scalar(database, "SELECT hex(title) FROM notes WHERE id = 1") == .text(hexString(bytes)))
    #expect(try scalar(database, "SELECT typeof(title) FROM notes WHERE id = 1") == "text")
  }

  @Test func invalidUTF8TextReadAsAStringThrowsAConversionErrorSayingSo() throws {
    let bytes: [UInt8] = [0x61, 0xFF, 0x62]
    let database = try notes(holding: bytes)
    let sql = "SELECT title FROM notes WHERE id = 1"
    // Straight from the statement: the storage class is known.
    var viewError: DatabaseError?
    try database.forEachRow(sql) { (row: RowView) throws in
      viewError = databaseError { _ = try row.get(0, as: String.self) }
      #expect(databaseError { _ = try row.get("title", as: String?.self) }?.resultCode == .mismatch)
      #expect(try row.get(0, as: Data.self) == Data(bytes))
    }
    #expect(viewError?.resultCode == .mismatch)
    #expect(viewError?.message.contains("not valid UTF-8") == true, "\(viewError?.message ?? "")")
    #expect(viewError?.message.contains("column \"title\"") == true)
    #expect(viewError?.sql == sql)
    // From a copied Row, which holds a blob: the message says why.
    let row = try #require(try database.rows(sql).first)
    let rowError = databaseError { _ = try row.get("title", as: String.self) }
    #expect(rowError?.resultCode == .mismatch)
    #expect(rowError?.message.contains("not valid UTF-8") == true, "\(rowError?.message ?? "")")
    // Decodable: a String property, an optional one, a single value.
    for decode in [
      { _ = try database.fetch(Note.self, sql) },
      { _ = try database.fetch(OptionalNote.self, sql) },
      { _ = try database.fetch(String.self, sql) },
      { _ = try database.fetchOne(String?.self, sql) },
    ] as [() throws -> Void] {
      do {
        try decode()
        Issue.record("decoding invalid UTF-8 as a String must throw")
      } catch DecodingError.typeMismatch(_, let context) {
        let underlying = context.underlyingError as? DatabaseError
        #expect(underlying?.resultCode == .mismatch)
        #expect(context.debugDescription.contains("not valid UTF-8"), "\(context.debugDescription)")
      }
    }
    // Valid text beside it still decodes.
    #expect(try database.fetch(Note.self, "SELECT title FROM notes WHERE id = 2").map(\.title) == ["valid ✓"])
  }

  @Test func validTextWithNulAndNonAsciiCharactersStaysText() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE t(v)")
    let texts = ["\0", "a\0b\0", "\0lead", "ü\u{0}✓\u{10FFFF}", "\u{FFFD}", String(repeating: "é\0", count: 500)]
    for text in texts {
      try database.execute("DELETE FROM t")
      try database.execute("INSERT INTO t VALUES (?)", [.text(text)])
      #expect(try scalar(database, "SELECT length(CAST(v AS BLOB)) FROM t") == .integer(Int64(text.utf8.count)))
      #expect(try scalar(database, "SELECT v FROM t") == .text(text))
      #expect(try database.fetch(String.self, "SELECT v FROM t") == [text])
      #expect(try database.rows("SELECT v FROM t")[0].get(0, as: String.self) == text)
      #expect(try database.execute("SELECT count(*) AS n FROM t WHERE v = ?", [.text(text)])[0]["n"] == 1)
    }
  }

  // MARK: A 100 MB blob

  @Test func aHundredMegabyteBlobIsStoredAndReadBackExactlyInBoundedMemory() throws {
    let size = 100 * 1024 * 1024
    try withTemporaryDirectory { directory in
      let database = try Database(path: directory + "/big.db")
      try database.execute("CREATE TABLE blobs(id INTEGER PRIMARY KEY, b BLOB)")
      try database.execute("INSERT INTO blobs(id, b) VALUES (1, x'00')")
      // No other test may measure memory meanwhile: this one takes 300 MB.
      memoryHeavyTests.lock()
      defer { memoryHeavyTests.unlock() }
      let peakReset = resetProcessPeakResident()
      let baseline = processResident()
      do {
        // A pattern whose period (a prime) is no power of two, so a shifted
        // or repeated page would not compare equal.
        let chunk = Data((0..<65_521).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) })
        var bytes = Data(capacity: size + chunk.count)
        while bytes.count < size { bytes.append(chunk) }
        bytes.removeLast(bytes.count - size)
        try database.execute("INSERT INTO blobs(id, b) VALUES (2, ?)", [.blob(bytes)])
        #expect(try scalar(database, "SELECT length(b) FROM blobs WHERE id = 2") == .integer(Int64(size)))
        let read = try database.rows("SELECT b FROM blobs WHERE id = 2")
        guard case .blob(let back) = read.first?[0] else {
          Issue.record("the blob did not read back as a blob")
          return
        }
        #expect(back.count == size)
        #expect(back == bytes)
        #expect(try database.fetch(Data.self, "SELECT b FROM blobs WHERE id = 2").first == bytes)
      }
      if peakReset, !runningUnderASanitizer, let baseline {
        let peak = processPeakResident()
        // Writing holds the caller's Data, SQLite's copy and its record;
        // reading holds SQLite's value, the Row's Data and (fetch) one more,
        // beside the caller's original. Swift Testing may run other suites
        // at the same time, so the bound leaves room for their allocations.
        let copies = Double(peak - baseline) / Double(size)
        #expect(copies < 6, "peak grew by \(copies) times the blob's size")
      }
      #expect(try scalar(database, "SELECT hex(b) FROM blobs WHERE id = 1") == "00")
      #expect(try scalar(database, "PRAGMA integrity_check") == "ok")
    }
  }

  @Test func valuesBeyondTheLengthLimitFailWithTooBigAndInsertNothing() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE t(v)")
    try database.execute("INSERT INTO t VALUES ('kept')")
    // SQLITE_MAX_LENGTH is 1e9 by default: too big to allocate here, so the
    // SQL builds it.
    #expect(
      databaseError { try database.execute("INSERT INTO t VALUES (zeroblob(2000000000))") }?.resultCode == .tooBig)
    #expect(try database.rows("SELECT v FROM t").map { $0[0] } == ["kept"])
  }

  // MARK: Parameters

  @Test func moreArgumentsThanParametersFailWithRangeAndInsertNothing() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE t(v)")
    try database.execute("INSERT INTO t VALUES ('kept')")
    #expect(databaseError { try database.execute("INSERT INTO t VALUES (?)", ["a", "b"]) }?.resultCode == .range)
    #expect(
      databaseError {
        try database.execute("INSERT INTO t VALUES (?)", [DatabaseValue](repeating: 1, count: 10_000))
      }?.resultCode == .range)
    #expect(databaseError { try database.execute("INSERT INTO t VALUES ('none')", [1]) }?.resultCode == .range)
    #expect(
      databaseError { try database.execute("INSERT INTO t VALUES (:v)", ["v": 1, "w": 2]) }?.resultCode == .range)
    #expect(
      databaseError { try database.execute("INSERT INTO t VALUES (:v)", ["v": 1, "v": 2]) }?.resultCode == .range)
    #expect(try database.rows("SELECT v FROM t").map { $0[0] } == ["kept"])
  }

  @Test func parameterNumbersBeyondTheLimitAreRefused() throws {
    let database = try memoryDatabase()
    // SQLite's default limit is 32766 (999 before 3.32); find it from the
    // error rather than assume it.
    let error = databaseError { try database.execute("SELECT ?2147483647") }
    #expect(error?.resultCode == .error)
    let message = error?.message ?? ""
    let limit = Int(message.split(separator: "?").last.map { String($0.prefix { $0.isNumber }) } ?? "") ?? 0
    try #require(limit > 0, "no limit in \(message)")
    #expect(databaseError { try database.execute("SELECT ?\(limit + 1)") }?.resultCode == .error)
    #expect(databaseError { try database.execute("SELECT ?99999999999999999999") }?.resultCode == .error)
    var arguments = [DatabaseValue](repeating: .null, count: limit)
    arguments[limit - 1] = 42
    #expect(try database.rows("SELECT ?\(limit)", arguments).first?[0] == 42)
    arguments.append(43)
    #expect(databaseError { _ = try database.rows("SELECT ?\(limit)", arguments) }?.resultCode == .range)
  }

  // MARK: A full disk

  static let fullDiskSchema = """
    CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT);
    CREATE INDEX notes_title ON notes(title);
    CREATE TABLE log(msg TEXT);
    CREATE TRIGGER notes_log AFTER INSERT ON notes BEGIN INSERT INTO log VALUES (new.title); END;
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
    INSERT INTO notes(title, body) SELECT 'note ' || i, hex(randomblob(300)) FROM n;
    """

  /// The schema and every row of `notes` and `log`.
  func fullDiskState(_ database: Database) throws -> [String] {
    try schemaSnapshot(database).map { object in
      object.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "|")
    } + tableSnapshot(database, "notes").map { "\($0.values)" } + tableSnapshot(database, "log").map { "\($0.values)" }
  }

  /// Lets the file grow by two pages at most.
  func fillDisk(_ database: Database) throws {
    let pages = try scalar(database, "PRAGMA page_count")
    guard case .integer(let count) = pages else { throw DatabaseError(code: 1, message: "no page count") }
    try database.execute("PRAGMA max_page_count = \(count + 2)")
  }

  func expectIntactAndUsable(_ database: Database, _ before: [String]) throws {
    #expect(!database.isInTransaction)
    #expect(try fullDiskState(database) == before)
    #expect(try scalar(database, "PRAGMA integrity_check") == "ok")
    #expect(try scalar(database, "PRAGMA legacy_alter_table") == 0)
    try database.execute("PRAGMA max_page_count = 1073741823")
    try database.execute("INSERT INTO notes(title) VALUES ('after')")
    #expect(try scalar(database, "SELECT count(*) FROM notes") == 301)
  }

  @Test func anInsertOrTransactionThatDoesNotFitFailsWithFullAndLeavesNothingOfIt() throws {
    try withTemporaryDirectory { directory in
      let database = try Database(path: directory + "/full.db")
      try database.executeScript(Self.fullDiskSchema)
      let before = try fullDiskState(database)
      try fillDisk(database)
      let many = databaseError {
        try database.execute("INSERT INTO notes(title, body) SELECT 'new ' || id, hex(randomblob(2000)) FROM notes")
      }
      #expect(many?.resultCode == .full)
      try database.execute("BEGIN")
      try database.execute("INSERT INTO notes(title) VALUES ('small, fits')")
      let big = databaseError {
        try database.execute("INSERT INTO notes(title, body) VALUES ('big', ?)", [.blob(Data(count: 100_000))])
      }
      #expect(big?.resultCode == .full)
      if database.isInTransaction { try database.execute("ROLLBACK") }
      try expectIntactAndUsable(database, before)
    }
  }

  @Test func updateTableOnAFullDatabaseFailsWithFullAndLeavesTheTableIntact() throws {
    try withTemporaryDirectory { directory in
      let database = try Database(path: directory + "/full.db")
      try database.executeScript(Self.fullDiskSchema)
      let before = try fullDiskState(database)
      try fillDisk(database)
      let create = "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, pinned INT DEFAULT 0)"
      let error = databaseError { try database.updateTable(create: create, name: "notes") }
      #expect(error?.resultCode == .full)
      #expect(try tableNames(database).contains("notes_old") == false)
      try expectIntactAndUsable(database, before)
      try database.updateTable(create: create, name: "notes")
      #expect(try scalar(database, "SELECT count(*) FROM notes WHERE pinned = 0") == 301)
    }
  }

  @Test func createSQLThatFillsTheDiskLeavesNoDatabaseBehind() throws {
    try withTemporaryDirectory { (directory: String) throws in
      let error = databaseError {
        _ = try Database(
          name: "full.db",
          createSQL: "PRAGMA max_page_count = 3; CREATE TABLE t(v); INSERT INTO t VALUES (zeroblob(100000));",
          location: DatabaseLocation(documentsDirectory: directory))
      }
      #expect(error?.resultCode == .full)
      #expect(try directoryContents(directory) == [])
    }
  }
}

/// Upper-case hex of `bytes`, as SQLite's hex() writes it.
func hexString(_ bytes: [UInt8]) -> String {
  bytes.map { String(format: "%02X", $0) }.joined()
}
