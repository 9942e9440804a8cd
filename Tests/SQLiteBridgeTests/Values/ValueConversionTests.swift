import Foundation
import SQLiteBridge
import Testing

@Suite("DatabaseValueConvertible conversions")
struct ValueConversionTests {
  /// Stores `value` in an untyped column (no affinity: nothing converts it),
  /// and returns what comes back as `T` with SQLite's `typeof` of it.
  private func roundTrip<T: DatabaseValueConvertible>(_ value: T) throws -> (T, String) {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE t(v)")
    try database.execute("INSERT INTO t(v) VALUES (?)", [value.databaseValue])
    let row = try #require(try database.rows("SELECT v, typeof(v) AS type FROM t").first)
    return (try row.get("v", as: T.self), try row.get("type", as: String.self))
  }

  // MARK: Round trips through the database

  @Test func integersOfEveryWidthRoundTripAsIntegers() throws {
    #expect(try roundTrip(Int.max) == (Int.max, "integer"))
    #expect(try roundTrip(Int.min) == (Int.min, "integer"))
    #expect(try roundTrip(Int8.min) == (Int8.min, "integer"))
    #expect(try roundTrip(Int8.max) == (Int8.max, "integer"))
    #expect(try roundTrip(Int16.min) == (Int16.min, "integer"))
    #expect(try roundTrip(Int32.max) == (Int32.max, "integer"))
    #expect(try roundTrip(Int64.min) == (Int64.min, "integer"))
    #expect(try roundTrip(UInt8.max) == (UInt8.max, "integer"))
    #expect(try roundTrip(UInt16.max) == (UInt16.max, "integer"))
    #expect(try roundTrip(UInt32.max) == (UInt32.max, "integer"))
  }

  @Test func boolRoundTripsAsOneAndZero() throws {
    #expect(try roundTrip(true) == (true, "integer"))
    #expect(try roundTrip(false) == (false, "integer"))
    #expect(true.databaseValue == .integer(1))
    #expect(false.databaseValue == .integer(0))
  }

  @Test func floatingPointRoundTripsAsReals() throws {
    #expect(try roundTrip(1.5) == (1.5, "real"))
    #expect(try roundTrip(-0.1) == (-0.1, "real"))
    #expect(try roundTrip(Double.infinity) == (.infinity, "real"))
    #expect(try roundTrip(Double.greatestFiniteMagnitude) == (.greatestFiniteMagnitude, "real"))
    #expect(try roundTrip(Float(1.25)) == (1.25, "real"))
    #expect(try roundTrip(Float.leastNonzeroMagnitude) == (.leastNonzeroMagnitude, "real"))
  }

  @Test func stringRoundTripsAsTextKeepingEmbeddedNUL() throws {
    #expect(try roundTrip("héllo\u{0}wörld") == ("héllo\u{0}wörld", "text"))
    #expect(try roundTrip("") == ("", "text"))
  }

  @Test func dataRoundTripsAsBlobAndEmptyDataIsNotNull() throws {
    #expect(try roundTrip(Data([0, 1, 255])) == (Data([0, 1, 255]), "blob"))
    #expect(try roundTrip(Data()) == (Data(), "blob"))
  }

  @Test func uuidRoundTripsAsSixteenByteBlob() throws {
    let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
    #expect(try roundTrip(uuid) == (uuid, "blob"))
    let bytes: [UInt8] = [
      0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A, 0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F,
    ]
    #expect(uuid.databaseValue == .blob(Data(bytes)))
  }

  @Test func dateRoundTripsAsText() throws {
    let date = Date(timeIntervalSince1970: 1_709_642_096.789)
    let (back, type) = try roundTrip(date)
    #expect(type == "text")
    #expect(back.databaseValue == .text("2024-03-05 12:34:56.789"))
    #expect(abs(back.timeIntervalSince(date)) < 0.000_001)
  }

  @Test func optionalRoundTripsNilAsNull() throws {
    #expect(try roundTrip(Int?.none) == (nil, "null"))
    #expect(try roundTrip(Int?.some(7)) == (7, "integer"))
    #expect(try roundTrip(String?.some("x")) == ("x", "text"))
    #expect(Int?.none.databaseValue == .null)
  }

