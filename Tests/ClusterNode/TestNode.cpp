// sqlitebridge-test-node: one dqlite node (ClusterNode) in a process of its
// own, for the cluster tests (Tests/CxxTests/Cluster) and the kill-the-leader
// script. Built with SQLITEBRIDGE_DQLITE and the tests.
//
//   sqlitebridge-test-node --address 127.0.0.1:9001 --data DIR [--join A,B] [--id N]
//
// Prints "ready <id> <address>" on stdout once the node serves (and, when
// joining, is a member), then runs until SIGTERM or SIGINT, when it hands
// leadership over and stops. Exits 1 (the reason on stderr) when it cannot
// start.
#include <signal.h>

#include <sqlitebridge/cluster/ClusterNode.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>

int main(int argc, char** argv) {
  sqlitebridge::ClusterNodeConfiguration configuration;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string option = argv[i];
    const std::string value = argv[i + 1];
    if (option == "--address") {
      configuration.address = value;
    } else if (option == "--data") {
      configuration.dataDirectory = value;
    } else if (option == "--id") {
      configuration.id = std::strtoull(value.c_str(), nullptr, 10);
    } else if (option == "--join") {
      std::stringstream list(value);
      for (std::string address; std::getline(list, address, ',');) {
        if (!address.empty()) configuration.join.push_back(address);
      }
    } else {
      std::fprintf(stderr, "sqlitebridge-test-node: unknown option %s\n", option.c_str());
      return 2;
    }
  }
  // Blocked before the node's threads start, so that they inherit the mask
  // and sigwait below is the one that takes the signal.
  sigset_t stopping;
  sigemptyset(&stopping);
  sigaddset(&stopping, SIGTERM);
  sigaddset(&stopping, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stopping, nullptr);

  sqlitebridge::Error error;
  sqlitebridge::ClusterNode node = sqlitebridge::ClusterNode::start(configuration, &error);
  if (!node.isRunning()) {
    std::fprintf(stderr, "sqlitebridge-test-node: %s\n", error.message.c_str());
    return 1;
  }
  std::printf("ready %llu %s\n", static_cast<unsigned long long>(node.id()), node.address().c_str());
  std::fflush(stdout);
  int signal = 0;
  sigwait(&stopping, &signal);
  if (!node.stop(&error)) {
    std::fprintf(stderr, "sqlitebridge-test-node: %s\n", error.message.c_str());
    return 1;
  }
  return 0;
}
