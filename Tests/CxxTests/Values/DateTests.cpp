// Dates: the date text the core writes and reads (formatDateText,
// parseDateText: the rules the Swift facade's Date uses), Unix seconds and
// Julian days, and std::chrono::system_clock::time_point written through
// Value and Statement::bind and read back with RowView::get and Row::get.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "SQLiteVersionSupport.hpp"
#include "TestSupport.hpp"
#include "TypedReadSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::DecodedTypeName;
using sqlitebridge::Error;
using sqlitebridge::formatDateText;
using sqlitebridge::kMaximumDateMilliseconds;
using sqlitebridge::Row;
using sqlitebridge::RowView;
using sqlitebridge::Statement;
using sqlitebridge::StepResult;
using sqlitebridge::Value;
using sqlitebridge::ValueType;
using namespace sqlitebridge_test;
using std::chrono::microseconds;
using std::chrono::milliseconds;
using std::chrono::nanoseconds;

namespace {

using TimePoint = std::chrono::system_clock::time_point;

/// 2024-03-05 12:34:56.789 UTC.
constexpr std::int64_t kSample = 1'709'642'096'789;
/// 0000-01-01 00:00:00.000 and 10000-01-01 00:00:00.000 UTC.
constexpr std::int64_t kYearZero = -62'167'219'200'000;
constexpr std::int64_t kYear10000 = 253'402'300'800'000;
/// The Julian day of 1970-01-01 00:00 UTC, in milliseconds.
constexpr std::int64_t kJulianEpoch = 210'866'760'000'000;

/// The time point `ms` milliseconds after 1970.
TimePoint at(std::int64_t ms) { return TimePoint(milliseconds(ms)); }

/// parseDateText of `text`: the milliseconds, or nullopt when it fails.
std::optional<std::int64_t> parse(const std::string& text) {
  std::int64_t ms = 0;
  if (!sqlitebridge::parseDateText(text.data(), text.size(), ms)) return std::nullopt;
  return ms;
}

std::optional<std::int64_t> fromSeconds(std::int64_t seconds) {
  std::int64_t ms = 0;
  if (!sqlitebridge::dateFromUnixSeconds(seconds, ms)) return std::nullopt;
  return ms;
}

std::optional<std::int64_t> fromJulianDay(double day) {
  std::int64_t ms = 0;
  if (!sqlitebridge::dateFromJulianDay(day, ms)) return std::nullopt;
  return ms;
}

/// The last and first whole milliseconds a system_clock time point holds.
std::int64_t highestTimePointMilliseconds() {
  return std::chrono::floor<milliseconds>(TimePoint::max()).time_since_epoch().count();
}
std::int64_t lowestTimePointMilliseconds() {
  return std::chrono::ceil<milliseconds>(TimePoint::min()).time_since_epoch().count();
}

/// Pseudo-random 64-bit numbers (a fixed sequence: failures reproduce).
class Numbers {
 public:
  std::uint64_t next() {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    std::uint64_t x = state_;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
  }
  /// A number in [low, high].
  std::int64_t between(std::int64_t low, std::int64_t high) {
    const std::uint64_t span = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low) + 1;
    const std::uint64_t offset = span == 0 ? next() : next() % span;
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(low) + offset);
  }

 private:
  std::uint64_t state_ = 0x5EED;
};

class Dates : public TypedReads {
 protected:
  /// Reads `sql`'s value as a date: its milliseconds since 1970, or nullopt
  /// when it does not read. A date read is always a whole millisecond.
  std::optional<std::int64_t> readDate(const std::string& sql) {
    const std::optional<TimePoint> time = read<TimePoint>(sql);
    if (!time) return std::nullopt;
    const std::int64_t ms = std::chrono::duration_cast<milliseconds>(time->time_since_epoch()).count();
    EXPECT_TRUE(*time == at(ms)) << sql << " did not read as a whole millisecond";
    return ms;
  }

