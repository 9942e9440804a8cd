#include "sqlitebridge/Session.hpp"

#include <algorithm>
#include <new>
#include <string>
#include <utility>

#include "ChangesetAccess.hpp"
#include "Connection.hpp"
#include "SessionRegistry.hpp"
#include "TableShape.hpp"

namespace sqlitebridge {

bool SessionRegistry::add(const std::shared_ptr<SessionState>& state) noexcept {
  try {
    // Forget the sessions already gone, so that a connection making many
    // keeps a short list.
    sessions_.erase(std::remove_if(sessions_.begin(), sessions_.end(),
                                   [](const std::weak_ptr<SessionState>& session) { return session.expired(); }),
                    sessions_.end());
    sessions_.push_back(state);
    return true;
  } catch (const std::bad_alloc&) {
    return false;
  }
}

void SessionRegistry::closeAll() noexcept {
  for (const std::weak_ptr<SessionState>& weak : sessions_) {
    if (std::shared_ptr<SessionState> state = weak.lock(); state && state->handle != nullptr) {
      sqlite3session_delete(state->handle);
      state->handle = nullptr;
    }
  }
  sessions_.clear();
}

void SessionRegistry::closeOwnedBy(const Database* owner) noexcept {
  for (const std::weak_ptr<SessionState>& weak : sessions_) {
    if (std::shared_ptr<SessionState> state = weak.lock();
        state && state->handle != nullptr && state->owner == owner && !state->keptWithConnection) {
      sqlite3session_delete(state->handle);
      state->handle = nullptr;
    }
  }
}

void SessionRegistry::moveOwner(const Database* from, const Database* to) noexcept {
  for (const std::weak_ptr<SessionState>& weak : sessions_) {
    if (std::shared_ptr<SessionState> state = weak.lock(); state && state->owner == from) state->owner = to;
  }
}

void ChangesetAccess::keepWithConnection(Session& session) noexcept {
  if (session.state_) session.state_->keptWithConnection = true;
}

Session::Session() noexcept { changesetFailure(&startError_, SQLITE_MISUSE, "the session records no database"); }

Session::Session(Database& db, const std::string& schema) noexcept {
  if (!requireSessionAPI(&startError_)) return;
  std::shared_ptr<Connection> connection = ChangesetAccess::connection(db);
  if (!connection || connection->db == nullptr) {
    changesetFailure(&startError_, SQLITE_MISUSE, "the database is not open");
    return;
  }
  try {
    schema_ = schema;
    state_ = std::make_shared<SessionState>();
    state_->owner = &db;
  } catch (const std::bad_alloc&) {
    changesetFailure(&startError_, SQLITE_NOMEM, "out of memory");
    return;
  }
  const int rc = sqlite3session_create(connection->db, schema_.c_str(), &state_->handle);
  if (rc != SQLITE_OK) {
    state_->handle = nullptr;
    changesetCallFailure(&startError_, rc, "starting a session");
    return;
  }
  if (!connection->sessions.add(state_)) {
    sqlite3session_delete(state_->handle);
    state_->handle = nullptr;
    changesetFailure(&startError_, SQLITE_NOMEM, "out of memory");
    return;
  }
  connection_ = connection;
}

Session::Session(Session&& other) noexcept
    : state_(std::move(other.state_)),
      connection_(std::move(other.connection_)),
      schema_(std::move(other.schema_)),
      startError_(std::move(other.startError_)) {
  other.state_.reset();
  other.connection_.reset();
  changesetFailure(&other.startError_, SQLITE_MISUSE, "the session was moved");
}

Session& Session::operator=(Session&& other) noexcept {
  if (this != &other) {
    Session gone(std::move(*this));
    state_ = std::move(other.state_);
    connection_ = std::move(other.connection_);
    schema_ = std::move(other.schema_);
    startError_ = std::move(other.startError_);
    other.state_.reset();
    other.connection_.reset();
    changesetFailure(&other.startError_, SQLITE_MISUSE, "the session was moved");
  }
  return *this;
}

Session::~Session() {
  // The connection may be gone (it deleted the handle as it closed).
  if (state_ && state_->handle != nullptr && !connection_.expired()) {
    sqlite3session_delete(state_->handle);
    state_->handle = nullptr;
  }
}

bool Session::usable(Error* error) const noexcept {
  if (!requireSessionAPI(error)) return false;
  if (startError_.isError()) {
    if (error != nullptr) *error = startError_;
    return false;
  }
  const std::shared_ptr<Connection> connection = connection_.lock();
  if (!connection || connection->db == nullptr || !state_ || state_->handle == nullptr) {
    return changesetFailure(error, SQLITE_MISUSE, "the session's database is closed");
  }
  return true;
}

bool Session::attach(const std::string& table, Error* error) noexcept {
  if (!usable(error)) return false;
  const std::shared_ptr<Connection> connection = connection_.lock();
  TableShape shape;
  if (!readTableShape(*connection, schema_, table, shape, error)) return false;
  if (shape.exists && !shape.hasPrimaryKey()) {
    try {
      return changesetFailure(
          error, SQLITE_ERROR,
          "table \"" + table + "\" has no PRIMARY KEY: SQLite's session extension records only tables with one");
    } catch (const std::bad_alloc&) {
      return changesetFailure(error, SQLITE_NOMEM, "out of memory");
    }
  }
  const int rc = sqlite3session_attach(state_->handle, table.c_str());
  return rc == SQLITE_OK || changesetCallFailure(error, rc, "attaching a table to the session");
}

bool Session::attachAll(Error* error) noexcept {
  if (!usable(error)) return false;
  // The library's own tables would be undone and shipped with the rest:
  // an undo history of every table would undo the sync engine's record of
  // a transaction along with the transaction.
  sqlite3session_table_filter(
      state_->handle, [](void*, const char* table) { return isLibraryTable(table) ? 0 : 1; }, nullptr);
  const int rc = sqlite3session_attach(state_->handle, nullptr);
  return rc == SQLITE_OK || changesetCallFailure(error, rc, "attaching every table to the session");
}

bool Session::isEnabled() const noexcept { return usable(nullptr) && sqlite3session_enable(state_->handle, -1) != 0; }

bool Session::setEnabled(bool enabled, Error* error) noexcept {
  if (!usable(error)) return false;
  sqlite3session_enable(state_->handle, enabled ? 1 : 0);
  return true;
}

bool Session::isIndirect() const noexcept {
  return usable(nullptr) && sqlite3session_indirect(state_->handle, -1) != 0;
}

bool Session::setIndirect(bool indirect, Error* error) noexcept {
  if (!usable(error)) return false;
  sqlite3session_indirect(state_->handle, indirect ? 1 : 0);
  return true;
}

bool Session::isEmpty() const noexcept { return !usable(nullptr) || sqlite3session_isempty(state_->handle) != 0; }

bool Session::write(bool patchset, Changeset& out, Error* error) noexcept {
  if (!usable(error)) return false;
  int size = 0;
  void* buffer = nullptr;
  const int rc = patchset ? sqlite3session_patchset(state_->handle, &size, &buffer)
                          : sqlite3session_changeset(state_->handle, &size, &buffer);
  if (rc != SQLITE_OK) {
    sqlite3_free(buffer);
    return changesetCallFailure(error, rc,
                                patchset ? "making the session's patchset" : "making the session's changeset");
  }
  std::string bytes;
  if (!takeSQLiteBuffer(buffer, size, bytes, error)) return false;
  out = ChangesetAccess::make(std::move(bytes), patchset && size > 0);
  return true;
}

bool Session::changeset(Changeset& out, Error* error) noexcept { return write(false, out, error); }

bool Session::patchset(Changeset& out, Error* error) noexcept { return write(true, out, error); }

bool Session::diff(const std::string& fromSchema, const std::string& table, Error* error) noexcept {
  if (!usable(error)) return false;
  // SQLite diffs only an attached table (it does nothing for another).
  if (!attach(table, error)) return false;
  char* message = nullptr;
  const int rc = sqlite3session_diff(state_->handle, fromSchema.c_str(), table.c_str(), &message);
  if (rc == SQLITE_OK) {
    sqlite3_free(message);
    return true;
  }
  try {
    std::string why = "diffing table \"" + table + "\" of \"" + fromSchema + "\": ";
    why += message != nullptr ? message : sqlite3_errstr(rc);
    sqlite3_free(message);
    return changesetFailure(error, rc, why);
  } catch (const std::bad_alloc&) {
    sqlite3_free(message);
    return changesetFailure(error, SQLITE_NOMEM, "out of memory");
  }
}

bool startConnectionSession(Database& db, const std::optional<std::vector<std::string>>& tables,
                            std::optional<Session>& out, Error* error) noexcept {
  out.reset();
  Session session(db, "main");
  if (session.error().isError()) {
    if (error != nullptr) *error = session.error();
    return false;
  }
  if (!tables) {
    if (!session.attachAll(error)) return false;
  } else {
    for (const std::string& table : *tables) {
      if (!session.attach(table, error)) return false;
    }
  }
  ChangesetAccess::keepWithConnection(session);
  out.emplace(std::move(session));
  return true;
}

}  // namespace sqlitebridge
