#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "sqlitebridge/cluster/ClusterConfiguration.hpp"
#include "sqlitebridge/Error.hpp"
#include "sqlitebridge/Export.hpp"
#include "sqlitebridge/Row.hpp"
#include "sqlitebridge/SQL.hpp"
#include "sqlitebridge/Value.hpp"

namespace sqlitebridge {

/// A database replicated by a dqlite cluster (dqlite 1.11 nodes: a `ClusterNode`,
/// `sqlite-bridge node`, or any other dqlite node): one client connection to
/// the cluster's leader, which it finds by asking the configured servers and
/// keeps following. It speaks dqlite's wire protocol itself (sockets only:
/// no library beyond the core is needed).
///
/// Threads: like `Database`, one connection used by one thread at a time;
/// the calls block until the cluster answers (at most
/// `retryTimeoutMilliseconds` per request, plus the search for a leader).
///
/// Retries, never applying a write twice:
/// - a read (a statement that returns rows, outside a transaction) that
///   meets a leader change or a broken connection is run again on the new
///   leader;
/// - a write answered SQLITE_IOERR_NOT_LEADER (10250), or Raft's own "not
///   leader" (7, which dqlite passes on as it is), was not applied and is
///   sent again to the new leader; so is one whose request could not be
///   sent whole;
/// - a statement that commits when it succeeds (a write outside a
///   transaction, including a PRAGMA that writes; COMMIT; the RELEASE of the
///   outermost savepoint of a transaction SAVEPOINT opened) whose outcome is
///   unknown is never sent again: it fails with extended code
///   SQLITE_IOERR_LEADERSHIP_LOST (10506) and a message that starts
///   "outcome in doubt". Unknown: the connection broke or the answer was
///   not dqlite's protocol after it was sent, or the node answered
///   SQLITE_IOERR_LEADERSHIP_LOST, SQLITE_IOERR, SQLITE_IOERR_WRITE,
///   SQLITE_ABORT (dqlite 1.11's answers when Raft's apply failed after the
///   entry was taken: a new leader may commit it) or another Raft number.
/// - Inside a transaction (`write`, or a BEGIN of your own) nothing is
///   retried statement by statement: the transaction lives on the leader's
///   connection, and is gone with it: nothing of it was committed, and every
///   statement but COMMIT and ROLLBACK fails with SQLITE_ABORT_ROLLBACK
///   until one of them ends it here too. The same after a statement fails
///   and the node has rolled the transaction back by itself (SQLITE_FULL,
///   an I/O error, OR ROLLBACK, RAISE(ROLLBACK): the client asks the node
///   after each failure inside a transaction); the failure's message says
///   so.
/// - A PRAGMA without `=` is a write when SQLite, preparing it against the
///   client's copy of the schema, says it writes and it returns no rows
///   (`PRAGMA user_version(7)`, `incremental_vacuum`), and `PRAGMA
///   optimize` always is: it goes by EXEC, replicated, never sent twice.
///
/// No silent conversion: text holding a NUL byte and a 256th parameter are
/// refused before anything is sent (SQLITE_MISUSE, SQLITE_RANGE); a value
/// that would make every node abort when it is read back (text, a real or a
/// blob in a column declared BOOLEAN; a real or a blob in one declared
/// DATETIME, DATE or TIMESTAMP) is refused with SQLITE_MISUSE naming the
/// column, and nothing is stored (the client keeps guards on such columns of
/// main and TEMP tables on its connection, generated columns included, made
/// again when the leader's `PRAGMA schema_version` shows that another client
/// changed the schema); so is `ALTER TABLE … ADD COLUMN` of such a column with
/// a DEFAULT of such a kind (the rows already there would take it), and a read
/// whose result column is declared so by the first SELECT of a compound one
/// (its other parts could put anything there: select it as `+x`), before it
/// is sent, and a write with RETURNING, ATTACH and DETACH (dqlite 1.11 can do neither). What the nodes convert on the
/// way out, the client reports as it arrives: a NULL in a BOOLEAN column reads as the integer 0, an empty text in a
/// DATETIME, DATE or TIMESTAMP column reads as NULL.
class SQLITEBRIDGE_API ClusterDatabase {
 public:
  /// Connects to the leader of the cluster `configuration` names and opens
  /// (creating it when new) the database `name` there. Fails (not
  /// `isOpen()`, `lastError()` says why) when no server is configured
  /// (SQLITE_MISUSE), when `name` is empty or holds NUL (SQLITE_MISUSE), or
  /// when no leader answered within `retryTimeoutMilliseconds`
  /// (SQLITE_CANTOPEN naming every server tried and what each said).
  static ClusterDatabase open(const std::string& name, const ClusterConfiguration& configuration) noexcept;

  /// A closed client (`isOpen()` false).
  ClusterDatabase() noexcept;
  /// Takes over the other client's connection; the moved-from one is closed.
  ClusterDatabase(ClusterDatabase&&) noexcept;
  /// Closes this client's connection, then takes over the other's.
  ClusterDatabase& operator=(ClusterDatabase&&) noexcept;
  ClusterDatabase(const ClusterDatabase&) = delete;
  ClusterDatabase& operator=(const ClusterDatabase&) = delete;
  /// Closes the connection (an open transaction is rolled back by the node).
  ~ClusterDatabase();

