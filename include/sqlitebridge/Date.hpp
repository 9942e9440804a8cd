#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <ratio>
#include <string>
#include <type_traits>

#include "Export.hpp"

namespace sqlitebridge {

// Dates as SQLiteBridge stores and reads them, in both languages (the Swift
// facade calls these): UTC text `yyyy-MM-dd HH:mm:ss.SSS` in the proleptic
// Gregorian calendar, counted in whole milliseconds since 1970-01-01
// 00:00:00 UTC ("Unix milliseconds"). Formatting and parsing use integer
// arithmetic only (Howard Hinnant's days-from-civil algorithms), so that a
// millisecond written as text reads back exactly, for any year.

/// Dates are kept strictly within this many milliseconds of 1970 (about 285
/// million years either way), so that no arithmetic on them overflows.
inline constexpr std::int64_t kMaximumDateMilliseconds = 9'000'000'000'000'000'000;

/// The UTC text `yyyy-MM-dd HH:mm:ss.SSS` of `unixMilliseconds` since 1970
/// (e.g. `2024-03-05 12:34:56.789`), which SQLite's date functions read and
/// which sorts in time order for years 0000...9999. A year before 0 is
/// written with a `-` sign and at least four digits (`-0001-...`), a year
/// past 9999 with as many digits as it has. Any `std::int64_t` is accepted
/// (a negative count is before 1970: -1 is `1969-12-31 23:59:59.999`).
///
/// Throws std::bad_alloc when the string cannot be allocated; nothing else
/// fails.
SQLITEBRIDGE_API std::string formatDateText(std::int64_t unixMilliseconds);

/// Room for the longest date text: a sign, a 9-digit year (an int64 of
/// milliseconds reaches year 292'278'994) and `-MM-dd HH:mm:ss.SSS`.
inline constexpr std::size_t kDateTextCapacity = 32;

/// `formatDateText` into `buffer`, which has room for `kDateTextCapacity`
/// bytes (no NUL is written); returns the text's length. Allocates nothing
/// and never fails (what the Swift facade calls to store a `Date`).
SQLITEBRIDGE_API std::size_t writeDateText(std::int64_t unixMilliseconds, char* buffer) noexcept;

/// Parses `size` bytes of UTF-8 date text at `utf8` into milliseconds since
/// 1970, in UTC. Accepted, and nothing else:
/// - `yyyy-MM-dd`: a year of 4 to 9 digits, optionally after a `-`, then a
///   month and a day of two digits each;
/// - optionally a space or `T`, then `HH:mm`, optionally `:ss`, optionally
///   (after seconds only) `.` and one or more fraction digits, rounded to the
///   millisecond half up on the fourth digit (`59.9995` is the next second);
/// - after a time only, optionally `Z` (UTC, the default) or an offset
///   `+HH:mm` or `-HH:mm` (the text is local time at that offset).
///
/// Returns false, leaving `unixMilliseconds` alone, for anything else: an
/// impossible date or time (`2023-02-29`, `24:00`, `12:60`), spaces around
/// the text, anything after it (a NUL byte included), or a date not strictly
/// within `kMaximumDateMilliseconds` of 1970. `utf8` may be null when `size`
/// is 0 (which fails: empty text is no date).
SQLITEBRIDGE_API bool parseDateText(const void* utf8, std::size_t size, std::int64_t& unixMilliseconds) noexcept;

/// The date of Unix time `seconds` (seconds since 1970-01-01 00:00:00 UTC,
/// what an integer column holds), in milliseconds. Returns false, leaving
/// `unixMilliseconds` alone, when `seconds * 1000` overflows or is not
/// strictly within `kMaximumDateMilliseconds`.
SQLITEBRIDGE_API bool dateFromUnixSeconds(std::int64_t seconds, std::int64_t& unixMilliseconds) noexcept;

/// The date of Julian day number `day` (what SQLite's `julianday()`
/// returns; 2440587.5 is 1970-01-01 00:00:00 UTC), in milliseconds since
/// 1970: `day * 86400000` rounded to the nearest integer (halves away from
/// zero), less the Julian day of 1970 in milliseconds. Returns false,
/// leaving `unixMilliseconds` alone, when `day * 86400000` is not finite or
/// its magnitude is 9.0e18 or more. As in the Swift facade, the result
/// itself is not checked against `kMaximumDateMilliseconds`: a day just
/// inside the lower bound gives up to 210866760000000 ms below it.
SQLITEBRIDGE_API bool dateFromJulianDay(double day, std::int64_t& unixMilliseconds) noexcept;

namespace detail {
// Ticks of std::chrono::system_clock per millisecond (1'000'000 with
// libstdc++'s nanoseconds, 1'000 with libc++'s microseconds).
using SystemTicksPerMillisecond = std::ratio_divide<std::milli, std::chrono::system_clock::period>;
static_assert(SystemTicksPerMillisecond::den == 1,
              "system_clock must count whole fractions of a millisecond (nanoseconds, microseconds, ...)");
static_assert(std::is_integral_v<std::chrono::system_clock::rep> && std::is_signed_v<std::chrono::system_clock::rep> &&
                  sizeof(std::chrono::system_clock::rep) <= sizeof(std::int64_t),
              "system_clock must count in a signed integer of at most 64 bits");
}  // namespace detail

/// `time` as whole milliseconds since 1970-01-01 00:00:00 UTC (the epoch of
/// `std::chrono::system_clock` on every standard library, and by rule since
/// C++20), rounded to the nearest millisecond, a tie to the even one — the
/// result of `std::chrono::round<std::chrono::milliseconds>`, computed
/// without its overflow at the ends of the clock's range. Never fails: every
/// time point fits.
inline std::int64_t unixMillisecondsOf(std::chrono::system_clock::time_point time) noexcept {
  constexpr std::int64_t perMillisecond = detail::SystemTicksPerMillisecond::num;
  const std::int64_t ticks = time.time_since_epoch().count();
  std::int64_t milliseconds = ticks / perMillisecond;
  std::int64_t rest = ticks % perMillisecond;
  if (rest < 0) {  // floor, so that the rest counts forward
    milliseconds -= 1;
    rest += perMillisecond;
  }
  if (rest * 2 > perMillisecond || (rest * 2 == perMillisecond && milliseconds % 2 != 0)) milliseconds += 1;
  return milliseconds;
}

/// The `std::chrono::system_clock` time point `unixMilliseconds` after
/// 1970-01-01 00:00:00 UTC, exactly. Returns false, leaving `time` alone,
/// when the clock cannot hold it (with nanosecond ticks, as on Linux, a
/// time point spans only about 292 years either side of 1970).
inline bool timePointFromUnixMilliseconds(std::int64_t unixMilliseconds,
                                          std::chrono::system_clock::time_point& time) noexcept {
  using Duration = std::chrono::system_clock::duration;
  constexpr std::int64_t perMillisecond = detail::SystemTicksPerMillisecond::num;
  // Division truncates toward zero: the bounds are the first and last whole
  // milliseconds inside the range.
  constexpr std::int64_t lowest = static_cast<std::int64_t>(Duration::min().count()) / perMillisecond;
  constexpr std::int64_t highest = static_cast<std::int64_t>(Duration::max().count()) / perMillisecond;
  if (unixMilliseconds < lowest || unixMilliseconds > highest) return false;
  time = std::chrono::system_clock::time_point(Duration(static_cast<Duration::rep>(unixMilliseconds * perMillisecond)));
  return true;
}

}  // namespace sqlitebridge
