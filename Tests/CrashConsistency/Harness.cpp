#include "Harness.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

namespace crash {

std::string selfPath;  // set by main: the executable children are run from

namespace {

constexpr std::size_t kRecordSize = 16;

using Clock = std::chrono::steady_clock;

std::uint64_t splitmix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace

// MARK: Reports

void Reporter::send(char kind, std::int64_t value) const {
  unsigned char buffer[kRecordSize] = {};
  buffer[0] = static_cast<unsigned char>(kind);
  std::memcpy(buffer + 8, &value, sizeof value);
  for (;;) {
    const ssize_t written = ::write(fd_, buffer, sizeof buffer);
    if (written == static_cast<ssize_t>(sizeof buffer)) return;
    if (written < 0 && errno == EINTR) continue;
    std::fprintf(stderr, "crash-consistency child: cannot report to the parent: %s\n", std::strerror(errno));
    ::_exit(4);
  }
}

std::string KillPlan::describe() const {
  std::ostringstream out;
  if (anchorKind == 0) {
    out << "kill " << delayMicros << "us after start";
  } else {
    out << "kill " << delayMicros << "us after record '" << anchorKind << "' #" << anchorCount;
  }
  return out.str();
}

std::int64_t ChildRun::last(char kind, std::int64_t fallback) const {
  for (auto it = records.rbegin(); it != records.rend(); ++it) {
    if (it->kind == kind) return it->value;
  }
  return fallback;
}

char ChildRun::lastKind() const { return records.empty() ? 0 : records.back().kind; }

std::int64_t ChildRun::medianGap(char from, char to) const {
  std::vector<std::int64_t> gaps;
  for (std::size_t i = 0; i + 1 < records.size(); ++i) {
    if (records[i].kind == from && records[i + 1].kind == to && records[i + 1].value == records[i].value) {
      gaps.push_back(records[i + 1].arrivedMicros - records[i].arrivedMicros);
    }
  }
  if (gaps.empty()) return -1;
  std::nth_element(gaps.begin(), gaps.begin() + gaps.size() / 2, gaps.end());
  return gaps[gaps.size() / 2];
}

ChildRun runAndKill(const std::vector<std::string>& args, const KillPlan& plan) {
  ChildRun run;
  std::vector<std::string> argvStrings{selfPath, "child"};
  argvStrings.insert(argvStrings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : argvStrings) argv.push_back(&s[0]);
  argv.push_back(nullptr);

  int fds[2];
  if (::pipe(fds) != 0) {
    run.problem = std::string("pipe: ") + std::strerror(errno);
    return run;
  }
  ::fcntl(fds[0], F_SETFD, FD_CLOEXEC);
  std::fflush(nullptr);
  const auto started = Clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) {
    run.problem = std::string("fork: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return run;
  }
  if (pid == 0) {
    if (fds[1] != kReportFd) {
      ::dup2(fds[1], kReportFd);  // the duplicate does not close on exec
      ::close(fds[1]);
    }
    ::execv(argv[0], argv.data());
    std::fprintf(stderr, "crash-consistency: cannot run %s: %s\n", argv[0], std::strerror(errno));
    ::_exit(127);
  }
  ::close(fds[1]);
  const int readFd = fds[0];

  std::string pending;
  int anchorSeen = 0;
  bool deadlineSet = plan.anchorKind == 0;
  Clock::time_point deadline = started + std::chrono::microseconds(plan.delayMicros);
  // An anchor that never comes (the child is stuck) still ends the round.
  const Clock::time_point giveUp = started + std::chrono::seconds(20);
  bool eof = false;

  auto consume = [&](const char* data, std::size_t size) {
    pending.append(data, size);
    std::size_t offset = 0;
    while (pending.size() - offset >= kRecordSize) {
      Record record;
      record.kind = pending[offset];
      record.arrivedMicros = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - started).count();
      std::memcpy(&record.value, pending.data() + offset + 8, sizeof record.value);
      offset += kRecordSize;
      run.records.push_back(record);
      if (!deadlineSet && record.kind == plan.anchorKind && ++anchorSeen == plan.anchorCount) {
        deadlineSet = true;
        deadline = Clock::now() + std::chrono::microseconds(plan.delayMicros);
      }
    }
    pending.erase(0, offset);
  };

