// StatementFootprint: the region a statement reads and the tables it may
// change, made from what SQLite's authorizer reported while preparing it.
#include "StatementFootprint.hpp"

#include <set>

#include "SqlText.hpp"

namespace sqlitebridge {

namespace {

bool startsWith(const std::string& text, const char* prefix) noexcept {
  std::size_t i = 0;
  for (; prefix[i] != '\0'; ++i) {
    if (i >= text.size()) return false;
    char c = text[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != prefix[i]) return false;
  }
  return true;
}

bool isRowidName(const std::string& column) noexcept {
  return sameIdentifier(column, "rowid") || sameIdentifier(column, "oid") || sameIdentifier(column, "_rowid_");
}

// Whether SQLite's update hook is silent for changes to `table`: a WITHOUT
// ROWID table (it lacks one of the rowid's three names, which every rowid
// table answers to unless columns take them all) or a virtual table (the
// hook names its shadow tables, if any). Asked outside SQLite's callbacks.
bool isHiddenFromUpdateHook(sqlite3* db, const std::string& database, const std::string& table) {
  if (db == nullptr) return true;  // cannot look: assume the hook is silent
  const char* schema = database.empty() ? nullptr : database.c_str();
  for (const char* name : {"rowid", "oid", "_rowid_"}) {
    if (sqlite3_table_column_metadata(db, schema, table.c_str(), name, nullptr, nullptr, nullptr, nullptr, nullptr) !=
        SQLITE_OK) {
      return true;
    }
  }
  const std::string sql = "SELECT sql FROM " + quoteIdentifier(database.empty() ? "main" : database) +
                          ".sqlite_master WHERE type = 'table' AND name = ?1";
  sqlite3_stmt* stmt = nullptr;
  bool isVirtual = false;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK) {
    sqlite3_bind_text(stmt, 1, table.c_str(), -1, SQLITE_TRANSIENT);
    if (sqlite3_step(stmt) == SQLITE_ROW) {
      const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
      isVirtual = text != nullptr && startsWith(text, "create virtual");
    }
  }
  sqlite3_finalize(stmt);
  return isVirtual;
}

// Whether `column` of `table` is its rowid alias (an INTEGER PRIMARY KEY
// of a rowid table), which reads as the rowid itself.
bool isRowidAlias(sqlite3* db, const std::string& database, const std::string& table, const std::string& column) {
  if (db == nullptr) return false;
  const char* schema = database.empty() ? nullptr : database.c_str();
  const char* type = nullptr;
  int primaryKey = 0;
  if (sqlite3_table_column_metadata(db, schema, table.c_str(), column.c_str(), &type, nullptr, nullptr, &primaryKey,
                                    nullptr) != SQLITE_OK ||
      primaryKey == 0 || type == nullptr || !sameIdentifier(type, "INTEGER")) {
    return false;
  }
  // A rowid table whose rowid answers to this column: reading "rowid" is
  // then the same as reading it (a WITHOUT ROWID table has none).
  const char* rowidType = nullptr;
  int rowidKey = 0;
  return sqlite3_table_column_metadata(db, schema, table.c_str(), "rowid", &rowidType, nullptr, nullptr, &rowidKey,
                                       nullptr) == SQLITE_OK &&
         rowidKey != 0 && !isHiddenFromUpdateHook(db, database, table);
}

void addTarget(std::vector<WriteTarget>& targets, ChangeKind kind, const std::string& table, const std::string* column,
               bool hidden) {
  for (WriteTarget& target : targets) {
    if (target.kind != kind || !sameIdentifier(target.table, table)) continue;
    target.hidden = target.hidden || hidden;
    if (column != nullptr && !target.columns.empty()) {
      for (const std::string& known : target.columns) {
        if (sameIdentifier(known, *column)) return;
      }
      target.columns.push_back(*column);
    } else if (column == nullptr && kind == ChangeKind::Update) {
      target.columns.clear();  // every column
    }
    return;
  }
  WriteTarget target;
  target.kind = kind;
  target.table = table;
  if (column != nullptr) target.columns.push_back(*column);
  target.hidden = hidden;
  targets.push_back(std::move(target));
}

// A schema change of `table`: every kind of change to every column.
void addSchemaChange(std::vector<WriteTarget>& targets, const std::string& table) {
  if (table.empty() || isInternalTable(table)) return;
  addTarget(targets, ChangeKind::Insert, table, nullptr, true);
  addTarget(targets, ChangeKind::Update, table, nullptr, true);
  addTarget(targets, ChangeKind::Delete, table, nullptr, true);
}

}  // namespace

