// ClusterNode: a libdqlite node in this process (SQLITEBRIDGE_DQLITE
// builds). Joining and handing leadership over go through the core's own
// client (the wire protocol), as any other member would.
#include "sqlitebridge/cluster/ClusterNode.hpp"

#include <signal.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "ClusterConnection.hpp"
#include "sqlitebridge/cluster/ClusterDatabase.hpp"
#include "sqlitebridge/SQLite.hpp"

#ifdef SQLITEBRIDGE_DQLITE
// dqlite.h declares C functions without extern "C" of its own.
extern "C" {
#include <dqlite.h>
}
#endif

namespace sqlitebridge {

namespace {

bool report(Error* error, int code, std::string message) {
  if (error != nullptr) *error = Error{code & 0xff, code, std::move(message), std::string()};
  return false;
}

#ifdef SQLITEBRIDGE_DQLITE

// dqlite bootstraps a cluster from a node with id 1 (and refuses to again
// once its directory holds one).
constexpr std::uint64_t kBootstrapId = 1;
constexpr const char* kIdFile = "sqlitebridge-node-id";

// The id this data directory was started with before, or 0.
std::uint64_t rememberedId(const std::string& directory) {
  std::ifstream file(directory + "/" + kIdFile);
  std::uint64_t id = 0;
  if (file >> id) return id;
  return 0;
}

bool rememberId(const std::string& directory, std::uint64_t id, std::string& problem) {
  const std::string path = directory + "/" + kIdFile;
  const std::string temporary = path + ".tmp";
  {
    std::ofstream file(temporary, std::ios::trunc);
    file << id << "\n";
    file.flush();
    if (!file) {
      problem = "cannot write " + temporary;
      return false;
    }
  }
  std::error_code failure;
  std::filesystem::rename(temporary, path, failure);
  if (failure) {
    problem = "cannot rename " + temporary + ": " + failure.message();
    return false;
  }
  return true;
}

// Asks the node at `address` to hand leadership over when it leads.
void handLeadershipOver(const std::string& address) {
  std::string problem;
  const Deadline deadline = Deadline::in(5000);
  std::unique_ptr<ClusterConnection> node = ClusterConnection::open(address, deadline, problem);
  if (!node) return;
  wire::BodyWriter ask;
  ask.u64(0);
  wire::Message answer;
  if (node->call(wire::Leader, ask.take(), deadline, answer, problem) != ClusterConnection::Outcome::Answered) return;
  std::uint64_t leaderId = 0;
  std::string leaderAddress;
  if (!wire::decodeServer(answer, leaderId, leaderAddress, problem) || leaderAddress != address) return;
  wire::BodyWriter transfer;
  transfer.u64(0);  // let Raft choose the most up-to-date voter
  node->call(wire::Transfer, transfer.take(), Deadline::in(10000), answer, problem);
}

#endif

}  // namespace

struct ClusterNode::Impl {
#ifdef SQLITEBRIDGE_DQLITE
  dqlite_node* node = nullptr;
#endif
  std::uint64_t id = 0;
  std::string address;
};

bool ClusterNode::isAvailable() noexcept {
#ifdef SQLITEBRIDGE_DQLITE
  return true;
#else
  return false;
#endif
}

ClusterNode::ClusterNode() noexcept = default;
ClusterNode::ClusterNode(ClusterNode&&) noexcept = default;

ClusterNode& ClusterNode::operator=(ClusterNode&& other) noexcept {
  if (this != &other) {
    stop();
    impl_ = std::move(other.impl_);
  }
  return *this;
}

ClusterNode::~ClusterNode() { stop(); }

bool ClusterNode::isRunning() const noexcept { return impl_ != nullptr; }
std::uint64_t ClusterNode::id() const noexcept { return impl_ ? impl_->id : 0; }
std::string ClusterNode::address() const { return impl_ ? impl_->address : std::string(); }

ClusterNode ClusterNode::start(const ClusterNodeConfiguration& configuration, Error* error) noexcept {
  ClusterNode started;
#ifndef SQLITEBRIDGE_DQLITE
  (void)configuration;
  report(error, SQLITE_MISUSE,
         "this build of SQLiteBridge has no dqlite node: configure CMake with -DSQLITEBRIDGE_DQLITE=ON or enable the "
         "SwiftPM trait Dqlite (both need libdqlite-dev)");
  return started;
#else
  try {
    if (configuration.address.empty() || configuration.dataDirectory.empty()) {
      report(error, SQLITE_MISUSE, "a cluster node needs an address and a data directory");
      return started;
    }
    std::error_code failure;
    std::filesystem::create_directories(configuration.dataDirectory, failure);
    if (failure) {
      report(error, SQLITE_CANTOPEN,
             "cannot create the data directory " + configuration.dataDirectory + ": " + failure.message());
      return started;
    }
    // libuv writes to peers that may have died: with SIGPIPE's default
    // action the first such write would kill the whole process.
    struct sigaction current{};
    if (sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) signal(SIGPIPE, SIG_IGN);
    std::uint64_t id = configuration.id;
    if (id == 0) id = rememberedId(configuration.dataDirectory);
    if (id == 0) {
      id = configuration.join.empty() ? kBootstrapId : dqlite_generate_node_id(configuration.address.c_str());
    }
    std::string problem;
    if (!rememberId(configuration.dataDirectory, id, problem)) {
      report(error, SQLITE_CANTOPEN, problem);
      return started;
    }
    auto impl = std::make_unique<Impl>();
    impl->id = id;
    impl->address = configuration.address;
    int rv = dqlite_node_create(id, configuration.address.c_str(), configuration.dataDirectory.c_str(), &impl->node);
    if (rv == 0) rv = dqlite_node_set_bind_address(impl->node, configuration.address.c_str());
    if (rv == 0) rv = dqlite_node_start(impl->node);
    if (rv != 0) {
      const std::string message = impl->node != nullptr ? dqlite_node_errmsg(impl->node) : "out of memory";
      if (impl->node != nullptr) dqlite_node_destroy(impl->node);
      impl->node = nullptr;
      report(error, SQLITE_CANTOPEN,
             "dqlite could not start the node " + configuration.address + " (" + configuration.dataDirectory +
                 "): " + message + " (" + std::to_string(rv) + ")");
      return started;
    }
    started.impl_ = std::move(impl);
    if (configuration.join.empty()) return started;

    // Joining: a member already in the configuration (a restart) keeps its
    // place; a new one is added as a spare, then made a voter.
    ClusterConfiguration through;
    through.servers = configuration.join;
    ClusterDatabase membership = ClusterDatabase::openMembership(through);
    std::vector<ClusterMember> members;
    bool joined = membership.isOpen() && membership.members(members);
    bool known = false;
    for (const ClusterMember& member : members) known = known || member.id == id;
    if (joined && !known) joined = membership.add(ClusterMember{id, configuration.address, ClusterRole::Voter});
    if (!joined) {
      const Error why = membership.lastError();
      started.stop();
      report(
          error, why.extendedCode != 0 ? why.extendedCode : SQLITE_CANTOPEN,
          "the node started but could not join the cluster through " + configuration.join.front() + ": " + why.message);
    }
    return started;
  } catch (...) {
    report(error, SQLITE_NOMEM, "out of memory while starting a cluster node");
    started.stop();
    return started;
  }
#endif
}

bool ClusterNode::stop(Error* error) noexcept {
  if (!impl_) return true;
  std::unique_ptr<Impl> impl = std::move(impl_);
#ifdef SQLITEBRIDGE_DQLITE
  try {
    handLeadershipOver(impl->address);
  } catch (...) {
  }
  const int rv = dqlite_node_stop(impl->node);
  std::string message;
  if (rv != 0) message = dqlite_node_errmsg(impl->node);
  dqlite_node_destroy(impl->node);
  if (rv != 0) return report(error, SQLITE_IOERR, "dqlite failed to stop the node cleanly: " + message);
#else
  (void)error;
#endif
  return true;
}

}  // namespace sqlitebridge