  char buffer[4096];
  while (!eof) {
    const auto now = Clock::now();
    const auto until = deadlineSet ? deadline : giveUp;
    if (now >= until) {
      if (!deadlineSet) run.anchorReached = false;
      break;
    }
    const auto remaining = std::chrono::duration_cast<std::chrono::nanoseconds>(until - now);
    struct timespec timeout;
    timeout.tv_sec = static_cast<time_t>(remaining.count() / 1000000000);
    timeout.tv_nsec = static_cast<long>(remaining.count() % 1000000000);
    struct pollfd descriptor = {readFd, POLLIN, 0};
    const int ready = ::ppoll(&descriptor, 1, &timeout, nullptr);
    if (ready < 0) {
      if (errno == EINTR) continue;
      run.problem = std::string("poll: ") + std::strerror(errno);
      break;
    }
    if (ready == 0) continue;  // the deadline check above decides
    const ssize_t got = ::read(readFd, buffer, sizeof buffer);
    if (got > 0) {
      consume(buffer, static_cast<std::size_t>(got));
    } else if (got == 0) {
      eof = true;  // the child is gone before we killed it
    } else if (errno != EINTR) {
      run.problem = std::string("read: ") + std::strerror(errno);
      break;
    }
  }
  if (!eof) ::kill(pid, SIGKILL);
  // Everything the child reported before it died is still in the pipe.
  for (;;) {
    const ssize_t got = ::read(readFd, buffer, sizeof buffer);
    if (got > 0) {
      consume(buffer, static_cast<std::size_t>(got));
    } else if (got == 0 || errno != EINTR) {
      break;
    }
  }
  ::close(readFd);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL && !eof) {
    run.killed = true;
  } else if (run.problem.empty()) {
    std::ostringstream out;
    if (WIFEXITED(status)) {
      out << "the child exited by itself with status " << WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
      out << "the child died of signal " << WTERMSIG(status);
    }
    run.problem = out.str();
  }
  if (!run.anchorReached && run.problem.empty()) {
    run.problem = std::string("the child never sent record '") + plan.anchorKind + "' #" +
                  std::to_string(plan.anchorCount) + " (stuck?)";
  }
  if (!pending.empty() && run.problem.empty()) run.problem = "a torn report record";
  return run;
}

// MARK: Randomness

std::mt19937_64 scenarioRandom(std::uint64_t seed, const std::string& scenario) {
  std::uint64_t hash = 1469598103934665603ULL;
  for (unsigned char c : scenario) hash = (hash ^ c) * 1099511628211ULL;
  std::seed_seq sequence{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                         static_cast<std::uint32_t>(hash), static_cast<std::uint32_t>(hash >> 32)};
  return std::mt19937_64(sequence);
}

std::int64_t uniform(std::mt19937_64& random, std::int64_t low, std::int64_t high) {
  return std::uniform_int_distribution<std::int64_t>(low, high)(random);
}

// MARK: Raw sqlite3

RawDb::RawDb(const std::string& path, int flags) {
  const int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    openError_ = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    return;
  }
  sqlite3_busy_timeout(db_, 5000);
}

RawDb::~RawDb() { sqlite3_close(db_); }

bool RawDb::exec(const std::string& sql, std::string& error) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) == SQLITE_OK) return true;
  error = message != nullptr ? message : "unknown error";
  sqlite3_free(message);
  return false;
}

bool RawDb::rows(const std::string& sql, std::vector<std::vector<std::string>>& out, std::string& error) {
  out.clear();
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    error = sqlite3_errmsg(db_);
    return false;
  }
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    std::vector<std::string> row;
    for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
      if (sqlite3_column_type(stmt, i) == SQLITE_NULL) {
        row.emplace_back("<null>");
      } else {
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, i));
        row.emplace_back(text, static_cast<std::size_t>(sqlite3_column_bytes(stmt, i)));
      }
    }
    out.push_back(std::move(row));
  }
  sqlite3_finalize(stmt);
  if (rc != SQLITE_DONE) {
    error = sqlite3_errmsg(db_);
    return false;
  }
  return true;
}

std::string RawDb::scalar(const std::string& sql) {
  std::vector<std::vector<std::string>> out;
  std::string error;
  if (!rows(sql, out, error)) return "<error: " + error + ">";
  if (out.empty() || out[0].empty()) return "<no row>";
  return out[0][0];
}

