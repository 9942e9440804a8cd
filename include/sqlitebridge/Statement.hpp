#pragma once

#include "SQLite.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "Export.hpp"
#include "BindableValue.hpp"
#include "ColumnView.hpp"
#include "Date.hpp"
#include "Error.hpp"
#include "NamedValues.hpp"
#include "Row.hpp"
#include "Uuid.hpp"
#include "Value.hpp"

namespace sqlitebridge {

class Connection;
class RowView;
class StatementCache;
struct StatementCacheEntry;
namespace interop {
struct ParameterMatch;
struct StatementAccess;
}  // namespace interop

/// What one `Statement::step` did.
enum class StepResult {
  /// A row is ready: read it with `column`, `columnValue` or `row`.
  Row,
  /// The statement has finished; `reset` to run it again.
  Done,
  /// The step failed; the database's `lastError()` says why.
  Error,
};

/// One prepared SQL statement: bind parameters, step through rows, read
/// columns, reset and run again. Made by `Database::prepare`.
///
/// A failing call returns false (or `StepResult::Error`) and records the
/// error where the owning database's `lastError()` reports it. No method
/// throws. A statement keeps its connection alive, so it stays safe to use
/// (and to destroy) after its `Database` object is gone or moved. A statement
/// is used by one thread at a time. Move-only.
class SQLITEBRIDGE_API Statement {
 public:
  /// An invalid statement; every call on it fails with SQLITE_MISUSE.
  Statement() noexcept = default;
  // Inline: Swift moves a statement between its helpers, and a call per
  // move would cost more than the move.
  /// Takes over `other`'s statement; `other` is left invalid (every call
  /// on it fails with SQLITE_MISUSE).
  Statement(Statement&& other) noexcept
      : connection_(std::move(other.connection_)),
        stmt_(other.stmt_),
        cacheEntry_(other.cacheEntry_),
        boundLargeValue_(other.boundLargeValue_),
        trackingBinds_(other.trackingBinds_),
        state_(other.state_),
        ownsState_(other.ownsState_) {
    other.stmt_ = nullptr;
    other.cacheEntry_ = nullptr;
    other.state_ = nullptr;
    other.ownsState_ = false;
  }
  /// Finalizes (or returns to the cache) this statement, then takes over
  /// `other`'s; `other` is left invalid.
  Statement& operator=(Statement&& other) noexcept {
    if (this != &other) {
      if (stmt_ != nullptr || state_ != nullptr) release();
      connection_ = std::move(other.connection_);
      stmt_ = other.stmt_;
      cacheEntry_ = other.cacheEntry_;
      boundLargeValue_ = other.boundLargeValue_;
      trackingBinds_ = other.trackingBinds_;
      state_ = other.state_;
      ownsState_ = other.ownsState_;
      other.stmt_ = nullptr;
      other.cacheEntry_ = nullptr;
      other.state_ = nullptr;
      other.ownsState_ = false;
    }
    return *this;
  }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  /// Finalizes the statement (or gives it back to the statement cache).
  ~Statement() {
    if (stmt_ != nullptr || state_ != nullptr) release();
  }

  /// False for a default-constructed or moved-from statement, or one whose
  /// preparation failed.
  bool isValid() const noexcept { return stmt_ != nullptr; }
  /// The SQL text the statement was prepared from.
  std::string sql() const noexcept;
  /// True when running the statement cannot change the database.
  bool isReadOnly() const noexcept;

  // MARK: Parameters

