// What the changeset concern reaches inside Changeset and Database, and the
// reading of changeset bytes every part of it shares. Internal.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "SessionAPI.hpp"
#include "sqlitebridge/Changeset.hpp"
#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

class Connection;

struct ChangesetAccess {
  /// A changeset over `bytes`, trusted to parse (SQLite wrote them).
  static Changeset make(std::string bytes, bool patchset) noexcept {
    Changeset changeset;
    changeset.bytes_ = std::move(bytes);
    changeset.patchset_ = patchset;
    return changeset;
  }
  /// The connection behind `db` (null when closed).
  static std::shared_ptr<Connection> connection(const Database& db) noexcept { return db.connection_; }
  /// Starts a call on `db` as every Database call does (SQLITE_MISUSE when
  /// closed), its error then in `db.lastError()`.
  static bool beginCall(Database& db) noexcept { return db.beginCall(); }
  /// Puts `error` back as `db.lastError()` (after a rollback that cleared it).
  static void restoreError(Database& db, const Error& error) noexcept;
  /// Makes `session` the connection's own (`SessionState::keptWithConnection`):
  /// a handle closing no longer deletes it.
  static void keepWithConnection(Session& session) noexcept;
};

/// Puts into `out` a new session on `db`'s main schema recording `tables`
/// (every table with a primary key but the library's own when `nullopt`),
/// kept with the connection (the writer's lent handles close while it
/// records): what an undo history and a sync engine record with, restarted
/// at each transaction's end. False with `*error` set (and `out` empty)
/// when it cannot be made or a table cannot be attached.
bool startConnectionSession(Database& db, const std::optional<std::vector<std::string>>& tables,
                            std::optional<Session>& out, Error* error) noexcept;

/// A changeset iterator over bytes the caller keeps alive, finalized when
/// destroyed.
class ChangesetIterator {
 public:
  ChangesetIterator() noexcept = default;
  ChangesetIterator(const ChangesetIterator&) = delete;
  ChangesetIterator& operator=(const ChangesetIterator&) = delete;
  ~ChangesetIterator() { finish(); }

  /// Starts over `size` bytes at `bytes`: SQLite's result code
  /// (SQLITE_TOOBIG beyond 2 GiB).
  int start(const void* bytes, std::size_t size) noexcept;
  /// SQLITE_ROW at each change, SQLITE_DONE at the end, an error code
  /// (SQLITE_CORRUPT, SQLITE_NOMEM) on bytes that do not parse.
  int next() noexcept { return sqlite3changeset_next(iterator_); }
  /// Finalizes now: SQLite's verdict on the whole iteration.
  int finish() noexcept;
  sqlite3_changeset_iter* handle() const noexcept { return iterator_; }

 private:
  sqlite3_changeset_iter* iterator_ = nullptr;
};

/// The change `iterator` stands on, into `out`. False with SQLITE_CORRUPT
/// or SQLITE_NOMEM in `*error` when it cannot be read. Never throws.
bool readOperation(sqlite3_changeset_iter* iterator, ChangesetOperation& out, Error* error) noexcept;

/// Bytes SQLite allocated (sqlite3_malloc) moved into a string and freed:
/// false with SQLITE_NOMEM in `*error` when memory runs out (they are
/// freed either way).
bool takeSQLiteBuffer(void* buffer, int size, std::string& out, Error* error) noexcept;

/// Whether `table` is one of the library's own (named `sqlitebridge_…`,
/// ASCII letters in either case: the sync engine's bookkeeping), which a
/// session attached to every table leaves out.
bool isLibraryTable(const char* table) noexcept;
/// Whether `a` and `b` name the same table to SQLite (ASCII letters in
/// either case).
bool sameTableName(const std::string& a, const char* b) noexcept;

/// Whether non-empty changeset bytes are a patchset (their first table
/// header says so).
inline bool bytesArePatchset(const std::string& bytes) noexcept { return !bytes.empty() && bytes[0] == 'P'; }

/// A Changeset's bytes as SQLite's `void*` (SQLite reads, never writes,
/// the changesets the core passes).
inline void* changesetBuffer(const std::string& bytes) noexcept { return const_cast<char*>(bytes.data()); }

/// Whether `size` fits SQLite's `int` sizes; otherwise false with
/// SQLITE_TOOBIG in `*error`.
bool fitsSQLiteSize(std::size_t size, Error* error) noexcept;

/// What SQLite's result `code` from a changeset function means, into
/// `*error`, with `what` naming the operation ("inverting the changeset").
/// Returns false.
bool changesetCallFailure(Error* error, int code, const char* what) noexcept;

}  // namespace sqlitebridge
