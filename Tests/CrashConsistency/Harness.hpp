// The crash-consistency driver's shared machinery: child processes that
// report progress through a pipe and are killed with SIGKILL at a random
// moment, raw sqlite3 access for the checks (independent of the code under
// test), and the tally each scenario prints.
#pragma once

#include <sqlite3.h>
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace crash {

// MARK: Reports from the child

/// One report a child sends: a kind letter and a number. Sent with a single
/// write() of a fixed size (below PIPE_BUF, so never torn), and only after
/// the event it reports has happened.
struct Record {
  char kind;
  std::int64_t value;
  std::int64_t arrivedMicros;  // parent side: when it arrived, from the child's start
};

/// The child's end of the report pipe (file descriptor 3 after exec).
class Reporter {
 public:
  explicit Reporter(int fd) : fd_(fd) {}
  /// Writes one record unbuffered; exits the child if the pipe is gone.
  void send(char kind, std::int64_t value) const;

 private:
  int fd_;
};

/// The file descriptor the report pipe has in the child.
constexpr int kReportFd = 3;

// MARK: Children and kills

/// When the parent kills the child.
struct KillPlan {
  /// Kill `delayMicros` after the child starts (when `anchorKind` is 0), or
  /// `delayMicros` after the child sent its `anchorCount`-th record of kind
  /// `anchorKind` (for example right after it announced a COMMIT).
  char anchorKind = 0;
  int anchorCount = 0;
  std::int64_t delayMicros = 0;
  std::string describe() const;
};

/// What happened to one child.
struct ChildRun {
  std::vector<Record> records;
  bool killed = false;        // died of our SIGKILL
  bool anchorReached = true;  // false when the anchor record never came
  std::string problem;        // the child died on its own, or could not start
  /// The last record of `kind` (its value), or `fallback` when none came.
  std::int64_t last(char kind, std::int64_t fallback) const;
  /// The kind of the last record (0 when none).
  char lastKind() const;
  /// Median time from a record of kind `from` to the next record of kind
  /// `to` with the same value (for example COMMIT called to COMMIT
  /// returned), in microseconds; -1 when there is no such pair.
  std::int64_t medianGap(char from, char to) const;
};

/// Runs this executable as `<self> child <args...>` with the report pipe on
/// fd 3, kills it with SIGKILL as `plan` says, reaps it, and returns every
/// record it sent. A child that exits by itself is a problem (its stderr is
/// ours, so its reason is printed).
ChildRun runAndKill(const std::vector<std::string>& args, const KillPlan& plan);

// MARK: Randomness

/// A scenario's random source, derived from the run's seed and the
/// scenario's name so that one scenario alone replays the same kill plans.
std::mt19937_64 scenarioRandom(std::uint64_t seed, const std::string& scenario);
std::int64_t uniform(std::mt19937_64& random, std::int64_t low, std::int64_t high);

// MARK: Raw sqlite3 for the checks

/// A raw sqlite3 connection (read-write, so that a hot journal is rolled
/// back and a WAL recovered, as any later open would).
class RawDb {
 public:
  explicit RawDb(const std::string& path, int flags = SQLITE_OPEN_READWRITE);
  ~RawDb();
  RawDb(const RawDb&) = delete;
  RawDb& operator=(const RawDb&) = delete;
  bool ok() const { return db_ != nullptr; }
  const std::string& openError() const { return openError_; }
  sqlite3* get() const { return db_; }
  /// Runs `sql` (no arguments); false with `error` set on failure.
  bool exec(const std::string& sql, std::string& error);
  /// Each row's columns as text (NULL as "<null>"); false on failure.
  bool rows(const std::string& sql, std::vector<std::vector<std::string>>& out, std::string& error);
  /// One value as text, or "<error: …>".
  std::string scalar(const std::string& sql);
  /// "ok", or what PRAGMA integrity_check said (or why it failed).
  std::string integrity();

 private:
  sqlite3* db_ = nullptr;
  std::string openError_;
};

// MARK: Files

bool fileExists(const std::string& path);
bool readFile(const std::string& path, std::string& bytes);
bool writeFile(const std::string& path, const std::string& bytes);
void removeDatabase(const std::string& path);
/// A new empty directory under `parent`.
std::string makeDirectory(const std::string& parent, const std::string& name);
/// Names in `directory` (without . and ..).
std::vector<std::string> listDirectory(const std::string& directory);
/// Names in `directory` that are the library's temporary files
/// (`.sqlitebridge-…tmp` and their -journal/-wal/-shm companions).
std::vector<std::string> temporaryFiles(const std::string& directory);
/// Sets a file's modification time `seconds` into the past.
bool backdate(const std::string& path, int seconds);

// MARK: Deterministic contents

/// Text of 40–200 characters that depends only on `key`.
std::string payload(std::int64_t key);
/// Fills `notes(id, title, body)` with ids 1...`notes` (`title(id)`,
/// `payload(id)`) and `tags(id, note_id, tag)` with ids 1...`tags` (note
/// `id * 5`), then runs COMMIT: the end of both scenarios' set-up, which
/// runs inside a BEGIN of its own. False with the problem in `error`.
bool fillNotesAndTagsAndCommit(RawDb& db, std::int64_t notes, std::int64_t tags, std::string (*title)(std::int64_t),
                               std::string& error);

// MARK: Tally

/// What a scenario found, printed as one line per scenario.
struct Tally {
  std::string scenario;
  int rounds = 0;            // rounds run
  int survived = 0;          // rounds whose checks all passed
  std::int64_t checked = 0;  // reported commits (or completed calls/copies) verified
  std::int64_t lost = 0;     // reported but missing
  std::int64_t partial = 0;  // partially present transactions / half-made files / broken tables
  std::int64_t integrityFailures = 0;
  std::int64_t otherFailures = 0;     // child died on its own, API failures, wrong contents
  std::vector<std::string> notes;     // extra figures for the summary line
  std::vector<std::string> failures;  // first few failure messages
  void fail(std::int64_t& counter, const std::string& message);
  bool clean() const { return lost == 0 && partial == 0 && integrityFailures == 0 && otherFailures == 0; }
};

/// The checks every database left by a kill must pass: `db` opened,
/// `PRAGMA integrity_check` says ok (else an integrity failure) and
/// `PRAGMA foreign_key_check` finds nothing (else a partial result), each
/// tallied with `where`. False only when `db` did not open.
bool checkOpenedAndSound(RawDb& db, Tally& tally, const std::string& where);

/// Options every scenario gets.
struct Options {
  int rounds = 50;
  std::uint64_t seed = 0;
  std::string workDirectory;  // scratch space for this run
  bool verbose = false;
};

Tally runWriterScenario(const Options& options, bool wal);
Tally runBundleCopyScenario(const Options& options);
Tally runCreateScenario(const Options& options);
Tally runUpdateTableScenario(const Options& options);
Tally runMigrationScenario(const Options& options);

/// Child entry points (`<self> child <name> args...`); they never return.
[[noreturn]] void writerChild(const std::vector<std::string>& args);
[[noreturn]] void openByNameChild(const std::vector<std::string>& args);
[[noreturn]] void updateTableChild(const std::vector<std::string>& args);
[[noreturn]] void migrationChild(const std::vector<std::string>& args);

}  // namespace crash
