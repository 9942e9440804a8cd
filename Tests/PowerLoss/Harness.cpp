#include "Harness.hpp"

#include <sqlitebridge/sqlitebridge.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

namespace powerloss {

void freshDirectory(const std::string& directory) {
  std::error_code ignored;
  std::filesystem::remove_all(directory, ignored);
  std::filesystem::create_directories(directory, ignored);
}

void syncPath(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

std::vector<std::int64_t> pointsToCut(std::int64_t total, std::int64_t limit, std::mt19937_64& random) {
  std::vector<std::int64_t> points;
  if (total <= 0) return points;
  if (limit <= 0 || limit >= total) {
    for (std::int64_t point = 1; point <= total; ++point) points.push_back(point);
    return points;
  }
  std::set<std::int64_t> chosen{1, total};
  while (static_cast<std::int64_t>(chosen.size()) < limit) {
    chosen.insert(1 + static_cast<std::int64_t>(random() % static_cast<std::uint64_t>(total)));
  }
  return std::vector<std::int64_t>(chosen.begin(), chosen.end());
}

std::uint64_t cutSeed(std::uint64_t seed, const std::string& scenario, std::int64_t point, int round) {
  std::uint64_t hash = seed ^ 0xcbf29ce484222325ULL;
  for (const char c : scenario) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  hash = (hash ^ static_cast<std::uint64_t>(point)) * 0x100000001b3ULL;
  return (hash ^ static_cast<std::uint64_t>(round)) * 0x100000001b3ULL;
}

std::vector<Scenario> withSectorSettings(const std::vector<Scenario>& scenarios) {
  std::vector<Scenario> all;
  for (const bool powersafe : {false, true}) {
    for (Scenario scenario : scenarios) {
      scenario.name += powersafe ? "-512-psow" : "-512";
      scenario.sectorSize = 512;
      scenario.powersafeOverwrite = powersafe;
      all.push_back(std::move(scenario));
    }
  }
  return all;
}

namespace {

namespace fs = std::filesystem;

// What a call that met a fault of `kind` may fail with.
bool isStorageFailure(int code, CallKind kind) {
  const int primary = code & 0xff;
  if (primary == SQLITE_IOERR || primary == SQLITE_FULL) return true;
  return primary == SQLITE_CANTOPEN && kind == CallKind::Open;
}

// Whether a failure's message says what failed: the code's name (the core
// adds it to SQLite's "disk I/O error" and "database or disk is full"), or
// SQLite's "unable to open" for a file that did not open.
bool namesItsFailure(const Failure& failure) {
  if (failure.message.find(sqlitebridge::resultCodeName(failure.code)) != std::string::npos) return true;
  return (failure.code & 0xff) == SQLITE_CANTOPEN && failure.message.find("unable to open") != std::string::npos;
}

// The replay of one cut or fault, for a report.
std::string replay(const std::string& scenario, const std::string& what) { return "[" + scenario + " " + what + "] "; }

Plan planFor(const Scenario& scenario, const Options& options) {
  Plan plan;
  plan.sectorSize = scenario.sectorSize;
  plan.powersafeOverwrite = scenario.powersafeOverwrite;
  plan.sabotageSyncs = options.sabotageSyncs;
  plan.sabotageDirectories = options.sabotageDirectories;
  return plan;
}

// One run of `scenario` under `plan` in a fresh `directory`; returns the
// steps acknowledged and the counts (the VFS stays armed).
struct Run {
  std::int64_t acknowledged = 0;
  Failure failure;
  bool workedAfter = true;
  Counts counts;
};

Run runOnce(const Scenario& scenario, const std::string& directory, const Plan& plan) {
  FaultVfs& vfs = FaultVfs::shared();
  freshDirectory(directory);
  scenario.prepare(directory);
  vfs.arm(plan);
  Run run;
  run.acknowledged = scenario.run(directory, run.failure, run.workedAfter);
  run.counts = vfs.counts();
  return run;
}

bool isDatabaseCandidate(const fs::path& path) {
  const std::string name = path.filename().string();
  for (const char* suffix : {"-journal", "-wal", "-shm"}) {
    const std::string tail(suffix);
    if (name.size() >= tail.size() && name.compare(name.size() - tail.size(), tail.size(), tail) == 0) return false;
  }
  return true;
}

// What an app does first after a reboot: open each database that is left
// and read it, through the "powerloss" VFS (a hot journal is rolled back, a
// WAL recovered and, at the close, checkpointed and removed).
void recover(const std::string& directory) {
  std::vector<std::string> files;
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(directory, error); !error && it != fs::recursive_directory_iterator();
       it.increment(error)) {
    if (it->is_regular_file(error) && isDatabaseCandidate(it->path())) files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  sqlitebridge::Configuration configuration;
  configuration.vfs = FaultVfs::name();
  for (const std::string& file : files) {
    sqlitebridge::Database db = sqlitebridge::Database::open(file, configuration);
    if (db.isOpen()) db.execute("SELECT count(*) FROM sqlite_master");
  }
}

// Half the cuts (by the seed): the recovery after the reboot is cut too, at
// one of its points. Returns a note for the account ("" when not cut).
std::string cutDuringRecovery(const Scenario& scenario, const Options& options, const std::string& directory,
                              std::uint64_t seed, Tally& tally) {
  if (seed % 2 != 0) return std::string();
  FaultVfs& vfs = FaultVfs::shared();
  const std::string snapshot = directory + ".after-cut";
  std::error_code ignored;
  fs::remove_all(snapshot, ignored);
  fs::copy(directory, snapshot, fs::copy_options::recursive, ignored);
  Plan counting = planFor(scenario, options);
  vfs.arm(counting);
  recover(directory);
  const std::int64_t points = vfs.counts().points;
  vfs.disarm();
  fs::remove_all(directory, ignored);
  fs::rename(snapshot, directory, ignored);
  if (points == 0) return std::string();
  Plan plan = planFor(scenario, options);
  plan.mode = Plan::Mode::PowerCut;
  plan.at = 1 + static_cast<std::int64_t>((seed / 2) % static_cast<std::uint64_t>(points));
  plan.seed = seed / 3 + 1;
  vfs.arm(plan);
  recover(directory);
  if (!vfs.counts().cut) {
    vfs.disarm();
    return "; the recovery never reached its point " + std::to_string(plan.at);
  }
  const std::string account = vfs.materialize();
  ++tally.recoveryCuts;
  ++tally.cuts;
  return "; recovery cut at point " + std::to_string(plan.at) + " of " + std::to_string(points) + ": " + account;
}

// Judges what a check found after a cut.
void judgeCut(const Scenario& scenario, const Options& options, const std::string& what, const std::string& problem,
              std::int64_t acknowledged, std::int64_t lost, const std::string& account, Tally& tally,
              std::int64_t inDoubt = 0) {
  tally.mostLost = std::max(tally.mostLost, lost - inDoubt);
  const bool tooMuchLost = lost > scenario.lossAllowed + inDoubt && !scenario.lossMeasuredOnly;
  if (scenario.cutMayCorrupt && (!problem.empty() || tooMuchLost)) {
    ++tally.damaged;
    if (options.verbose) std::printf("  %s: damaged (no promise): %s\n", what.c_str(), problem.c_str());
  } else if (!problem.empty()) {
    tally.broke(replay(scenario.name, what) + problem + " (" + account + ")");
  } else if (tooMuchLost) {
    tally.broke(replay(scenario.name, what) + std::to_string(lost) + " acknowledged steps lost (" + account + ")");
  } else if (options.verbose) {
    std::printf("  %s: ok, %lld acknowledged, %lld lost; %s\n", what.c_str(), static_cast<long long>(acknowledged),
                static_cast<long long>(lost), account.c_str());
  }
}

void cutEveryPoint(const Scenario& scenario, const Options& options, const std::string& directory, std::int64_t total,
                   Tally& tally) {
  FaultVfs& vfs = FaultVfs::shared();
  std::mt19937_64 random(cutSeed(options.seed, scenario.name, 0, -1));
  for (int round = 0; round < options.rounds; ++round) {
    for (const std::int64_t point : pointsToCut(total, options.samplePoints, random)) {
      Plan plan = planFor(scenario, options);
      plan.mode = Plan::Mode::PowerCut;
      plan.at = point;
      plan.seed = cutSeed(options.seed, scenario.name, point, round);
      const Run run = runOnce(scenario, directory, plan);
      const std::int64_t acknowledged = run.acknowledged;
      const Counts& counts = run.counts;
      const std::string what = "cut at point " + std::to_string(point) + " of " + std::to_string(total) + ", seed " +
                               std::to_string(plan.seed);
      if (!counts.cut) {
        vfs.disarm();
        tally.broke(replay(scenario.name, what) + "the run never reached the point (" + std::to_string(counts.points) +
                    " points): the scenario is not deterministic");
        continue;
      }
      std::string account = vfs.materialize();
      ++tally.cuts;
      account += cutDuringRecovery(scenario, options, directory, plan.seed, tally);
      std::int64_t lost = 0;
      const std::string problem = scenario.check(directory, acknowledged, false, lost);
      judgeCut(scenario, options, what, problem, acknowledged, lost, account, tally);
    }
  }
}

// The same fault again, then a power cut later in the run or, when the
// fault was absorbed, after the run (what it left must be durable too).
void cutAfterFault(const Scenario& scenario, const Options& options, const std::string& directory, Plan plan,
                   const Run& faulted, const std::string& what, Tally& tally) {
  if (faulted.counts.faults == 0 || faulted.counts.pointsAtFault < 0) return;
  FaultVfs& vfs = FaultVfs::shared();
  const std::int64_t from = faulted.counts.pointsAtFault + 1;
  const std::int64_t to = faulted.counts.points + 1;  // one past the last point: after the run
  const bool absorbed = faulted.failure.code == 0;
  plan.seed = cutSeed(options.seed, scenario.name, plan.at, static_cast<int>(plan.kind) + 100);
  plan.cutAt = absorbed ? to : from + static_cast<std::int64_t>(plan.seed % static_cast<std::uint64_t>(to - from + 1));
  const Run run = runOnce(scenario, directory, plan);
  const std::string cutWhat = what + ", then a cut at point " + std::to_string(plan.cutAt) + " of " +
                              std::to_string(faulted.counts.points) + ", seed " + std::to_string(plan.seed);
  if (plan.cutAt <= faulted.counts.points && !run.counts.cut) {
    vfs.disarm();
    tally.broke(replay(scenario.name, cutWhat) + "the run never reached the point: the scenario is not deterministic");
    return;
  }
  const std::string account = vfs.materialize();
  ++tally.cuts;
  ++tally.faultCuts;
  std::int64_t lost = 0;
  const std::string problem = scenario.check(directory, run.acknowledged, false, lost);
  const std::int64_t inDoubt = run.failure.code != 0 ? scenario.inDoubtAfterFault : 0;
  judgeCut(scenario, options, cutWhat, problem, run.acknowledged, lost, account, tally, inDoubt);
}

void failEveryCall(const Scenario& scenario, const Options& options, const std::string& directory,
                   const Counts& recorded, Tally& tally) {
  FaultVfs& vfs = FaultVfs::shared();
  std::mt19937_64 random(cutSeed(options.seed, scenario.name, 0, -2));
  for (int k = 0; k < kCallKinds; ++k) {
    const CallKind kind = static_cast<CallKind>(k);
    const std::int64_t total = recorded.calls[k];
    for (const std::int64_t call : pointsToCut(total, options.samplePoints, random)) {
      const bool canBeFull = kind == CallKind::Write || kind == CallKind::Truncate;
      // An I/O error; a full disk; a disk that stays full from this write on.
      for (int variant = 0; variant < 3; ++variant) {
        if (variant == 1 && !canBeFull) continue;
        if (variant == 2 && kind != CallKind::Write) continue;
        const bool full = variant >= 1;
        const bool persistent = variant == 2;
        Plan plan = planFor(scenario, options);
        plan.sabotageSyncs = false;
        plan.sabotageDirectories = false;
        plan.mode = Plan::Mode::Fault;
        plan.kind = kind;
        plan.at = call;
        plan.diskFull = full;
        plan.persistent = persistent;
        const Run run = runOnce(scenario, directory, plan);
        vfs.disarm();
        const std::int64_t acknowledged = run.acknowledged;
        const Failure& failure = run.failure;
        const Counts& counts = run.counts;
        ++tally.faultRuns;
        if (persistent) ++tally.persistentRuns;
        tally.faultsHit += counts.faults;
        const std::string what = std::string(persistent ? "a disk full from"
                                             : full     ? "disk full at"
                                                        : "I/O error at") +
                                 " " + callKindName(kind) + " " + std::to_string(call) + " of " + std::to_string(total);
        // SQLCipher 3 decrypts the buffer of a read that failed, and reports
        // the garbage as SQLITE_NOTADB: its failed reads say so.
        const bool cipherRead = sqlitebridge::Database::isEncryptionAvailable() && kind == CallKind::Read &&
                                (failure.code & 0xff) == SQLITE_NOTADB;
        if (failure.code != 0 && !isStorageFailure(failure.code, kind) && !cipherRead) {
          tally.broke(replay(scenario.name, what) + "the call failed with " + std::to_string(failure.code) + " (" +
                      failure.message + "), not an I/O error or a full disk");
        } else if (failure.code != 0 && !cipherRead && !namesItsFailure(failure)) {
          tally.broke(replay(scenario.name, what) + "the message does not say what failed: " + failure.message);
        }
        if (!run.workedAfter && !persistent) {
          tally.broke(replay(scenario.name, what) + "the connection did not work again after its fault (" +
                      failure.message + ")");
        }
        if (counts.faults > 0 && failure.code == 0) ++tally.faultsAbsorbed;
        std::int64_t lost = 0;
        const std::string problem = scenario.check(directory, acknowledged, true, lost);
        if (!problem.empty()) {
          tally.broke(replay(scenario.name, what) + problem);
        } else if (lost > 0) {
          tally.broke(replay(scenario.name, what) + std::to_string(lost) + " acknowledged steps lost");
        } else if (options.verbose) {
          std::printf("  %s: ok, %lld acknowledged, first failure: %s%s\n", what.c_str(),
                      static_cast<long long>(acknowledged), failure.message.c_str(),
                      run.workedAfter ? "" : "; the connection did not work again");
        }
        Plan cut = plan;
        cut.sabotageSyncs = options.sabotageSyncs;
        cut.sabotageDirectories = options.sabotageDirectories;
        cutAfterFault(scenario, options, directory, cut, run, what, tally);
      }
    }
  }
}

}  // namespace

Tally runScenario(const Scenario& scenario, const Options& options) {
  Tally tally;
  tally.scenario = scenario.name;
  const std::string directory = options.work + "/" + scenario.name;
  FaultVfs& vfs = FaultVfs::shared();

  // The counting run, which must itself keep the promise.
  Plan counting = planFor(scenario, options);
  const Run run = runOnce(scenario, directory, counting);
  vfs.disarm();
  const Counts& recorded = run.counts;
  tally.points = recorded.points;
  std::int64_t lost = 0;
  const std::string problem = scenario.check(directory, run.acknowledged, true, lost);
  if (!problem.empty() || run.failure.code != 0 || lost != 0) {
    tally.broke(replay(scenario.name, "counting run") +
                (problem.empty() ? "a step failed or was lost: " + run.failure.message : problem));
    return tally;
  }
  cutEveryPoint(scenario, options, directory, recorded.points, tally);
  if (options.faults) failEveryCall(scenario, options, directory, recorded, tally);
  std::error_code ignored;
  fs::remove_all(directory, ignored);
  return tally;
}

}  // namespace powerloss
