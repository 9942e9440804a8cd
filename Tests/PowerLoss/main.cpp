// power-loss: simulates a power cut at every write and sync of each scenario
// (half of them cut again during the recovery after the reboot), and an I/O
// error or a full disk at every call of each kind the VFS has (read, write,
// sync, truncate, lock, unlock, file size, open, delete, access, shared
// memory; a disk that stays full from each write on), each fault followed by
// a cut, through the "powerloss" VFS (FaultVfs.hpp), on two disks (512-byte
// sectors without and with powersafe overwrite: names end in -512 and
// -512-psow); and checks each scenario's promise on what a reboot would find.
//
//   power-loss [--rounds N | N] [--sample N] [--seed N] [--scenario A,B] [--work DIR] [--no-faults]
//              [--sabotage-syncs] [--sabotage-directories] [--verbose]
//   power-loss --list
//
// --rounds: cuts per point, each with its own seed (which writes since the
// last sync are kept, dropped or torn). --sample: at most N points (and N
// calls of each kind) per scenario and round, chosen by the seed; 0 (the
// default) takes every one. A broken promise prints its replay (point and
// seed). --scenario takes full names or names without the disk suffix (both
// disks). --sabotage-syncs and --sabotage-directories are the harness's
// self-tests: file syncs, or directory syncs, make nothing durable, so
// promises must be seen to break (scripts/power-loss-sabotage). Exit status:
// 0 when every promise held, 1 otherwise, 2 on a usage error.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "FileOperationAdapter.hpp"
#include "Harness.hpp"

namespace {

int usage(const char* message) {
  if (message != nullptr) std::fprintf(stderr, "power-loss: %s\n", message);
  std::fprintf(stderr,
               "usage: power-loss [--rounds N | N] [--sample N] [--seed N] [--scenario A,B] [--work DIR] "
               "[--no-faults] [--sabotage-syncs] [--sabotage-directories] [--verbose]\n       power-loss --list\n");
  return 2;
}

bool parseNumber(const char* text, std::uint64_t& out) {
  if (text == nullptr || *text == '\0' || text[0] == '-') return false;
  char* end = nullptr;
  errno = 0;
  out = std::strtoull(text, &end, 10);
  return errno == 0 && *end == '\0';
}

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) parts.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return parts;
}

}  // namespace

