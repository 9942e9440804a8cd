// sync-simulation: N devices (database files of their own, each edited and
// synced by short-lived device processes) make random edits of three synced
// tables through a SQLite-file hub, sync at random moments, some offline
// for long stretches, up to three device processes at once; some are
// killed mid-sync with SIGKILL: right after the round's local rewrite
// committed and before its push, right after the hub appended and before
// the device acknowledged, or at a random moment. At the end every device
// syncs until nothing moves, and the copies must have converged
// (Convergence.hpp): identical, equal to replaying the hub's log, every
// committed transaction in the log exactly once.
//
//   sync-simulation --devices 8 --operations 20000 --seed S --work DIR --schema FILE
//   sync-simulation device --db P --hub H --name D --seed S --edits N --sync 0|1 --stop-at none|rewritten|pushed
//
// Exit status: 0 when the copies converged, 1 when they did not (each
// problem printed), 2 on a usage error. The device mode exits 0, or 3 when
// its sync failed in a way the hub or a busy database explains (printed).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlitebridge/DatabaseQueue.hpp>
#include <sqlitebridge/DatabaseSyncHub.hpp>
#include <sqlitebridge/Sync.hpp>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "Convergence.hpp"
#include "RandomEdits.hpp"

using namespace sqlitebridge;
using namespace sqlitebridge_simulation;

