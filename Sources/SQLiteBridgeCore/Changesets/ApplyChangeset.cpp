// Database::apply: a changeset applied in one savepoint, conflicts handed to
// the caller's handler, every table checked first (SQLite would skip a
// table it cannot apply without a word).
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "ChangesetAccess.hpp"
#include "ChangesetFormat.hpp"
#include "Connection.hpp"
#include "SQLiteValue.hpp"
#include "TableShape.hpp"
#include "sqlitebridge/Database.hpp"
#include "sqlitebridge/DatabaseRegion.hpp"

namespace sqlitebridge {

namespace {

const char* kindName(ChangesetConflictKind kind) noexcept {
  switch (kind) {
    case ChangesetConflictKind::Data:
      return "data conflict (the row's values are not the change's old values)";
    case ChangesetConflictKind::NotFound:
      return "not-found conflict (the row to change is not there)";
    case ChangesetConflictKind::Conflict:
      return "conflict (a row with the same primary key is there)";
    case ChangesetConflictKind::Constraint:
      return "constraint conflict";
    case ChangesetConflictKind::ForeignKey:
      return "foreign key conflict";
  }
  return "conflict";
}

ChangesetConflictKind kindOf(int conflict) noexcept {
  switch (conflict) {
    case kChangesetData:
      return ChangesetConflictKind::Data;
    case kChangesetNotFound:
      return ChangesetConflictKind::NotFound;
    case kChangesetConflict:
      return ChangesetConflictKind::Conflict;
    case kChangesetConstraint:
      return ChangesetConflictKind::Constraint;
    default:
      return ChangesetConflictKind::ForeignKey;
  }
}

// What the apply's callbacks share.
struct ApplyContext {
  const std::optional<std::vector<std::string>>* tables = nullptr;
  const ChangesetConflictHandler* handler = nullptr;
  // Why the apply stopped, when a callback decided it.
  Error failure;

  bool includes(const char* table) const noexcept {
    if (!tables->has_value()) return true;
    for (const std::string& name : **tables) {
      if (sameTableName(name, table)) return true;
    }
    return false;
  }
};

int filterTable(void* context, const char* table) {
  return static_cast<ApplyContext*>(context)->includes(table) ? 1 : 0;
}

// The conflict as the handler is told: the operation and the database's
// row where SQLite gives them.
bool describeConflict(int conflict, sqlite3_changeset_iter* iterator, ChangesetConflict& out, Error* error) noexcept {
  out.kind = kindOf(conflict);
  if (out.kind == ChangesetConflictKind::ForeignKey) {
    int count = 0;
    sqlite3changeset_fk_conflicts(iterator, &count);
    out.foreignKeyViolations = count;
    return true;
  }
  ChangesetOperation operation;
  if (!readOperation(iterator, operation, error)) return false;
  try {
    if (out.kind == ChangesetConflictKind::Data || out.kind == ChangesetConflictKind::Conflict) {
      std::vector<Value> row;
      row.reserve(operation.primaryKey.size());
      for (std::size_t i = 0; i < operation.primaryKey.size(); ++i) {
        sqlite3_value* value = nullptr;
        const int rc = sqlite3changeset_conflict(iterator, static_cast<int>(i), &value);
        if (rc != SQLITE_OK) return changesetCallFailure(error, rc, "reading the conflicting row");
        row.push_back(value != nullptr ? valueOf(value) : Value());
      }
      out.conflictingValues = std::move(row);
    }
    out.operation = std::move(operation);
    return true;
  } catch (const std::bad_alloc&) {
    return changesetFailure(error, SQLITE_NOMEM, "out of memory");
  }
}

int handleConflict(void* pointer, int conflict, sqlite3_changeset_iter* iterator) {
  ApplyContext& context = *static_cast<ApplyContext*>(pointer);
  ChangesetConflict description;
  if (!describeConflict(conflict, iterator, description, &context.failure)) return kChangesetAbort;
  ChangesetConflictResolution answer = ChangesetConflictResolution::Abort;
  bool threw = false;
  if (*context.handler) {
    try {
      answer = (*context.handler)(description);
    } catch (...) {
      threw = true;
    }
  }
  const std::string table = description.operation ? description.operation->table : std::string();
  try {
    switch (answer) {
      case ChangesetConflictResolution::Omit:
        return kChangesetOmit;
      case ChangesetConflictResolution::Replace:
        if (description.kind == ChangesetConflictKind::Data || description.kind == ChangesetConflictKind::Conflict) {
          return kChangesetReplace;
        }
        changesetFailure(&context.failure, SQLITE_MISUSE,
                         std::string("the conflict handler answered replace to a ") + kindName(description.kind) +
                             (table.empty() ? std::string() : " on table \"" + table + "\"") +
                             ": replace is valid only for data conflicts and conflicts; nothing was applied");
        return kChangesetAbort;
      case ChangesetConflictResolution::Abort:
        break;
    }
    changesetFailure(&context.failure, SQLITE_ABORT,
                     std::string("applying the changeset was aborted") +
                         (threw ? " (the conflict handler threw)" : "") + " at a " + kindName(description.kind) +
                         (table.empty() ? std::string() : " on table \"" + table + "\"") + "; nothing was applied");
  } catch (const std::bad_alloc&) {
    changesetFailure(&context.failure, SQLITE_NOMEM, "out of memory");
  }
  return kChangesetAbort;
}

// The transaction (outside one) or savepoint (inside) an apply runs in;
// rolled back unless committed.
class ApplyScope {
 public:
  explicit ApplyScope(Database& db) noexcept : db_(db) {}
  ApplyScope(const ApplyScope&) = delete;
  ApplyScope& operator=(const ApplyScope&) = delete;
  ~ApplyScope() { rollback(); }

