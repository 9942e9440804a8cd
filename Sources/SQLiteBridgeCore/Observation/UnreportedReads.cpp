// UnreportedReads: on a SQLite older than 3.19.0, whose authorizer is silent
// about a table read without any of its columns, the tables the statement's
// program counts or opens for reading and that the authorizer never named.
#include "UnreportedReads.hpp"

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "SQLiteFeatures.hpp"
#include "SqlText.hpp"

namespace sqlitebridge {

namespace {

// OpenRead's P5 flag saying that P2 is the register holding the root page
// (SQLite's OPFLAG_P2ISREG), not the root page itself.
constexpr int kRootPageInRegister = 0x10;

// A b-tree the program opens for reading: the cursor, its root page, and
// the index of its schema (0 main, 1 temp, then the attached ones).
struct OpenedTree {
  int cursor = 0;
  int rootPage = 0;
  int schema = 0;
};

// How reading a statement's program went.
enum class Listing { Read, NotExplained, Failed };

// The b-trees `sql`'s program opens for reading and those whose rows it
// counts (COUNT(*) of a whole table compiles to OP_Count on such a cursor),
// from its EXPLAIN listing (trigger programs included).
Listing readProgram(sqlite3* db, const char* sql, std::vector<OpenedTree>& opened, std::vector<OpenedTree>& counted) {
  const std::string explain = std::string("EXPLAIN ") + sql;
  sqlite3_stmt* listing = nullptr;
  const int prepared = sqlite3_prepare_v2(db, explain.c_str(), -1, &listing, nullptr);
  if (prepared != SQLITE_OK || listing == nullptr) {
    sqlite3_finalize(listing);
    // SQLITE_ERROR: it cannot be explained (an EXPLAIN itself, which reads
    // nothing); anything else (out of memory, a locked schema): unknown.
    return (prepared & 0xff) == SQLITE_ERROR || prepared == SQLITE_OK ? Listing::NotExplained : Listing::Failed;
  }
  // The columns of EXPLAIN: addr, opcode, p1, p2, p3, p4, p5, comment.
  int rc = SQLITE_OK;
  while ((rc = sqlite3_step(listing)) == SQLITE_ROW) {
    const auto* opcode = reinterpret_cast<const char*>(sqlite3_column_text(listing, 1));
    if (opcode == nullptr) continue;
    const int p1 = sqlite3_column_int(listing, 2);
    if (std::strcmp(opcode, "OpenRead") == 0 || std::strcmp(opcode, "ReopenIdx") == 0) {
      if ((sqlite3_column_int(listing, 6) & kRootPageInRegister) != 0) continue;
      opened.push_back(OpenedTree{p1, sqlite3_column_int(listing, 3), sqlite3_column_int(listing, 4)});
    } else if (std::strcmp(opcode, "Count") == 0) {
      // The cursor last opened under that number (a trigger's program,
      // listed after the statement's, numbers its cursors anew).
      for (auto tree = opened.rbegin(); tree != opened.rend(); ++tree) {
        if (tree->cursor == p1) {
          counted.push_back(*tree);
          break;
        }
      }
    }
  }
  sqlite3_finalize(listing);
  return rc == SQLITE_DONE ? Listing::Read : Listing::Failed;
}

// The schema table of the schema at `index` (PRAGMA database_list's seq):
// "sqlite_temp_master" for temp (SQLite 3.15 knows no temp.sqlite_master),
// "<name>".sqlite_master for the others; empty when there is no such schema.
std::string schemaTableOf(sqlite3* db, int index) {
  if (index == 0) return "main.sqlite_master";
  if (index == 1) return "sqlite_temp_master";
  std::string name;
  sqlite3_stmt* list = nullptr;
  if (sqlite3_prepare_v2(db, "PRAGMA database_list", -1, &list, nullptr) == SQLITE_OK) {
    while (sqlite3_step(list) == SQLITE_ROW) {
      if (sqlite3_column_int(list, 0) != index) continue;
      const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(list, 1));
      if (text != nullptr) name = text;
      break;
    }
  }
  sqlite3_finalize(list);
  return name.empty() ? name : quoteIdentifier(name) + ".sqlite_master";
}

// The tables of the b-trees a program opens, each root page looked up
// once, with one prepared lookup per schema.
class TableNames {
 public:
  explicit TableNames(sqlite3* db) noexcept : db_(db) {}
  TableNames(const TableNames&) = delete;
  TableNames& operator=(const TableNames&) = delete;
  ~TableNames() {
    for (Lookup& lookup : lookups_) sqlite3_finalize(lookup.stmt);
  }

