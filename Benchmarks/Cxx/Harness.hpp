// The harness of sqlite-bridge-bench-cxx, the same rules as the Swift
// benchmark's (Benchmarks/Swift/Harness.swift): a warm-up run of each side,
// then N repetitions run interleaved (alternating which side goes first),
// medians of each side and the median of the per-repetition ratios, timed on
// this thread's CPU clock unless asked for wall time. The checksum of what a
// run read or wrote is computed after the clock stops, so no work can be
// skipped or optimized away.
#pragma once

#include <time.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench {

/// Which clock times the runs: this thread's CPU time (the default: on a
/// shared, noisy machine the time other processes take is not counted) or
/// wall time.
inline bool useWallClock = false;

/// For instruction-count profiling: run only "raw", only "ours", or "none"
/// (setup alone, to subtract), instead of both.
inline std::optional<std::string> onlySide;

/// Seconds on the chosen clock.
inline double now() noexcept {
  timespec time{};
  clock_gettime(useWallClock ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID, &time);
  return static_cast<double>(time.tv_sec) + static_cast<double>(time.tv_nsec) / 1e9;
}

/// What a timed run hands back: run after the clock stops, it computes the
/// checksum of what the run read or wrote. It owns the run's results, so
/// they are also freed outside the clock.
using Check = std::function<std::int64_t()>;

/// One workload: the raw sqlite3 C API and SQLiteBridge doing the same job
/// on the same data.
struct Workload {
  std::string name;
  long rows = 0;
  /// Runs before each timed run, outside the clock (e.g. empties a table).
  std::function<void()> prepare = [] {};
  std::function<Check()> raw;
  std::function<Check()> ours;
  /// The checksum both must produce.
  std::int64_t expected = 0;
};

struct Measurement {
  std::string workload;
  long rows = 0;
  /// Median seconds of the raw C API.
  double raw = 0;
  /// Median seconds of SQLiteBridge.
  double ours = 0;
  /// Median of the per-repetition ratios ours/raw. Each repetition runs both
  /// sides back to back, so a slow spell of a shared machine hits both.
  double ratio = 0;
};

/// A wrong checksum, or a side that failed: the benchmark must not report
/// numbers for work that was not done.
struct BenchmarkFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

/// Runs each side once to warm up, then `repetitions` times interleaved
/// (alternating which goes first), and returns the medians.
inline Measurement measure(const Workload& workload, int repetitions) {
  const auto timed = [&](const char* side, const std::function<Check()>& body) {
    workload.prepare();
    const double start = now();
    Check check = body();
    const double elapsed = now() - start;
    const std::int64_t checksum = check();
    if (checksum != workload.expected) {
      throw BenchmarkFailure(workload.name + " (" + side + "): checksum " + std::to_string(checksum) + ", expected " +
                             std::to_string(workload.expected));
    }
    return elapsed;
  };
  if (onlySide) {
    for (int repetition = 0; repetition < repetitions; ++repetition) {
      if (*onlySide == "raw") timed("raw", workload.raw);
      if (*onlySide == "ours") timed("ours", workload.ours);
    }
    return Measurement{workload.name, workload.rows, 0, 0, 0};
  }
  timed("raw", workload.raw);
  timed("ours", workload.ours);
  std::vector<double> raw;
  std::vector<double> ours;
  std::vector<double> ratios;
  for (int repetition = 0; repetition < repetitions; ++repetition) {
    if (repetition % 2 == 0) {
      raw.push_back(timed("raw", workload.raw));
      ours.push_back(timed("ours", workload.ours));
    } else {
      ours.push_back(timed("ours", workload.ours));
      raw.push_back(timed("raw", workload.raw));
    }
    ratios.push_back(ours.back() / raw.back());
  }
  return Measurement{workload.name, workload.rows, median(raw), median(ours), median(ratios)};
}

}  // namespace bench