  @Test func databaseValueRoundTripsAsItself() throws {
    for value: DatabaseValue in [.null, .integer(-3), .real(2.5), .text("t"), .blob(Data([9]))] {
      #expect(try roundTrip(value).0 == value)
      #expect(DatabaseValue.fromDatabaseValue(value) == value)
    }
  }

  // MARK: Exact conversions

  @Test func integralRealReadsAsIntegerButFractionalRealDoesNot() {
    #expect(Int.fromDatabaseValue(.real(2.0)) == 2)
    #expect(Int8.fromDatabaseValue(.real(-128.0)) == -128)
    #expect(Int.fromDatabaseValue(.real(2.5)) == nil)
    #expect(Int64.fromDatabaseValue(.real(-0.5)) == nil)
    #expect(Int.fromDatabaseValue(.real(9_223_372_036_854_775_808.0)) == nil)
    #expect(Int.fromDatabaseValue(.real(-9_223_372_036_854_775_808.0)) == Int.min)
    #expect(Int.fromDatabaseValue(.real(.infinity)) == nil)
    #expect(Int.fromDatabaseValue(.real(.nan)) == nil)
  }

  @Test func outOfRangeIntegersFail() {
    #expect(UInt8.fromDatabaseValue(.integer(300)) == nil)
    #expect(UInt8.fromDatabaseValue(.integer(255)) == 255)
    #expect(UInt8.fromDatabaseValue(.integer(-1)) == nil)
    #expect(Int8.fromDatabaseValue(.integer(-129)) == nil)
    #expect(Int8.fromDatabaseValue(.integer(128)) == nil)
    #expect(Int16.fromDatabaseValue(.integer(32768)) == nil)
    #expect(UInt16.fromDatabaseValue(.integer(65536)) == nil)
    #expect(Int32.fromDatabaseValue(.integer(2_147_483_648)) == nil)
    #expect(Int32.fromDatabaseValue(.integer(-2_147_483_648)) == Int32.min)
    #expect(UInt32.fromDatabaseValue(.integer(4_294_967_296)) == nil)
    #expect(UInt32.fromDatabaseValue(.integer(-1)) == nil)
    #expect(UInt8.fromDatabaseValue(.real(256.0)) == nil)
  }

  @Test func textIsNeverParsedAsANumber() {
    #expect(Int.fromDatabaseValue(.text("42")) == nil)
    #expect(Int64.fromDatabaseValue(.text("42")) == nil)
    #expect(Double.fromDatabaseValue(.text("1.5")) == nil)
    #expect(Float.fromDatabaseValue(.text("1.5")) == nil)
    #expect(Bool.fromDatabaseValue(.text("1")) == nil)
    #expect(Bool.fromDatabaseValue(.text("true")) == nil)
  }

  @Test func numbersAreNeverFormattedAsText() {
    #expect(String.fromDatabaseValue(.integer(42)) == nil)
    #expect(String.fromDatabaseValue(.real(1.5)) == nil)
    #expect(String.fromDatabaseValue(.blob(Data("a".utf8))) == nil)
  }

  @Test func nullNeverReadsAsANonOptional() {
    #expect(Int.fromDatabaseValue(.null) == nil)
    #expect(Bool.fromDatabaseValue(.null) == nil)
    #expect(Double.fromDatabaseValue(.null) == nil)
    #expect(String.fromDatabaseValue(.null) == nil)
    #expect(Data.fromDatabaseValue(.null) == nil)
    #expect(Date.fromDatabaseValue(.null) == nil)
    #expect(UUID.fromDatabaseValue(.null) == nil)
  }

  @Test func optionalReadsNullAsSomeNilAndPassesFailuresThrough() {
    // .some(nil): a successful read of NULL; nil: the read failed.
    #expect(Int?.fromDatabaseValue(.null) == .some(nil))
    #expect(Int?.fromDatabaseValue(.integer(4)) == .some(4))
    #expect(Int?.fromDatabaseValue(.text("4")) == nil)
    #expect(UInt8?.fromDatabaseValue(.integer(300)) == nil)
  }

