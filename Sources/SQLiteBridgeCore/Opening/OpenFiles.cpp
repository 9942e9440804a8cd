#include "OpenFiles.hpp"

#include <sys/stat.h>

#include <map>
#include <mutex>
#include <utility>

namespace sqlitebridge {

namespace {

using Key = std::pair<dev_t, ino_t>;

// Leaked on purpose: connections may close during static destruction.
std::mutex& registryMutex() {
  static auto* mutex = new std::mutex;
  return *mutex;
}

std::map<Key, int>& registry() {
  static auto* files = new std::map<Key, int>;
  return *files;
}

}  // namespace

FileIdentity FileIdentity::of(const std::string& path) noexcept {
  FileIdentity identity;
  struct stat status{};
  if (!path.empty() && ::stat(path.c_str(), &status) == 0) {
    identity.device = status.st_dev;
    identity.inode = status.st_ino;
    identity.known = true;
  }
  return identity;
}

void registerOpenFile(const FileIdentity& identity) noexcept {
  if (!identity.known) return;
  try {
    std::lock_guard<std::mutex> lock(registryMutex());
    ++registry()[{identity.device, identity.inode}];
  } catch (...) {
    // Out of memory: the file is not recorded, so removing it is not refused.
  }
}

void unregisterOpenFile(const FileIdentity& identity) noexcept {
  if (!identity.known) return;
  std::lock_guard<std::mutex> lock(registryMutex());
  const auto found = registry().find({identity.device, identity.inode});
  if (found == registry().end()) return;
  if (--found->second == 0) registry().erase(found);
}

bool isFileOpenInThisProcess(const FileIdentity& identity) noexcept {
  if (!identity.known) return false;
  std::lock_guard<std::mutex> lock(registryMutex());
  return registry().count({identity.device, identity.inode}) != 0;
}

}  // namespace sqlitebridge