  /// Expects `sql`'s value (column `v`) to be refused as a date by RowView::get
  /// and Row::get, with SQLITE_MISMATCH naming the column, `shown` and "date",
  /// and the output left alone.
  void expectDateMismatch(const std::string& sql, const std::string& shown) {
    expectMismatch<TimePoint>(sql, shown, "date", at(12'345));
  }

  /// The text and storage class Statement::bind(1, time) gives `SELECT ?`.
  std::string boundText(TimePoint time) {
    Statement statement = db_.prepare("SELECT ?1, typeof(?1)");
    EXPECT_TRUE(statement.bind(1, time)) << db_.error();
    EXPECT_EQ(statement.step(), StepResult::Row) << db_.error();
    EXPECT_EQ(statement.columnValue(1).asText(), "text");
    return statement.columnValue(0).asText();
  }
};

}  // namespace

// MARK: formatDateText

TEST(DateText, FormatOfTheEpochIsMidnightOfJanuaryFirst1970) {
  EXPECT_EQ(formatDateText(0), "1970-01-01 00:00:00.000");
}

TEST(DateText, FormatWritesEveryFieldAndTheMilliseconds) {
  EXPECT_EQ(formatDateText(kSample), "2024-03-05 12:34:56.789");
  EXPECT_EQ(formatDateText(1), "1970-01-01 00:00:00.001");
  EXPECT_EQ(formatDateText(86'400'000 + 3'600'000 + 60'000 + 1'000 + 10), "1970-01-02 01:01:01.010");
  EXPECT_EQ(formatDateText(951'782'400'000), "2000-02-29 00:00:00.000");
}

TEST(DateText, FormatOfNegativeMillisecondsCountsBackFrom1970) {
  EXPECT_EQ(formatDateText(-1), "1969-12-31 23:59:59.999");
  EXPECT_EQ(formatDateText(-1'000), "1969-12-31 23:59:59.000");
  EXPECT_EQ(formatDateText(-86'400'000), "1969-12-31 00:00:00.000");
  EXPECT_EQ(formatDateText(-86'400'001), "1969-12-30 23:59:59.999");
  EXPECT_EQ(formatDateText(-14'182'940'000), "1969-07-20 20:17:40.000");
}

TEST(DateText, FormatOfYearZeroAndNegativeYearsHasASignAndAtLeastFourDigits) {
  EXPECT_EQ(formatDateText(kYearZero), "0000-01-01 00:00:00.000");
  EXPECT_EQ(formatDateText(kYearZero - 1), "-0001-12-31 23:59:59.999");
  EXPECT_EQ(formatDateText(-kMaximumDateMilliseconds + 1), "-285196677-06-10 08:00:00.001");
  EXPECT_EQ(formatDateText(std::numeric_limits<std::int64_t>::min()), "-292275055-05-16 16:47:04.192");
}

TEST(DateText, FormatOfYearsPast9999HasMoreDigits) {
  EXPECT_EQ(formatDateText(kYear10000 - 1), "9999-12-31 23:59:59.999");
  EXPECT_EQ(formatDateText(kYear10000), "10000-01-01 00:00:00.000");
  EXPECT_EQ(formatDateText(kMaximumDateMilliseconds - 1), "285200616-07-24 15:59:59.999");
  EXPECT_EQ(formatDateText(std::numeric_limits<std::int64_t>::max()), "292278994-08-17 07:12:55.807");
}

TEST_F(Dates, FormatAgreesWithSQLiteStrftimeForYears0To9999) {
  SQLITEBRIDGE_SKIP_UNLESS_SQLITE(3040000,
                                  "the oracle, strftime for every year 0 to 9999 (older SQLite gets far years wrong),");
  Statement statement = db_.prepare("SELECT strftime('%Y-%m-%d %H:%M:%S', ?, 'unixepoch')");
  ASSERT_TRUE(statement.isValid()) << db_.error();
  Numbers numbers;
  for (int i = 0; i < 5000; ++i) {
    const std::int64_t seconds = numbers.between(kYearZero / 1000, kYear10000 / 1000 - 1);
    const std::int64_t millisecond = numbers.between(0, 999);
    ASSERT_TRUE(statement.reset() && statement.bind(1, seconds)) << db_.error();
    ASSERT_EQ(statement.step(), StepResult::Row) << db_.error();
    const std::string expected = statement.columnValue(0).asText() + "." + std::to_string(1000 + millisecond).substr(1);
    ASSERT_EQ(formatDateText(seconds * 1000 + millisecond), expected) << seconds;
  }
}

// MARK: parseDateText: accepted forms

TEST(DateText, ParseReadsADateAloneAsMidnightUtc) {
  EXPECT_EQ(parse("1970-01-01"), 0);
  EXPECT_EQ(parse("2024-03-05"), 1'709'596'800'000);
  EXPECT_EQ(parse("1969-12-31"), -86'400'000);
}

TEST(DateText, ParseReadsATimeAfterASpaceOrAT) {
  EXPECT_EQ(parse("2024-03-05 12:34:56.789"), kSample);
  EXPECT_EQ(parse("2024-03-05T12:34:56.789"), kSample);
}

TEST(DateText, ParseReadsMinutesWithoutSecondsAndSecondsWithoutAFraction) {
  EXPECT_EQ(parse("2024-03-05 12:34"), kSample - 56'789);
  EXPECT_EQ(parse("2024-03-05T12:34"), kSample - 56'789);
  EXPECT_EQ(parse("2024-03-05 12:34:56"), kSample - 789);
  EXPECT_EQ(parse("2024-03-05 00:00:00"), 1'709'596'800'000);
  EXPECT_EQ(parse("2024-03-05 23:59:59"), 1'709'596'800'000 + 86'399'000);
}

TEST(DateText, ParseReadsOneOrMoreFractionDigitsRoundedHalfUpToTheMillisecond) {
  const std::int64_t second = kSample - 789;
  EXPECT_EQ(parse("2024-03-05 12:34:56.7"), second + 700);
  EXPECT_EQ(parse("2024-03-05 12:34:56.78"), second + 780);
  EXPECT_EQ(parse("2024-03-05 12:34:56.789"), second + 789);
  EXPECT_EQ(parse("2024-03-05 12:34:56.78949"), second + 789);
  EXPECT_EQ(parse("2024-03-05 12:34:56.78950"), second + 790);
  EXPECT_EQ(parse("2024-03-05 12:34:56.0005"), second + 1);
  EXPECT_EQ(parse("2024-03-05 12:34:56.0004999999"), second);
  EXPECT_EQ(parse("2024-03-05 12:34:56.000"), second);
}

TEST(DateText, ParseRoundsPoint9995IntoTheNextSecondDayAndYear) {
  EXPECT_EQ(parse("2024-03-05 12:34:56.9995"), kSample - 789 + 1000);
  const std::optional<std::int64_t> newYear = parse("2023-12-31T23:59:59.9995");
  ASSERT_TRUE(newYear.has_value());
  EXPECT_EQ(formatDateText(*newYear), "2024-01-01 00:00:00.000");
  EXPECT_EQ(parse("2023-12-31T23:59:59.99949"), *newYear - 1);
}

TEST(DateText, ParseReadsZAsUtcAndAnOffsetAsLocalTimeThere) {
  EXPECT_EQ(parse("2024-03-05T12:34:56.789Z"), kSample);
  EXPECT_EQ(parse("2024-03-05 12:34Z"), kSample - 56'789);
  // 12:34:56 at +02:00 is 10:34:56 UTC; at -05:30 it is 18:04:56 UTC.
  EXPECT_EQ(parse("2024-03-05T12:34:56+02:00"), parse("2024-03-05 10:34:56"));
  EXPECT_EQ(parse("2024-03-05T12:34:56-05:30"), parse("2024-03-05 18:04:56"));
  EXPECT_EQ(parse("2024-03-05T12:34:56.789+00:00"), kSample);
  EXPECT_EQ(parse("2024-03-05 12:34-00:00"), kSample - 56'789);
  // An offset can move the date across midnight, either way.
  EXPECT_EQ(parse("2024-03-05T00:30+01:00"), parse("2024-03-04 23:30"));
  EXPECT_EQ(parse("2024-03-05T23:30-01:00"), parse("2024-03-06 00:30"));
  EXPECT_EQ(parse("2024-03-05T23:59:59.9995-23:59"), parse("2024-03-06 23:59:00"));
}

TEST(DateText, ParseReadsSignedAndLongYears) {
  EXPECT_EQ(parse("0000-01-01"), kYearZero);
  EXPECT_EQ(parse("-0001-12-31 23:59:59.999"), kYearZero - 1);
  EXPECT_EQ(parse("10000-01-01 00:00:00.000"), kYear10000);
  EXPECT_EQ(parse("02024-03-05 12:34:56.789"), kSample);
  EXPECT_EQ(parse("285000000-01-01"), 8'993'669'152'780'800'000);
  EXPECT_EQ(parse("-0004-02-29"), parse("-0004-03-01").value() - 86'400'000);  // year -4 is a leap year
}

TEST(DateText, ParseAcceptsFebruary29InLeapYearsOnly) {
  EXPECT_TRUE(parse("2024-02-29").has_value());
  EXPECT_TRUE(parse("2000-02-29").has_value());
  EXPECT_FALSE(parse("2023-02-29").has_value());
  EXPECT_FALSE(parse("1900-02-29").has_value());
  EXPECT_FALSE(parse("2024-02-30").has_value());
}

// MARK: parseDateText: rejected text

TEST(DateText, ParseRejectsImpossibleDatesAndTimes) {
  for (const char* text :
       {"2023-02-29", "2023-13-01", "2023-00-10", "2023-04-31", "2023-01-00", "2023-01-32", "2024-03-05 24:00",
        "2024-03-05 12:60", "2024-03-05 12:34:60", "2024-03-05T12:34+24:00", "2024-03-05T12:34+02:60"}) {
    EXPECT_EQ(parse(text), std::nullopt) << text;
  }
}

TEST(DateText, ParseRejectsAnythingAroundOrAfterTheDate) {
  for (const char* text : {" 2024-03-05", "2024-03-05 ", "2024-03-05x", "2024-03-05 12:34:56.789Zx",
                           "2024-03-05 12:34:56 +02:00", "2024-03-05 12:34:56.789 ", "2024-03-05\n"}) {
    EXPECT_EQ(parse(text), std::nullopt) << text;
  }
}

TEST(DateText, ParseRejectsOtherShapes) {
  for (const char* text : {"",
                           "024-03-05",
                           "1234567890-01-01",
                           "2024-3-5",
                           "2024-03-5",
                           "2024/03/05",
                           "+2024-03-05",
                           "--2024-03-05",
                           "2024-03-05Z",
                           "2024-03-05+02:00",
                           "2024-03-05t12:34",
                           "2024-03-05  12:34",
                           "2024-03-05 12",
                           "2024-03-05 1:34",
                           "2024-03-05 12:3",
                           "2024-03-05 12:34z",
                           "2024-03-05 12:34.5",
                           "2024-03-05 12:34:56.",
                           "2024-03-05 12:34:5",
                           "2024-03-05T12:34+0200",
                           "2024-03-05T12:34+02",
                           "2024-03-05T12:34+2:00",
                           "2024-03-05T12:34Z+02:00",
                           "2024-03-05T12:34:56.789+02:00Z",
                           "yesterday",
                           "2024-03-05 12:34:56,789"}) {
    EXPECT_EQ(parse(text), std::nullopt) << "'" << text << "'";
  }
}

TEST(DateText, ParseRejectsTextHoldingANul) {
  EXPECT_EQ(parse(std::string("2024-03-05\0", 11)), std::nullopt);
  EXPECT_EQ(parse(std::string("2024-03-05 12:34\0Z", 18)), std::nullopt);
  EXPECT_EQ(parse(std::string("2024\0-03-05", 11)), std::nullopt);
  // The size is what counts, not a terminating NUL.
  EXPECT_EQ(parse(std::string("2024-03-05")), 1'709'596'800'000);
  std::int64_t ms = 0;
  EXPECT_TRUE(sqlitebridge::parseDateText("2024-03-05 and more", 10, ms));
  EXPECT_EQ(ms, 1'709'596'800'000);
}

TEST(DateText, ParseRejectsDatesNotStrictlyWithinTheMaximum) {
  EXPECT_EQ(parse("290000000-01-01"), std::nullopt);
  EXPECT_EQ(parse("-285200000-01-01"), std::nullopt);
  // days * 86400000 overflows 64 bits for these years.
  EXPECT_EQ(parse("999999999-12-31 23:59:59.999"), std::nullopt);
  EXPECT_EQ(parse("-999999999-01-01"), std::nullopt);
  // The maximum itself is out; one millisecond inside is in.
  EXPECT_EQ(parse(formatDateText(kMaximumDateMilliseconds)), std::nullopt);
  EXPECT_EQ(parse(formatDateText(-kMaximumDateMilliseconds)), std::nullopt);
  EXPECT_EQ(parse(formatDateText(kMaximumDateMilliseconds - 1)), kMaximumDateMilliseconds - 1);
  EXPECT_EQ(parse(formatDateText(-kMaximumDateMilliseconds + 1)), -kMaximumDateMilliseconds + 1);
  // An offset that brings a date back inside does not help past the limit,
  // and one that pushes it past does.
  EXPECT_EQ(parse("285200616-07-24 16:00:00.000+01:00"), kMaximumDateMilliseconds - 3'600'000);
  EXPECT_EQ(parse("285200616-07-24 15:59:59.999-00:01"), std::nullopt);
}

TEST(DateText, ParseLeavesTheOutputAloneWhenItFails) {
  std::int64_t ms = 42;
  EXPECT_FALSE(sqlitebridge::parseDateText("2023-02-29", 10, ms));
  EXPECT_EQ(ms, 42);
  EXPECT_FALSE(sqlitebridge::parseDateText(nullptr, 0, ms));
  EXPECT_EQ(ms, 42);
  EXPECT_FALSE(sqlitebridge::parseDateText("", 0, ms));
  EXPECT_EQ(ms, 42);
}

// MARK: Round trip

TEST(DateText, FormatThenParseGivesBackEveryMillisecondWithinTheMaximum) {
  std::vector<std::int64_t> values = {0,
                                      1,
                                      -1,
                                      999,
                                      -999,
                                      kSample,
                                      -kSample,
                                      kYearZero,
                                      kYearZero - 1,
                                      kYear10000,
                                      kYear10000 - 1,
                                      kMaximumDateMilliseconds - 1,
                                      -kMaximumDateMilliseconds + 1,
                                      highestTimePointMilliseconds(),
                                      lowestTimePointMilliseconds()};
  Numbers numbers;
  for (int i = 0; i < 20000; ++i) {
    values.push_back(numbers.between(-kMaximumDateMilliseconds + 1, kMaximumDateMilliseconds - 1));
    values.push_back(numbers.between(kYearZero, kYear10000));
    values.push_back(numbers.between(-100'000'000'000, 100'000'000'000));
  }
  for (const std::int64_t value : values) {
    const std::string text = formatDateText(value);
    ASSERT_EQ(parse(text), value) << text;
  }
}

TEST(DateText, FormattedDatesAtOrBeyondTheMaximumDoNotParse) {
  for (const std::int64_t value :
       {kMaximumDateMilliseconds, -kMaximumDateMilliseconds, std::numeric_limits<std::int64_t>::max(),
        std::numeric_limits<std::int64_t>::min()}) {
    EXPECT_EQ(parse(formatDateText(value)), std::nullopt) << formatDateText(value);
  }
}

// MARK: Unix seconds and Julian days

TEST(DateNumbers, UnixSecondsAreMultipliedByAThousand) {
  EXPECT_EQ(fromSeconds(0), 0);
  EXPECT_EQ(fromSeconds(1), 1'000);
  EXPECT_EQ(fromSeconds(-1), -1'000);
  EXPECT_EQ(fromSeconds(1'709'642'096), kSample - 789);
  EXPECT_EQ(fromSeconds(kMaximumDateMilliseconds / 1000 - 1), kMaximumDateMilliseconds - 1000);
  EXPECT_EQ(fromSeconds(-kMaximumDateMilliseconds / 1000 + 1), -kMaximumDateMilliseconds + 1000);
}

TEST(DateNumbers, UnixSecondsAtOrBeyondTheMaximumOrOverflowingAreRejected) {
  std::int64_t ms = 42;
  for (const std::int64_t seconds :
       {kMaximumDateMilliseconds / 1000, -kMaximumDateMilliseconds / 1000, std::numeric_limits<std::int64_t>::max(),
        std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max() / 1000 + 1,
        std::numeric_limits<std::int64_t>::min() / 1000 - 1}) {
    EXPECT_FALSE(sqlitebridge::dateFromUnixSeconds(seconds, ms)) << seconds;
    EXPECT_EQ(ms, 42);
  }
}

TEST(DateNumbers, JulianDayIsCountedFromJulianDay2440587Point5) {
  EXPECT_EQ(fromJulianDay(2440587.5), 0);
  EXPECT_EQ(fromJulianDay(2440588.0), 43'200'000);
  EXPECT_EQ(fromJulianDay(2440586.5), -86'400'000);
  EXPECT_EQ(fromJulianDay(0.0), -kJulianEpoch);
  EXPECT_EQ(fromJulianDay(static_cast<double>(kSample + kJulianEpoch) / 86'400'000.0), kSample);
  // About 274 million years: inside the limit.
  EXPECT_EQ(fromJulianDay(1.0e11), 8'640'000'000'000'000'000 - kJulianEpoch);
}

TEST(DateNumbers, JulianDayMillisecondsRoundHalvesAwayFromZero) {
  // 3/2048 of a day is exactly 126562.5 ms.
  const double day = 3.0 / 2048.0;
  EXPECT_EQ(fromJulianDay(day), 126'563 - kJulianEpoch);
  EXPECT_EQ(fromJulianDay(-day), -126'563 - kJulianEpoch);
  EXPECT_EQ(fromJulianDay(1.0 / 2048.0), 42'188 - kJulianEpoch);
}

TEST(DateNumbers, JulianDayThatIsNotFiniteOrTooFarIsRejected) {
  std::int64_t ms = 42;
  for (const double day : {std::nan(""), std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity(), 1.1e11, -1.1e11, 9.0e18 / 86'400'000.0 + 1.0,
                           std::numeric_limits<double>::max(), -std::numeric_limits<double>::max()}) {
    EXPECT_FALSE(sqlitebridge::dateFromJulianDay(day, ms)) << day;
    EXPECT_EQ(ms, 42);
  }
}

// MARK: time_point <-> milliseconds

TEST(DateTimePoints, UnixMillisecondsOfATimePointRoundsToTheNearestTieToEven) {
  using sqlitebridge::unixMillisecondsOf;
  const auto time = [](nanoseconds offset) {
    return TimePoint(std::chrono::duration_cast<TimePoint::duration>(offset));
  };
  EXPECT_EQ(unixMillisecondsOf(time(nanoseconds(1'499'900))), 1);
  EXPECT_EQ(unixMillisecondsOf(time(microseconds(1'500))), 2);
  EXPECT_EQ(unixMillisecondsOf(time(microseconds(2'500))), 2);  // a tie goes to the even millisecond
  EXPECT_EQ(unixMillisecondsOf(time(microseconds(2'501))), 3);
  EXPECT_EQ(unixMillisecondsOf(time(microseconds(-500))), 0);
  EXPECT_EQ(unixMillisecondsOf(time(microseconds(-501))), -1);
  EXPECT_EQ(unixMillisecondsOf(time(microseconds(-1'500))), -2);
  EXPECT_EQ(unixMillisecondsOf(at(kSample)), kSample);
  EXPECT_EQ(unixMillisecondsOf(at(-kSample)), -kSample);
}

TEST(DateTimePoints, UnixMillisecondsOfATimePointIsStdChronoRound) {
  Numbers numbers;
  for (int i = 0; i < 20000; ++i) {
    // Whole milliseconds plus a few ticks around the tie, and anything.
    const std::int64_t tick = TimePoint::duration(milliseconds(1)).count();
    const std::int64_t ticks =
        i % 2 == 0 ? numbers.between(-1'000'000'000'000, 1'000'000'000'000) * tick + tick / 2 + numbers.between(-1, 1)
                   : numbers.between(TimePoint::min().time_since_epoch().count() / 2,
                                     TimePoint::max().time_since_epoch().count() / 2);
    const TimePoint time{TimePoint::duration(ticks)};
    ASSERT_EQ(sqlitebridge::unixMillisecondsOf(time), std::chrono::round<milliseconds>(time).time_since_epoch().count())
        << ticks;
  }
}

TEST(DateTimePoints, UnixMillisecondsAtTheEndsOfTheClockDoesNotOverflow) {
  // std::chrono::round itself overflows there; one millisecond in, it does
  // not, and rounding moves with the time point.
  EXPECT_EQ(sqlitebridge::unixMillisecondsOf(TimePoint::max()),
            std::chrono::round<milliseconds>(TimePoint::max() - milliseconds(1)).time_since_epoch().count() + 1);
  EXPECT_EQ(sqlitebridge::unixMillisecondsOf(TimePoint::min()),
            std::chrono::round<milliseconds>(TimePoint::min() + milliseconds(1)).time_since_epoch().count() - 1);
}

TEST(DateTimePoints, TimePointFromUnixMillisecondsIsExactWithinTheClocksRangeOnly) {
  TimePoint time = at(42);
  for (const std::int64_t ms :
       {std::int64_t{0}, kSample, -kSample, highestTimePointMilliseconds(), lowestTimePointMilliseconds()}) {
    ASSERT_TRUE(sqlitebridge::timePointFromUnixMilliseconds(ms, time)) << ms;
    EXPECT_TRUE(time == at(ms)) << ms;
  }
  time = at(42);
  for (const std::int64_t ms : {highestTimePointMilliseconds() + 1, lowestTimePointMilliseconds() - 1,
                                kMaximumDateMilliseconds - 1, std::numeric_limits<std::int64_t>::min()}) {
    EXPECT_FALSE(sqlitebridge::timePointFromUnixMilliseconds(ms, time)) << ms;
    EXPECT_TRUE(time == at(42));
  }
}

// MARK: Writing a time_point

TEST_F(Dates, ValueOfATimePointHoldsItsDateText) {
  const Value value(at(kSample));
  EXPECT_EQ(value.type(), ValueType::Text);
  EXPECT_EQ(value.asText(), "2024-03-05 12:34:56.789");
  EXPECT_EQ(Value(at(0)).asText(), "1970-01-01 00:00:00.000");
  EXPECT_EQ(Value(at(-1)).asText(), "1969-12-31 23:59:59.999");
  EXPECT_EQ(Value(TimePoint::max()).asText(), formatDateText(sqlitebridge::unixMillisecondsOf(TimePoint::max())));
}

TEST_F(Dates, BindWritesTheSameTextAsValue) {
  for (const std::int64_t ms : {std::int64_t{0}, kSample, -kSample, std::int64_t{-1}, highestTimePointMilliseconds(),
                                lowestTimePointMilliseconds()}) {
    EXPECT_EQ(boundText(at(ms)), formatDateText(ms));
    EXPECT_EQ(boundText(at(ms)), Value(at(ms)).asText());
  }
}

TEST_F(Dates, WritingATimePointRoundsToTheNearestMillisecond) {
  // `ms` milliseconds after 1970 plus `offset`, as precise as the clock is.
  const auto time = [](std::int64_t ms, nanoseconds offset) {
    return at(ms) + std::chrono::duration_cast<TimePoint::duration>(offset);
  };
  // 1.4999 ms stays 1 ms; 1.5 ms becomes 2 ms: through Value and bind alike.
  EXPECT_EQ(Value(time(0, nanoseconds(1'499'900))).asText(), "1970-01-01 00:00:00.001");
  EXPECT_EQ(boundText(time(0, nanoseconds(1'499'900))), "1970-01-01 00:00:00.001");
  EXPECT_EQ(Value(time(0, microseconds(1'500))).asText(), "1970-01-01 00:00:00.002");
  EXPECT_EQ(boundText(time(0, microseconds(1'500))), "1970-01-01 00:00:00.002");
  EXPECT_EQ(Value(time(kSample, nanoseconds(499'900))).asText(), "2024-03-05 12:34:56.789");
  EXPECT_EQ(Value(time(kSample, microseconds(501))).asText(), "2024-03-05 12:34:56.790");
  EXPECT_EQ(boundText(time(kSample, microseconds(501))), "2024-03-05 12:34:56.790");
  // Before 1970 too: -1.5 ms is -2 ms, -0.499 ms is 0.
  EXPECT_EQ(Value(time(0, -microseconds(1'500))).asText(), "1969-12-31 23:59:59.998");
  EXPECT_EQ(Value(time(0, -microseconds(499))).asText(), "1970-01-01 00:00:00.000");
  // An exact half goes to the even millisecond, as std::chrono::round
  // rounds: 2.5 ms is 2 ms, 789.5 ms is 790 ms, 790.5 ms is 790 ms.
  EXPECT_EQ(Value(time(0, microseconds(2'500))).asText(), "1970-01-01 00:00:00.002");
  EXPECT_EQ(boundText(time(0, microseconds(2'500))), "1970-01-01 00:00:00.002");
  EXPECT_EQ(Value(time(kSample, microseconds(500))).asText(), "2024-03-05 12:34:56.790");
  EXPECT_EQ(Value(time(kSample + 1, microseconds(500))).asText(), "2024-03-05 12:34:56.790");
  EXPECT_EQ(boundText(time(kSample + 1, microseconds(500))), "2024-03-05 12:34:56.790");
}

TEST_F(Dates, ATimePointWrittenAndReadBackIsExactToTheMillisecond) {
  ASSERT_TRUE(db_.executeScript("CREATE TABLE events(id INTEGER PRIMARY KEY, at TEXT)")) << db_.error();
  const std::vector<std::int64_t> written = {
      kSample, 0, -1, -kSample, highestTimePointMilliseconds(), lowestTimePointMilliseconds()};
  // Each written three ways: Statement::bind, a positional Value and a
  // named one, a microsecond past the millisecond (rounded away).
  for (const std::int64_t ms : written) {
    const TimePoint time = at(ms) + (ms < highestTimePointMilliseconds() ? microseconds(1) : microseconds(0));
    Statement insert = db_.prepare("INSERT INTO events(at) VALUES (?)");
    ASSERT_TRUE(insert.bind(1, time)) << db_.error();
    ASSERT_EQ(insert.step(), StepResult::Done) << db_.error();
    ASSERT_TRUE(db_.execute("INSERT INTO events(at) VALUES (?)", std::vector<Value>{Value(time)})) << db_.error();
    ASSERT_TRUE(db_.execute("INSERT INTO events(at) VALUES (:at)", {{"at", time}})) << db_.error();
  }
  std::vector<std::int64_t> viaView;
  std::vector<std::int64_t> viaViewByName;
  std::vector<Row> rows;
  ASSERT_TRUE(db_.forEachRow("SELECT at FROM events ORDER BY id", [&](const RowView& row) {
    TimePoint time;
    EXPECT_TRUE(row.get(0, time)) << db_.error();
    viaView.push_back(std::chrono::duration_cast<milliseconds>(time.time_since_epoch()).count());
    EXPECT_TRUE(time == at(viaView.back()));
    EXPECT_TRUE(row.get("AT", time)) << db_.error();
    viaViewByName.push_back(std::chrono::duration_cast<milliseconds>(time.time_since_epoch()).count());
    rows.push_back(row.copy());
  })) << db_.error();
  std::vector<std::int64_t> expected;
  for (const std::int64_t ms : written) expected.insert(expected.end(), 3, ms);
  EXPECT_EQ(viaView, expected);
  EXPECT_EQ(viaViewByName, expected);
  ASSERT_EQ(rows.size(), expected.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    TimePoint time;
    Error error;
    ASSERT_TRUE(rows[i].get(0, time, &error)) << error.message;
    EXPECT_TRUE(time == at(expected[i])) << i;
    ASSERT_TRUE(rows[i].get("at", time, &error)) << error.message;
    EXPECT_TRUE(time == at(expected[i])) << i;
  }
}

// MARK: Reading each storage class

TEST_F(Dates, TextReadsInEveryAcceptedForm) {
  EXPECT_EQ(readDate("SELECT '2024-03-05 12:34:56.789'"), kSample);
  EXPECT_EQ(readDate("SELECT '2024-03-05T12:34:56.789Z'"), kSample);
  EXPECT_EQ(readDate("SELECT '2024-03-05T14:34:56.789+02:00'"), kSample);
  EXPECT_EQ(readDate("SELECT '2024-03-05'"), 1'709'596'800'000);
  EXPECT_EQ(readDate("SELECT '2024-03-05 12:34'"), kSample - 56'789);
  // What SQLite's own date functions write reads back.
  EXPECT_EQ(readDate("SELECT datetime(1709642096, 'unixepoch')"), kSample - 789);
  EXPECT_EQ(readDate("SELECT strftime('%Y-%m-%d %H:%M:%f', '2024-03-05 12:34:56.789')"), kSample);
}

TEST_F(Dates, IntegerReadsAsUnixSeconds) {
  EXPECT_EQ(readDate("SELECT 1709642096"), kSample - 789);
  EXPECT_EQ(readDate("SELECT 0"), 0);
  EXPECT_EQ(readDate("SELECT -1"), -1'000);
  EXPECT_EQ(readDate("SELECT CAST(strftime('%s', '2024-03-05 12:34:56') AS INTEGER)"), kSample - 789);
}

TEST_F(Dates, RealReadsAsAJulianDay) {
  EXPECT_EQ(readDate("SELECT 2440587.5"), 0);
  EXPECT_EQ(readDate("SELECT 2440588.0"), 43'200'000);
  EXPECT_EQ(readDate("SELECT julianday('2024-03-05 12:34:56.789')"), kSample);
}

TEST_F(Dates, BlobIsAMismatchNamingDate) {
  expectDateMismatch("SELECT x'00' AS v", "a blob of 1 byte(s)");
  // Not even a blob of date text.
  expectDateMismatch("SELECT CAST('2024-03-05' AS BLOB) AS v", "a blob of 10 byte(s)");
}

TEST_F(Dates, OtherTextIsAMismatchNamingDate) {
  expectDateMismatch("SELECT 'yesterday' AS v", "text 'yesterday'");
  expectDateMismatch("SELECT '2023-02-29' AS v", "text '2023-02-29'");
  expectDateMismatch("SELECT ' 2024-03-05' AS v", "text ' 2024-03-05'");
  expectDateMismatch("SELECT '' AS v", "text ''");
}

TEST_F(Dates, NullReadsAsNulloptIntoAnOptionalAndIsAMismatchOtherwise) {
  const std::optional<std::optional<TimePoint>> missing = read<std::optional<TimePoint>>("SELECT NULL");
  ASSERT_TRUE(missing.has_value()) << db_.error();
  EXPECT_FALSE(missing->has_value());
  const std::optional<std::optional<TimePoint>> present =
      read<std::optional<TimePoint>>("SELECT '2024-03-05 12:34:56.789'");
  ASSERT_TRUE(present.has_value() && present->has_value()) << db_.error();
  EXPECT_TRUE(**present == at(kSample));
  expectDateMismatch("SELECT NULL AS v", "NULL");
}

TEST_F(Dates, DateBeyondTheTimePointRangeIsAMismatch) {
  const std::int64_t highest = highestTimePointMilliseconds();
  const std::int64_t lowest = lowestTimePointMilliseconds();
  // The last and first milliseconds the clock holds read...
  EXPECT_EQ(readDate("SELECT '" + formatDateText(highest) + "'"), highest);
  EXPECT_EQ(readDate("SELECT '" + formatDateText(lowest) + "'"), lowest);
  // ...one past them does not, as text, as Unix seconds or as a Julian day,
  // though each is a valid date.
  for (const std::int64_t ms : {highest + 1, lowest - 1}) {
    ASSERT_TRUE(parse(formatDateText(ms)).has_value());
    expectDateMismatch("SELECT '" + formatDateText(ms) + "' AS v", "text '" + formatDateText(ms) + "'");
  }
  expectDateMismatch("SELECT " + std::to_string(highest / 1000 + 1) + " AS v", "integer");
  expectDateMismatch("SELECT " + std::to_string(lowest / 1000 - 1) + " AS v", "integer");
  expectDateMismatch("SELECT 1.0e11 AS v", "real");
  // Numbers beyond any date.
  expectDateMismatch("SELECT 9223372036854775807 AS v", "integer");
  expectDateMismatch("SELECT 1.0e300 AS v", "real");
}

TEST(DateTypeName, DecodedTypeNameOfADateIsDate) {
  EXPECT_STREQ(DecodedTypeName<TimePoint>::value(), "date");
  EXPECT_STREQ(DecodedTypeName<std::optional<TimePoint>>::value(), "date");
}
