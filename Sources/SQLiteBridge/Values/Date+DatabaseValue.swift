import Foundation

extension Date: DatabaseValueConvertible {
  /// Stores UTC text `yyyy-MM-dd HH:mm:ss.SSS` (e.g.
  /// `2024-03-05 12:34:56.789`), rounded to the nearest millisecond, which
  /// SQLite's date functions read and which sorts in time order for years
  /// 0000...9999. Years before 0 are written with a `-` sign and years past
  /// 9999 with more digits (SQLite's functions do not read those).
  ///
  /// A date no text can hold (not finite, or more than about 280 million
  /// years from 1970) is stored as the text `invalid date: <seconds since
  /// 1970>`, which never reads back as a `Date` (reading it throws a
  /// conversion error), rather than crashing or storing a wrong date.
  public var databaseValue: DatabaseValue {
    guard let milliseconds = DatabaseDateFormat.unixMilliseconds(self) else {
      return .text("invalid date: \(timeIntervalSince1970)")
    }
    return .text(DatabaseDateFormat.text(unixMilliseconds: milliseconds))
  }

  /// Reads, to the millisecond:
  /// - text `yyyy-MM-dd`, optionally followed by a space or `T` and
  ///   `HH:mm`, `HH:mm:ss` or `HH:mm:ss.SSS` (any number of fraction
  ///   digits, rounded to the millisecond), then optionally `Z` (UTC, the
  ///   default) or an offset `+HH:mm`/`-HH:mm`. Nothing else is accepted:
  ///   no spaces around it, no impossible dates such as `2023-02-29`.
  /// - an integer as Unix time: seconds since 1970-01-01 00:00:00 UTC.
  /// - a real as a Julian day number, what SQLite's `julianday()` returns
  ///   (2440587.5 is 1970-01-01 00:00:00 UTC).
  ///
  /// Nil for other text, a blob, NULL, or a number out of range.
  public static func fromDatabaseValue(_ value: DatabaseValue) -> Date? {
    switch value {
    case .text(let text):
      return DatabaseDateFormat.date(text: text)
    case .integer(let seconds):
      return DatabaseDateFormat.date(unixSeconds: seconds)
    case .real(let julianDay):
      return DatabaseDateFormat.date(julianDay: julianDay)
    default:
      return nil
    }
  }
}
