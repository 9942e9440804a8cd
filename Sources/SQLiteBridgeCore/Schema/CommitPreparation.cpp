// The connection's commit preparers (see CommitPreparation.hpp).
#include "CommitPreparation.hpp"

#include <algorithm>

#include "Connection.hpp"

namespace sqlitebridge {

bool addCommitPreparer(Connection& connection, const std::shared_ptr<CommitPreparer>& preparer) noexcept {
  try {
    connection.commitPreparers.entries.push_back(preparer);
    return true;
  } catch (...) {
    return connection.fail(SQLITE_NOMEM, "out of memory", std::string());
  }
}

void removeCommitPreparer(Connection& connection, const CommitPreparer* preparer) noexcept {
  auto& entries = connection.commitPreparers.entries;
  entries.erase(std::remove_if(entries.begin(), entries.end(),
                               [&](const std::weak_ptr<CommitPreparer>& entry) {
                                 std::shared_ptr<CommitPreparer> held = entry.lock();
                                 return !held || held.get() == preparer;
                               }),
                entries.end());
}

bool prepareToCommit(Database& db, Connection& connection) noexcept {
  auto& entries = connection.commitPreparers.entries;
  if (entries.empty() || connection.db == nullptr || sqlite3_get_autocommit(connection.db) != 0) return true;
  // A copy: a preparer may add or remove preparers while it runs.
  std::vector<std::shared_ptr<CommitPreparer>> preparers;
  try {
    for (const std::weak_ptr<CommitPreparer>& entry : entries) {
      if (std::shared_ptr<CommitPreparer> held = entry.lock()) preparers.push_back(std::move(held));
    }
  } catch (...) {
    return connection.fail(SQLITE_NOMEM, "out of memory", std::string());
  }
  for (const std::shared_ptr<CommitPreparer>& preparer : preparers) {
    Error error;
    if (!preparer->prepareCommit(db, &error)) {
      return connection.fail(error.extendedCode != 0 ? error.extendedCode : error.code, error.message, error.sql);
    }
  }
  return true;
}

}  // namespace sqlitebridge
