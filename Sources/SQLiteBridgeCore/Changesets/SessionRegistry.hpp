// The session objects recording a connection, deleted before it closes
// (SQLite's rule: a session must not outlive its connection). Internal.
#pragma once

#include <memory>
#include <vector>

extern "C" {
typedef struct sqlite3_session sqlite3_session;
}

namespace sqlitebridge {

/// One `Session`'s SQLite object, shared by the Session and its
/// connection's registry; null once deleted.
struct SessionState {
  sqlite3_session* handle = nullptr;
};

/// The sessions of one connection (used on its thread, as the connection).
class SessionRegistry {
 public:
  /// Remembers `state`; false when memory runs out.
  bool add(const std::shared_ptr<SessionState>& state) noexcept;
  /// Deletes every session's SQLite object (each Session then fails with
  /// SQLITE_MISUSE): the connection is closing.
  void closeAll() noexcept;

 private:
  std::vector<std::weak_ptr<SessionState>> sessions_;
};

}  // namespace sqlitebridge
