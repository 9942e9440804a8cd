// Streaming: forEachRow reads a result of any size one row at a time, so
// peak memory stays flat. SIZE: two tests here stream 1,000,000 rows each
// (one to two seconds each in a RelWithDebInfo build on a shared 2-core
// machine; a few seconds under sanitizers, where peak memory is not checked).
#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "TestSupport.hpp"

using sqlitebridge::ColumnView;
using sqlitebridge::Database;
using sqlitebridge::Row;
using sqlitebridge::RowView;
using sqlitebridge::Value;
using sqlitebridge::ValueType;
using namespace sqlitebridge_test;

namespace {

// AddressSanitizer keeps freed memory in quarantine (256 MiB by default)
// instead of reusing it, so a scan that allocates and frees per row grows its
// peak there although it holds nothing: peak memory says nothing under it.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SQLITEBRIDGE_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(SQLITEBRIDGE_TEST_ASAN)
#define SQLITEBRIDGE_TEST_ASAN 1
#endif
#if defined(SQLITEBRIDGE_TEST_ASAN)
constexpr bool kPeakMemoryIsMeaningful = false;
#else
constexpr bool kPeakMemoryIsMeaningful = true;
#endif

/// Rows each test streams.
constexpr std::int64_t kRows = 1000000;
/// Allowed growth of peak memory while streaming them (measured on Linux:
/// about 128 KiB). Well below what materializing them takes, even with
/// 16-byte Values.
constexpr std::int64_t kGrowthBound = 16 * 1024 * 1024;

/// The process's peak resident memory so far, in bytes.
std::int64_t peakResidentBytes() {
  struct rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
#if defined(__APPLE__)
  return static_cast<std::int64_t>(usage.ru_maxrss);  // bytes on Apple platforms
#else
  return static_cast<std::int64_t>(usage.ru_maxrss) * 1024;  // KiB elsewhere
#endif
}

/// Lowers the recorded peak to the current resident size where the system
/// allows it (Linux: "5" to /proc/self/clear_refs), so that the growth
/// measured next is not hidden under an earlier test's larger peak. Where it
/// cannot, the measured growth can only come out smaller, never larger.
void resetPeakResident() {
#if defined(__linux__)
  std::ofstream clearRefs("/proc/self/clear_refs");
  if (clearRefs) clearRefs << "5";
#endif
}

/// What the test body computes from every row it sees.
struct Scan {
  std::int64_t rows = 0;
  std::int64_t sum = 0;         // sum of x
  std::int64_t labelBytes = 0;  // total length of the 'row <x>' labels
  std::int64_t mismatches = 0;  // rows whose columns disagree with x
};

/// The expected total length of the labels 'row 1' ... 'row <n>'.
std::int64_t expectedLabelBytes(std::int64_t n) {
  std::int64_t total = 0;
  for (std::int64_t digits = 1, low = 1; low <= n; ++digits, low *= 10) {
    const std::int64_t high = std::min(n, low * 10 - 1);
    total += (high - low + 1) * (4 + digits);  // "row " plus the digits
  }
  return total;
}

/// Reads one row (x, doubled, label) into `scan`, through the typed getters
/// and borrowed column views, without keeping anything.
bool readRow(const RowView& row, Scan& scan) {
  std::int64_t x = 0;
  std::int64_t doubled = 0;
  if (!row.get(0, x) || !row.get("doubled", doubled)) return false;
  const ColumnView label = row.column(2);
  if (doubled != 2 * x || label.type != ValueType::Text) ++scan.mismatches;
  ++scan.rows;
  scan.sum += x;
  scan.labelBytes += static_cast<std::int64_t>(label.size);
  return true;
}

void expectCompleteScan(const Scan& scan) {
  EXPECT_EQ(scan.rows, kRows);
  EXPECT_EQ(scan.sum, kRows * (kRows + 1) / 2);
  EXPECT_EQ(scan.labelBytes, expectedLabelBytes(kRows));
  EXPECT_EQ(scan.mismatches, 0);
}

/// Checks the peak-memory growth measured around a scan against the bound.
void expectFlatPeak(std::int64_t growth) {
  if (!kPeakMemoryIsMeaningful) {
    std::cout << "[   NOTE   ] peak memory not checked under AddressSanitizer (grew by " << growth << " bytes)\n";
    return;
  }
  EXPECT_LT(growth, kGrowthBound) << "peak memory grew by " << growth << " bytes while streaming";
}

}  // namespace

TEST(Streaming, BoundIsFarBelowWhatMaterializingTheRowsWouldTake) {
  // A materialized result holds at least a Row and three Values per row
  // (before the label strings, the vectors' heap blocks and the allocator's
  // overhead); the bound must be well under that for the next tests to mean
  // anything.
  const std::int64_t materialized = kRows * static_cast<std::int64_t>(sizeof(Row) + 3 * sizeof(Value));
  EXPECT_GT(materialized, 3 * kGrowthBound) << materialized;
}

TEST(Streaming, AMillionGeneratedRowsStreamInConstantMemory) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.isOpen()) << db.error();
  const std::string sql = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < " +
                          std::to_string(kRows) + ") SELECT x, x * 2 AS doubled, 'row ' || x AS label FROM c";

  resetPeakResident();
  const std::int64_t before = peakResidentBytes();
  Scan scan;
  ASSERT_TRUE(db.forEachRow(sql, [&](const RowView& row) { return readRow(row, scan); })) << db.error();
  const std::int64_t growth = peakResidentBytes() - before;

  expectCompleteScan(scan);
  expectFlatPeak(growth);
}

TEST(Streaming, AMillionTableRowsFromAFileStreamInConstantMemory) {
  TempDir dir;
  Database db = Database::open(dir / "big.db");
  ASSERT_TRUE(db.isOpen()) << db.error();
  ASSERT_TRUE(db.execute("CREATE TABLE big(x INTEGER PRIMARY KEY, doubled INTEGER, label TEXT)")) << db.error();
  // One statement, so one transaction.
  ASSERT_TRUE(
      db.execute("INSERT INTO big WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?)"
                 " SELECT x, x * 2, 'row ' || x FROM c",
                 {Value(static_cast<std::int64_t>(kRows))}))
      << db.error();
  ASSERT_EQ(db.changes(), kRows);

  resetPeakResident();
  const std::int64_t before = peakResidentBytes();
  Scan scan;
  ASSERT_TRUE(db.forEachRow("SELECT x, doubled, label FROM big", std::vector<Value>(), [&](const RowView& row) {
    return readRow(row, scan);
  })) << db.error();
  const std::int64_t growth = peakResidentBytes() - before;

  expectCompleteScan(scan);
  expectFlatPeak(growth);
}

TEST(Streaming, StoppingEarlyDoesNotRunTheRestOfAHugeResult) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.isOpen()) << db.error();
  // Without stopping this would generate 10^12 rows.
  std::int64_t seen = 0;
  ASSERT_TRUE(db.forEachRow(
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000000) SELECT x FROM c",
      [&](const RowView& row) {
        seen = row.column(0).integer;
        return seen < 10;
      }))
      << db.error();
  EXPECT_EQ(seen, 10);
}
