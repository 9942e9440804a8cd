import Foundation
import SQLiteBridgeCore

/// Dates as the core stores and reads them (`sqlitebridge/Date.hpp` owns the
/// text format, Unix seconds and Julian days); what stays here is only the
/// step between Foundation's `Date` and milliseconds since 1970.
enum DatabaseDateFormat {
  /// Milliseconds from 1970-01-01 to 2001-01-01 (Foundation's reference date).
  static let referenceDateInUnixMilliseconds: Int64 = 978_307_200_000

  /// `date` as whole milliseconds since 1970 (rounded to the nearest); nil
  /// for a non-finite date or one about 280 million years or more from 1970
  /// (no SQLite date is that far).
  static func unixMilliseconds(_ date: Date) -> Int64? {
    let milliseconds = (date.timeIntervalSinceReferenceDate * 1000).rounded()
    guard milliseconds.isFinite, abs(milliseconds) < 8.9e18 else { return nil }
    return Int64(milliseconds) + referenceDateInUnixMilliseconds
  }

  /// The date `milliseconds` after 1970 (counted from the reference date
  /// in integers first, so a stored millisecond comes back exactly).
  static func date(unixMilliseconds milliseconds: Int64) -> Date {
    Date(timeIntervalSinceReferenceDate: Double(milliseconds - referenceDateInUnixMilliseconds) / 1000)
  }

  /// The core's date text for `milliseconds` since 1970:
  /// `yyyy-MM-dd HH:mm:ss.SSS` in UTC.
  static func text(unixMilliseconds milliseconds: Int64) -> String {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(sqlitebridge.kDateTextCapacity)) { buffer in
      let length = sqlitebridge.writeDateText(milliseconds, buffer.baseAddress)
      return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: length), as: UTF8.self)
    }
  }

  /// The date `text` holds in a form the core reads (see
  /// `Date.fromDatabaseValue`); nil for anything else.
  static func date(text: String) -> Date? {
    var text = text
    return text.withUTF8 { bytes in
      var milliseconds: Int64 = 0
      guard sqlitebridge.parseDateText(bytes.baseAddress, bytes.count, &milliseconds) else { return nil }
      return date(unixMilliseconds: milliseconds)
    }
  }

  /// The date of Unix time `seconds`; nil when it is out of range.
  static func date(unixSeconds seconds: Int64) -> Date? {
    var milliseconds: Int64 = 0
    guard sqlitebridge.dateFromUnixSeconds(seconds, &milliseconds) else { return nil }
    return date(unixMilliseconds: milliseconds)
  }

  /// The date of Julian day number `day` (what SQLite's `julianday()`
  /// returns), rounded to the millisecond; nil when it is not finite or out
  /// of range.
  static func date(julianDay day: Double) -> Date? {
    var milliseconds: Int64 = 0
    guard sqlitebridge.dateFromJulianDay(day, &milliseconds) else { return nil }
    return date(unixMilliseconds: milliseconds)
  }
}
