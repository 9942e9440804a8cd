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

namespace {

bool isStorageFailure(int code) { return (code & 0xff) == SQLITE_IOERR || (code & 0xff) == SQLITE_FULL; }

// The replay of one cut or fault, for a report.
std::string replay(const std::string& scenario, const std::string& what) { return "[" + scenario + " " + what + "] "; }

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

void cutEveryPoint(const Scenario& scenario, const Options& options, const std::string& directory, std::int64_t total,
                   Tally& tally) {
  FaultVfs& vfs = FaultVfs::shared();
  std::mt19937_64 random(cutSeed(options.seed, scenario.name, 0, -1));
  for (int round = 0; round < options.rounds; ++round) {
    for (const std::int64_t point : pointsToCut(total, options.samplePoints, random)) {
      Plan plan;
      plan.mode = Plan::Mode::PowerCut;
      plan.at = point;
      plan.seed = cutSeed(options.seed, scenario.name, point, round);
      plan.sabotageSyncs = options.sabotageSyncs;
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
      const std::string account = vfs.materialize();
      ++tally.cuts;
      std::int64_t lost = 0;
      const std::string problem = scenario.check(directory, acknowledged, false, lost);
      tally.mostLost = std::max(tally.mostLost, lost);
      if (!problem.empty()) {
        tally.broke(replay(scenario.name, what) + problem + " (" + account + ")");
      } else if (lost > scenario.lossAllowed && !scenario.lossMeasuredOnly) {
        tally.broke(replay(scenario.name, what) + std::to_string(lost) + " acknowledged steps lost (" + account + ")");
      } else if (options.verbose) {
        std::printf("  %s: ok, %lld acknowledged, %lld lost; %s\n", what.c_str(), static_cast<long long>(acknowledged),
                    static_cast<long long>(lost), account.c_str());
      }
    }
  }
}

void failEveryCall(const Scenario& scenario, const Options& options, const std::string& directory,
                   const Counts& recorded, Tally& tally) {
  FaultVfs& vfs = FaultVfs::shared();
  std::mt19937_64 random(cutSeed(options.seed, scenario.name, 0, -2));
  for (const CallKind kind : {CallKind::Read, CallKind::Write, CallKind::Sync, CallKind::Truncate, CallKind::Lock}) {
    const std::int64_t total = recorded.calls[static_cast<int>(kind)];
    for (const std::int64_t call : pointsToCut(total, options.samplePoints, random)) {
      const bool canBeFull = kind == CallKind::Write || kind == CallKind::Truncate;
      for (const bool full : {false, true}) {
        if (full && !canBeFull) continue;
        Plan plan;
        plan.mode = Plan::Mode::Fault;
        plan.kind = kind;
        plan.at = call;
        plan.diskFull = full;
        const Run run = runOnce(scenario, directory, plan);
        vfs.disarm();
        const std::int64_t acknowledged = run.acknowledged;
        const Failure& failure = run.failure;
        const bool workedAfter = run.workedAfter;
        const Counts& counts = run.counts;
        ++tally.faultRuns;
        tally.faultsHit += counts.faults;
        const std::string what = std::string(full ? "disk full" : "I/O error") + " at " + callKindName(kind) + " " +
                                 std::to_string(call) + " of " + std::to_string(total);
        // SQLCipher 3 decrypts the buffer of a read that failed, and reports
        // the garbage as SQLITE_NOTADB: its failed reads say so.
        const bool cipherRead = sqlitebridge::Database::isEncryptionAvailable() && kind == CallKind::Read &&
                                (failure.code & 0xff) == SQLITE_NOTADB;
        if (failure.code != 0 && !isStorageFailure(failure.code) && !cipherRead) {
          tally.broke(replay(scenario.name, what) + "the call failed with " + std::to_string(failure.code) + " (" +
                      failure.message + "), not an I/O error or a full disk");
        } else if (failure.code != 0 && !cipherRead &&
                   failure.message.find(sqlitebridge::resultCodeName(failure.code)) == std::string::npos) {
          tally.broke(replay(scenario.name, what) + "the message does not say what failed: " + failure.message);
        }
        if (!workedAfter) ++tally.reopenNeeded;
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
                      workedAfter ? "" : "; the connection did not work again");
        }
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
  const Run counting = runOnce(scenario, directory, Plan{});
  vfs.disarm();
  const std::int64_t acknowledged = counting.acknowledged;
  const Failure& failure = counting.failure;
  const Counts& recorded = counting.counts;
  tally.points = recorded.points;
  std::int64_t lost = 0;
  const std::string problem = scenario.check(directory, acknowledged, true, lost);
  if (!problem.empty() || failure.code != 0 || lost != 0) {
    tally.broke(replay(scenario.name, "counting run") + (problem.empty() ? "a step failed or was lost" : problem));
    return tally;
  }
  cutEveryPoint(scenario, options, directory, recorded.points, tally);
  if (options.faults) failEveryCall(scenario, options, directory, recorded, tally);
  return tally;
}

}  // namespace powerloss
