import Foundation

/// The date text SQLiteBridge stores and reads, formatted and parsed by hand
/// with integer arithmetic (Howard Hinnant's days-from-civil algorithms, in
/// the proleptic Gregorian calendar, UTC). `DateFormatter` is slow and not
/// thread-safe on Linux, and a `Date` to text to `Date` round trip must be
/// exact to the millisecond for any year.
enum DatabaseDateFormat {
  /// Milliseconds from 1970-01-01 to 2001-01-01 (Foundation's reference date).
  static let referenceDateInUnixMilliseconds: Int64 = 978_307_200_000
  /// The Julian day of 1970-01-01 00:00 UTC, in milliseconds (2440587.5 days).
  static let unixEpochInJulianMilliseconds: Int64 = 210_866_760_000_000
  static let millisecondsPerDay: Int64 = 86_400_000
  /// Dates are kept within this many milliseconds of 1970 (about 285
  /// million years), so that no arithmetic on them overflows.
  static let maximumMilliseconds: Int64 = 9_000_000_000_000_000_000

  // MARK: Date <-> milliseconds

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

  /// The date of Unix time `seconds`; nil when it is out of range.
  static func date(unixSeconds seconds: Int64) -> Date? {
    let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
    guard !overflow, milliseconds > -maximumMilliseconds, milliseconds < maximumMilliseconds else { return nil }
    return date(unixMilliseconds: milliseconds)
  }

  /// The date of Julian day number `day` (what SQLite's `julianday()`
  /// returns), rounded to the millisecond as SQLite rounds it; nil when it
  /// is not finite or out of range.
  static func date(julianDay day: Double) -> Date? {
    let milliseconds = (day * Double(millisecondsPerDay)).rounded()
    guard milliseconds.isFinite, abs(milliseconds) < 9.0e18 else { return nil }
    return date(unixMilliseconds: Int64(milliseconds) - unixEpochInJulianMilliseconds)
  }

  // MARK: Calendar arithmetic

  /// Days since 1970-01-01 of the proleptic Gregorian date `year-month-day`.
  static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The proleptic Gregorian date `days` after 1970-01-01.
  static func civil(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  static func daysInMonth(_ month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2:
      let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
      return leap ? 29 : 28
    case 4, 6, 9, 11:
      return 30
    default:
      return 31
    }
  }

  // MARK: Text

