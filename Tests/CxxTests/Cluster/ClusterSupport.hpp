// Real dqlite clusters for the tests: each node a process of its own
// (sqlitebridge-test-node, built with SQLITEBRIDGE_DQLITE), on 127.0.0.1,
// data in a temporary folder, every wait bounded, every process ended by
// its id when the cluster goes away.
#pragma once

#include <random>

#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlitebridge/cluster/ClusterDatabase.hpp>

#include <chrono>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "ProcessSupport.hpp"
#include "TestSupport.hpp"

extern char** environ;

namespace sqlitebridge_test {

/// The node program of this build, or empty when it has none.
inline std::string testNodeProgram() {
#ifdef SQLITEBRIDGE_TEST_NODE
  return SQLITEBRIDGE_TEST_NODE;
#else
  return std::string();
#endif
}

/// Skips the test in a build without dqlite nodes.
#define SKIP_WITHOUT_DQLITE_NODES()                                                                               \
  if (sqlitebridge_test::testNodeProgram().empty())                                                               \
  GTEST_SKIP() << "this build has no dqlite node (configure with -DSQLITEBRIDGE_DQLITE=ON, as the dqlite preset " \
                  "does)"

/// A TCP port on 127.0.0.1 nobody uses now, below Linux's ephemeral range
/// (32768-60999): a port the kernel handed out would also be handed out as
/// the source port of some outgoing connection (the nodes' own, among them)
/// before the node binds it, and dqlite-demo exits when it cannot. Never
/// one this process handed out before: a node may not have bound it yet.
inline int freePort() {
  static std::mutex mutex;
  static std::mt19937 random(std::random_device{}());
  static std::set<int> handedOut;
  std::lock_guard<std::mutex> lock(mutex);
  std::uniform_int_distribution<int> range(20000, 32767);
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const int candidate = range(random);
    if (!handedOut.insert(candidate).second) continue;
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<std::uint16_t>(candidate));
    const bool bound = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    ::close(fd);
    if (bound) return candidate;
  }
  return 0;
}

/// One node process.
class NodeProcess {
 public:
  NodeProcess(std::string address, std::string dataDirectory)
      : address_(std::move(address)), data_(std::move(dataDirectory)) {}
  NodeProcess(NodeProcess&& other) noexcept
      : address_(std::move(other.address_)), data_(std::move(other.data_)), pid_(other.pid_), id_(other.id_) {
    other.pid_ = -1;
  }
  NodeProcess(const NodeProcess&) = delete;
  NodeProcess& operator=(const NodeProcess&) = delete;
  ~NodeProcess() { kill(SIGKILL); }

  /// Starts the node (joining through `join` when not empty) and waits, at
  /// most `timeoutMilliseconds`, for it to say it is ready.
  /// `id` 0: the node's own choice.
  bool start(const std::vector<std::string>& join, std::string& problem, int timeoutMilliseconds = 60000,
             std::uint64_t id = 0) {
    int output[2];
    if (::pipe(output) != 0) {
      problem = "pipe failed";
      return false;
    }
    std::vector<std::string> arguments = {testNodeProgram(), "--address", address_, "--data", data_};
    if (!join.empty()) {
      std::string list;
      for (const std::string& member : join) list += (list.empty() ? "" : ",") + member;
      arguments.push_back("--join");
      arguments.push_back(list);
    }
    if (id != 0) {
      arguments.push_back("--id");
      arguments.push_back(std::to_string(id));
    }
    std::vector<char*> argv;
    for (std::string& argument : arguments) argv.push_back(argument.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, output[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, output[0]);
    const int spawned = ::posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(output[1]);
    if (spawned != 0) {
      ::close(output[0]);
      pid_ = -1;
      problem = "posix_spawn " + testNodeProgram() + " failed: " + std::strerror(spawned);
      return false;
    }
    // "ready <id> <address>\n", or the pipe closing when it fails.
    std::string line;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMilliseconds);
    while (line.find('\n') == std::string::npos) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
      pollfd entry{output[0], POLLIN, 0};
      if (left <= 0 || ::poll(&entry, 1, static_cast<int>(left)) <= 0) {
        problem = "the node " + address_ + " did not say it was ready in time";
        break;
      }
      char buffer[256];
      const ssize_t got = ::read(output[0], buffer, sizeof buffer);
      if (got <= 0) {
        problem = "the node " + address_ + " ended before it was ready (see its stderr)";
        break;
      }
      line.append(buffer, static_cast<std::size_t>(got));
    }
    ::close(output[0]);
    if (line.rfind("ready ", 0) != 0) {
      if (problem.empty()) problem = "the node " + address_ + " said \"" + line + "\"";
      kill(SIGKILL);
      return false;
    }
    id_ = std::strtoull(line.c_str() + 6, nullptr, 10);
    return true;
  }

  /// Sends `signal` and waits (at most 30 s) for the process to end.
  void kill(int signal) {
    if (pid_ <= 0) return;
    ::kill(pid_, signal);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    int status = 0;
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    pid_ = -1;
  }

  bool isRunning() const { return pid_ > 0; }
  const std::string& address() const { return address_; }
  std::uint64_t id() const { return id_; }

 private:
  std::string address_;
  std::string data_;
  pid_t pid_ = -1;
  std::uint64_t id_ = 0;
};

/// A cluster of `count` node processes: the first bootstraps, the others
/// join through it.
class LocalCluster {
 public:
  LocalCluster() = default;
  LocalCluster(const LocalCluster&) = delete;
  LocalCluster& operator=(const LocalCluster&) = delete;
  ~LocalCluster() { nodes_.clear(); }

  bool start(int count, std::string& problem) {
    nodes_.reserve(static_cast<std::size_t>(count) + 1);
    for (int i = 0; i < count; ++i) {
      nodes_.emplace_back("127.0.0.1:" + std::to_string(freePort()),
                          directory_.makeSubdirectory("node" + std::to_string(i + 1)));
      const std::vector<std::string> join =
          i == 0 ? std::vector<std::string>() : std::vector<std::string>{nodes_[0].address()};
      if (!nodes_.back().start(join, problem)) return false;
    }
    return true;
  }

  /// Starts node `index` again from its data directory.
  bool restart(std::size_t index, std::string& problem) {
    std::vector<std::string> join;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      if (i != index && nodes_[i].isRunning()) join.push_back(nodes_[i].address());
    }
    return nodes_[index].start(join, problem);
  }

  sqlitebridge::ClusterConfiguration configuration(int retryTimeoutMilliseconds = 30000) const {
    sqlitebridge::ClusterConfiguration configuration;
    for (const NodeProcess& node : nodes_) configuration.servers.push_back(node.address());
    configuration.connectTimeoutMilliseconds = 2000;
    configuration.retryTimeoutMilliseconds = retryTimeoutMilliseconds;
    return configuration;
  }

  std::vector<NodeProcess>& nodes() { return nodes_; }

  /// The index of the node at `address`, or -1.
  int indexOf(const std::string& address) const {
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      if (nodes_[i].address() == address) return static_cast<int>(i);
    }
    return -1;
  }

 private:
  TempDir directory_;
  std::vector<NodeProcess> nodes_;
};

}  // namespace sqlitebridge_test
