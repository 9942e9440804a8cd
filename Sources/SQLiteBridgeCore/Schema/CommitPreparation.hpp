// What must be written into a transaction just before the library commits
// it (the sync engine keeps each transaction's changes as a pending
// changeset in the same transaction, so that a crash loses nothing
// committed). SQLite's commit hook cannot write; every COMMIT the core
// runs on a caller's transaction goes through `prepareToCommit` first.
// Internal.
#pragma once

#include <memory>
#include <vector>

#include "sqlitebridge/Error.hpp"

namespace sqlitebridge {

class Connection;
class Database;

/// Writes into the open transaction of a connection before it commits.
class CommitPreparer {
 public:
  virtual ~CommitPreparer() = default;
  /// The transaction open on `db` is about to commit: write what must
  /// commit with it. False (with `*error` set) stops the commit; the
  /// caller then rolls back. Called outside SQLite's callbacks, on the
  /// thread that holds the connection.
  virtual bool prepareCommit(Database& db, Error* error) noexcept = 0;
};

/// A connection's preparers, held weakly (a preparer gone is forgotten).
struct CommitPreparers {
  std::vector<std::weak_ptr<CommitPreparer>> entries;
};

/// Adds `preparer` to `connection`'s. False (SQLITE_NOMEM) when memory runs
/// out.
bool addCommitPreparer(Connection& connection, const std::shared_ptr<CommitPreparer>& preparer) noexcept;
/// Forgets `preparer`.
void removeCommitPreparer(Connection& connection, const CommitPreparer* preparer) noexcept;
/// Runs the preparers of `db`'s `connection` when a transaction is open:
/// true when every one succeeded (or none is there); otherwise false, the
/// failure recorded as the connection's error.
bool prepareToCommit(Database& db, Connection& connection) noexcept;

}  // namespace sqlitebridge