  /// `yyyy-MM-dd HH:mm:ss.SSS` in UTC for `milliseconds` since 1970. Years
  /// before 0 get a `-` sign; years past 9999 get more digits.
  static func text(unixMilliseconds milliseconds: Int64) -> String {
    var days = milliseconds / millisecondsPerDay
    var millisecondOfDay = milliseconds % millisecondsPerDay
    if millisecondOfDay < 0 {
      days -= 1
      millisecondOfDay += millisecondsPerDay
    }
    let (year, month, day) = civil(days: days)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(24)
    if year < 0 { bytes.append(UInt8(ascii: "-")) }
    let yearDigits = Array(String(year.magnitude).utf8)
    bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, 4 - yearDigits.count)))
    bytes.append(contentsOf: yearDigits)
    func append(_ value: Int64, digits: Int, after separator: Character) {
      bytes.append(separator.asciiValue!)
      var divisor: Int64 = 1
      for _ in 1..<digits { divisor *= 10 }
      while divisor > 0 {
        bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
        divisor /= 10
      }
    }
    append(month, digits: 2, after: "-")
    append(day, digits: 2, after: "-")
    append(millisecondOfDay / 3_600_000, digits: 2, after: " ")
    append(millisecondOfDay / 60_000 % 60, digits: 2, after: ":")
    append(millisecondOfDay / 1000 % 60, digits: 2, after: ":")
    append(millisecondOfDay % 1000, digits: 3, after: ".")
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Parses `yyyy-MM-dd`, optionally followed by ` HH:mm`, `:ss` and
  /// `.SSS` (a space or `T` before the time; one or more fraction digits,
  /// rounded to the millisecond), then optionally `Z` or an offset `±HH:mm`
  /// (the text is local time at that offset). The year has at least four
  /// digits and may start with `-`. Nil for anything else, including an
  /// impossible date or time (2023-02-29, 24:00) and surrounding spaces.
  static func unixMilliseconds(text: String) -> Int64? {
    var text = text
    return text.withUTF8 { unixMilliseconds(utf8: $0) }
  }

  static func unixMilliseconds(utf8: UnsafeBufferPointer<UInt8>) -> Int64? {
    var scanner = Scanner(bytes: utf8)
    let negativeYear = scanner.skip("-")
    guard let yearDigits = scanner.digits(min: 4, max: 9) else { return nil }
    let year = negativeYear ? -yearDigits : yearDigits
    guard scanner.skip("-"), let month = scanner.digits(2), scanner.skip("-"), let day = scanner.digits(2),
      (1...12).contains(month), day >= 1, day <= daysInMonth(month, year: year)
    else { return nil }
    var millisecondOfDay: Int64 = 0
    if scanner.skip(" ") || scanner.skip("T") {
      guard let hour = scanner.digits(2), scanner.skip(":"), let minute = scanner.digits(2), hour < 24, minute < 60
      else { return nil }
      var second: Int64 = 0
      var millisecond: Int64 = 0
      if scanner.skip(":") {
        guard let seconds = scanner.digits(2), seconds < 60 else { return nil }
        second = seconds
        if scanner.skip(".") {
          guard let fraction = scanner.fractionMilliseconds() else { return nil }
          millisecond = fraction
        }
      }
      millisecondOfDay = ((hour * 60 + minute) * 60 + second) * 1000 + millisecond
      if !scanner.skip("Z"), scanner.peek("+") || scanner.peek("-") {
        let sign: Int64 = scanner.skip("+") ? 1 : -1
        scanner.position += sign < 0 ? 1 : 0
        guard let offsetHour = scanner.digits(2), scanner.skip(":"), let offsetMinute = scanner.digits(2),
          offsetHour < 24, offsetMinute < 60
        else { return nil }
        millisecondOfDay -= sign * (offsetHour * 60 + offsetMinute) * 60_000
      }
    }
    guard scanner.atEnd else { return nil }
    let (midnight, overflow) = days(year: year, month: month, day: day).multipliedReportingOverflow(
      by: millisecondsPerDay)
    let milliseconds = midnight &+ millisecondOfDay
    guard !overflow, milliseconds > -maximumMilliseconds, milliseconds < maximumMilliseconds else { return nil }
    return milliseconds
  }

  /// Reads ASCII bytes left to right.
  private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    var atEnd: Bool { position == bytes.count }

    func peek(_ character: Unicode.Scalar) -> Bool {
      position < bytes.count && bytes[position] == UInt8(ascii: character)
    }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
      guard peek(character) else { return false }
      position += 1
      return true
    }

    private func digit(at index: Int) -> Int64? {
      guard index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else {
        return nil
      }
      return Int64(bytes[index] - UInt8(ascii: "0"))
    }

    /// Exactly `count` digits.
    mutating func digits(_ count: Int) -> Int64? { digits(min: count, max: count) }

    /// `min` to `max` digits (as many as there are, up to `max`); nil when
    /// fewer than `min`.
    mutating func digits(min: Int, max: Int) -> Int64? {
      var value: Int64 = 0
      var count = 0
      while count < max, let digit = digit(at: position) {
        value = value * 10 + digit
        count += 1
        position += 1
      }
      return count >= min ? value : nil
    }

    /// One or more fraction digits as milliseconds, rounded half up on the
    /// fourth digit (1000 when `.9995` rounds up into the next second).
    mutating func fractionMilliseconds() -> Int64? {
      var milliseconds: Int64 = 0
      var count = 0
      var roundUp = false
      while let digit = digit(at: position) {
        if count < 3 {
          milliseconds = milliseconds * 10 + digit
        } else if count == 3 {
          roundUp = digit >= 5
        }
        count += 1
        position += 1
      }
      guard count > 0 else { return nil }
      for _ in count..<max(count, 3) { milliseconds *= 10 }
      return milliseconds + (roundUp ? 1 : 0)
    }
  }
}
