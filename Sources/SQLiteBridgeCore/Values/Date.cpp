#include "sqlitebridge/Date.hpp"

#include <cmath>
#include <cstdint>

#include "sqlitebridge/Statement.hpp"
#include "sqlitebridge/Value.hpp"

namespace sqlitebridge {

// The rules here are those of the Swift facade's DatabaseDateFormat, which
// calls these functions: each step mirrors it, so that both languages write
// and read the same text.

namespace {

constexpr std::int64_t kMillisecondsPerDay = 86'400'000;
/// The Julian day of 1970-01-01 00:00 UTC, in milliseconds (2440587.5 days).
constexpr std::int64_t kUnixEpochInJulianMilliseconds = 210'866'760'000'000;

/// Days since 1970-01-01 of the proleptic Gregorian date `year-month-day`.
std::int64_t daysFromCivil(std::int64_t year, std::int64_t month, std::int64_t day) noexcept {
  const std::int64_t y = month <= 2 ? year - 1 : year;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const std::int64_t yearOfEra = y - era * 400;
  const std::int64_t dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const std::int64_t dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
  return era * 146'097 + dayOfEra - 719'468;
}

struct CivilDate {
  std::int64_t year;
  std::int64_t month;
  std::int64_t day;
};

/// The proleptic Gregorian date `days` after 1970-01-01.
CivilDate civilFromDays(std::int64_t days) noexcept {
  const std::int64_t z = days + 719'468;
  const std::int64_t era = (z >= 0 ? z : z - 146'096) / 146'097;
  const std::int64_t dayOfEra = z - era * 146'097;
  const std::int64_t yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36'524 - dayOfEra / 146'096) / 365;
  const std::int64_t dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
  const std::int64_t shiftedMonth = (5 * dayOfYear + 2) / 153;
  const std::int64_t day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1;
  const std::int64_t month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  return CivilDate{yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day};
}

std::int64_t daysInMonth(std::int64_t month, std::int64_t year) noexcept {
  switch (month) {
    case 2:
      return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28;
    case 4:
    case 6:
    case 9:
    case 11:
      return 30;
    default:
      return 31;
  }
}

/// Writes `separator` then `value` in exactly `digits` decimal digits
/// (`value` is not negative and has no more digits than that).
char* appendField(char* out, char separator, std::int64_t value, int digits) noexcept {
  *out++ = separator;
  for (int i = digits - 1; i >= 0; --i) {
    out[i] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  return out + digits;
}

/// Reads ASCII bytes left to right.
class Scanner {
 public:
  Scanner(const unsigned char* bytes, std::size_t size) noexcept : bytes_(bytes), size_(size) {}

  bool atEnd() const noexcept { return position_ == size_; }
  bool peek(char character) const noexcept {
    return position_ < size_ && bytes_[position_] == static_cast<unsigned char>(character);
  }
  bool skip(char character) noexcept {
    if (!peek(character)) return false;
    ++position_;
    return true;
  }

  /// Exactly `count` digits.
  bool digits(int count, std::int64_t& value) noexcept { return digits(count, count, value); }

  /// `min` to `max` digits (as many as there are, up to `max`); false when
  /// there are fewer than `min`.
  bool digits(int min, int max, std::int64_t& value) noexcept {
    std::int64_t result = 0;
    int count = 0;
    int digit = 0;
    while (count < max && digitAt(position_, digit)) {
      result = result * 10 + digit;
      ++count;
      ++position_;
    }
    if (count < min) return false;
    value = result;
    return true;
  }

  /// One or more fraction digits as milliseconds, rounded half up on the
  /// fourth digit (1000 when `.9995` rounds up into the next second).
  bool fractionMilliseconds(std::int64_t& value) noexcept {
    std::int64_t milliseconds = 0;
    std::size_t count = 0;
    bool roundUp = false;
    int digit = 0;
    while (digitAt(position_, digit)) {
      if (count < 3) {
        milliseconds = milliseconds * 10 + digit;
      } else if (count == 3) {
        roundUp = digit >= 5;
      }
      ++count;
      ++position_;
    }
    if (count == 0) return false;
    for (std::size_t i = count; i < 3; ++i) milliseconds *= 10;
    value = milliseconds + (roundUp ? 1 : 0);
    return true;
  }

 private:
  bool digitAt(std::size_t index, int& digit) const noexcept {
    if (index >= size_ || bytes_[index] < '0' || bytes_[index] > '9') return false;
    digit = bytes_[index] - '0';
    return true;
  }

  const unsigned char* bytes_;
  std::size_t size_;
  std::size_t position_ = 0;
};

}  // namespace

/// Writes the date text of `unixMilliseconds` (see formatDateText) into
/// `out`, which has room for kDateTextCapacity bytes; returns its length.
/// Allocates nothing, so that binding a date cannot run out of memory here.
std::size_t writeDateText(std::int64_t unixMilliseconds, char* out) noexcept {
  std::int64_t days = unixMilliseconds / kMillisecondsPerDay;
  std::int64_t millisecondOfDay = unixMilliseconds % kMillisecondsPerDay;
  if (millisecondOfDay < 0) {  // floor division, so that the time of day counts forward
    days -= 1;
    millisecondOfDay += kMillisecondsPerDay;
  }
  const CivilDate date = civilFromDays(days);
  char* const start = out;
  if (date.year < 0) *out++ = '-';
  std::uint64_t magnitude =
      date.year < 0 ? 0 - static_cast<std::uint64_t>(date.year) : static_cast<std::uint64_t>(date.year);
  char yearDigits[20];
  int count = 0;
  do {
    yearDigits[count++] = static_cast<char>('0' + magnitude % 10);
    magnitude /= 10;
  } while (magnitude != 0);
  for (int i = count; i < 4; ++i) *out++ = '0';
  while (count > 0) *out++ = yearDigits[--count];
  out = appendField(out, '-', date.month, 2);
  out = appendField(out, '-', date.day, 2);
  out = appendField(out, ' ', millisecondOfDay / 3'600'000, 2);
  out = appendField(out, ':', millisecondOfDay / 60'000 % 60, 2);
  out = appendField(out, ':', millisecondOfDay / 1000 % 60, 2);
  out = appendField(out, '.', millisecondOfDay % 1000, 3);
  return static_cast<std::size_t>(out - start);
}

std::string formatDateText(std::int64_t unixMilliseconds) {
  char text[kDateTextCapacity];
  return std::string(text, writeDateText(unixMilliseconds, text));
}

bool parseDateText(const void* utf8, std::size_t size, std::int64_t& unixMilliseconds) noexcept {
  if (utf8 == nullptr) return false;  // no bytes: no date
  Scanner scanner(static_cast<const unsigned char*>(utf8), size);
  const bool negativeYear = scanner.skip('-');
  std::int64_t yearDigits = 0;
  if (!scanner.digits(4, 9, yearDigits)) return false;
  const std::int64_t year = negativeYear ? -yearDigits : yearDigits;
  std::int64_t month = 0;
  std::int64_t day = 0;
  if (!scanner.skip('-') || !scanner.digits(2, month) || !scanner.skip('-') || !scanner.digits(2, day) || month < 1 ||
      month > 12 || day < 1 || day > daysInMonth(month, year)) {
    return false;
  }
  std::int64_t millisecondOfDay = 0;
  if (scanner.skip(' ') || scanner.skip('T')) {
    std::int64_t hour = 0;
    std::int64_t minute = 0;
    if (!scanner.digits(2, hour) || !scanner.skip(':') || !scanner.digits(2, minute) || hour >= 24 || minute >= 60) {
      return false;
    }
    std::int64_t second = 0;
    std::int64_t millisecond = 0;
    if (scanner.skip(':')) {
      if (!scanner.digits(2, second) || second >= 60) return false;
      if (scanner.skip('.') && !scanner.fractionMilliseconds(millisecond)) return false;
    }
    millisecondOfDay = ((hour * 60 + minute) * 60 + second) * 1000 + millisecond;
    if (!scanner.skip('Z') && (scanner.peek('+') || scanner.peek('-'))) {
      const std::int64_t sign = scanner.skip('+') ? 1 : -1;
      if (sign < 0) scanner.skip('-');
      std::int64_t offsetHour = 0;
      std::int64_t offsetMinute = 0;
      if (!scanner.digits(2, offsetHour) || !scanner.skip(':') || !scanner.digits(2, offsetMinute) ||
          offsetHour >= 24 || offsetMinute >= 60) {
        return false;
      }
      millisecondOfDay -= sign * (offsetHour * 60 + offsetMinute) * 60'000;
    }
  }
  if (!scanner.atEnd()) return false;
  // days * 86400000 must not overflow (a 9-digit year can make it).
  const std::int64_t days = daysFromCivil(year, month, day);
  if (days > INT64_MAX / kMillisecondsPerDay || days < INT64_MIN / kMillisecondsPerDay) return false;
  const std::int64_t midnight = days * kMillisecondsPerDay;
  // |millisecondOfDay| is under two days (a time, a rounded-up fraction and
  // an offset): a midnight this far out is out of range whatever the time,
  // and within it the sum cannot overflow.
  constexpr std::int64_t kSlack = 2 * kMillisecondsPerDay;
  if (midnight >= kMaximumDateMilliseconds + kSlack || midnight <= -kMaximumDateMilliseconds - kSlack) return false;
  const std::int64_t milliseconds = midnight + millisecondOfDay;
  if (milliseconds <= -kMaximumDateMilliseconds || milliseconds >= kMaximumDateMilliseconds) return false;
  unixMilliseconds = milliseconds;
  return true;
}

bool dateFromUnixSeconds(std::int64_t seconds, std::int64_t& unixMilliseconds) noexcept {
  // Strictly within the maximum, which is itself a whole number of seconds
  // and within the int64 range: no multiplication overflows past this.
  constexpr std::int64_t kLimit = kMaximumDateMilliseconds / 1000;
  static_assert(kLimit * 1000 == kMaximumDateMilliseconds, "the maximum is a whole number of seconds");
  if (seconds <= -kLimit || seconds >= kLimit) return false;
  unixMilliseconds = seconds * 1000;
  return true;
}

bool dateFromJulianDay(double day, std::int64_t& unixMilliseconds) noexcept {
  const double milliseconds = std::round(day * static_cast<double>(kMillisecondsPerDay));
  if (!std::isfinite(milliseconds) || std::fabs(milliseconds) >= 9.0e18) return false;
  unixMilliseconds = static_cast<std::int64_t>(milliseconds) - kUnixEpochInJulianMilliseconds;
  return true;
}

// MARK: Writing a std::chrono::system_clock::time_point

Value::Value(std::chrono::system_clock::time_point time) {
  char text[kDateTextCapacity];
  copyBytes(text, writeDateText(unixMillisecondsOf(time), text));
  type_ = static_cast<std::uint8_t>(ValueType::Text);
}

bool Statement::bind(int index, std::chrono::system_clock::time_point time) noexcept {
  char text[kDateTextCapacity];
  return bindText(index, text, writeDateText(unixMillisecondsOf(time), text));
}

}  // namespace sqlitebridge