  @Test func boolReadsAnyNonZeroIntegerAsTrue() {
    #expect(Bool.fromDatabaseValue(.integer(0)) == false)
    #expect(Bool.fromDatabaseValue(.integer(1)) == true)
    #expect(Bool.fromDatabaseValue(.integer(2)) == true)
    #expect(Bool.fromDatabaseValue(.integer(-1)) == true)
    #expect(Bool.fromDatabaseValue(.real(2.0)) == true)
    #expect(Bool.fromDatabaseValue(.real(0.0)) == false)
    #expect(Bool.fromDatabaseValue(.real(0.5)) == nil)
    #expect(Bool.fromDatabaseValue(.blob(Data([1]))) == nil)
  }

  @Test func integersReadAsFloatingPoint() {
    #expect(Double.fromDatabaseValue(.integer(3)) == 3.0)
    #expect(Double.fromDatabaseValue(.integer(-7)) == -7.0)
    #expect(Float.fromDatabaseValue(.integer(3)) == 3.0)
    #expect(Float.fromDatabaseValue(.integer(Int64.max)) == Float(Int64.max))
    #expect(Double.fromDatabaseValue(.blob(Data())) == nil)
  }

  @Test func floatReadsTheNearestFloatButNotAFiniteValueBeyondItsRange() {
    #expect(Float.fromDatabaseValue(.real(0.1)) == Float(0.1))
    #expect(Float.fromDatabaseValue(.real(1e300)) == nil)
    #expect(Float.fromDatabaseValue(.real(-1e300)) == nil)
    #expect(Float.fromDatabaseValue(.real(.infinity)) == .infinity)
  }

  @Test func dataReadsOnlyBlobsAndTextIsNotABlob() {
    #expect(Data.fromDatabaseValue(.blob(Data([1, 2]))) == Data([1, 2]))
    #expect(Data.fromDatabaseValue(.text("ab")) == nil)
    #expect(Data.fromDatabaseValue(.integer(1)) == nil)
  }

  @Test func uuidReadsSixteenByteBlobsAndItsTextForm() throws {
    let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
    #expect(UUID.fromDatabaseValue(.text("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")) == uuid)
    #expect(UUID.fromDatabaseValue(.text("e621e1f8-c36c-495a-93fc-0c247a3e6e5f")) == uuid)
    #expect(UUID.fromDatabaseValue(uuid.databaseValue) == uuid)
    #expect(UUID.fromDatabaseValue(.blob(Data(repeating: 1, count: 15))) == nil)
    #expect(UUID.fromDatabaseValue(.blob(Data(repeating: 1, count: 17))) == nil)
    #expect(UUID.fromDatabaseValue(.text("not a uuid")) == nil)
    #expect(UUID.fromDatabaseValue(.integer(1)) == nil)
  }

  // MARK: Failures through the database

  /// The error `row.get(column, as: type)` throws.
  private func failure<T: DatabaseValueConvertible>(_ row: Row, _ column: String, _ type: T.Type) throws
    -> DatabaseError
  {
    try #require(throws: DatabaseError.self) { try row.get(column, as: type) }
  }

  @Test func conversionFailuresFromTheDatabaseThrowMismatchNamingColumnValueAndType() throws {
    let database = try memoryDatabase()
    let row = try #require(
      try database.rows("SELECT 'abc' AS t, 300 AS big, NULL AS n, 2.5 AS f, '42' AS digits, x'0102' AS b").first)
    let cases: [(DatabaseError, String)] = [
      (try failure(row, "t", Int.self), #"column "t" holds text 'abc', which does not convert to Int"#),
      (try failure(row, "big", UInt8.self), #"column "big" holds integer 300, which does not convert to UInt8"#),
      (try failure(row, "n", Int.self), #"column "n" holds NULL, which does not convert to Int"#),
      (try failure(row, "f", Int.self), #"column "f" holds real 2.5, which does not convert to Int"#),
      (try failure(row, "digits", Int.self), #"column "digits" holds text '42', which does not convert to Int"#),
      (try failure(row, "b", String.self), #"column "b" holds a blob of 2 byte(s), which does not convert to String"#),
      (try failure(row, "t", Data.self), #"column "t" holds text 'abc', which does not convert to Data"#),
      (try failure(row, "t", Date.self), #"column "t" holds text 'abc', which does not convert to Date"#),
      (try failure(row, "t", Int?.self), #"column "t" holds text 'abc', which does not convert to Int?"#),
    ]
    for (error, message) in cases {
      #expect(error.resultCode == .mismatch)
      #expect(error.message == message)
    }
  }
}