  /// Largest parameter index (`?NNN` counts up to NNN; `:a` and `?` count 1).
  int parameterCount() const noexcept;
  /// Index of the parameter written exactly `name` (with its `:`, `@` or `$`
  /// prefix), or 0 if there is none.
  int parameterIndex(const std::string& name) const noexcept;
  /// The name of parameter `index` (with prefix); empty for `?` or an index
  /// out of range.
  std::string parameterName(int index) const noexcept;
  /// Checks that `count` arguments fill the statement's parameters exactly;
  /// fails with SQLITE_RANGE otherwise (never binds a silent NULL).
  SQLITEBRIDGE_INLINE bool expectArgumentCount(std::size_t count) noexcept {
    return (stmt_ != nullptr && count == static_cast<std::size_t>(sqlite3_bind_parameter_count(stmt_))) ||
           wrongArgumentCount(count);
  }
  /// Binds NULL to parameter `index` (1-based). Fails with SQLITE_RANGE when
  /// the index is out of range.
  SQLITEBRIDGE_INLINE bool bindNull(int index) noexcept {
    return stmt_ == nullptr ? notPrepared() : bound(index, sqlite3_bind_null(stmt_, index));
  }
  /// Binds a 64-bit integer to parameter `index`.
  SQLITEBRIDGE_INLINE bool bindInteger(int index, std::int64_t value) noexcept {
    return stmt_ == nullptr ? notPrepared() : bound(index, sqlite3_bind_int64(stmt_, index, value));
  }
  /// Binds a double to parameter `index` (NaN binds NULL, as SQLite does).
  SQLITEBRIDGE_INLINE bool bindReal(int index, double value) noexcept {
    return stmt_ == nullptr ? notPrepared() : bound(index, sqlite3_bind_double(stmt_, index, value));
  }
  /// Binds `size` bytes of UTF-8 text (copied; embedded NULs kept). A null
  /// `utf8` with size 0 binds empty text, not NULL. Fails with SQLITE_TOOBIG
  /// past SQLite's length limit.
  bool bindText(int index, const void* utf8, std::size_t size) noexcept;
  /// Binds UTF-8 text (copied; embedded NULs kept).
  bool bindText(int index, const std::string& text) noexcept;
  /// Binds `size` bytes as a blob (copied). Size 0 binds a zero-length blob,
  /// not NULL.
  bool bindBlob(int index, const void* bytes, std::size_t size) noexcept;
  /// Binds any value (text and blob bytes are copied by SQLite, as by
  /// `bindText` and `bindBlob`). Inline: an integer binds without a call
  /// of ours.
  SQLITEBRIDGE_INLINE bool bind(int index, const Value& value) noexcept {
    const ColumnView view = value.view();
    switch (view.type) {
      case ValueType::Integer:
        return bindInteger(index, view.integer);
      case ValueType::Real:
        return bindReal(index, view.real);
      case ValueType::Text:
        return bindText(index, view.bytes, view.size);
      case ValueType::Blob:
        return bindBlob(index, view.bytes, view.size);
      case ValueType::Null:
        break;
    }
    return bindNull(index);
  }

  // Typed binding for C++ callers; each fails as the bind… functions above.
  /// Binds NULL.
  bool bind(int index, std::nullptr_t) noexcept { return bindNull(index); }
  /// Binds NULL.
  bool bind(int index, std::nullopt_t) noexcept { return bindNull(index); }
  /// Binds 1 or 0.
  bool bind(int index, bool value) noexcept { return bindInteger(index, value ? 1 : 0); }
  /// Binds an integer.
  bool bind(int index, signed char value) noexcept { return bindInteger(index, value); }
  /// Binds an integer.
  bool bind(int index, short value) noexcept { return bindInteger(index, value); }
  /// Binds an integer.
  bool bind(int index, int value) noexcept { return bindInteger(index, value); }
  /// Binds an integer.
  bool bind(int index, long value) noexcept { return bindInteger(index, value); }
  /// Binds an integer.
  bool bind(int index, long long value) noexcept { return bindInteger(index, value); }
  /// Binds an integer.
  bool bind(int index, unsigned char value) noexcept { return bindInteger(index, value); }
  /// Binds an integer.
  bool bind(int index, unsigned short value) noexcept { return bindInteger(index, value); }
  /// Binds an integer.
  bool bind(int index, unsigned int value) noexcept { return bindInteger(index, value); }
  /// Binds an unsigned integer; above INT64_MAX it fails with SQLITE_RANGE
  /// rather than wrapping around to a negative number.
  bool bind(int index, unsigned long value) noexcept { return bindUnsigned(index, value); }
  /// Binds an unsigned integer; above INT64_MAX it fails with SQLITE_RANGE.
  bool bind(int index, unsigned long long value) noexcept { return bindUnsigned(index, value); }
  /// Binds a real (as a double).
  bool bind(int index, float value) noexcept { return bindReal(index, value); }
  /// Binds a real.
  bool bind(int index, double value) noexcept { return bindReal(index, value); }
  /// Binds NUL-terminated UTF-8 text; a null pointer binds NULL.
  bool bind(int index, const char* text) noexcept;
  /// Binds UTF-8 text, NUL bytes included.
  bool bind(int index, const std::string& text) noexcept { return bindText(index, text.data(), text.size()); }
  /// Binds UTF-8 text, NUL bytes included.
  bool bind(int index, std::string_view text) noexcept { return bindText(index, text.data(), text.size()); }
  /// Binds a blob (an empty vector binds a zero-length blob, not NULL).
  bool bind(int index, const std::vector<std::uint8_t>& blob) noexcept {
    return bindBlob(index, blob.data(), blob.size());
  }
  /// Binds the date text of `time` (`formatDateText`, UTC), rounded to the
  /// nearest millisecond as `unixMillisecondsOf` rounds it, exactly the text
  /// `Value(time)` holds. The text is formatted without allocating; binding
  /// fails as `bindText` does.
  bool bind(int index, std::chrono::system_clock::time_point time) noexcept;
  /// Binds the UUID's 16 bytes as a blob, in RFC 4122 order (as
  /// `Value(uuid)` holds them); fails as `bindBlob` does.
  bool bind(int index, const Uuid& uuid) noexcept { return bindBlob(index, uuid.bytes().data(), uuid.bytes().size()); }
  /// Binds the value, or NULL when empty.
  template <typename T>
  bool bind(int index, const std::optional<T>& value) noexcept {
    return value ? bind(index, *value) : bindNull(index);
  }

