// Fuzz target update_table: arbitrary create / insert / name strings through
// Database::updateTable on a populated table (rows, an AUTOINCREMENT
// sequence, two indexes, a trigger, a view, a child table whose foreign key
// references it with ON DELETE CASCADE, and an unrelated parent/child pair).
//
// Input: a flags byte, then create, insert and name separated by 0xFF bytes
// (a name left out is "items"). Flags: bit 0 turns foreign keys on; bit 1
// calls updateTable inside an open transaction (which already holds a
// change of its own); bit 2 makes the transaction a savepoint instead.
//
// Invariants (a broken one aborts): the error contract (code and message on
// failure, code 0 on success); foreign_keys and legacy_alter_table are as
// before; an open transaction is still open. On success: integrity_check is
// ok, foreign_key_check is clean when foreign keys are on, the table exists,
// `<name>_old` does not, and the table's indexes and triggers exist again.
// On failure: the whole database (schema and every row of every table) is
// exactly as before -- except after an error with which SQLite itself rolls
// back the whole transaction (interrupt, full, out of memory), when it must
// equal the state before that transaction began. Inside a transaction with
// foreign keys on, a table other tables reference fails with SQLITE_MISUSE.
#include "FuzzSupport.hpp"

using sqlitebridge::Database;

namespace {

const char* const kSchema =
    "CREATE TABLE items(id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, qty INT DEFAULT 0, note);"
    "CREATE INDEX items_title ON items(title);"
    "CREATE UNIQUE INDEX items_qty ON items(qty, id);"
    "CREATE TABLE log(msg);"
    "CREATE TRIGGER items_audit AFTER UPDATE ON items BEGIN INSERT INTO log VALUES ('update ' || new.id); END;"
    "CREATE VIEW items_view AS SELECT id, title FROM items WHERE qty > 0;"
    "CREATE TABLE child(id INTEGER PRIMARY KEY, item_id INTEGER REFERENCES items(id) ON DELETE CASCADE, label TEXT);"
    "CREATE TABLE parent2(id INTEGER PRIMARY KEY, name TEXT);"
    "CREATE TABLE child2(id INTEGER PRIMARY KEY, pid INTEGER REFERENCES parent2(id));"
    "INSERT INTO items(title, qty, note) VALUES ('apple', 3, NULL), ('pear', 0, 'ripe'), ('fig', 7, x'00ff'),"
    " ('kiwi', -1, 2.5), ('lime', 2, '');"
    "DELETE FROM items WHERE title = 'kiwi';"
    "INSERT INTO child VALUES (1, 1, 'a'), (2, 3, 'b'), (3, NULL, 'c');"
    "INSERT INTO parent2 VALUES (1, 'p'), (2, 'q');"
    "INSERT INTO child2 VALUES (1, 1), (2, NULL);";

std::string single(sqlite3* db, const std::string& sql) {
  const std::vector<std::string> rows = fuzz::rawRows(db, sql);
  return rows.empty() ? std::string("<no rows>") : rows[0];
}

bool isWholeTransactionRollback(int code) {
  // The errors after which SQLite may roll back the whole transaction itself.
  return code == SQLITE_INTERRUPT || code == SQLITE_FULL || code == SQLITE_NOMEM || code == SQLITE_IOERR ||
         code == SQLITE_BUSY;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::hardenProcess();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Input input(data, size);
  const std::uint8_t flags = input.byte();
  const bool foreignKeys = (flags & 1) != 0;
  const bool inTransaction = (flags & 2) != 0;
  const bool asSavepoint = (flags & 4) != 0;
  const std::string create = input.until(0xFF);
  const std::string insert = input.until(0xFF);
  std::string name = input.rest();
  if (size == 0 || std::count(data, data + size, 0xFF) < 2) name = "items";

  Database db = fuzz::openFuzzDatabase(kSchema);
  sqlite3* h = db.handle();
  if (foreignKeys) sqlite3_exec(h, "PRAGMA foreign_keys = ON", nullptr, nullptr, nullptr);

  const std::vector<std::string> beforeTransaction = inTransaction ? fuzz::snapshot(h) : std::vector<std::string>();
  if (inTransaction) {
    // A change of the caller's own that a failed updateTable must keep.
    const char* begin = asSavepoint ? "SAVEPOINT outer_work; INSERT INTO log VALUES ('caller')"
                                    : "BEGIN; INSERT INTO log VALUES ('caller')";
    FUZZ_CHECK(sqlite3_exec(h, begin, nullptr, nullptr, nullptr) == SQLITE_OK, "begin: %s", sqlite3_errmsg(h));
  }
  const std::vector<std::string> before = fuzz::snapshot(h);
  const std::string foreignKeysBefore = single(h, "PRAGMA foreign_keys");
  const std::string legacyBefore = single(h, "PRAGMA legacy_alter_table");
  // The table's indexes and triggers, which a successful rebuild recreates.
  const std::vector<std::string> dependents = fuzz::rawRows(
      h,
      "SELECT type, name FROM sqlite_schema WHERE sql IS NOT NULL AND type IN ('index', 'trigger') AND tbl_name = '" +
          std::string(name.find('\'') == std::string::npos && name.find('\0') == std::string::npos ? name : "") +
          "' COLLATE NOCASE ORDER BY name");
  const bool referenced =
      fuzz::rawRows(h,
                    "SELECT 1 FROM sqlite_schema AS s, pragma_foreign_key_list(s.name) AS f WHERE s.type = 'table' "
                    "AND f.\"table\" = 'items' COLLATE NOCASE AND s.name <> 'items'")
          .size() > 0;

  fuzz::resetBudget();
  const bool ok = db.updateTable(create, insert, name);
  fuzz::checkErrorContract(db, ok, "updateTable", create);
  const sqlitebridge::Error error = db.lastError();
  if (std::getenv("FUZZ_VERBOSE") != nullptr) {
    std::fprintf(stderr, "updateTable(\"%s\", \"%s\", \"%s\") fk=%d transaction=%d: %s %d %s\n",
                 fuzz::printable(create).c_str(), fuzz::printable(insert).c_str(), fuzz::printable(name).c_str(),
                 foreignKeys, inTransaction, ok ? "ok" : "failed", error.extendedCode,
                 fuzz::printable(error.message).c_str());
  }

  FUZZ_CHECK(single(h, "PRAGMA foreign_keys") == foreignKeysBefore, "foreign_keys was %s, is %s after updateTable",
             foreignKeysBefore.c_str(), single(h, "PRAGMA foreign_keys").c_str());
  FUZZ_CHECK(single(h, "PRAGMA legacy_alter_table") == legacyBefore, "legacy_alter_table was %s, is %s",
             legacyBefore.c_str(), single(h, "PRAGMA legacy_alter_table").c_str());
  const bool stillInTransaction = sqlite3_get_autocommit(h) == 0;

  if (inTransaction && foreignKeys && referenced && fuzz::equalsIgnoringCase(name.c_str(), "items") &&
      name.size() == 5) {
    FUZZ_CHECK(!ok && error.code == SQLITE_MISUSE,
               "updateTable of a referenced table inside a transaction with foreign keys on: returned %d, code %d", ok,
               error.code);
  }

  if (ok) {
    FUZZ_CHECK(stillInTransaction == inTransaction, "updateTable succeeded but the transaction is %s",
               stillInTransaction ? "open" : "closed");
    const std::string integrity = single(h, "PRAGMA integrity_check");
    FUZZ_CHECK(integrity == "text:ok", "updateTable(\"%s\", \"%s\", \"%s\") succeeded but integrity_check says %s",
               fuzz::printable(create).c_str(), fuzz::printable(insert).c_str(), fuzz::printable(name).c_str(),
               fuzz::printable(integrity).c_str());
    if (foreignKeys) {
      const std::vector<std::string> violations = fuzz::rawRows(h, "PRAGMA foreign_key_check");
      FUZZ_CHECK(violations.empty(),
                 "updateTable(\"%s\", \"%s\", \"%s\") succeeded with foreign keys on but foreign_key_check reports %s",
                 fuzz::printable(create).c_str(), fuzz::printable(insert).c_str(), fuzz::printable(name).c_str(),
                 fuzz::printable(violations[0]).c_str());
    }
    std::string quotedName = "'";
    for (char c : name) quotedName += c == '\'' ? std::string("''") : std::string(1, c);
    quotedName += "'";
    if (name.find('\0') == std::string::npos) {
      FUZZ_CHECK(single(h, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = " + quotedName +
                               " COLLATE NOCASE") == "int:1",
                 "updateTable succeeded but table \"%s\" is gone", fuzz::printable(name).c_str());
      std::string quotedOld = quotedName;
      quotedOld.insert(quotedOld.size() - 1, "_old");
      FUZZ_CHECK(
          single(h, "SELECT count(*) FROM sqlite_schema WHERE name = " + quotedOld + " COLLATE NOCASE") == "int:0",
          "updateTable succeeded but left \"%s_old\" behind", fuzz::printable(name).c_str());
    }
    for (const std::string& dependent : dependents) {
      if (dependent.compare(0, 6, "ERROR ") == 0) continue;
      const std::size_t bar = dependent.find('|');
      const std::string type = dependent.substr(5, bar - 5);     // "text:index"
      const std::string objectName = dependent.substr(bar + 6);  // "|text:items_title"
      // Names are case-insensitive: an index `create` made itself as
      // "Items_title" is the index items_title (updateTable keeps create's).
      FUZZ_CHECK(single(h, "SELECT count(*) FROM sqlite_schema WHERE type = '" + type + "' AND name = '" + objectName +
                               "' COLLATE NOCASE") == "int:1",
                 "updateTable succeeded but the %s %s was not recreated", type.c_str(), objectName.c_str());
    }
  } else {
    const std::vector<std::string> after = fuzz::snapshot(h);
    if (inTransaction && !stillInTransaction && isWholeTransactionRollback(error.code)) {
      // SQLite rolled the caller's whole transaction back on its own.
      FUZZ_CHECK(after == beforeTransaction,
                 "updateTable failed (%d %s) and the transaction was rolled back, but the database is not as before "
                 "the transaction: %s",
                 error.extendedCode, fuzz::printable(error.message).c_str(),
                 fuzz::firstDifference(beforeTransaction, after).c_str());
    } else {
      FUZZ_CHECK(stillInTransaction == inTransaction, "updateTable failed (%d %s) and the transaction is %s",
                 error.extendedCode, fuzz::printable(error.message).c_str(), stillInTransaction ? "open" : "closed");
      FUZZ_CHECK(after == before, "updateTable(\"%s\", \"%s\", \"%s\") failed (%d %s) but changed the database: %s",
                 fuzz::printable(create).c_str(), fuzz::printable(insert).c_str(), fuzz::printable(name).c_str(),
                 error.extendedCode, fuzz::printable(error.message).c_str(),
                 fuzz::firstDifference(before, after).c_str());
    }
  }

  if (inTransaction && stillInTransaction) {
    fuzz::resetBudget();
    const int rc = sqlite3_exec(h, asSavepoint ? "RELEASE outer_work" : "COMMIT", nullptr, nullptr, nullptr);
    if (rc == SQLITE_OK) {
      FUZZ_CHECK(single(h, "PRAGMA integrity_check") == "text:ok", "integrity_check fails after the commit");
    } else {
      // Deferred foreign keys, say: the caller's commit may fail, and must not
      // have to.
      sqlite3_exec(h, "ROLLBACK", nullptr, nullptr, nullptr);
    }
  }
  return 0;
}
