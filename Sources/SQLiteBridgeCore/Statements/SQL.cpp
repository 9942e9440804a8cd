#include "sqlitebridge/SQL.hpp"

#include <sqlite3.h>

#include <new>
#include <utility>

#include "Connection.hpp"
#include "SqlText.hpp"
#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

SQL SQL::raw(std::string text, std::vector<Value> arguments) {
  SQL sql;
  sql.text_ = std::move(text);
  sql.arguments_ = std::move(arguments);
  return sql;
}

SQL& SQL::sql(std::string_view text) {
  text_.append(text);
  return *this;
}

SQL& SQL::value(Value value) {
  text_ += '?';
  arguments_.push_back(std::move(value));
  return *this;
}

SQL& SQL::identifier(std::string_view name) {
  std::string quoted;
  Error error;
  if (!quoteIdentifier(std::string(name), quoted, error) && isValid()) failure_ = std::move(error);
  text_ += quoted;
  return *this;
}

SQL& SQL::list(const std::vector<Value>& values) {
  text_ += placeholderList(values.size());
  arguments_.insert(arguments_.end(), values.begin(), values.end());
  return *this;
}

SQL& SQL::literal(const SQL& other) {
  text_ += other.text_;
  arguments_.insert(arguments_.end(), other.arguments_.begin(), other.arguments_.end());
  if (isValid() && !other.isValid()) failure_ = other.failure_;
  return *this;
}

bool SQL::quoteIdentifier(const std::string& name, std::string& quoted, Error& error) noexcept {
  try {
    quoted = sqlitebridge::quoteIdentifier(name);
    if (name.find('\0') == std::string::npos) {
      error = Error();
      return true;
    }
    std::string shown;
    for (char c : name) shown += c == '\0' ? std::string("\\0") : std::string(1, c);
    error = Error{SQLITE_MISUSE, SQLITE_MISUSE, "an SQL identifier cannot hold a NUL byte: \"" + shown + "\"", ""};
  } catch (const std::bad_alloc&) {
    error = Error{SQLITE_NOMEM, SQLITE_NOMEM, "out of memory", ""};
  }
  return false;
}

std::string SQL::placeholderList(std::size_t count) noexcept {
  try {
    std::string list;
    list.reserve(count == 0 ? 2 : count * 3);
    list += '(';
    for (std::size_t i = 0; i < count; ++i) list += i == 0 ? "?" : ", ?";
    list += ')';
    return list;
  } catch (const std::bad_alloc&) {
    return std::string();
  }
}

// MARK: Database runs literals

bool Database::failInvalidLiteral(const SQL& literal) noexcept {
  if (!beginCall()) return false;
  return connection_->fail(literal.failure().code, literal.failure().message, literal.text());
}

bool Database::execute(const SQL& literal, std::vector<Row>* results) noexcept {
  if (!literal.isValid()) return failInvalidLiteral(literal);
  return execute(literal.text(), literal.arguments(), results);
}

Statement Database::prepare(const SQL& literal) noexcept {
  if (!literal.isValid()) {
    failInvalidLiteral(literal);
    return Statement();
  }
  Statement statement = prepare(literal.text());
  if (!statement.isValid() || !statement.bind(literal.arguments())) return Statement();
  return statement;
}

}  // namespace sqlitebridge
