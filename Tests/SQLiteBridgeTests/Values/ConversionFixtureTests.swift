import Foundation
import SQLiteBridge
import Testing

// The shared conversion fixture, Tests/Fixtures/conversions.json, run against
// the Swift facade. The C++ core owns the conversion rules and generates the
// fixture (Tests/CxxTests/Values/ConversionFixtureTests.cpp; the command is in the
// file's "generatedBy"); here every case is read with `Row.get(_:as:)` and
// `RowView.get(_:as:)` and must give the same value, or the same result code
// and the same message with Swift's name for the type in place of {type}.

/// One stored value or one expected outcome, as the fixture writes it: exactly
/// the fields that apply are set.
struct FixtureValue: Codable, Equatable, Sendable {
  var null: Bool?
  var integer: String?
  var real: String?
  var text: String?
  var blob: String?
  var bool: Bool?
  var date: String?
  var uuid: String?
  var error: String?
  var message: String?
}

/// The decoded fixture, with each case's line as the file holds it.
struct ConversionFixture: Sendable {
  struct TypeEntry: Decodable, Sendable {
    let cxx: String
    let swift: String
  }

  struct Case: Decodable, Sendable {
    let stored: FixtureValue
    let type: String
    let expect: FixtureValue
  }

  private struct File: Decodable {
    let generatedBy: String
    let types: [String: TypeEntry]
    let cases: [Case]
  }

  let generatedBy: String
  let types: [String: TypeEntry]
  let cases: [Case]
  /// `lines[i]` is the JSON line of `cases[i]`.
  let lines: [String]

  static let path = fixturePath("conversions.json")

  /// The fixture, read once.
  static let shared: Result<ConversionFixture, any Error> = Result { try load() }

  private static func load() throws -> ConversionFixture {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let file = try JSONDecoder().decode(File.self, from: data)
    let text = String(decoding: data, as: UTF8.self)
    let allLines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let start = allLines.firstIndex(of: "  \"cases\": [") else {
      throw FixtureError("\(path) has no \"cases\" line")
    }
    let end = allLines[start...].firstIndex(of: "  ]") ?? allLines.endIndex
    let lines = allLines[(start + 1)..<end].map { line -> String in
      var line = Substring(line.drop { $0 == " " })
      if line.hasSuffix(",") { line = line.dropLast() }
      return String(line)
    }
    guard lines.count == file.cases.count else {
      throw FixtureError("\(path): \(file.cases.count) cases but \(lines.count) case lines; one case per line expected")
    }
    return ConversionFixture(generatedBy: file.generatedBy, types: file.types, cases: file.cases, lines: lines)
  }
}

struct FixtureError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

// MARK: Reading a value as a fixture type

/// Reads column "v" as one Swift type and renders what it read as the
/// fixture writes it.
struct FixtureReader {
  let swiftName: String
  /// Why the facade cannot read this type at all; nil when it can.
  var unsupportedReason: String? = nil
  let fromRow: (Row) throws -> FixtureValue
  let fromView: (RowView) throws -> FixtureValue

  /// Reads with `get("v", as: T.self)`, rendering the value with `render`.
  init<T: DatabaseValueConvertible>(_ type: T.Type, _ swiftName: String, _ render: @escaping (T) -> FixtureValue) {
    self.swiftName = swiftName
    fromRow = { try render($0.get("v", as: T.self)) }
    fromView = { try render($0.get("v", as: T.self)) }
  }

  /// A type the facade cannot read: every read fails with `reason`.
  init(unsupported swiftName: String, reason: String) {
    self.swiftName = swiftName
    unsupportedReason = reason
    fromRow = { _ in throw FixtureError(reason) }
    fromView = { _ in throw FixtureError(reason) }
  }

  /// Each fixture type and its Swift name, as the fixture's "types" lists
  /// them; the name is the one `DatabaseError` messages use for the type.
  static let swiftNames: [(fixture: String, swift: String)] = [
    ("int64", "Int64"), ("int32", "Int32"), ("int16", "Int16"), ("int8", "Int8"),
    ("uint64", "UInt64"), ("uint32", "UInt32"), ("uint16", "UInt16"), ("uint8", "UInt8"),
    ("bool", "Bool"), ("double", "Double"), ("float", "Float"), ("string", "String"), ("blob", "Data"),
    ("date", "Date"), ("uuid", "UUID"), ("optional-int64", "Int64?"), ("optional-string", "String?"),
    ("optional-date", "Date?"),
  ]

