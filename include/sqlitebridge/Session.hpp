// A recorder of what a connection's transactions change (SQLite's session
// object), giving changesets and patchsets.
#pragma once

#include <memory>
#include <string>

#include "Changeset.hpp"
#include "Error.hpp"
#include "Export.hpp"

namespace sqlitebridge {

class Connection;
class Database;
struct SessionState;

/// Records the changes made through one connection to the tables of one
/// schema, from when it is made (or a table attached) until it is
/// destroyed, and gives them as a changeset or a patchset at any time.
///
///     Session session(db, "main");
///     session.attachAll();
///     db.execute("UPDATE notes SET title = 'x' WHERE id = 1");
///     Changeset changes;
///     session.changeset(changes);
///
/// Use it on the thread that uses its `Database`. Only tables with a
/// declared PRIMARY KEY can be recorded (SQLite's rule): `attach` refuses a
/// table without one. Changes undone by a rollback are not in the
/// changeset (it compares each recorded row with the database now).
///
/// It never outlives the `Database` it was made through: once that handle
/// is closed or destroyed (moving it hands the session to the handle moved
/// into), or its connection closes, every call fails with SQLITE_MISUSE and
/// the flags read false. Another handle sharing the connection (a handle a
/// queue lends a block, an observer's) closing leaves it recording.
/// Move-only. Calls fail as
/// `sessionExtensionUnavailableError()` where SQLite lacks the extension;
/// each failing call returns false and sets `*error` (when not null).
class SQLITEBRIDGE_API Session {
 public:
  /// A session recording nothing: every call fails with SQLITE_MISUSE.
  Session() noexcept;
  /// Starts recording on `db` for `schema` ("main", "temp" or an attached
  /// database's name); no table is recorded until `attach` or `attachAll`.
  /// `error()` tells whether it started: SQLITE_MISUSE when `db` is closed,
  /// the session extension's absence, SQLITE_NOMEM.
  Session(Database& db, const std::string& schema) noexcept;
  /// Takes over the other session (which then fails with SQLITE_MISUSE).
  Session(Session&&) noexcept;
  /// Stops this session's recording, then takes over the other one.
  Session& operator=(Session&&) noexcept;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  /// Stops recording (deletes SQLite's session object).
  ~Session();

  /// Why the session did not start; code 0 when it did.
  Error error() const noexcept { return startError_; }
  /// The schema it records. Throws std::bad_alloc only when memory runs out.
  std::string schema() const { return schema_; }

  /// Records changes to `table` from now on. Fails with SQLITE_ERROR when
  /// the table exists without a declared PRIMARY KEY (the session extension
  /// would record nothing of it); a table that does not exist yet is
  /// recorded once created with one.
  bool attach(const std::string& table, Error* error = nullptr) noexcept;
  /// Records changes to every table of the schema from now on, tables made
  /// later included; tables without a PRIMARY KEY are skipped (SQLite's
  /// rule), and so are the library's own (named `sqlitebridge_…`: the sync
  /// engine's bookkeeping).
  bool attachAll(Error* error = nullptr) noexcept;

  /// Whether changes are being recorded (true when made; false once the
  /// connection is closed).
  bool isEnabled() const noexcept;
  /// Stops (false) or resumes recording. Fails with SQLITE_MISUSE when closed.
  bool setEnabled(bool enabled, Error* error = nullptr) noexcept;
  /// Whether changes recorded from now on are marked indirect.
  bool isIndirect() const noexcept;
  /// Marks the changes recorded from now on as indirect (or not).
  bool setIndirect(bool indirect, Error* error = nullptr) noexcept;
  /// Whether nothing has been recorded (true once closed). A recorded
  /// change rolled back since may still count.
  bool isEmpty() const noexcept;

  /// The changes recorded so far, as a changeset (old and new values).
  bool changeset(Changeset& out, Error* error = nullptr) noexcept;
  /// The changes recorded so far, as a patchset (smaller; cannot be
  /// inverted).
  bool patchset(Changeset& out, Error* error = nullptr) noexcept;
  /// Records, as changes, what turns `table` of the attached schema
  /// `fromSchema` into `table` of this session's schema (rows only there
  /// inserted, rows only in `fromSchema` deleted, differing rows updated),
  /// attaching `table` first. Fails with SQLITE_SCHEMA when the two tables'
  /// columns or primary keys differ, SQLITE_ERROR when `fromSchema` is not
  /// attached.
  bool diff(const std::string& fromSchema, const std::string& table, Error* error = nullptr) noexcept;

 private:
  friend struct ChangesetAccess;
  std::shared_ptr<SessionState> state_;
  std::weak_ptr<Connection> connection_;
  std::string schema_;
  Error startError_;
  // The open connection and session handle, or false with SQLITE_MISUSE.
  bool usable(Error* error) const noexcept;
  bool write(bool patchset, Changeset& out, Error* error) noexcept;
};

}  // namespace sqlitebridge