int main(int argc, char** argv) {
  powerloss::Options options;
  options.work = "build/power-loss/work";
  options.seed = static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()) % 1000000000;
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    std::uint64_t number = 0;
    const char* next = i + 1 < argc ? argv[i + 1] : nullptr;
    if (argument == "--list") {
      list = true;
    } else if (argument == "--rounds" || parseNumber(argv[i], number)) {
      if (argument == "--rounds" && !parseNumber(argv[++i < argc ? i : 0], number)) return usage("--rounds needs N");
      if (number == 0) return usage("rounds must be at least 1");
      options.rounds = static_cast<int>(number);
    } else if (argument == "--sample") {
      if (!parseNumber(next, number)) return usage("--sample needs N");
      options.samplePoints = static_cast<std::int64_t>(number);
      ++i;
    } else if (argument == "--seed") {
      if (!parseNumber(next, number)) return usage("--seed needs N");
      options.seed = number;
      ++i;
    } else if (argument == "--scenario") {
      if (next == nullptr) return usage("--scenario needs names");
      options.scenarios = splitList(next);
      ++i;
    } else if (argument == "--work") {
      if (next == nullptr) return usage("--work needs a folder");
      options.work = next;
      ++i;
    } else if (argument == "--no-faults") {
      options.faults = false;
    } else if (argument == "--sabotage-syncs") {
      options.sabotageSyncs = true;
    } else if (argument == "--sabotage-directories") {
      options.sabotageDirectories = true;
    } else if (argument == "--verbose") {
      options.verbose = true;
    } else {
      return usage(("unknown argument " + argument).c_str());
    }
  }
  // The VFS sees full paths; the core's own operations see the paths they
  // are given: both must name a file the same way.
  {
    std::error_code ignored;
    options.work = std::filesystem::absolute(options.work, ignored).lexically_normal().string();
    while (options.work.size() > 1 && options.work.back() == '/') options.work.pop_back();
  }
  std::vector<powerloss::Scenario> base = powerloss::writerScenarios();
  for (auto& scenario : powerloss::poolScenarios()) base.push_back(std::move(scenario));
  for (auto& scenario : powerloss::schemaChangeScenarios(options.work)) base.push_back(std::move(scenario));
  for (auto& scenario : powerloss::backupScenarios(options.work)) base.push_back(std::move(scenario));
  for (auto& scenario : powerloss::openByNameScenarios(options.work)) base.push_back(std::move(scenario));
  for (auto& scenario : powerloss::changeKeyScenarios()) base.push_back(std::move(scenario));
  const std::vector<powerloss::Scenario> all = powerloss::withSectorSettings(base);
  const auto named = [](const std::string& scenario, const std::string& name) {
    return scenario == name || scenario == name + "-512" || scenario == name + "-512-psow";
  };
  if (list) {
    for (const auto& scenario : all) std::printf("%s\n", scenario.name.c_str());
    return 0;
  }
  for (const std::string& name : options.scenarios) {
    bool known = false;
    for (const auto& scenario : all) known = known || named(scenario.name, name);
    if (!known) return usage(("no scenario " + name + " (--list names them)").c_str());
  }

  powerloss::observeOwnFileOperations();
  std::printf("power-loss: seed %llu, %d round(s), %s\n", static_cast<unsigned long long>(options.seed), options.rounds,
              options.samplePoints > 0 ? ("at most " + std::to_string(options.samplePoints) + " points each").c_str()
                                       : "every point");
  std::int64_t cuts = 0, broken = 0, faultRuns = 0;
  const auto started = std::chrono::steady_clock::now();
  for (const auto& scenario : all) {
    if (!options.scenarios.empty()) {
      bool wanted = false;
      for (const std::string& name : options.scenarios) wanted = wanted || named(scenario.name, name);
      if (!wanted) continue;
    }
    const auto began = std::chrono::steady_clock::now();
    const powerloss::Tally tally = powerloss::runScenario(scenario, options);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    cuts += tally.cuts;
    broken += tally.promisesBroken;
    faultRuns += tally.faultRuns;
    std::printf("%-36s %4lld points, %5lld cuts (%lld in recovery, %lld after a fault), %s", tally.scenario.c_str(),
                static_cast<long long>(tally.points), static_cast<long long>(tally.cuts),
                static_cast<long long>(tally.recoveryCuts), static_cast<long long>(tally.faultCuts),
                tally.promisesBroken > 0 ? "PROMISE BROKEN" : "promise held");
    if (scenario.cutMayCorrupt) {
      std::printf(" (no promise after a cut: %lld of %lld cuts left it damaged)", static_cast<long long>(tally.damaged),
                  static_cast<long long>(tally.cuts));
    } else if (scenario.lossMeasuredOnly || scenario.lossAllowed > 0) {
      std::printf(" (at most %lld acknowledged commits lost)", static_cast<long long>(tally.mostLost));
    }
    if (options.faults) {
      std::printf("; %lld fault runs (%lld with a disk that stays full; %lld absorbed without an error)",
                  static_cast<long long>(tally.faultRuns), static_cast<long long>(tally.persistentRuns),
                  static_cast<long long>(tally.faultsAbsorbed));
    }
    std::printf(" (%.1f s)\n", seconds);
    for (const std::string& problem : tally.problems) std::printf("    %s\n", problem.c_str());
    std::fflush(stdout);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("power-loss: %lld cuts, %lld fault runs, %lld promises broken, %.1f s (seed %llu)\n",
              static_cast<long long>(cuts), static_cast<long long>(faultRuns), static_cast<long long>(broken), seconds,
              static_cast<unsigned long long>(options.seed));
  return broken == 0 ? 0 : 1;
}