  bool begin() noexcept {
    outermost_ = sqlite3_get_autocommit(db_.handle()) != 0;
    active_ = db_.execute(outermost_ ? "BEGIN" : "SAVEPOINT sqlitebridge_apply_changeset");
    return active_;
  }
  bool commit() noexcept {
    if (!active_) return false;
    active_ = false;
    const bool prepared = !outermost_ || prepareToCommit(db_, *ChangesetAccess::connection(db_));
    if (prepared && db_.execute(outermost_ ? "COMMIT" : "RELEASE sqlitebridge_apply_changeset")) return true;
    // A COMMIT that failed (SQLITE_BUSY, a deferred constraint) may leave
    // the transaction open.
    if (outermost_ && sqlite3_get_autocommit(db_.handle()) == 0) {
      const Error error = db_.lastError();
      db_.execute("ROLLBACK");
      ChangesetAccess::restoreError(db_, error);
    }
    return false;
  }
  void rollback() noexcept {
    if (!active_) return;
    active_ = false;
    const Error error = db_.lastError();
    if (outermost_) {
      db_.execute("ROLLBACK");
    } else {
      db_.execute("ROLLBACK TO sqlitebridge_apply_changeset") && db_.execute("RELEASE sqlitebridge_apply_changeset");
    }
    ChangesetAccess::restoreError(db_, error);
  }

 private:
  Database& db_;
  bool outermost_ = false;
  bool active_ = false;
};

}  // namespace

bool Database::apply(const Changeset& changeset, const std::optional<std::vector<std::string>>& tables,
                     const ChangesetConflictHandler& onConflict, std::string* rebaseData) noexcept {
  if (!beginCall()) return false;
  Connection& connection = *connection_;
  Error failure;
  if (!requireSessionAPI(&failure) || !fitsSQLiteSize(changeset.bytes().size(), &failure)) {
    return connection.fail(failure.extendedCode, failure.message, std::string());
  }
  ApplyContext context;
  context.tables = &tables;
  context.handler = &onConflict;
  // Every table header is checked, not only a table's first: SQLite checks
  // a table again at each header that names another table than the one
  // before, and skips it silently when that header does not fit.
  std::vector<ChangesetTableHeader> changed;
  std::string why;
  const std::string& bytes = changeset.bytes();
  if (!readChangesetTables(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), changed, &why)) {
    return why.empty() ? connection.fail(SQLITE_NOMEM, "out of memory", std::string())
                       : connection.fail(SQLITE_CORRUPT, "not a changeset: " + why, std::string());
  }
  DatabaseRegion region;
  try {
    for (const ChangesetTableHeader& table : changed) {
      if (!context.includes(table.name.c_str())) continue;
      TableShape shape;
      if (!readTableShape(connection, "main", table.name, shape, &failure) ||
          !changesetFitsTable(table.name, table.primaryKey, shape, &failure)) {
        return connection.fail(failure.extendedCode, failure.message, std::string());
      }
      region.formUnion(DatabaseRegion::table(table.name));
    }
  } catch (const std::bad_alloc&) {
    return connection.fail(SQLITE_NOMEM, "out of memory", std::string());
  }
  // A transaction of our own around SQLite's savepoint (a savepoint
  // inside the caller's transaction): the observers are told of the tables
  // inside it, so that they count as one write with it; and a failed apply
  // outside a transaction rolls back without writing a byte (releasing a
  // rolled-back outermost savepoint would still commit, bumping the file's
  // change counter).
  ApplyScope scope(*this);
  if (!scope.begin()) return false;
  void* rebase = nullptr;
  int rebaseSize = 0;
  const int rc = sqlite3changeset_apply_v2(connection.db, static_cast<int>(changeset.bytes().size()),
                                           changesetBuffer(changeset.bytes()), filterTable, handleConflict, &context,
                                           rebaseData != nullptr ? &rebase : nullptr,
                                           rebaseData != nullptr ? &rebaseSize : nullptr, 0);
  if (rc != SQLITE_OK) {
    sqlite3_free(rebase);
    Error reason = context.failure;
    if (!reason.isError() && sqlite3_extended_errcode(connection.db) != rc) {
      // SQLite's apply returns some errors without leaving them on the
      // connection (SQLITE_CORRUPT for an insert holding an undefined
      // value): its message would read "not an error".
      changesetCallFailure(&reason, rc, "applying the changeset");
    } else if (!reason.isError()) {
      reason.code = rc & 0xff;
      reason.extendedCode = rc;
      try {
        reason.message = std::string("applying the changeset: ") + sqlite3_errmsg(connection.db);
      } catch (const std::bad_alloc&) {
      }
    }
    scope.rollback();
    return connection.fail(reason.extendedCode, reason.message, std::string());
  }
  std::string rebaseBytes;
  if (!takeSQLiteBuffer(rebase, rebaseSize, rebaseBytes, &failure)) {
    scope.rollback();
    return connection.fail(failure.extendedCode, failure.message, std::string());
  }
  if (connection.observation && !region.isEmpty() && !notifyChanges(region)) {
    const Error error = lastError();
    scope.rollback();
    return connection.fail(error.extendedCode, error.message, std::string());
  }
  if (!scope.commit()) return false;
  if (rebaseData != nullptr) *rebaseData = std::move(rebaseBytes);
  return true;
}

}  // namespace sqlitebridge