const WriteTarget* StatementFootprint::target(ChangeKind kind, const char* table) const noexcept {
  for (const WriteTarget& write : writes) {
    if (write.kind == kind && sameIdentifier(write.table, table)) return &write;
  }
  return nullptr;
}

bool isInternalTable(const std::string& table) noexcept {
  return isSQLiteReservedName(table) || startsWith(table, "pragma_");
}

StatementFootprint makeFootprint(sqlite3* db, const std::vector<AuthorizerRecord>& records) noexcept {
  StatementFootprint footprint;
  try {
    // Names that enclose other reads are views (or triggers, whose names
    // are never tables): a view is resolved to the tables it reads.
    std::set<std::string> enclosing;
    for (const AuthorizerRecord& record : records) {
      if (!record.inner.empty()) enclosing.insert(foldIdentifier(record.inner));
    }
    for (std::size_t i = 0; i < records.size(); ++i) {
      const AuthorizerRecord& record = records[i];
      switch (record.code) {
        case SQLITE_READ: {
          if (isInternalTable(record.first) || enclosing.count(foldIdentifier(record.first)) != 0) break;
          if (record.second.empty() || isRowidName(record.second) ||
              isRowidAlias(db, record.database, record.first, record.second)) {
            footprint.reads.formUnion(DatabaseRegion::table(record.first));
          } else {
            footprint.reads.formUnion(DatabaseRegion::columns(record.first, {record.second}));
          }
          break;
        }
        case SQLITE_INSERT:
        case SQLITE_UPDATE:
        case SQLITE_DELETE: {
          if (isInternalTable(record.first)) break;
          const ChangeKind kind = record.code == SQLITE_INSERT   ? ChangeKind::Insert
                                  : record.code == SQLITE_UPDATE ? ChangeKind::Update
                                                                 : ChangeKind::Delete;
          bool hidden = isHiddenFromUpdateHook(db, record.database, record.first);
          // A DELETE the authorizer let SQLite run by truncating the table.
          if (record.code == SQLITE_DELETE && !record.truncationOff) hidden = true;
          // An update of the rowid moves the row: a change of every column.
          const bool movesRow = record.code == SQLITE_UPDATE && isRowidName(record.second);
          addTarget(footprint.writes, kind, record.first,
                    record.code == SQLITE_UPDATE && !movesRow ? &record.second : nullptr, hidden);
          break;
        }
        case SQLITE_CREATE_TABLE:
        case SQLITE_CREATE_TEMP_TABLE:
        case SQLITE_DROP_TABLE:
        case SQLITE_DROP_TEMP_TABLE:
        case SQLITE_CREATE_VIEW:
        case SQLITE_CREATE_TEMP_VIEW:
        case SQLITE_DROP_VIEW:
        case SQLITE_DROP_TEMP_VIEW:
        case SQLITE_CREATE_VTABLE:
        case SQLITE_DROP_VTABLE:
          addSchemaChange(footprint.writes, record.first);
          break;
        case SQLITE_ALTER_TABLE:
        case SQLITE_CREATE_INDEX:
        case SQLITE_CREATE_TEMP_INDEX:
        case SQLITE_DROP_INDEX:
        case SQLITE_DROP_TEMP_INDEX:
        case SQLITE_CREATE_TRIGGER:
        case SQLITE_CREATE_TEMP_TRIGGER:
        case SQLITE_DROP_TRIGGER:
        case SQLITE_DROP_TEMP_TRIGGER:
          addSchemaChange(footprint.writes, record.second);
          break;
        case SQLITE_DETACH:
          footprint.unknown = true;  // every name of that schema changes meaning
          break;
        case SQLITE_TRANSACTION:
          footprint.control = sameIdentifier(record.first, "BEGIN")    ? TransactionControl::Begin
                              : sameIdentifier(record.first, "COMMIT") ? TransactionControl::Commit
                                                                       : TransactionControl::Rollback;
          break;
        case SQLITE_SAVEPOINT:
          footprint.control = sameIdentifier(record.first, "BEGIN")     ? TransactionControl::Savepoint
                              : sameIdentifier(record.first, "RELEASE") ? TransactionControl::Release
                                                                        : TransactionControl::RollbackTo;
          footprint.savepoint = record.second;
          break;
        default:
          break;
      }
    }
  } catch (...) {
    footprint = StatementFootprint();
    footprint.unknown = true;
  }
  return footprint;
}

}  // namespace sqlitebridge