  /// The reader of fixture type `name`; nil for a name this suite does not
  /// know.
  static func reader(for name: String) -> FixtureReader? {
    switch name {
    case "int64": return FixtureReader(Int64.self, "Int64", integer)
    case "int32": return FixtureReader(Int32.self, "Int32", integer)
    case "int16": return FixtureReader(Int16.self, "Int16", integer)
    case "int8": return FixtureReader(Int8.self, "Int8", integer)
    case "uint64": return uint64Reader()
    case "uint32": return FixtureReader(UInt32.self, "UInt32", integer)
    case "uint16": return FixtureReader(UInt16.self, "UInt16", integer)
    case "uint8": return FixtureReader(UInt8.self, "UInt8", integer)
    case "bool": return FixtureReader(Bool.self, "Bool") { FixtureValue(bool: $0) }
    case "double": return FixtureReader(Double.self, "Double", real)
    case "float": return FixtureReader(Float.self, "Float") { real(Double($0)) }
    case "string": return FixtureReader(String.self, "String") { FixtureValue(text: $0) }
    case "blob": return FixtureReader(Data.self, "Data") { FixtureValue(blob: hex($0)) }
    case "date": return FixtureReader(Date.self, "Date", date)
    case "uuid": return FixtureReader(UUID.self, "UUID") { FixtureValue(uuid: $0.uuidString) }
    case "optional-int64": return FixtureReader(Int64?.self, "Int64?") { $0.map(integer) ?? FixtureValue(null: true) }
    case "optional-string":
      return FixtureReader(String?.self, "String?") { $0.map { FixtureValue(text: $0) } ?? FixtureValue(null: true) }
    case "optional-date": return FixtureReader(Date?.self, "Date?") { $0.map(date) ?? FixtureValue(null: true) }
    default: return nil
    }
  }

  /// UInt64 reads only if the facade makes it `DatabaseValueConvertible`
  /// (it does not today: "their upper half has no SQLite integer to be
  /// stored as"); checked at run time so that this file compiles either way.
  private static func uint64Reader() -> FixtureReader {
    let type: Any.Type = UInt64.self
    guard let convertible = type as? any DatabaseValueConvertible.Type else {
      return FixtureReader(
        unsupported: "UInt64",
        reason: "UInt64 is not DatabaseValueConvertible: Row.get and RowView.get cannot read it")
    }
    return openedReader(convertible)
  }

  private static func openedReader<T: DatabaseValueConvertible>(_ type: T.Type) -> FixtureReader {
    FixtureReader(type, "UInt64") { FixtureValue(integer: "\($0)") }
  }

  static func integer<T: BinaryInteger>(_ value: T) -> FixtureValue { FixtureValue(integer: String(value)) }

  /// `%.17g` of `value`, as the C++ core's side of the fixture writes it.
  static func real(_ value: Double) -> FixtureValue { FixtureValue(real: String(format: "%.17g", value)) }

  /// Milliseconds since 1970 (the facade keeps dates to the millisecond).
  static func date(_ value: Date) -> FixtureValue {
    let milliseconds = Int64((value.timeIntervalSinceReferenceDate * 1000).rounded()) + 978_307_200_000
    return FixtureValue(date: String(milliseconds))
  }

  static func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }
}

/// The DatabaseValue a fixture's stored value describes.
func databaseValue(_ stored: FixtureValue) throws -> DatabaseValue {
  if stored.null == true { return .null }
  if let integer = stored.integer {
    guard let value = Int64(integer) else { throw FixtureError("not an Int64: \(integer)") }
    return .integer(value)
  }
  if let real = stored.real {
    guard let value = Double(real) else { throw FixtureError("not a Double: \(real)") }
    return .real(value)
  }
  if let text = stored.text { return .text(text) }
  if let blob = stored.blob {
    let digits = Array(blob.utf8)
    guard digits.count % 2 == 0 else { throw FixtureError("odd hex: \(blob)") }
    var bytes = Data()
    for i in stride(from: 0, to: digits.count, by: 2) {
      guard let byte = UInt8(String(decoding: digits[i..<(i + 2)], as: UTF8.self), radix: 16) else {
        throw FixtureError("not hex: \(blob)")
      }
      bytes.append(byte)
    }
    return .blob(bytes)
  }
  throw FixtureError("a stored value with no storage class")
}

/// What a read did, as the fixture writes an outcome.
func fixtureOutcome(_ read: () throws -> FixtureValue) -> FixtureValue {
  do {
    return try read()
  } catch let error as DatabaseError {
    let code: String
    switch error.resultCode {
    case .mismatch: code = "mismatch"
    case .range: code = "range"
    default: code = "code \(error.code)"
    }
    return FixtureValue(error: code, message: error.message)
  } catch {
    return FixtureValue(error: "not a DatabaseError", message: "\(error)")
  }
}

func fixtureJSON(_ value: FixtureValue) -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  guard let data = try? encoder.encode(value) else { return "\(value)" }
  return String(decoding: data, as: UTF8.self)
}

