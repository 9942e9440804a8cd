#include "sqlitebridge/Database.hpp"

#include <atomic>
#include <climits>
#include <cstddef>
#include <new>

#include "Connection.hpp"
#include "OpenConnection.hpp"
#include "Script.hpp"
#include "SqlText.hpp"

namespace sqlitebridge {

namespace {

std::shared_ptr<Connection> newConnection() noexcept {
  try {
    return std::make_shared<Connection>();
  } catch (...) {
    return nullptr;
  }
}

}  // namespace

Database::Database(std::shared_ptr<Connection> connection) noexcept : connection_(std::move(connection)) {}

Database::Database(const std::string& name, const std::string& createSQL, const Location& location) noexcept
    : Database(name, createSQL, location, Configuration()) {}

Database::Database(const std::string& name, const std::string& createSQL, const Location& location,
                   const Configuration& configuration) noexcept
    : connection_(newConnection()) {
  if (connection_) openByName(name, createSQL, location, configuration);
}

Database::Database(const std::string& name, const std::string& createSQL) noexcept
    : Database(name, createSQL, Location::defaults()) {}

Database Database::open(const std::string& path, OpenMode mode) noexcept {
  Database database(newConnection());
  if (database.connection_) openConnection(*database.connection_, path, mode, Configuration());
  return database;
}

Database Database::open(const std::string& path, const Configuration& configuration) noexcept {
  Database database(newConnection());
  if (database.connection_) {
    openConnection(*database.connection_, path, configuration.readOnly ? OpenMode::ReadOnly : OpenMode::ReadWriteCreate,
                   configuration);
  }
  return database;
}

Database::Database(Database&& other) noexcept : connection_(std::move(other.connection_)) {
  // The moved-from object stays usable: closed, reporting SQLITE_MISUSE.
  other.connection_ = newConnection();
  // The sessions made through `other` go with its connection.
  if (connection_) connection_->sessions.moveOwner(&other, this);
}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    // The sessions made through this handle stop, as when it closes.
    if (isOpen()) connection_->sessions.closeOwnedBy(this);
    connection_ = std::move(other.connection_);
    other.connection_ = newConnection();
    if (connection_) connection_->sessions.moveOwner(&other, this);
  }
  return *this;
}

Database::~Database() {
  // The sessions made through this handle stop with it, also while another
  // handle or a lent statement keeps the connection open.
  if (isOpen()) connection_->sessions.closeOwnedBy(this);
}

bool Database::beginCall() noexcept { return connection_ && connection_->begin(); }

bool Database::isOpen() const noexcept { return connection_ && connection_->db != nullptr; }

void Database::close() noexcept {
  // As a move does: the shared connection closes with its last owner.
  // Atomic, for `interrupt` from another thread.
  // The sessions made through this handle stop at once, even while a lent
  // statement or another handle (a block's, an observer's) keeps the
  // connection open; those of the other handles, and an UndoHistory's (the
  // connection's own), go on.
  if (isOpen()) connection_->sessions.closeOwnedBy(this);
  if (isOpen()) std::atomic_store(&connection_, newConnection());
}

void Database::interrupt() const noexcept {
  // The copy keeps the connection (and its handle) alive while interrupting.
  const std::shared_ptr<Connection> connection = std::atomic_load(&connection_);
  if (connection && connection->db != nullptr) sqlite3_interrupt(connection->db);
}

namespace detail {

Database unusableDatabase(const Error& reason) noexcept {
  Database database(newConnection());
  if (database.connection_) {
    try {
      database.connection_->closedReason = reason;
      database.connection_->error = reason;
    } catch (...) {
      database.connection_->closedReason = Error{reason.code, reason.extendedCode, std::string(), std::string()};
    }
  }
  return database;
}

}  // namespace detail

std::string Database::path() const noexcept {
  if (!isOpen()) return std::string();
  try {
    return connection_->path;
  } catch (...) {
    return std::string();
  }
}

sqlite3* Database::handle() const noexcept { return connection_ ? connection_->db : nullptr; }

// MARK: Statements

Statement Database::prepare(const std::string& sql) noexcept {
  return prepareText(sql.data(), sql.size(), Caching::None);
}

