// The session objects recording a connection, deleted before it closes
// (SQLite's rule: a session must not outlive its connection). Internal.
#pragma once

#include <memory>
#include <vector>

extern "C" {
typedef struct sqlite3_session sqlite3_session;
}

namespace sqlitebridge {

class Database;

/// One `Session`'s SQLite object, shared by the Session and its
/// connection's registry; null once deleted.
struct SessionState {
  sqlite3_session* handle = nullptr;
  /// The `Database` handle the session was made through (or moved into
  /// since), compared, never read: several handles share one connection (a
  /// block's lent handle, an observer's), and only the owner closing or
  /// being destroyed stops the session.
  const Database* owner = nullptr;
  /// Whether the session is the connection's own (an `UndoHistory`'s
  /// recorder, used only on the writer's thread while it holds the
  /// connection) rather than its owner's: no handle closing stops it; the
  /// connection closing does.
  bool keptWithConnection = false;
};

/// The sessions of one connection (used on its thread, as the connection).
class SessionRegistry {
 public:
  /// Remembers `state`; false when memory runs out.
  bool add(const std::shared_ptr<SessionState>& state) noexcept;
  /// Deletes every session's SQLite object (each Session then fails with
  /// SQLITE_MISUSE): the connection is closing.
  void closeAll() noexcept;
  /// Deletes the SQLite objects of the sessions `owner` owns (not those
  /// kept with the connection): that handle is closing or being destroyed,
  /// and its sessions must not go on recording the shared connection.
  void closeOwnedBy(const Database* owner) noexcept;
  /// The sessions `from` owns are `to`'s from now on (a handle moved).
  void moveOwner(const Database* from, const Database* to) noexcept;

 private:
  std::vector<std::weak_ptr<SessionState>> sessions_;
};

}  // namespace sqlitebridge