std::string RawDb::integrity() {
  std::vector<std::vector<std::string>> out;
  std::string error;
  if (!rows("PRAGMA integrity_check", out, error)) return "integrity_check failed: " + error;
  if (out.size() == 1 && out[0].size() == 1 && out[0][0] == "ok") return "ok";
  std::string joined;
  for (std::size_t i = 0; i < out.size() && i < 5; ++i) joined += (i ? "; " : "") + out[i][0];
  return joined.empty() ? "no answer" : joined;
}

// MARK: Files

bool fileExists(const std::string& path) {
  struct stat info;
  return ::lstat(path.c_str(), &info) == 0;
}

bool readFile(const std::string& path, std::string& bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

bool writeFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

void removeDatabase(const std::string& path) {
  for (const char* suffix : {"", "-journal", "-wal", "-shm"}) ::unlink((path + suffix).c_str());
}

std::string makeDirectory(const std::string& parent, const std::string& name) {
  const std::string path = parent + "/" + name;
  if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) {
    std::fprintf(stderr, "crash-consistency: cannot make %s: %s\n", path.c_str(), std::strerror(errno));
    std::exit(2);
  }
  return path;
}

std::vector<std::string> listDirectory(const std::string& directory) {
  std::vector<std::string> names;
  DIR* dir = ::opendir(directory.c_str());
  if (dir == nullptr) return names;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(dir);
  return names;
}

std::vector<std::string> temporaryFiles(const std::string& directory) {
  std::vector<std::string> found;
  for (const std::string& name : listDirectory(directory)) {
    if (name.rfind(".sqlitebridge-", 0) == 0 && name.find(".tmp") != std::string::npos) found.push_back(name);
  }
  return found;
}

bool backdate(const std::string& path, int seconds) {
  struct timespec times[2];
  ::clock_gettime(CLOCK_REALTIME, &times[0]);
  times[0].tv_sec -= seconds;
  times[1] = times[0];
  return ::utimensat(AT_FDCWD, path.c_str(), times, 0) == 0;
}

// MARK: Contents

std::string payload(std::int64_t key) {
  std::uint64_t state = static_cast<std::uint64_t>(key) * 0x2545F4914F6CDD1DULL + 17;
  const std::size_t length = 40 + splitmix(state) % 161;
  std::string text = "k" + std::to_string(key) + ":";
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ";
  while (text.size() < length) text += alphabet[splitmix(state) % (sizeof alphabet - 1)];
  return text;
}

bool fillNotesAndTagsAndCommit(RawDb& db, std::int64_t notes, std::int64_t tags, std::string (*title)(std::int64_t),
                               std::string& error) {
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(db.get(), "INSERT INTO notes(id, title, body) VALUES (?, ?, ?)", -1, &stmt, nullptr);
  for (std::int64_t id = 1; id <= notes; ++id) {
    const std::string t = title(id), body = payload(id);
    sqlite3_bind_int64(stmt, 1, id);
    sqlite3_bind_text(stmt, 2, t.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(stmt, 3, body.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_step(stmt);
    sqlite3_reset(stmt);
  }
  sqlite3_finalize(stmt);
  return db.exec("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + std::to_string(tags) +
                     ") INSERT INTO tags(id, note_id, tag) SELECT i, i * 5, 'tag ' || i FROM n; COMMIT",
                 error);
}

// MARK: Tally

void Tally::fail(std::int64_t& counter, const std::string& message) {
  ++counter;
  if (failures.size() < 12) failures.push_back(message);
}

bool checkOpenedAndSound(RawDb& db, Tally& tally, const std::string& where) {
  if (!db.ok()) {
    tally.fail(tally.integrityFailures, where + ": cannot open: " + db.openError());
    return false;
  }
  const std::string integrity = db.integrity();
  if (integrity != "ok") tally.fail(tally.integrityFailures, where + ": integrity_check: " + integrity);
  std::vector<std::vector<std::string>> rows;
  std::string error;
  if (!db.rows("PRAGMA foreign_key_check", rows, error) || !rows.empty()) {
    tally.fail(tally.partial, where + ": foreign_key_check: " + (rows.empty() ? error : rows[0][0]));
  }
  return true;
}

}  // namespace crash