Statement Database::cachedStatement(const std::string& sql) noexcept {
  return prepareText(sql.data(), sql.size(), Caching::Cached);
}

Statement Database::cachedStatement(const void* utf8, std::size_t size) noexcept {
  return prepareText(utf8 != nullptr ? static_cast<const char*>(utf8) : "", size, Caching::Cached);
}

Statement Database::cachedStatementForArguments(const void* utf8, std::size_t size) noexcept {
  return prepareText(utf8 != nullptr ? static_cast<const char*>(utf8) : "", size, Caching::CachedForArguments);
}

bool Database::cachedStatementForArguments(const void* utf8, std::size_t size, Statement& statement) noexcept {
  // The cached statement is lent straight into `statement` (the Swift
  // facade's path for every execute): making a temporary Statement, moving
  // it in and destroying it cost about a fifth of this call.
  if (statement.stmt_ != nullptr || statement.state_ != nullptr) statement.release();
  if (beginCall()) {
    const std::string_view sql(utf8 != nullptr ? static_cast<const char*>(utf8) : "", size);
    if (StatementCache::Entry* entry = connection_->statementCache.lend(sql, true)) {
      statement.connection_ = connection_;
      statement.stmt_ = entry->stmt;
      statement.cacheEntry_ = entry;
      return true;
    }
  }
  statement = cachedStatementForArguments(utf8, size);
  return statement.isValid();
}

Statement Database::prepareText(const char* text, std::size_t size, Caching caching) noexcept {
  if (!beginCall()) return Statement();
  Connection& connection = *connection_;
  const std::string_view sql(text, size);
  const bool cached = caching != Caching::None;
  if (cached) {
    if (StatementCache::Entry* entry = connection.statementCache.lend(sql, caching == Caching::CachedForArguments)) {
      return Statement(connection_, entry->stmt, entry);
    }
  }
  try {
    if (size >= static_cast<std::size_t>(INT_MAX)) {
      connection.fail(SQLITE_TOOBIG, "the SQL text is too long", std::string());
      return Statement();
    }
    sqlite3_stmt* stmt = nullptr;
    const char* tail = nullptr;
    const int rc = connection.prepare(text, static_cast<int>(size), &stmt, &tail);
    if (rc != SQLITE_OK) {
      connection.failFromSQLite(rc, std::string(sql));
      return Statement();
    }
    if (stmt == nullptr) {
      connection.fail(SQLITE_MISUSE, "no SQL statement to run (the text is empty or only comments)", std::string(sql));
      return Statement();
    }
    ++connection.preparedCount;
    const std::size_t rest = skipIgnorable(sql, static_cast<std::size_t>(tail - text));
    if (rest < size) {
      connection.finalize(stmt);
      connection.fail(SQLITE_MISUSE,
                      "execute runs exactly one statement, but more SQL follows it: \"" + excerpt(sql, rest) +
                          "\" (use executeScript for several statements)",
                      std::string(sql));
      return Statement();
    }
    StatementCache::Entry* entry = cached ? connection.statementCache.add(sql, stmt) : nullptr;
    return Statement(connection_, stmt, entry);
  } catch (...) {
    connection.fail(SQLITE_NOMEM, "out of memory while preparing a statement", std::string());
    return Statement();
  }
}

bool Database::validate(const std::string& sql) noexcept { return prepare(sql).isValid(); }

Statement Database::prepareNext(const std::string& sql, std::size_t& offset) noexcept {
  if (!beginCall()) return Statement();
  sqlite3_stmt* stmt = nullptr;
  if (!prepareNextStatement(*connection_, sql, offset, &stmt) || stmt == nullptr) return Statement();
  return Statement(connection_, stmt, nullptr);
}

bool Database::finishEarlyStop() noexcept {
  if (connection_ && !connection_->error.isError()) {
    connection_->fail(SQLITE_ABORT, "the bind callback gave up (returned false)", std::string());
  }
  return false;
}

