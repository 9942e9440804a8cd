// The sync engine's recorder on the writer: a Session over the synced
// tables whose changeset becomes a pending change inside the transaction
// that made it, just before it commits. Internal.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "CommitPreparation.hpp"
#include "sqlitebridge/Session.hpp"
#include "sqlitebridge/TransactionObserver.hpp"

namespace sqlitebridge {

/// Records each committed transaction's changes to the synced tables as a
/// pending change. Used on the writer only (its callbacks, and the
/// engine's leases).
class SyncRecorder final : public TransactionObserver, public CommitPreparer {
 public:
  explicit SyncRecorder(std::vector<std::string> tables) noexcept : tables_(std::move(tables)) {}

  /// Starts a new session on `db` over the synced tables.
  bool start(Database& db, Error* error) noexcept;
  /// Stops recording.
  void stop() noexcept { session_.reset(); }
  /// Stops or resumes recording (around a sync round's own rewriting,
  /// which must not become a pending change).
  void setRecording(bool recording) noexcept;

  /// Whether `table` is synced.
  bool syncs(const std::string& table) const noexcept;

  bool observes(ChangeKind kind, const std::string& table, const std::vector<std::string>& columns) override;
  bool prepareCommit(Database& db, Error* error) noexcept override;
  bool databaseWillCommit(Error* error) override;
  void databaseDidCommit(Database& db) override { restart(db); }
  void databaseDidRollback(Database& db) override { restart(db); }

  /// Why recording stopped (a session that could not restart), code 0 while
  /// it records. From any thread.
  Error failure() const noexcept;

 private:
  void restart(Database& db) noexcept;

  // Always set: the optional is what a connection's session takes.
  std::optional<std::vector<std::string>> tables_;
  std::optional<Session> session_;
  // The pending change this transaction recorded (a COMMIT that fails on a
  // deferred constraint leaves the transaction open: the next one replaces
  // it), 0 when none.
  std::int64_t capturedSequence_ = 0;
  bool captured_ = false;
  mutable std::mutex failureMutex_;
  Error failure_;
};

}  // namespace sqlitebridge