namespace {

const std::vector<std::string> kSyncedTables{"notes", "tags", "counters"};
std::string selfPath;

std::map<std::string, std::string> options(int argc, char** argv, int first) {
  std::map<std::string, std::string> parsed;
  for (int i = first; i + 1 < argc; i += 2) {
    if (std::strncmp(argv[i], "--", 2) != 0) break;
    parsed[argv[i] + 2] = argv[i + 1];
  }
  return parsed;
}

// One sync of `engine` through `hub`, driven step by step so that the
// process can die at the moments the simulation aims at.
int syncDevice(SyncEngine& engine, SyncHub& hub, const std::string& stopAt) {
  SyncRound round(engine);
  while (true) {
    switch (round.step()) {
      case SyncRound::Step::Pull: {
        std::vector<SyncEntry> page;
        Error error;
        if (hub.entries(round.after(), round.limit(), page, &error)) {
          round.pulled(page);
        } else {
          round.hubFailed(error);
        }
        break;
      }
      case SyncRound::Step::Push: {
        // The round's rewrite committed; nothing is pushed yet.
        if (stopAt == "rewritten") ::raise(SIGKILL);
        bool appended = false;
        Error error;
        if (!hub.append(round.entriesToPush(), round.after(), appended, &error)) {
          round.hubFailed(error);
          break;
        }
        // In the log, not yet acknowledged here.
        if (appended && stopAt == "pushed") ::raise(SIGKILL);
        round.pushed(appended);
        break;
      }
      case SyncRound::Step::Finished:
        return 0;
      case SyncRound::Step::Failed: {
        const Error error = round.error();
        std::fprintf(stderr, "sync failed: code %d: %s\n", error.extendedCode, error.message.c_str());
        // Busy files and a log that kept moving are what concurrent devices
        // meet; anything else is a defect.
        return error.code == SQLITE_BUSY ? 3 : 1;
      }
    }
  }
}

int deviceMain(int argc, char** argv) {
  std::map<std::string, std::string> args = options(argc, argv, 2);
  for (const char* required : {"db", "hub", "name", "seed", "edits", "sync", "stop-at"}) {
    if (args.count(required) == 0) {
      std::fprintf(stderr, "device: --%s missing\n", required);
      return 2;
    }
  }
  DatabaseQueue queue(args["db"]);
  auto hub = std::make_shared<DatabaseSyncHub>(args["hub"]);
  SyncEngine engine(queue, kSyncedTables, args["name"], hub);
  if (!queue.isOpen() || hub->error().isError() || engine.error().isError()) {
    std::fprintf(stderr, "device start failed: %s %s\n", hub->error().message.c_str(), engine.error().message.c_str());
    return engine.error().code == SQLITE_BUSY || hub->error().code == SQLITE_BUSY ? 3 : 1;
  }
  const std::uint64_t seed = std::stoull(args["seed"]);
  std::mt19937_64 random(seed);
  // Keys this process invents: unique across the device's processes.
  std::int64_t serial = static_cast<std::int64_t>(seed % 1000000007ULL) * 1000;
  const int edits = std::stoi(args["edits"]);
  for (int i = 0; i < edits; ++i) {
    Error error;
    if (!queue.write([&](Database& db) { return run(db, randomEdit(db, args["name"], serial, random)); }, &error) &&
        error.code != SQLITE_CONSTRAINT) {
      std::fprintf(stderr, "edit failed: code %d: %s\n", error.extendedCode, error.message.c_str());
      return error.code == SQLITE_BUSY ? 3 : 1;
    }
  }
  if (args["sync"] != "1") return 0;
  return syncDevice(engine, *hub, args["stop-at"]);
}

struct Child {
  pid_t pid = 0;
  int device = 0;
  std::string plan;
};

pid_t spawn(const std::vector<std::string>& arguments) {
  std::vector<char*> argv;
  for (const std::string& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execv(selfPath.c_str(), argv.data());
    std::_Exit(127);
  }
  return pid;
}

int simulationMain(int argc, char** argv) {
  std::map<std::string, std::string> args = options(argc, argv, 1);
  for (const char* required : {"devices", "operations", "seed", "work", "schema"}) {
    if (args.count(required) == 0) {
      std::fprintf(stderr, "sync-simulation: --%s missing\n", required);
      return 2;
    }
  }
  const int deviceCount = std::stoi(args["devices"]);
  const long operations = std::stol(args["operations"]);
  const std::uint64_t seed = std::stoull(args["seed"]);
  const std::string work = args["work"];
  std::ifstream schemaFile(args["schema"]);
  std::stringstream schemaText;
  schemaText << schemaFile.rdbuf();
  const std::string schema = schemaText.str();
  std::filesystem::remove_all(work);
  std::filesystem::create_directories(work);
  const std::string hubPath = work + "/hub.sqlite";
  std::vector<DeviceFile> devices;
  for (int i = 0; i < deviceCount; ++i) {
    const std::string name = "device" + std::to_string(i);
    devices.push_back({name, work + "/" + name + ".sqlite"});
    Database db = Database::open(devices.back().path);
    if (!db.execute("PRAGMA journal_mode = WAL") || !db.executeScript(schema)) {
      std::fprintf(stderr, "cannot make %s: %s\n", name.c_str(), db.lastError().message.c_str());
      return 1;
    }
  }
  std::mt19937_64 random(seed);
  std::vector<bool> offline(deviceCount, false);
  std::vector<bool> busy(deviceCount, false);
  std::vector<Child> running;
  std::map<std::string, long> tally;
  long done = 0;
  std::uint64_t runs = 0;
  auto reap = [&](bool block) {
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, block ? 0 : WNOHANG);
    if (pid <= 0) return false;
    for (auto child = running.begin(); child != running.end(); ++child) {
      if (child->pid != pid) continue;
      busy[child->device] = false;
      if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
        ++tally["killed " + child->plan];
      } else if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
        ++tally["busy"];
      } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        ++tally["failed"];
        std::fprintf(stderr, "device%d (%s) ended with status %d\n", child->device, child->plan.c_str(), status);
      }
      running.erase(child);
      break;
    }
    return true;
  };
  while (done < operations) {
    while (running.size() >= 3) reap(true);
    int device = static_cast<int>(random() % deviceCount);
    if (busy[device]) {
      reap(true);
      continue;
    }
    // Offline stretches: a device goes offline now and then, and comes
    // back rarely.
    if (random() % 20 == 0) offline[device] = !offline[device];
    if (offline[device] && random() % 8 == 0) offline[device] = false;
    const long edits = std::min<long>(operations - done, 1 + static_cast<long>(random() % 40));
    done += edits;
    const bool sync = !offline[device] && random() % 3 != 0;
    std::string stopAt = "none";
    std::string plan = sync ? "sync" : "edit";
    const auto kill = random() % 10;
    if (sync && kill == 0) stopAt = "rewritten";
    if (sync && kill == 1) stopAt = "pushed";
    if (stopAt != "none") plan = "at " + stopAt;
    const bool randomKill = kill == 2;
    if (randomKill) plan = "at a random moment";
    const pid_t pid = spawn({selfPath, "device", "--db", devices[device].path, "--hub", hubPath, "--name",
                             devices[device].name, "--seed", std::to_string(random()), "--edits", std::to_string(edits),
                             "--sync", sync ? "1" : "0", "--stop-at", stopAt});
    if (pid < 0) {
      std::fprintf(stderr, "fork: %s\n", std::strerror(errno));
      return 1;
    }
    ++runs;
    busy[device] = true;
    running.push_back({pid, device, plan});
    if (randomKill) {
      // Not a test of timing: any moment is a moment a device may die at.
      std::this_thread::sleep_for(std::chrono::microseconds(random() % 30000));
      ::kill(pid, SIGKILL);
    }
    while (reap(false)) {
    }
  }
  while (!running.empty()) reap(true);
  // Every device syncs until a whole pass moves nothing.
  auto hub = std::make_shared<DatabaseSyncHub>(hubPath);
  std::string problem;
  const int passes =
      syncUntilNothingMoves(devices, hub, deviceCount + 5, problem, &tally["conflicts in the final syncs"]);
  if (passes < 0) {
    std::fprintf(stderr, "%s\n", problem.c_str());
    return 1;
  }
  std::int64_t entries = 0;
  hub->lastPosition(entries);
  const std::vector<std::string> problems = convergenceProblems(devices, hubPath, schema);
  std::printf("seed %llu: %d devices, %ld edits in %llu device runs, %lld log entries, final passes %d",
              static_cast<unsigned long long>(seed), deviceCount, operations, static_cast<unsigned long long>(runs),
              static_cast<long long>(entries), passes);
  for (const auto& [what, count] : tally) std::printf(", %s %ld", what.c_str(), count);
  std::size_t divergent = 0;
  for (const std::string& problem : problems) divergent += problem.find("differs") != std::string::npos ? 1 : 0;
  std::printf("; divergent copies: %zu\n", divergent);
  for (const std::string& problem : problems) std::printf("  %s\n", problem.c_str());
  return problems.empty() && tally["failed"] == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::error_code ignored;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ignored);
  selfPath = self.empty() ? argv[0] : self.string();
  if (argc >= 2 && std::strcmp(argv[1], "device") == 0) return deviceMain(argc, argv);
  return simulationMain(argc, argv);
}