bool Database::run(const std::string& sql, const std::vector<Value>* arguments, const NamedValues* named,
                   std::vector<Row>* results, Row* firstRow) noexcept {
  Statement statement = cachedStatementForArguments(sql.data(), sql.size());
  if (!statement.isValid()) return false;
  if (named != nullptr) {
    if (!statement.bind(*named)) return false;
  } else if (arguments != nullptr ? !statement.bind(*arguments) : !statement.expectArgumentCount(0)) {
    return false;
  }
  // Rows go straight into `*results` (no second pass to move them there);
  // on failure the ones this call appended are taken out again, so rows are
  // appended only when the whole statement succeeds.
  const std::size_t oldSize = results != nullptr ? results->size() : 0;
  const auto dropAppended = [&] {
    if (results != nullptr) results->erase(results->begin() + static_cast<std::ptrdiff_t>(oldSize), results->end());
  };
  try {
    // The rows of one run share one list of column names, read once (after
    // the first step: a schema change re-prepares the statement there).
    std::shared_ptr<const std::vector<std::string>> names;
    bool haveFirst = false;
    for (;;) {
      const StepResult step = statement.step();
      if (step == StepResult::Error) {
        dropAppended();
        return false;
      }
      if (step == StepResult::Done) break;
      if (results == nullptr && (firstRow == nullptr || haveFirst)) continue;
      if (!names) {
        names = statement.columnNames();
        if (!names) throw std::bad_alloc();
      }
      if (results != nullptr) {
        results->emplace_back(names, statement.makeValues());
      } else {
        *firstRow = Row(names, statement.makeValues());
        haveFirst = true;
      }
    }
    if (firstRow != nullptr && !haveFirst) *firstRow = Row();
    return true;
  } catch (...) {
    dropAppended();
    return connection_->fail(SQLITE_NOMEM, "out of memory while reading rows", sql);
  }
}

bool Database::execute(const std::string& sql, std::vector<Row>* results) noexcept {
  return run(sql, nullptr, nullptr, results, nullptr);
}

bool Database::execute(const std::string& sql, Row& result) noexcept {
  return run(sql, nullptr, nullptr, nullptr, &result);
}

bool Database::execute(const std::string& sql, const std::vector<Value>& arguments,
                       std::vector<Row>* results) noexcept {
  return run(sql, &arguments, nullptr, results, nullptr);
}

bool Database::execute(const std::string& sql, const NamedValues& arguments, std::vector<Row>* results) noexcept {
  return run(sql, nullptr, &arguments, results, nullptr);
}

bool Database::executeScript(const std::string& sql) noexcept {
  if (!beginCall()) return false;
  return runScript(*connection_, sql);
}

// MARK: Statement cache

std::size_t Database::statementCacheCapacity() const noexcept {
  return connection_ ? connection_->statementCache.capacity() : 0;
}

void Database::setStatementCacheCapacity(std::size_t capacity) noexcept {
  if (connection_) connection_->statementCache.setCapacity(capacity);
}

void Database::clearStatementCache() noexcept {
  if (connection_) connection_->statementCache.clear();
}

std::int64_t Database::preparedStatementCount() const noexcept { return connection_ ? connection_->preparedCount : 0; }

// MARK: State

std::string Database::error() const noexcept {
  if (!connection_) return "out of memory";
  try {
    return connection_->error.message;
  } catch (...) {
    return std::string();
  }
}

Error Database::lastError() const noexcept {
  if (!connection_) return Error{SQLITE_NOMEM, SQLITE_NOMEM, std::string(), std::string()};
  try {
    return connection_->error;
  } catch (...) {
    return Error{connection_->error.code, connection_->error.extendedCode, std::string(), std::string()};
  }
}

std::int64_t Database::lastInsertRowId() const noexcept {
  return isOpen() ? sqlite3_last_insert_rowid(connection_->db) : 0;
}

int Database::changes() const noexcept { return isOpen() ? sqlite3_changes(connection_->db) : 0; }

bool Database::isInTransaction() const noexcept { return isOpen() && sqlite3_get_autocommit(connection_->db) == 0; }

bool Database::setBusyTimeout(int milliseconds) noexcept {
  if (!beginCall()) return false;
  connection_->setBusyTimeout(milliseconds);
  return true;
}

int Database::busyTimeout() const noexcept { return isOpen() ? connection_->busyTimeoutMilliseconds : 0; }

}  // namespace sqlitebridge
