// power-loss: simulates a power cut at every write and sync of each scenario
// (and an I/O error or a full disk at every read, write, sync, truncate and
// lock), through the "powerloss" VFS (FaultVfs.hpp), and checks each
// scenario's promise on what a reboot would find.
//
//   power-loss [--rounds N | N] [--sample N] [--seed N] [--scenario A,B] [--work DIR] [--no-faults]
//              [--sabotage-syncs] [--verbose]
//   power-loss --list
//
// --rounds: cuts per point, each with its own seed (which writes since the
// last sync are kept, dropped or torn). --sample: at most N points (and N
// calls of each kind) per scenario and round, chosen by the seed; 0 (the
// default) takes every one. A broken promise prints its replay (point and
// seed). --sabotage-syncs is the harness's self-test: syncs make nothing
// durable, so every promise must be seen to break. Exit status: 0 when every promise held, 1 otherwise, 2 on a usage
// error.
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
               "[--no-faults] [--sabotage-syncs] [--verbose]\n       power-loss --list\n");
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
  std::vector<powerloss::Scenario> all = powerloss::writerScenarios();
  for (auto& scenario : powerloss::poolScenarios()) all.push_back(std::move(scenario));
  for (auto& scenario : powerloss::schemaChangeScenarios(options.work)) all.push_back(std::move(scenario));
  for (auto& scenario : powerloss::backupScenarios(options.work)) all.push_back(std::move(scenario));
  for (auto& scenario : powerloss::openByNameScenarios(options.work)) all.push_back(std::move(scenario));
  for (auto& scenario : powerloss::changeKeyScenarios()) all.push_back(std::move(scenario));
  if (list) {
    for (const auto& scenario : all) std::printf("%s\n", scenario.name.c_str());
    return 0;
  }
  for (const std::string& name : options.scenarios) {
    bool known = false;
    for (const auto& scenario : all) known = known || scenario.name == name;
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
      for (const std::string& name : options.scenarios) wanted = wanted || name == scenario.name;
      if (!wanted) continue;
    }
    const auto began = std::chrono::steady_clock::now();
    const powerloss::Tally tally = powerloss::runScenario(scenario, options);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    cuts += tally.cuts;
    broken += tally.promisesBroken;
    faultRuns += tally.faultRuns;
    std::printf("%-22s %4lld points, %5lld cuts, %s", tally.scenario.c_str(), static_cast<long long>(tally.points),
                static_cast<long long>(tally.cuts), tally.promisesBroken == 0 ? "promise held" : "PROMISE BROKEN");
    if (scenario.lossMeasuredOnly || scenario.lossAllowed > 0) {
      std::printf(" (at most %lld acknowledged commits lost)", static_cast<long long>(tally.mostLost));
    }
    if (options.faults) {
      std::printf("; %lld fault runs (%lld absorbed without an error), %lld left the connection needing a reopen",
                  static_cast<long long>(tally.faultRuns), static_cast<long long>(tally.faultsAbsorbed),
                  static_cast<long long>(tally.reopenNeeded));
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
