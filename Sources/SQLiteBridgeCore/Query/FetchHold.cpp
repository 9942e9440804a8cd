// The fetch hold (FetchHold.hpp): one kept `PRAGMA main.schema_version`.
#include "FetchHold.hpp"

#include "Connection.hpp"
#include "OwnStatements.hpp"
#include "Query.hpp"

namespace sqlitebridge {

bool FetchHoldState::startIfWanted(Connection& connection, bool& started, std::int64_t& mainVersion) noexcept {
  started = false;
  if (scopes == 0 || holding || sqlite3_get_autocommit(connection.db) == 0) return true;
  if (!prepareOnce(connection, &statement, kMainSchemaVersionSQL)) return false;
  const bool stepped =
      stepOneRow(connection, statement, true, [&](sqlite3_stmt* stmt) { mainVersion = sqlite3_column_int64(stmt, 0); });
  if (!stepped) return false;
  holding = true;
  owner = nullptr;
  started = true;
  return true;
}

void FetchHoldState::end() noexcept {
  if (holding) sqlite3_reset(statement);
  holding = false;
  owner = nullptr;
}

void FetchHoldState::finalize(Connection& connection) noexcept {
  end();
  connection.finalize(statement);
  statement = nullptr;
}

FetchHold::FetchHold(Connection* connection) noexcept : connection_(connection) {
  if (connection_ != nullptr) ++connection_->fetchHold.scopes;
}

FetchHold::~FetchHold() {
  if (connection_ == nullptr) return;
  FetchHoldState& state = connection_->fetchHold;
  --state.scopes;
  if (state.scopes == 0 && state.holding && state.owner == nullptr) state.end();
}

bool FetchHold::open() noexcept {
  if (connection_ == nullptr) return true;
  const OwnLookup own(*connection_);
  bool started = false;
  std::int64_t mainVersion = 0;
  return connection_->fetchHold.startIfWanted(*connection_, started, mainVersion);
}

void FetchHold::handTo(const sqlite3_stmt* statement) noexcept {
  if (connection_ == nullptr) return;
  FetchHoldState& state = connection_->fetchHold;
  if (state.holding && state.owner == nullptr) state.owner = statement;
}

}  // namespace sqlitebridge