// MARK: The suite

@Suite("Conversion fixture")
struct ConversionFixtureTests {
  static let typeNames = FixtureReader.swiftNames.map(\.fixture)

  @Test("The fixture lists every stored value as every type, with the types this suite maps")
  func fixtureIsComplete() throws {
    let fixture = try ConversionFixture.shared.get()
    #expect(fixture.generatedBy.contains("SQLITEBRIDGE_WRITE_FIXTURES=1"))
    #expect(Set(fixture.types.keys) == Set(Self.typeNames))
    for (name, swift) in FixtureReader.swiftNames {
      #expect(fixture.types[name]?.swift == swift, "Swift name of \(name)")
      #expect(FixtureReader.reader(for: name)?.swiftName == swift, "reader of \(name)")
    }
    var typesOfStored: [String: [String]] = [:]
    for fixtureCase in fixture.cases {
      typesOfStored[fixtureJSON(fixtureCase.stored), default: []].append(fixtureCase.type)
    }
    #expect(typesOfStored.count >= 50)
    for (stored, types) in typesOfStored {
      #expect(types.sorted() == Self.typeNames.sorted(), "types read from \(stored)")
    }
  }

  @Test("Row.get and RowView.get give each case's outcome and message", arguments: typeNames)
  func everyCase(of typeName: String) throws {
    let fixture = try ConversionFixture.shared.get()
    let reader = try #require(FixtureReader.reader(for: typeName), "no Swift reader for \(typeName)")
    if let reason = reader.unsupportedReason {
      // By design (UInt64: its upper half has no SQLite integer to be stored
      // as, and `databaseValue` cannot fail). Should the facade ever make the
      // type readable, the reader picks it up and every case runs.
      #expect(fixture.cases.contains { $0.type == typeName }, "the fixture has no \(typeName) case")
      print("Conversion fixture, \(typeName): not run in Swift: \(reason)")
      return
    }
    let database = try memoryDatabase()
    var total = 0
    var failed = 0
    for (index, fixtureCase) in fixture.cases.enumerated() where fixtureCase.type == typeName {
      total += 1
      let line = fixture.lines[index]
      if let problem = check(fixtureCase, reader: reader, database: database) {
        failed += 1
        Issue.record("\(line)\n\(problem)")
      }
    }
    #expect(total > 0, "the fixture has no \(typeName) case")
    print("Conversion fixture, \(typeName) (\(reader.swiftName)): \(total - failed) of \(total) cases pass")
  }

  /// Runs one case both ways; nil when both agree with the fixture, else what
  /// differs.
  private func check(_ fixtureCase: ConversionFixture.Case, reader: FixtureReader, database: Database) -> String? {
    var expected = fixtureCase.expect
    expected.message = expected.message?.replacingOccurrences(of: "{type}", with: reader.swiftName)
    let stored: DatabaseValue
    let rows: [Row]
    do {
      stored = try databaseValue(fixtureCase.stored)
      rows = try database.rows("SELECT ? AS v", [stored])
    } catch {
      return "  cannot make the row: \(error)"
    }
    guard rows.count == 1, rows[0].columnNames == ["v"], rows[0].values == [stored] else {
      return "  SELECT ? AS v gave \(rows.map(\.values)) instead of one row holding \(stored)"
    }
    var problems: [String] = []
    // Swift's one wording of its own: a copied Row cannot tell a blob from
    // text that was not valid UTF-8 (Swift reads such text as a blob), so
    // reading one as a String adds a note saying so (RowView knows the
    // storage class and adds none).
    var expectedViaRow = expected
    if case .blob(let bytes) = stored, reader.swiftName.hasPrefix("String"),
      String(data: bytes, encoding: .utf8) == nil, let message = expected.message
    {
      expectedViaRow.message = message.replacingOccurrences(
        of: " byte(s), which",
        with: " byte(s) that is not valid UTF-8 (text that is not valid UTF-8 reads as a blob), which")
    }
    let viaRow = fixtureOutcome { try reader.fromRow(rows[0]) }
    if viaRow != expectedViaRow { problems.append("  Row.get:     \(fixtureJSON(viaRow))") }
    var viaView: [FixtureValue] = []
    do {
      try database.forEachRow("SELECT ? AS v", [stored]) { view in
        viaView.append(fixtureOutcome { try reader.fromView(view) })
      }
    } catch {
      problems.append("  forEachRow failed: \(error)")
    }
    if viaView != [expected] {
      problems.append("  RowView.get: \(viaView.map(fixtureJSON).joined(separator: ", "))")
    }
    if problems.isEmpty { return nil }
    return "  expected:    \(fixtureJSON(expected))\n" + problems.joined(separator: "\n")
  }
}
