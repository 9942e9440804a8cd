// Other programs the tests start (dqlite nodes and tools, litestream):
// found on PATH, started with posix_spawn, every wait bounded, every
// process ended by its id (SIGKILL) when its owner goes away.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace sqlitebridge_test {

/// The path of `program` found on PATH, or empty.
inline std::string findProgram(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string directories = path != nullptr ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= directories.size()) {
    const std::size_t end = std::min(directories.find(':', start), directories.size());
    const std::string candidate = directories.substr(start, end - start) + "/" + program;
    if (end > start && ::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return std::string();
}

/// A process started with `arguments` (the first names the program), its
/// output (stdout and stderr) into the file `outputPath` (discarded by
/// default), ended by its id (SIGKILL) when the object goes away.
class SpawnedProcess {
 public:
  explicit SpawnedProcess(std::vector<std::string> arguments, const std::string& outputPath = "/dev/null") {
    std::vector<char*> argv;
    for (std::string& argument : arguments) argv.push_back(argument.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, outputPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    if (::posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
  }
  ~SpawnedProcess() {
    if (pid_ <= 0 || status_) return;
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  SpawnedProcess(const SpawnedProcess&) = delete;
  SpawnedProcess& operator=(const SpawnedProcess&) = delete;

  /// Whether the process started and has not exited.
  bool isRunning() {
    reap(WNOHANG);
    return pid_ > 0 && !status_;
  }
  /// Waits at most `limit` for the process to exit; its exit status (as
  /// `waitpid` gives it), or nothing when it did not start or is still
  /// running (it is then killed when the object goes away).
  std::optional<int> waitForExit(std::chrono::milliseconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (isRunning() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return status_;
  }

 private:
  void reap(int options) {
    if (pid_ <= 0 || status_) return;
    int status = 0;
    if (::waitpid(pid_, &status, options) == pid_) status_ = status;
  }
  pid_t pid_ = -1;
  std::optional<int> status_;
};

/// Runs `arguments` with `input` on its stdin and returns its stdout, or
/// stops waiting after `timeoutMilliseconds` (killing it) and returns what
/// came by then.
inline std::string runWithInput(std::vector<std::string> arguments, const std::string& input,
                                int timeoutMilliseconds = 30000) {
  int in[2];
  int out[2];
  if (::pipe(in) != 0 || ::pipe(out) != 0) return std::string();
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclose(&actions, in[1]);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  pid_t pid = -1;
  const int spawned = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(in[0]);
  ::close(out[1]);
  std::string output;
  if (spawned == 0) {
    if (::write(in[1], input.data(), input.size()) < 0) output.clear();
    ::close(in[1]);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMilliseconds);
    for (;;) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
      pollfd entry{out[0], POLLIN, 0};
      if (left <= 0 || ::poll(&entry, 1, static_cast<int>(left)) <= 0) break;
      char buffer[4096];
      const ssize_t got = ::read(out[0], buffer, sizeof buffer);
      if (got <= 0) break;
      output.append(buffer, static_cast<std::size_t>(got));
    }
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
  } else {
    ::close(in[1]);
  }
  ::close(out[0]);
  return output;
}

}  // namespace sqlitebridge_test
