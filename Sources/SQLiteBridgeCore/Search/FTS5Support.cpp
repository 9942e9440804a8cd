#include "FTS5Support.hpp"

#include <string>

namespace sqlitebridge {

fts5_api* fts5Api(sqlite3* db, Error& problem) noexcept {
  fts5_api* api = nullptr;
  std::string why = "no such function: fts5";
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, nullptr) == SQLITE_OK) {
    sqlite3_bind_pointer(statement, 1, static_cast<void*>(&api), "fts5_api_ptr", nullptr);
    sqlite3_step(statement);
  } else {
    why = sqlite3_errmsg(db);
  }
  sqlite3_finalize(statement);
  if (api != nullptr) return api;
  try {
    problem = Error{SQLITE_ERROR, SQLITE_ERROR,
                    std::string("FTS5 is not available: this SQLite (") + sqlite3_libversion() +
                        ") has no fts5 module (" + why + ")",
                    ""};
  } catch (...) {
    problem = Error{SQLITE_NOMEM, SQLITE_NOMEM, "", ""};
  }
  return nullptr;
}

}  // namespace sqlitebridge
