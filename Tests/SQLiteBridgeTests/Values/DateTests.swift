import Foundation
import SQLiteBridge
import Testing

@Suite("Dates")
struct DateTests {
  /// The date `milliseconds` after 1970, as a user would make it.
  private func date(_ milliseconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }

  /// Whole milliseconds since 1970 of `date`.
  private func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded())
  }

  private func text(_ date: Date) -> String? {
    if case .text(let text) = date.databaseValue { return text }
    return nil
  }

  /// The date of `text`, read as a stored date.
  private func parse(_ text: String) -> Date? {
    Date.fromDatabaseValue(.text(text))
  }

  // MARK: Storage format

  @Test func storesUTCTextWithMilliseconds() {
    #expect(text(date(0)) == "1970-01-01 00:00:00.000")
    #expect(text(date(1_709_642_096_789)) == "2024-03-05 12:34:56.789")
    #expect(text(date(951_782_400_000)) == "2000-02-29 00:00:00.000")
    #expect(text(date(1_709_251_199_999)) == "2024-02-29 23:59:59.999")
  }

  @Test func storedTextIsWhatSQLiteDateFunctionsRead() throws {
    let database = try memoryDatabase()
    let stored = date(1_709_642_096_789)
    let row = try #require(
      try database.rows(
        "SELECT typeof(?1) AS type, strftime('%Y-%m-%d %H:%M:%f', ?1) AS normalized, "
          + "CAST(strftime('%s', ?1) AS INTEGER) AS seconds",
        [stored.databaseValue]
      ).first)
    #expect(row["type"] == "text")
    #expect(row["normalized"] == "2024-03-05 12:34:56.789")
    #expect(row["seconds"] == .integer(1_709_642_096))
  }

  @Test func storageRoundsToTheNearestMillisecond() {
    #expect(text(Date(timeIntervalSince1970: 0.0004)) == "1970-01-01 00:00:00.000")
    #expect(text(Date(timeIntervalSince1970: 0.0006)) == "1970-01-01 00:00:00.001")
    #expect(text(Date(timeIntervalSince1970: 59.9996)) == "1970-01-01 00:01:00.000")
    #expect(text(Date(timeIntervalSince1970: -0.0006)) == "1969-12-31 23:59:59.999")
  }

  // MARK: Round trips

  @Test func roundTripIsExactToTheMillisecond() throws {
    var generator = SystemRandomNumberGenerator()
    var samples: [Int64] = [0, 1, -1, 999, -999, 1000, 86_399_999, -86_400_000, 1_709_642_096_789]
    for _ in 0..<2000 { samples.append(Int64.random(in: -62_135_596_800_000...253_402_300_799_999, using: &generator)) }
    for sample in samples {
      let original = date(sample)
      let stored = original.databaseValue
      let back = try #require(Date.fromDatabaseValue(stored))
      #expect(milliseconds(back) == sample, "\(stored)")
      // Reading what was read is stable: the same Date, bit for bit.
      #expect(Date.fromDatabaseValue(back.databaseValue) == back)
      #expect(back.databaseValue == stored)
    }
  }

  @Test func roundTripThroughTheDatabaseKeepsMilliseconds() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE events(at)")
    let original = date(1_709_642_096_789)
    try database.execute("INSERT INTO events(at) VALUES (?)", [original])
    let row = try #require(try database.rows("SELECT at FROM events").first)
    #expect(milliseconds(try row.get("at", as: Date.self)) == 1_709_642_096_789)
  }

  @Test func datesBefore1970Work() throws {
    let moonLanding = date(-14_182_940_000)
    #expect(text(moonLanding) == "1969-07-20 20:17:40.000")
    #expect(text(date(-2_208_988_800_000)) == "1900-01-01 00:00:00.000")
    #expect(text(date(-62_135_596_800_000)) == "0001-01-01 00:00:00.000")
    #expect(text(date(-62_135_596_800_001)) == "0000-12-31 23:59:59.999")
    #expect(text(date(-62_198_755_200_000)) == "-0001-01-01 00:00:00.000")
    for sample: Int64 in [-14_182_940_000, -2_208_988_800_000, -62_135_596_800_001, -62_198_755_200_000] {
      #expect(milliseconds(try #require(Date.fromDatabaseValue(date(sample).databaseValue))) == sample)
    }
  }

  @Test func datesAfter2038Work() throws {
    // One second past the 32-bit time_t limit.
    #expect(text(date(2_147_483_648_000)) == "2038-01-19 03:14:08.000")
    #expect(text(date(253_402_300_799_999)) == "9999-12-31 23:59:59.999")
    #expect(text(date(253_402_300_800_000)) == "10000-01-01 00:00:00.000")
    #expect(text(Date.distantFuture) == "4001-01-01 00:00:00.000")
    for sample: Int64 in [2_147_483_648_000, 253_402_300_799_999, 253_402_300_800_000] {
      #expect(milliseconds(try #require(Date.fromDatabaseValue(date(sample).databaseValue))) == sample)
    }
  }

  // MARK: Reading text

  @Test func readsTheTextVariants() {
    let expected: Int64 = 1_709_642_096_789
    let variants = [
      "2024-03-05 12:34:56.789", "2024-03-05T12:34:56.789", "2024-03-05 12:34:56.789Z", "2024-03-05T12:34:56.789Z",
      "2024-03-05T14:34:56.789+02:00", "2024-03-05T07:04:56.789-05:30",
    ]
    for variant in variants {
      #expect(parse(variant).map(milliseconds) == expected, "\(variant)")
    }
    #expect(parse("2024-03-05 12:34:56").map(milliseconds) == 1_709_642_096_000)
    #expect(parse("2024-03-05T12:34:56Z").map(milliseconds) == 1_709_642_096_000)
    #expect(parse("2024-03-05 12:34").map(milliseconds) == 1_709_642_040_000)
    #expect(parse("2024-03-05").map(milliseconds) == 1_709_596_800_000)
  }

  @Test func fractionDigitsBeyondThreeRoundToTheMillisecond() {
    #expect(parse("1970-01-01 00:00:00.7").map(milliseconds) == 700)
    #expect(parse("1970-01-01 00:00:00.78").map(milliseconds) == 780)
    #expect(parse("1970-01-01 00:00:00.78949").map(milliseconds) == 789)
    #expect(parse("1970-01-01 00:00:00.7895").map(milliseconds) == 790)
    #expect(parse("1970-01-01 00:00:00.9999").map(milliseconds) == 1000)
  }

  @Test func rejectsOtherText() {
    let rejected = [
      "", "2024", "2024-03", "2024-3-5", "05/03/2024", " 2024-03-05", "2024-03-05 ", "2024-03-05Z",
      "2024-03-05 12", "2024-03-05 12:34:56.", "2024-03-05 12:34:56,789", "2024-03-05 12:34:56.789+2",
      "2024-03-05x12:34:56", "2024-13-01", "2024-00-01", "2024-01-00", "2024-01-32", "2023-02-29", "1900-02-29",
      "2024-04-31", "2024-03-05 24:00:00", "2024-03-05 12:60:00", "2024-03-05 12:34:60", "now",
    ]
    for text in rejected {
      #expect(parse(text) == nil, "\(text)")
    }
    #expect(parse("2024-02-29") != nil)
    #expect(parse("2000-02-29") != nil)
  }

  @Test func unreadableTextFailsTypedAccessWithMismatch() throws {
    let database = try memoryDatabase()
    let row = try #require(try database.rows("SELECT 'yesterday' AS at").first)
    let error = try #require(throws: DatabaseError.self) { try row.get("at", as: Date.self) }
    #expect(error.resultCode == .mismatch)
    #expect(error.message == #"column "at" holds text 'yesterday', which does not convert to Date"#)
  }

  // MARK: Numbers

  @Test func readsAnIntegerAsUnixTime() throws {
    #expect(Date.fromDatabaseValue(.integer(0)).map(milliseconds) == 0)
    #expect(Date.fromDatabaseValue(.integer(1_709_642_096)).map(milliseconds) == 1_709_642_096_000)
    #expect(Date.fromDatabaseValue(.integer(-86_400)).map(milliseconds) == -86_400_000)
    #expect(Date.fromDatabaseValue(.integer(Int64.max)) == nil)
    let database = try memoryDatabase()
    let row = try #require(
      try database.rows("SELECT CAST(strftime('%s', '2024-03-05 12:34:56') AS INTEGER) AS at").first)
    #expect(milliseconds(try row.get("at", as: Date.self)) == 1_709_642_096_000)
  }

  @Test func readsARealAsAJulianDayNumber() throws {
    #expect(Date.fromDatabaseValue(.real(2_440_587.5)).map(milliseconds) == 0)
    #expect(Date.fromDatabaseValue(.real(2_440_588.0)).map(milliseconds) == 43_200_000)
    #expect(Date.fromDatabaseValue(.real(.infinity)) == nil)
    let database = try memoryDatabase()
    let row = try #require(
      try database.rows(
        "SELECT julianday('2024-03-05 12:34:56.789') AS recent, julianday('1969-07-20 20:17:40') AS old"
      ).first)
    #expect(milliseconds(try row.get("recent", as: Date.self)) == 1_709_642_096_789)
    #expect(milliseconds(try row.get("old", as: Date.self)) == -14_182_940_000)
  }

  @Test func blobsDoNotReadAsDates() {
    #expect(Date.fromDatabaseValue(.blob(Data("2024-03-05".utf8))) == nil)
  }

  @Test func aDateNoTextCanHoldIsStoredAsTextThatNeverReadsBack() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE t(at)")
    for date in [Date(timeIntervalSince1970: .infinity), Date(timeIntervalSince1970: 1e19)] {
      #expect(date.databaseValue == .text("invalid date: \(date.timeIntervalSince1970)"))
      #expect(Date.fromDatabaseValue(date.databaseValue) == nil)
      try database.execute("DELETE FROM t")
      try database.execute("INSERT INTO t(at) VALUES (?)", [date.databaseValue])
      let row = try #require(try database.rows("SELECT at FROM t").first)
      let error = try #require(throws: DatabaseError.self) { try row.get("at", as: Date.self) }
      #expect(error.resultCode == .mismatch)
      #expect(error.message.contains("\"at\""))
    }
  }
}
