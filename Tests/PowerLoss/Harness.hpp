// The power-loss harness: runs each scenario once to count its points (writes
// and syncs) and calls, then cuts the power at every point (or a seeded
// sample), half the time cutting again during the recovery that follows
// (the reopen through the same VFS), and fails calls one at a time, each
// fault followed by a cut later in the run (or after it); and checks each
// scenario's promise on what is left. Every scenario runs on two disks:
// 512-byte sectors without and with powersafe overwrite.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "FaultVfs.hpp"

namespace powerloss {

struct Options {
  int rounds = 1;                 // cuts per point (each with its own seed)
  std::int64_t samplePoints = 0;  // at most this many points per scenario and round; 0: every one
  std::uint64_t seed = 1;
  std::vector<std::string> scenarios;  // empty: all
  std::string work;                    // a folder for the scenarios' files
  bool faults = true;                  // also run the I/O fault sweep
  bool sabotageSyncs = false;          // the harness's self-test: file syncs make nothing durable
  bool sabotageDirectories = false;    // the harness's self-test: directory syncs make nothing durable
  bool verbose = false;
};

/// What one scenario's runs found.
struct Tally {
  std::string scenario;
  std::int64_t points = 0;        // points one run has
  std::int64_t cuts = 0;          // power cuts simulated (during the run, during recovery, after a fault)
  std::int64_t recoveryCuts = 0;  // of them, cuts during the recovery after a cut
  std::int64_t faultCuts = 0;     // of them, cuts after an I/O fault (later in the run, or after it)
  std::int64_t damaged = 0;       // cuts after which the check found a problem where no promise holds (synchronous OFF)
  std::int64_t promisesBroken = 0;
  std::int64_t mostLost = 0;          // the most acknowledged commits missing after a cut
  std::int64_t faultRuns = 0;         // runs with an I/O fault
  std::int64_t persistentRuns = 0;    // of them, runs with a disk that stays full
  std::int64_t faultsHit = 0;         // calls the fault failed
  std::int64_t faultsAbsorbed = 0;    // fault runs in which no call failed (SQLite retried, or ignored it safely)
  std::vector<std::string> problems;  // the first few broken promises, with their replay

  void broke(const std::string& what) {
    ++promisesBroken;
    if (problems.size() < 10) problems.push_back(what);
  }
};

/// Makes `directory` empty (creating it).
void freshDirectory(const std::string& directory);
/// fsyncs `path` (a file or a directory).
void syncPath(const std::string& path);
/// The points to cut at out of 1..total: all, or `limit` of them chosen by
/// `random` (the first and last always among them), ascending.
std::vector<std::int64_t> pointsToCut(std::int64_t total, std::int64_t limit, std::mt19937_64& random);
/// The seed for round `round` of point `point` of a scenario.
std::uint64_t cutSeed(std::uint64_t seed, const std::string& scenario, std::int64_t point, int round);

/// The first call of a run that failed: its extended code and message.
struct Failure {
  int code = 0;
  std::string message;
};

/// A scenario, as the harness drives it. `run` performs the scenario's work
/// through the "powerloss" VFS in `directory`, which `prepare` set up (the
/// VFS is armed between them), and returns how many steps were acknowledged
/// (commits that returned, calls that succeeded). `check` opens what is left
/// with the default VFS after a cut or a fault and returns an empty string
/// when the promise holds, else what broke; it reports the acknowledged steps
/// found missing in `lost`. `run` reports the first failure in `failure` and
/// carries on as an app would (retrying once), setting `workedAfter` false
/// when the connection did not work again: a broken promise after a fault
/// that passed (not after a cut, nor while a disk stays full).
struct Scenario {
  std::string name;
  std::function<void(const std::string& directory)> prepare;
  std::function<std::int64_t(const std::string& directory, Failure& failure, bool& workedAfter)> run;
  std::function<std::string(const std::string& directory, std::int64_t acknowledged, bool afterFault,
                            std::int64_t& lost)>
      check;
  std::int64_t lossAllowed = 0;        // acknowledged steps a cut may lose (synchronous=NORMAL: measured, not held)
  bool lossMeasuredOnly = false;       // report `lost` without failing on it
  bool cutMayCorrupt = false;          // no promise after a cut (what the check finds is counted)
  std::int64_t inDoubtAfterFault = 0;  // steps a cut after a fault may also lose: ones the app found done after
                                       // an error, whose failed sync never made them durable
  int sectorSize = 512;                // the disk (withSectorSettings sets them)
  bool powersafeOverwrite = false;
};

/// Each scenario on each disk the harness tests: 512-byte sectors without
/// powersafe overwrite (name suffix "-512") and with it ("-512-psow").
std::vector<Scenario> withSectorSettings(const std::vector<Scenario>& scenarios);

/// Runs every cut and fault of `scenario`; returns what it found.
Tally runScenario(const Scenario& scenario, const Options& options);

/// The scenarios of each file (`work`: where they may keep reference files).
std::vector<Scenario> writerScenarios();
std::vector<Scenario> schemaChangeScenarios(const std::string& work);
std::vector<Scenario> backupScenarios(const std::string& work);
std::vector<Scenario> poolScenarios();
std::vector<Scenario> openByNameScenarios(const std::string& work);
std::vector<Scenario> changeKeyScenarios();  // empty unless built against SQLCipher

}  // namespace powerloss