  // The table whose b-tree (its own or one of its indexes') `tree` is;
  // empty for SQLite's own tables, or when it cannot be told.
  const std::string& of(const OpenedTree& tree) {
    for (const Named& named : named_) {
      if (named.schema == tree.schema && named.rootPage == tree.rootPage) return named.table;
    }
    std::string table;
    if (sqlite3_stmt* stmt = lookup(tree.schema)) {
      sqlite3_bind_int(stmt, 1, tree.rootPage);
      if (sqlite3_step(stmt) == SQLITE_ROW) {
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
        if (text != nullptr) table = text;
      }
      sqlite3_reset(stmt);
    }
    if (isInternalTable(table)) table.clear();
    named_.push_back(Named{tree.schema, tree.rootPage, std::move(table)});
    return named_.back().table;
  }

 private:
  struct Named {
    int schema;
    int rootPage;
    std::string table;
  };
  struct Lookup {
    int schema;
    sqlite3_stmt* stmt;
  };

  // The prepared lookup of root pages in the schema at `index`; null when
  // there is no such schema.
  sqlite3_stmt* lookup(int index) {
    for (const Lookup& known : lookups_) {
      if (known.schema == index) return known.stmt;
    }
    const std::string schemaTable = schemaTableOf(db_, index);
    sqlite3_stmt* stmt = nullptr;
    if (!schemaTable.empty()) {
      const std::string sql =
          "SELECT tbl_name FROM " + schemaTable + " WHERE rootpage = ?1 AND type IN ('table', 'index') LIMIT 1";
      if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
        sqlite3_finalize(stmt);
        stmt = nullptr;
      }
    }
    try {
      lookups_.push_back(Lookup{index, stmt});
    } catch (...) {
      sqlite3_finalize(stmt);
      throw;
    }
    return stmt;
  }

  sqlite3* const db_;
  std::vector<Named> named_;
  std::vector<Lookup> lookups_;
};

}  // namespace

bool authorizerReportsTablesWithoutColumns() noexcept {
  return hasSQLiteFeature(SQLiteFeature::AuthorizerReadsOfTables);
}

void addUnreportedReads(sqlite3* db, sqlite3_stmt* stmt, const std::vector<AuthorizerRecord>& records,
                        StatementFootprint& footprint) noexcept {
  if (db == nullptr || stmt == nullptr || footprint.unknown || footprint.reads.isFullDatabase()) return;
  // Only a SELECT (a query, a subquery, a view, INSERT ... SELECT, a
  // trigger's) reads a table without its columns.
  bool selects = false;
  for (const AuthorizerRecord& record : records) selects = selects || record.code == SQLITE_SELECT;
  if (!selects) return;
  const char* sql = sqlite3_sql(stmt);
  if (sql == nullptr) return;
  try {
    std::vector<OpenedTree> opened;
    std::vector<OpenedTree> counted;
    const Listing listing = readProgram(db, sql, opened, counted);
    if (listing == Listing::NotExplained) return;
    if (listing == Listing::Failed) {
      footprint.unknown = true;  // what it reads is not known
      return;
    }
    TableNames names(db);
    DatabaseRegion added;
    // Counted rows: a read of no column, whatever else reads the table.
    for (const OpenedTree& tree : counted) {
      const std::string& table = names.of(tree);
      if (!table.empty()) added.formUnion(DatabaseRegion::table(table));
    }
    // Opened for reading, never named by the authorizer, not changed by the
    // statement (an UPDATE or DELETE may open its own table to find rows).
    for (const OpenedTree& tree : opened) {
      const std::string& table = names.of(tree);
      if (table.empty()) continue;
      bool reported = false;
      for (const AuthorizerRecord& record : records) {
        reported = reported || (record.code == SQLITE_READ && sameIdentifier(record.first, table));
      }
      for (const WriteTarget& write : footprint.writes) reported = reported || sameIdentifier(write.table, table);
      if (!reported) added.formUnion(DatabaseRegion::table(table));
    }
    footprint.reads.formUnion(added);
  } catch (...) {
    footprint.unknown = true;  // out of memory: what it reads is not known
  }
}

}  // namespace sqlitebridge