  /// Binds `arguments` to parameters 1...n after checking their count with
  /// `expectArgumentCount`.
  bool bind(const std::vector<Value>& arguments) noexcept;
  /// Binds named arguments (see `NamedValues`). Fails with SQLITE_RANGE,
  /// naming the parameter, when a parameter has no argument, an argument
  /// matches no parameter or is given twice, or a parameter is positional.
  bool bind(const NamedValues& arguments) noexcept;
  /// Named arguments written in place: `bind({{"id", 1}})`. Without this
  /// overload a single pair would be ambiguous (it also reads as a vector of
  /// two positional values). `bind({})` binds no arguments.
  bool bind(std::initializer_list<NamedValues::value_type> arguments) {
    if (arguments.size() == 0) return bind(std::vector<Value>());
    return bind(NamedValues(arguments));
  }

  /// Binds `values` to parameters 1...n, each with its typed `bind`
  /// overload (see `IsBindableValue`), after checking their count with
  /// `expectArgumentCount` (SQLITE_RANGE when it is not the statement's
  /// parameter count; nothing is bound then). Stops at the first bind that
  /// fails (its error: SQLITE_TOOBIG, SQLITE_RANGE for an unsigned value
  /// above INT64_MAX, ...). Builds no vector: nothing is allocated for
  /// integer, real and text values (SQLite copies text and blobs itself).
  template <typename... Values>
  bool bindValues(const Values&... values) noexcept {
    static_assert((isBindableValue<Values> && ...),
                  "bindValues binds null, bool, numbers, text, blobs, dates, UUIDs, Values and optionals of them");
    if (!expectArgumentCount(sizeof...(Values))) return false;
    [[maybe_unused]] int index = 0;
    return (bind(++index, values) && ...);
  }

  /// Sets every parameter back to NULL.
  bool clearBindings() noexcept;

  // MARK: Running

  /// Runs the statement to its next row. On `Error`, reset before reuse.
  SQLITEBRIDGE_INLINE StepResult step() noexcept {
    if (stmt_ != nullptr) {
      const int rc = sqlite3_step(stmt_);
      if (rc == SQLITE_ROW) return StepResult::Row;
      if (rc == SQLITE_DONE) return StepResult::Done;
      return stepFailed(rc);
    }
    return stepFailed(SQLITE_MISUSE);
  }
  /// Rewinds the statement so it can run again; bindings are kept. Returns
  /// true (the error of a failed previous step is not reported again).
  bool reset() noexcept;
  /// Steps through every row, calling `body(const RowView&)` for each. The
  /// body may return void, or bool: false stops early. Returns false when a
  /// step fails or the body recorded an error (for example a failed
  /// `RowView::get`, even if the body went on); true otherwise. An error
  /// recorded before the call (an earlier failed bind, say) is cleared
  /// first, so it is not mistaken for the body's.
  template <typename Body>
  bool forEachRow(Body&& body);

  // MARK: Columns of the current row

  /// Number of result columns (0 for statements that return no rows).
  int columnCount() const noexcept { return stmt_ ? sqlite3_column_count(stmt_) : 0; }
  /// The name SQL gives column `index` (alias or column name); empty when out
  /// of range.
  std::string columnName(int index) const noexcept;
  /// The names of all result columns, in order; shared by the `Row`s this
  /// statement makes.
  std::shared_ptr<const std::vector<std::string>> columnNames() const noexcept;

  /// Column `index` of the current row, borrowed: text and blob bytes point
  /// into the statement and are valid until the next step, reset or
  /// finalize. One sqlite3 call per column. An index out of range reads NULL.
  SQLITEBRIDGE_BORROWED SQLITEBRIDGE_INLINE ColumnView column(int index) const noexcept {
    if (stmt_ == nullptr) return ColumnView{ValueType::Null, 0, 0.0, nullptr, 0};
    return readColumn(stmt_, index);
  }
  /// The storage class of column `index` of the current row.
  ValueType columnType(int index) const noexcept { return column(index).type; }
  /// Column `index` of the current row, copied into a `Value`.
  Value columnValue(int index) const noexcept;
  /// The whole current row, copied.
  Row row() const noexcept;

