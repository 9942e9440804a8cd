#include "sqlitebridge/ChangesetRebaser.hpp"

#include <memory>
#include <new>
#include <string>
#include <vector>

#include "ChangesetAccess.hpp"
#include "ChangesetFormat.hpp"

namespace sqlitebridge {

namespace {

struct RebaserDeleter {
  void operator()(sqlite3_rebaser* rebaser) const noexcept { sqlite3rebaser_delete(rebaser); }
};
using RebaserHandle = std::unique_ptr<sqlite3_rebaser, RebaserDeleter>;

// A SQLite rebaser configured with every buffer of `rebaseData`.
bool makeRebaser(const std::vector<std::string>& rebaseData, RebaserHandle& out, Error* error) noexcept {
  sqlite3_rebaser* rebaser = nullptr;
  int rc = sqlite3rebaser_create(&rebaser);
  if (rc != SQLITE_OK) return changesetCallFailure(error, rc, "making a rebaser");
  RebaserHandle handle(rebaser);
  for (const std::string& data : rebaseData) {
    if (!fitsSQLiteSize(data.size(), error)) return false;
    std::string why;
    if (!checkChangesetFormat(reinterpret_cast<const unsigned char*>(data.data()), data.size(), &why)) {
      return changesetFailure(error, SQLITE_CORRUPT, "not rebase data: " + why);
    }
  }
  // Without the entries SQLite's rebaser would lose (and leak) a replaced
  // delete to.
  std::vector<std::string> forSQLite;
  std::string why;
  if (!rebaseDataForSQLite(rebaseData, forSQLite, &why)) {
    return why.empty() ? changesetFailure(error, SQLITE_NOMEM, "out of memory")
                       : changesetFailure(error, SQLITE_CORRUPT, "not rebase data: " + why);
  }
  for (const std::string& data : forSQLite) {
    rc = sqlite3rebaser_configure(rebaser, static_cast<int>(data.size()), data.data());
    if (rc != SQLITE_OK) return changesetCallFailure(error, rc, "configuring the rebaser with rebase data");
  }
  out = std::move(handle);
  return true;
}

}  // namespace

bool ChangesetRebaser::configure(const std::string& rebaseData, Error* error) noexcept {
  if (!requireSessionAPI(error)) return false;
  try {
    std::vector<std::string> data = rebaseData_;
    data.push_back(rebaseData);
    RebaserHandle rebaser;
    if (!makeRebaser(data, rebaser, error)) return false;
    rebaseData_ = std::move(data);
    return true;
  } catch (const std::bad_alloc&) {
    return changesetFailure(error, SQLITE_NOMEM, "out of memory");
  }
}

bool ChangesetRebaser::rebase(const Changeset& changeset, Changeset& out, Error* error) const noexcept {
  if (!requireSessionAPI(error)) return false;
  if (changeset.isPatchset()) {
    return changesetFailure(error, SQLITE_MISUSE, "a patchset cannot be rebased: rebase the changeset instead");
  }
  if (!fitsSQLiteSize(changeset.bytes().size(), error)) return false;
  RebaserHandle rebaser;
  if (!makeRebaser(rebaseData_, rebaser, error)) return false;
  int size = 0;
  void* buffer = nullptr;
  const int rc = sqlite3rebaser_rebase(rebaser.get(), static_cast<int>(changeset.bytes().size()),
                                       changeset.bytes().data(), &size, &buffer);
  if (rc != SQLITE_OK) {
    sqlite3_free(buffer);
    return changesetCallFailure(error, rc, "rebasing the changeset");
  }
  std::string bytes;
  if (!takeSQLiteBuffer(buffer, size, bytes, error)) return false;
  out = ChangesetAccess::make(std::move(bytes), false);
  return true;
}

}  // namespace sqlitebridge