  /// True from a successful `open` until `close`.
  bool isOpen() const noexcept;
  /// What went wrong in the last failed call; code 0 after a success.
  Error lastError() const;

  /// Runs exactly one statement with `arguments` bound to its parameters,
  /// on the leader, and stores its rows in `*rows` (when given; replaced).
  /// Fails with SQLITE_MISUSE when closed, when `sql` holds more than one
  /// statement or a NUL byte, when an argument is text holding NUL, or when
  /// a value would make the nodes abort (see the class comment); with
  /// SQLITE_RANGE when there are more than 255 arguments or not as many as
  /// the statement's parameters; with the node's code and message for SQL
  /// errors; with SQLITE_IOERR_LEADERSHIP_LOST ("outcome in doubt") as the
  /// class comment says; with SQLITE_CANTOPEN when no leader could be found
  /// in time.
  bool execute(const std::string& sql, const std::vector<Value>& arguments = {},
               std::vector<Row>* rows = nullptr) noexcept;
  /// Runs an `SQL` literal with its arguments as `execute(sql, arguments,
  /// rows)` does; fails as that does, and with SQLITE_MISUSE naming the
  /// identifier, before anything is sent, when an identifier in it held a
  /// NUL byte.
  bool execute(const SQL& literal, std::vector<Row>* rows = nullptr) noexcept;

  /// Runs `fn(ClusterDatabase&) -> bool` between BEGIN and COMMIT on the
  /// leader; `fn` returning false (or throwing) rolls back. The block may
  /// run more than once: when the leader is lost (or steps down) before
  /// COMMIT was sent, the transaction certainly did not commit, and the
  /// whole block runs again on the new leader (within
  /// `retryTimeoutMilliseconds`). Keep its effects outside the database
  /// idempotent. A COMMIT whose outcome is unknown is never retried: the
  /// call fails with SQLITE_IOERR_LEADERSHIP_LOST ("outcome in doubt"). Nor
  /// is a block whose transaction the node rolled back after one of its
  /// statements failed: the call fails with that statement's error (or
  /// SQLITE_ABORT_ROLLBACK when `fn` returned true all the same).
  /// Returns true when COMMIT succeeded; otherwise false, with
  /// `lastError()` (and `*error`, when given) saying why (`fn`'s own failure
  /// is the last error of the calls it made). Calling it inside a
  /// transaction fails with SQLITE_MISUSE. An exception from `fn` is
  /// rethrown after the rollback.
  template <typename Fn>
  bool write(Fn&& fn, Error* error = nullptr) {
    using Body = std::remove_reference_t<Fn>;
    return runWriteBlock(
        [](void* context, ClusterDatabase& database) -> bool { return (*static_cast<Body*>(context))(database); },
        const_cast<void*>(static_cast<const void*>(std::addressof(fn))), error);
  }

  /// The rowid of the last row the last successful write inserted (as the
  /// node reported it).
  std::int64_t lastInsertRowId() const noexcept;
  /// The rows the last successful write changed (as the node reported it).
  std::int64_t changes() const noexcept;
  /// The column names of the last successful statement's result, in order,
  /// also when it had no rows (a `Row` has them only when there is one);
  /// empty after a statement that returns no columns.
  std::vector<std::string> lastColumnNames() const;

  /// The cluster's members (ids, addresses, roles), as the leader knows
  /// them. Fails as `execute` does when no leader can be reached.
  bool members(std::vector<ClusterMember>& out) noexcept;
  /// The current leader. Fails as `execute` does when none can be reached.
  bool leader(ClusterMember& out) noexcept;
  /// Adds `member` to the cluster: it joins as a spare, then is assigned
  /// `member.role`. The member's node should be running. Fails with the
  /// node's error (an id or address already in use), and as a write does
  /// when the outcome is unknown.
  bool add(const ClusterMember& member) noexcept;
  /// Gives member `id` another role. Fails with the node's error (no such
  /// member), and as a write does when the outcome is unknown.
  bool assign(std::uint64_t id, ClusterRole role) noexcept;
  /// Removes member `id` from the cluster. Fails as `assign` does.
  bool remove(std::uint64_t id) noexcept;
  /// Closes the connection; later calls fail with SQLITE_MISUSE.
  void close() noexcept;

  /// Whether a transaction is open on the leader's connection (a `write`
  /// block, or a BEGIN or SAVEPOINT this client sent).
  bool isInTransaction() const noexcept;
  /// "host:port" of the leader this client is connected to; empty when it
  /// is not connected (it connects again on the next call).
  std::string leaderAddress() const;
  /// The non-template body of `write`: `body(context, *this)` is the block.
  bool runWriteBlock(bool (*body)(void* context, ClusterDatabase& database), void* context, Error* error);

 private:
  friend class ClusterNode;
  /// A client for membership changes only: it opens no database.
  static ClusterDatabase openMembership(const ClusterConfiguration& configuration) noexcept;
  static ClusterDatabase connectTo(const std::string& name, const ClusterConfiguration& configuration,
                                   bool openDatabase) noexcept;

  /// Ends a write block's transaction that will not commit: ROLLBACK, and
  /// when the node refuses it, the connection (which ends it there). Keeps
  /// the block's error.
  void abandonWriteBlock() noexcept;

  struct Impl;
  explicit ClusterDatabase(std::unique_ptr<Impl> impl) noexcept;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sqlitebridge
