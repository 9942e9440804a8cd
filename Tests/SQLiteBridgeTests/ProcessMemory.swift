import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The process's memory, for the tests that bound it (streaming, 100 MB
// blobs).

/// Held by a test that measures the process's memory, or that uses a lot
/// of it, for as long as it does: Swift Testing runs suites in parallel, and
/// one test's 300 MB would spoil another's figures.
let memoryHeavyTests = NSLock()

/// Whether a sanitizer runtime is in the process (`swift test
/// --sanitize=address` or `=thread`): ASan keeps freed memory in quarantine
/// (256 MiB by default) instead of reusing it, and TSan maps shadow memory,
/// so memory figures say nothing then. (The C++ tests skip their memory
/// checks under sanitizers likewise.)
let runningUnderASanitizer: Bool = {
  #if canImport(Darwin)
    let everything = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
  #else
    let everything: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
  #endif
  return dlsym(everything, "__asan_init") != nil || dlsym(everything, "__tsan_init") != nil
}()

/// A field of /proc/self/status given in kB ("VmHWM", "VmRSS"), in bytes;
/// nil where that file does not report it.
private func processStatusBytes(_ field: String) -> Int? {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
  for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
    let number = line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ")[0]
    return Int(number).map { $0 * 1024 }
  }
  return nil
}

/// The resident-set high-water mark of this process in bytes: VmHWM on
/// Linux (which `resetProcessPeakResident` can lower), else getrusage's.
func processPeakResident() -> Int {
  if let peak = processStatusBytes("VmHWM") { return peak }
  var usage = rusage()
  #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss)  // bytes on Darwin
  #else
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss) * 1024  // KiB on Linux
  #endif
}

/// The resident set size now (VmRSS) in bytes, or nil where that is not
/// available. The peak alone can hide growth that stays below an earlier
/// peak of the process.
func processResident() -> Int? { processStatusBytes("VmRSS") }

/// Resets the high-water mark to the current resident set (Linux 4.0+);
/// false where that is not possible.
func resetProcessPeakResident() -> Bool {
  guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
  defer { try? handle.close() }
  return (try? handle.write(contentsOf: Data("5".utf8))) != nil
}

/// Rows x = 1...? with y = 2x, made by SQLite itself: what the million-row
/// streaming tests read.
let countingRowsSQL = """
  WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?)
  SELECT x, x * 2 AS y FROM c
  """

/// How much a stream grew the process: its peak resident set, and its
/// current one as sampled while the stream ran (nil where not available).
struct StreamMemory: CustomStringConvertible {
  var peakGrowth: Int
  var currentGrowth: Int?

  /// Whether both figures stay below `bound` bytes.
  func staysBelow(_ bound: Int) -> Bool { peakGrowth < bound && (currentGrowth ?? 0) < bound }

  var description: String {
    "peak +\(peakGrowth / 1024) KiB, current +\(currentGrowth.map { "\($0 / 1024) KiB" } ?? "n/a")"
  }
}

/// Runs `body`, which streams rows and calls `sample()` once per row, and
/// returns how much each run grew the process (the current resident set is
/// read every 100,000 samples, the peak is reset before each run where
/// Linux allows it).
///
/// The resident set is the whole process's, and Swift Testing runs other
/// suites meanwhile: one of them can grow it while the stream runs (the CI
/// run of 8d1fa5d saw 11 MB where the stream alone grows it by 4 KiB). A
/// stream that keeps its rows grows it by at least as much on every run,
/// while another test's allocation comes and goes; so `body` runs again,
/// up to `attempts` times in all, while a run's growth reaches `bound`, and
/// the last run is the one to judge. `body` must reset what it counts.
/// Under a sanitizer (whose figures say nothing) it runs once.
func measuringStreamMemory(
  attempts: Int = 3, bound: Int, _ body: (_ sample: () -> Void) throws -> Void
) rethrows -> [StreamMemory] {
  var runs: [StreamMemory] = []
  repeat {
    _ = resetProcessPeakResident()
    let peakBefore = processPeakResident()
    let currentBefore = processResident()
    var currentMax = currentBefore ?? 0
    var samples = 0
    try body {
      samples += 1
      if samples % 100_000 == 0, let current = processResident() { currentMax = max(currentMax, current) }
    }
    runs.append(
      StreamMemory(
        peakGrowth: processPeakResident() - peakBefore, currentGrowth: currentBefore.map { currentMax - $0 }))
  } while !runningUnderASanitizer && runs.count < attempts && !runs[runs.count - 1].staysBelow(bound)
  return runs
}
