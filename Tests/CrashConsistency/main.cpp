// crash-consistency: kills child processes that write through SQLiteBridge
// with SIGKILL at random moments and checks what they leave behind.
//
//   crash-consistency [--rounds N | N] [--seed N] [--scenario A,B] [--work DIR] [--keep] [--verbose]
//   crash-consistency --list
//
// Scenarios: writer-delete, writer-wal (numbered transactions), bundle-copy,
// create-by-name (first open by name), update-table, migration (a Migrator
// run). The seed fixes every random choice of the kill plans (which kind of
// kill, after which report, where in the window); windows that scale with
// the COMMIT or call times measured in earlier rounds, and the moment a kill
// lands, still depend on timing, so a seed replays the plans, not the races.
// Exit status: 0 when every round of every scenario passed its checks, 1 on
// any lost commit, partial transaction, half-made file or integrity failure,
// 2 on a usage error. Children are this same executable run as
// `crash-consistency child <kind> ...`, reporting on file descriptor 3.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "Harness.hpp"

namespace crash {
extern std::string selfPath;
}

namespace {

struct Scenario {
  const char* name;
  crash::Tally (*run)(const crash::Options&);
};

crash::Tally writerDelete(const crash::Options& options) { return crash::runWriterScenario(options, false); }
crash::Tally writerWal(const crash::Options& options) { return crash::runWriterScenario(options, true); }

const Scenario kScenarios[] = {
    {"writer-delete", writerDelete},
    {"writer-wal", writerWal},
    {"bundle-copy", crash::runBundleCopyScenario},
    {"create-by-name", crash::runCreateScenario},
    {"update-table", crash::runUpdateTableScenario},
    {"migration", crash::runMigrationScenario},
};

int usage(const char* message) {
  if (message != nullptr) std::fprintf(stderr, "crash-consistency: %s\n", message);
  std::fprintf(stderr,
               "usage: crash-consistency [--rounds N | N] [--seed N] [--scenario A,B] [--work DIR] [--keep] "
               "[--verbose]\n       crash-consistency --list\n");
  return 2;
}

bool parseNumber(const char* text, std::uint64_t& out) {
  if (text == nullptr || *text == '\0') return false;
  char* end = nullptr;
  errno = 0;
  out = std::strtoull(text, &end, 10);
  return errno == 0 && *end == '\0' && text[0] != '-';
}

}  // namespace

int main(int argc, char** argv) {
  {
    std::error_code ignored;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ignored);
    crash::selfPath = self.empty() ? argv[0] : self.string();
  }
  if (argc >= 3 && std::strcmp(argv[1], "child") == 0) {
    const std::string kind = argv[2];
    const std::vector<std::string> args(argv + 3, argv + argc);
    if (kind == "writer") crash::writerChild(args);
    if (kind == "open-by-name") crash::openByNameChild(args);
    if (kind == "update-table") crash::updateTableChild(args);
    if (kind == "migration") crash::migrationChild(args);
    std::fprintf(stderr, "crash-consistency: unknown child %s\n", kind.c_str());
    return 2;
  }

  crash::Options options;
  bool seedGiven = false, keep = false;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    std::uint64_t number = 0;
    if (arg == "--list") {
      for (const Scenario& scenario : kScenarios) std::printf("%s\n", scenario.name);
      return 0;
    } else if (arg == "--rounds" || arg == "--seed") {
      if (i + 1 >= argc || !parseNumber(argv[i + 1], number)) return usage((arg + " needs a number").c_str());
      ++i;
      if (arg == "--rounds") {
        options.rounds = static_cast<int>(number);
      } else {
        options.seed = number;
        seedGiven = true;
      }
    } else if (arg == "--scenario") {
      if (i + 1 >= argc) return usage("--scenario needs a name");
      only = argv[++i];
    } else if (arg == "--work") {
      if (i + 1 >= argc) return usage("--work needs a directory");
      options.workDirectory = argv[++i];
    } else if (arg == "--keep") {
      keep = true;
    } else if (arg == "--verbose" || arg == "-v") {
      options.verbose = true;
    } else if (parseNumber(arg.c_str(), number)) {
      options.rounds = static_cast<int>(number);
    } else {
      return usage(("unknown argument " + arg).c_str());
    }
  }
  if (options.rounds < 1) return usage("rounds must be at least 1");
  std::vector<const Scenario*> chosen;
  for (const Scenario& scenario : kScenarios) {
    if (only.empty() || ("," + only + ",").find("," + std::string(scenario.name) + ",") != std::string::npos) {
      chosen.push_back(&scenario);
    }
  }
  if (chosen.empty()) return usage(("no scenario named " + only + " (see --list)").c_str());
  if (!seedGiven) options.seed = std::random_device{}() % 1000000000u;

  // A fresh scratch directory for this run.
  std::string base = options.workDirectory;
  if (base.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    base = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
  }
  std::filesystem::create_directories(base);
  std::string pattern = base + "/crash-consistency-XXXXXX";
  if (::mkdtemp(&pattern[0]) == nullptr) {
    std::fprintf(stderr, "crash-consistency: cannot make a directory in %s: %s\n", base.c_str(), std::strerror(errno));
    return 2;
  }
  options.workDirectory = pattern;

  std::printf("crash-consistency: seed %llu (replay its kill plans with --seed %llu), %d rounds per scenario\n",
              static_cast<unsigned long long>(options.seed), static_cast<unsigned long long>(options.seed),
              options.rounds);
  std::fflush(stdout);
  bool allClean = true;
  const auto started = std::chrono::steady_clock::now();
  for (const Scenario* scenario : chosen) {
    const auto scenarioStarted = std::chrono::steady_clock::now();
    const crash::Tally tally = scenario->run(options);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - scenarioStarted).count();
    std::printf(
        "%-15s %s  rounds survived %d/%d  checked %lld  lost %lld  partial %lld  integrity failures %lld  "
        "other failures %lld  (%.1f s)\n",
        tally.scenario.c_str(), tally.clean() ? "ok  " : "FAIL", tally.survived, tally.rounds,
        static_cast<long long>(tally.checked), static_cast<long long>(tally.lost),
        static_cast<long long>(tally.partial), static_cast<long long>(tally.integrityFailures),
        static_cast<long long>(tally.otherFailures), seconds);
    std::string notes;
    for (const std::string& note : tally.notes) notes += (notes.empty() ? "" : "; ") + note;
    if (!notes.empty()) std::printf("                %s\n", notes.c_str());
    for (const std::string& failure : tally.failures) std::printf("    failure: %s\n", failure.c_str());
    std::fflush(stdout);
    allClean = allClean && tally.clean() && tally.survived == tally.rounds;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (allClean && !keep) {
    std::filesystem::remove_all(options.workDirectory);
  } else {
    std::printf("databases kept in %s\n", options.workDirectory.c_str());
  }
  std::printf("crash-consistency: %s in %.1f s (seed %llu)\n", allClean ? "all rounds survived" : "FAILED", seconds,
              static_cast<unsigned long long>(options.seed));
  return allClean ? 0 : 1;
}