  /// The underlying handle, for calling sqlite3 directly from C++; null when
  /// invalid. The statement still owns it.
  sqlite3_stmt* handle() const noexcept { return stmt_; }

  /// The last failure on this statement's connection: what its `Database`'s
  /// `lastError()` reports while that is open, and still there for a
  /// statement that outlived its `Database` (closed, moved or destroyed);
  /// code 0 after a success. An invalid statement (never prepared, or moved
  /// from) reports SQLITE_MISUSE: the failure that made it invalid is in the
  /// `Database`'s `lastError()`.
  Error lastError() const noexcept;

 private:
  friend class Database;
  friend class RowView;
  friend struct interop::StatementAccess;
  // Column `index` of the current row of `stmt` (not null): `column`
  // without its check, for RowView, whose statement is valid.
  SQLITEBRIDGE_INLINE static ColumnView readColumn(sqlite3_stmt* stmt, int index) noexcept {
    ColumnView view{ValueType::Null, 0, 0.0, nullptr, 0};
    sqlite3_value* value = sqlite3_column_value(stmt, index);
    const int type = sqlite3_value_type(value);
    // Integers first, tested on their own: the commonest case costs a
    // compare instead of a jump table.
    if (__builtin_expect(type == SQLITE_INTEGER, 1)) {
      view.type = ValueType::Integer;
      view.integer = sqlite3_value_int64(value);
    } else if (type == SQLITE_FLOAT) {
      view.type = ValueType::Real;
      view.real = sqlite3_value_double(value);
    } else if (type == SQLITE_TEXT) {
      view.type = ValueType::Text;
      view.bytes = sqlite3_value_text(value);
      view.size = static_cast<std::size_t>(sqlite3_value_bytes(value));
    } else if (type == SQLITE_BLOB) {
      view.type = ValueType::Blob;
      view.bytes = sqlite3_value_blob(value);
      view.size = static_cast<std::size_t>(sqlite3_value_bytes(value));
    }
    return view;
  }
  // Named binding in three steps (interop::StatementAccess documents them);
  // `bind(const NamedValues&)` is these three.
  bool beginNamedArguments() noexcept;
  interop::ParameterMatch matchNamedArgument(const void* key, std::size_t size) noexcept;
  bool endNamedArguments() noexcept;
  // Records that column `index` of the current row does not convert to
  // `typeName` (SQLITE_MISMATCH, naming the column and its value) where the
  // database's `lastError()` reports it; returns false. For RowView::get.
  bool failConversion(int index, const char* typeName) const noexcept;
  friend class StatementCache;
  friend struct StatementCacheEntry;
  Statement(std::shared_ptr<Connection> connection, sqlite3_stmt* stmt, StatementCacheEntry* cacheEntry) noexcept;
  void release() noexcept;
  bool fail(int code, const std::string& message) const noexcept;
  bool check(int resultCode) noexcept;
  SQLITEBRIDGE_INLINE bool bound(int index, int resultCode) noexcept {
    if (resultCode != SQLITE_OK) return bindFailed(index, resultCode);
    if (trackingBinds_) noteBound(index);
    return true;
  }
  // While a bind callback runs (Database::execute with a callback), which
  // parameters it bound, so that one left unbound fails instead of reading
  // as SQLite's NULL.
  bool startTrackingBinds() noexcept;
  void noteBound(int index) noexcept;
  bool finishTrackingBinds() noexcept;
  bool bindFailed(int index, int resultCode) noexcept;
  bool wrongArgumentCount(std::size_t count) noexcept;
  struct State;
  State& state() const;
  bool notPrepared() noexcept;
  bool bindUnsigned(int index, unsigned long long value) noexcept;
  StepResult stepFailed(int resultCode) noexcept;
  bool hasError() const noexcept;
  void clearError() noexcept;
  // The values of the current row, for `row()` and Database::run; throws
  // std::bad_alloc, which `row()` cannot report but Database::run can.
  std::vector<Value> makeValues() const;
  // A column as a Value; throws std::bad_alloc.
  static Value makeValue(const ColumnView& view);

  std::shared_ptr<Connection> connection_;
  sqlite3_stmt* stmt_ = nullptr;
  StatementCacheEntry* cacheEntry_ = nullptr;  // where to return a statement lent by the cache
  bool boundLargeValue_ = false;               // release bindings on return, not on reuse
  bool trackingBinds_ = false;                 // a bind callback is running
  // What few statements need (named binding, copied rows' column names),
  // made on first use, kept by the cache entry for a cached statement. One
  // pointer keeps a move cheap.
  mutable State* state_ = nullptr;
  mutable bool ownsState_ = false;  // false when the cache entry owns it
};

}  // namespace sqlitebridge

// RowView (and Statement::forEachRow, which needs it complete) live there.
#include "RowView.hpp"
