// Using SQLiteBridge from C++, through its installed CMake package
// (find_package(SQLiteBridge CONFIG REQUIRED) + SQLiteBridge::Core).
//
// This program walks through the whole C++ API — values, in-memory and file
// databases, executing SQL with and without arguments, reading rows, errors,
// schema helpers, updateTable, prepared statements, databases opened by
// name, transactions, migrations, schema introspection, table helpers,
// backup and database files — and checks every result. It prints each mismatch on stderr and exits
// with status 1 if there was any, so building and running it is also a test
// of the installed library.
#include <sqlitebridge/sqlitebridge.hpp>

#include <cstdint>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <thread>
#include <string_view>
#include <string>
#include <vector>

#include <stdlib.h>  // mkdtemp (POSIX)

namespace fs = std::filesystem;
namespace sb = sqlitebridge;

namespace {

// A note as a record (see the RecordTraits below).
struct ExampleNote {
  std::optional<std::int64_t> id;
  std::string title;
};

}  // namespace

template <>
struct sqlitebridge::RecordTraits<ExampleNote> {
  static constexpr const char* table = "notes";
  static std::vector<std::string> primaryKey() { return {"id"}; }
  static bool read(const RowView& row, ExampleNote& out) {
    return row.get("id", out.id) && row.get("title", out.title);
  }
  static void write(const ExampleNote& in, NamedValues& out) {
    out.add("id", in.id ? Value(*in.id) : Value());
    out.add("title", in.title);
  }
};

namespace {

int failures = 0;

// Records a failed expectation. Calls on a Database report failure by
// returning false; the reason is in db.error() / db.lastError().
void expect(bool condition, const char* what, int line) {
  if (!condition) {
    std::cerr << "cpp-consumer: line " << line << ": expected " << what << '\n';
    ++failures;
  }
}
#define EXPECT(condition) expect((condition), #condition, __LINE__)

// Like EXPECT for a Database call that must succeed; shows SQLite's message.
void expectOK(bool ok, const sb::Database& db, const char* what, int line) {
  if (!ok) {
    std::cerr << "cpp-consumer: line " << line << ": " << what << " failed: " << db.error() << '\n';
    ++failures;
  }
}
#define EXPECT_OK(db, call) expectOK((call), (db), #call, __LINE__)

// MARK: - Values

void values() {
  const sb::Value null;  // default-constructed: NULL
  EXPECT(null.isNull());
  EXPECT(null.type() == sb::ValueType::Null);

  const sb::Value small(42);  // int
  EXPECT(small.type() == sb::ValueType::Integer);
  EXPECT(small.asInteger() == 42);

  const std::int64_t largest = std::numeric_limits<std::int64_t>::max();
  const sb::Value big(largest);  // std::int64_t
  EXPECT(big.type() == sb::ValueType::Integer);
  EXPECT(big.asInteger() == largest);

  const sb::Value real(2.5);  // double
  EXPECT(real.type() == sb::ValueType::Real);
  EXPECT(real.asReal() == 2.5);
  EXPECT(real.asInteger() == 2);  // converted the way SQLite converts
  EXPECT(real.asText() == "2.5");

  const std::string withNul("a\0b", 3);
  const sb::Value text(withNul);  // std::string: embedded NUL kept
  EXPECT(text.type() == sb::ValueType::Text);
  EXPECT(text.asText() == withNul);

  const sb::Value cText("12abc");  // const char*
  EXPECT(cText.type() == sb::ValueType::Text);
  EXPECT(cText.asInteger() == 12);  // SQLite reads the numeric prefix

  const sb::Value blob = sb::Value::fromBlob({0x00, 0x7f, 0xff});
  EXPECT(blob.type() == sb::ValueType::Blob);
  EXPECT(blob.asBlob() == (std::vector<std::uint8_t>{0x00, 0x7f, 0xff}));

  const sb::Value emptyBlob = sb::Value::fromBlob({});  // a blob, not NULL
  EXPECT(emptyBlob.type() == sb::ValueType::Blob);
  EXPECT(!emptyBlob.isNull());
  EXPECT(emptyBlob.asBlob().empty());
}

// MARK: - In-memory database: execute, rows, errors, schema

void inMemory() {
  sb::Database db = sb::Database::open(":memory:");
  EXPECT(db.isOpen());

  EXPECT_OK(db,
            db.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE, body TEXT, data BLOB)"));

  // execute(sql, arguments): ? parameters, then ?NNN ones (one value, used twice).
  const std::string withNul("x\0y", 3);
  EXPECT_OK(db, db.execute("INSERT INTO notes(title, body, data) VALUES (?, ?, ?)",
                           {sb::Value("first"), sb::Value(withNul), sb::Value::fromBlob({})}));
  EXPECT(db.lastInsertRowId() == 1);
  EXPECT(db.changes() == 1);
  EXPECT_OK(db,
            db.execute("INSERT INTO notes(id, title, body) VALUES (?1, ?2, ?2)", {sb::Value(10), sb::Value("ten")}));
  EXPECT(db.lastInsertRowId() == 10);

  // execute(sql, &rows): every row, columns named as the SQL names them.
  std::vector<sb::Row> rows;
  EXPECT_OK(db, db.execute("SELECT id, title AS name, body, data FROM notes ORDER BY id", &rows));
  EXPECT(rows.size() == 2);
  if (rows.size() == 2) {
    const sb::Row& first = rows[0];
    EXPECT(first.size() == 4);
    EXPECT(first.columnName(1) == "name");  // the alias
    EXPECT(first.value(0).asInteger() == 1);
    EXPECT(first.hasColumn("NAME"));  // case-insensitive
    EXPECT(first.value("Name").asText() == "first");
    EXPECT(first.value("body").asText() == withNul);
    EXPECT(first.value(3).type() == sb::ValueType::Blob);  // zero-length blob stays a blob
    EXPECT(!first.hasColumn("missing"));
    EXPECT(first.value("missing").isNull());
    EXPECT(rows[1].value("body").asText() == "ten");
  }

  // Duplicate column names: Row keeps both, lookup by name finds the leftmost.
  sb::Row pair;
  EXPECT_OK(db, db.execute("SELECT 1 AS n, 2 AS n", pair));
  EXPECT(pair.size() == 2);
  EXPECT(pair.value("n").asInteger() == 1);
  EXPECT(pair.value(1).asInteger() == 2);

  // execute(sql, row): the first row only.
  sb::Row count;
  EXPECT_OK(db, db.execute("SELECT count(*) AS n FROM notes", count));
  EXPECT(count.value("n").asInteger() == 2);
  // Row::get: exact typed reads on a copied row (Value::as... is lossy).
  std::int64_t n = 0;
  std::string text;
  sb::Error readError;
  EXPECT(count.get("n", n) && n == 2);
  EXPECT(!count.get(0, text, &readError) && readError.is(sb::ResultCode::Mismatch));
  EXPECT(!count.get("absent", n, &readError) && readError.is(sb::ResultCode::Range));

  // execute(sql): no rows wanted.
  EXPECT_OK(db, db.execute("UPDATE notes SET body = 'changed'"));
  EXPECT(db.changes() == 2);

  // Errors: code, extended code, message and SQL; error() is the message.
  const std::string duplicate = "INSERT INTO notes(title) VALUES ('first')";
  EXPECT(!db.execute(duplicate));
  const sb::Error error = db.lastError();
  EXPECT(error.is(sb::ResultCode::Constraint));
  EXPECT(error.extendedCode == SQLITE_CONSTRAINT_UNIQUE);
  EXPECT(std::string(sb::describe(error.resultCode())) == "SQLITE_CONSTRAINT");
  EXPECT(!error.message.empty());
  EXPECT(error.sql == duplicate);
  EXPECT(db.error() == error.message);

  // A success clears the last error.
  EXPECT_OK(db, db.execute("SELECT 1"));
  EXPECT(db.error().empty());
  EXPECT(db.lastError().is(sb::ResultCode::OK));

  // A wrong number of arguments is an error, never a silent NULL.
  EXPECT(!db.execute("SELECT ?, ?", {sb::Value(1)}));
  EXPECT(db.lastError().is(sb::ResultCode::Range));
  // Exactly one statement: trailing SQL is an error, never dropped.
  EXPECT(!db.execute("SELECT 1; SELECT 2"));
  EXPECT(db.lastError().code != 0);
  // A syntax error.
  EXPECT(!db.execute("SELEKT 1"));
  EXPECT(db.lastError().is(sb::ResultCode::Error));

  // Schema helpers.
  EXPECT(db.hasTableColumn("notes", "TITLE"));
  EXPECT(!db.hasTableColumn("notes", "nope"));
  EXPECT(db.lastError().is(sb::ResultCode::OK));  // a missing column is not an error...
  EXPECT(!db.hasTableColumn("missing", "id"));
  EXPECT(db.lastError().is(sb::ResultCode::Error));  // ...a missing table is
  std::vector<std::string> columns;
  EXPECT_OK(db, db.tableColumns("notes", columns));
  EXPECT(columns == (std::vector<std::string>{"id", "title", "body", "data"}));
  EXPECT(!db.tableColumns("missing", columns));

  // updateTable: add a column; an empty insert copies the shared columns.
  EXPECT_OK(db, db.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE, body TEXT, "
                               "data BLOB, pinned INTEGER NOT NULL DEFAULT 0)",
                               "", "notes"));
  EXPECT(db.hasTableColumn("notes", "pinned"));
  // updateTable with an explicit insert reading from notes_old: drop columns.
  EXPECT_OK(db, db.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE)",
                               "INSERT INTO notes(id, title) SELECT id, title FROM notes_old", "notes"));
  EXPECT_OK(db, db.tableColumns("notes", columns));
  EXPECT(columns == (std::vector<std::string>{"id", "title"}));
  // A failing updateTable leaves the table as it was.
  EXPECT(!db.updateTable("CREATE TABLE other(x)", "", "notes"));
  EXPECT_OK(db, db.execute("SELECT count(*) AS n FROM notes", count));
  EXPECT(count.value("n").asInteger() == 2);
}

// MARK: - Prepared statements

void statements() {
  sb::Database db = sb::Database::open(":memory:");
  EXPECT_OK(db, db.execute("CREATE TABLE points(x INTEGER, label TEXT)"));

  // Prepare once, then bind, step and reset for each row.
  sb::Statement insert = db.prepare("INSERT INTO points(x, label) VALUES (?, ?)");
  EXPECT(insert.isValid());
  for (int x = 1; x <= 3; ++x) {
    EXPECT(insert.bind({sb::Value(x), sb::Value("point " + std::to_string(x))}));
    EXPECT(insert.step() == sb::StepResult::Done);
    EXPECT(insert.reset());
  }

  sb::Statement select = db.prepare("SELECT x, label FROM points WHERE x >= ? ORDER BY x");
  EXPECT(select.isValid());
  EXPECT(select.bind(1, sb::Value(2)));
  EXPECT(select.columnCount() == 2);
  EXPECT(select.columnName(1) == "label");
  std::vector<std::int64_t> xs;
  while (select.step() == sb::StepResult::Row) {
    xs.push_back(select.columnValue(0).asInteger());  // a copied Value
    const sb::ColumnView label = select.column(1);    // borrowed until the next step
    EXPECT(label.type == sb::ValueType::Text);
    const std::string labelText(static_cast<const char*>(label.bytes), label.size);
    EXPECT(labelText == "point " + std::to_string(xs.back()));
    EXPECT(select.row().value("x").asInteger() == xs.back());
  }
  EXPECT(xs == (std::vector<std::int64_t>{2, 3}));

  // Run again with a new binding.
  EXPECT(select.reset());
  EXPECT(select.bindInteger(1, 3));
  EXPECT(select.step() == sb::StepResult::Row);
  EXPECT(select.columnType(0) == sb::ValueType::Integer);
  EXPECT(select.column(0).integer == 3);
  EXPECT(select.step() == sb::StepResult::Done);

  // A statement that fails to prepare is invalid; the database says why.
  const sb::Statement broken = db.prepare("SELECT * FROM nowhere");
  EXPECT(!broken.isValid());
  EXPECT(db.lastError().is(sb::ResultCode::Error));
}

// MARK: - Database files

void files(const fs::path& dir) {
  const std::string path = (dir / "file.db").string();
  {
    sb::Database db = sb::Database::open(path, sb::OpenMode::ReadWriteCreate);
    EXPECT(db.isOpen());
    EXPECT(db.path() == path);
    EXPECT_OK(db, db.execute("CREATE TABLE t(x)"));
    EXPECT_OK(db, db.execute("INSERT INTO t VALUES (?)", {sb::Value(7)}));
  }
  {
    sb::Database db = sb::Database::open(path, sb::OpenMode::ReadOnly);
    sb::Row row;
    EXPECT_OK(db, db.execute("SELECT x FROM t", row));
    EXPECT(row.value("x").asInteger() == 7);
    EXPECT(!db.execute("INSERT INTO t VALUES (8)"));  // read-only refuses writes
    EXPECT(db.lastError().is(sb::ResultCode::ReadOnly));
    db.close();  // now, not at the end of the scope; every later call fails
    EXPECT(!db.isOpen());
    EXPECT(!db.execute("SELECT 1"));
    EXPECT(db.lastError().is(sb::ResultCode::Misuse));
  }
  {
    sb::Database db = sb::Database::open(path, sb::OpenMode::ReadWrite);
    EXPECT_OK(db, db.execute("INSERT INTO t VALUES (8)"));
  }
  // ReadWrite does not create a missing file.
  const sb::Database missing = sb::Database::open((dir / "missing.db").string(), sb::OpenMode::ReadWrite);
  EXPECT(!missing.isOpen());
  EXPECT(missing.lastError().is(sb::ResultCode::CantOpen));
}

// MARK: - Databases opened by name

void byName(const fs::path& dir) {
  const fs::path documents = dir / "documents";
  const fs::path bundle = dir / "bundle";
  fs::create_directories(documents);
  fs::create_directories(bundle);

  // A seed database shipped in the bundle directory.
  {
    sb::Database seed = sb::Database::open((bundle / "seeded.db").string());
    EXPECT_OK(seed, seed.execute("CREATE TABLE notes(title TEXT)"));
    EXPECT_OK(seed, seed.execute("INSERT INTO notes VALUES ('from the bundle')"));
  }

  sb::Location location;
  location.documentsDirectory = documents.string();
  location.bundleDirectory = bundle.string();

  // First open copies the bundled file into the documents directory.
  {
    sb::Database db("seeded.db", "CREATE TABLE unused(x)", location);
    EXPECT(db.isOpen());
    EXPECT(fs::equivalent(db.path(), documents / "seeded.db"));
    sb::Row row;
    EXPECT_OK(db, db.execute("SELECT title FROM notes", row));
    EXPECT(row.value("title").asText() == "from the bundle");
    EXPECT(!db.hasTableColumn("unused", "x"));  // createSQL is not run for a copy
  }

  // No bundled copy: the database is created and createSQL (a script) runs.
  {
    sb::Database db("created.db", "CREATE TABLE t(x); INSERT INTO t VALUES (1);", location);
    EXPECT(db.isOpen());
    EXPECT_OK(db, db.execute("INSERT INTO t VALUES (2)"));
  }
  // Later opens reuse the file and do not run createSQL again.
  {
    sb::Database db("created.db", "CREATE TABLE t(x); INSERT INTO t VALUES (1);", location);
    sb::Row row;
    EXPECT_OK(db, db.execute("SELECT count(*) AS n FROM t", row));
    EXPECT(row.value("n").asInteger() == 2);
  }

  // A name that is not a plain file name is rejected.
  const sb::Database bad("../escape.db", "", location);
  EXPECT(!bad.isOpen());
  EXPECT(bad.lastError().is(sb::ResultCode::CantOpen));

  // Location::defaults(): elsewhere than Apple, the current directory and
  // the executable's directory.
  const fs::path previous = fs::current_path();
  fs::current_path(dir);
  const sb::Location defaults = sb::Location::defaults();
  EXPECT(!defaults.documentsDirectory.empty());
#if !defined(__APPLE__)
  EXPECT(fs::equivalent(defaults.documentsDirectory, dir));
  EXPECT(!defaults.bundleDirectory.empty() && fs::is_directory(defaults.bundleDirectory));

  // The by-name constructors without a Location use those defaults.
  {
    sb::Database db("defaults.db", "CREATE TABLE d(x)");
    EXPECT(db.isOpen());
    EXPECT(fs::equivalent(db.path(), dir / "defaults.db"));
  }
  {
    sb::Database db("defaults.db");  // createSQL defaults to ""
    EXPECT(db.hasTableColumn("d", "x"));
  }
#endif
  fs::current_path(previous);
}

// MARK: - Statements and values: named and typed binding, streaming, typed
// reads, callbacks, scripts, validation, the statement cache

void queries() {
  sb::Database db = sb::Database::open(":memory:");
  EXPECT_OK(db, db.executeScript("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, score REAL);"
                                 "INSERT INTO notes(title, score) VALUES ('a', 1.5);"));

  // Named arguments: a key without prefix fills :name, @name or $name.
  EXPECT_OK(db,
            db.execute("INSERT INTO notes(title, score) VALUES (:title, @score)", {{"title", "b"}, {"score", 2.5}}));
  EXPECT(!db.execute("INSERT INTO notes(title) VALUES (:title)", {{"name", "x"}}));
  EXPECT(db.lastError().is(sb::ResultCode::Range));

  // Typed binding: every integer width, optional, string_view, blobs.
  sb::Statement insert = db.prepare("INSERT INTO notes(id, title, score) VALUES (?, ?, ?)");
  const std::optional<double> noScore;
  EXPECT(insert.bind(1, static_cast<std::uint16_t>(10)) && insert.bind(2, std::string_view("c")) &&
         insert.bind(3, noScore));
  EXPECT(insert.step() == sb::StepResult::Done);
  EXPECT(!insert.bind(1, std::numeric_limits<std::uint64_t>::max()));  // no wrap-around
  EXPECT(db.lastError().is(sb::ResultCode::Range));

  // Streaming: each row read in place with exact typed getters.
  int rows = 0;
  EXPECT_OK(db, db.forEachRow("SELECT id, title, score FROM notes WHERE id > ? ORDER BY id", {sb::Value(0)},
                              [&](const sb::RowView& row) {
                                long id = 0;
                                std::string title;
                                std::optional<double> score;
                                EXPECT(row.get("id", id) && row.get(1, title) && row.get("SCORE", score));
                                EXPECT(row.size() == 3 && row.columnIndex("title") == 1);
                                EXPECT(row.copy().value("title").asText() == title);
                                ++rows;
                              }));
  EXPECT(rows == 3);
  int number = 0;
  EXPECT(!db.forEachRow("SELECT title FROM notes", [&](const sb::RowView& row) { return row.get(0, number); }));
  EXPECT(db.lastError().code == SQLITE_MISMATCH);  // text is never read as a number

  // The SQLiteQueryUtil pattern: a bind callback and a per-row callback.
  std::string found;
  EXPECT_OK(db, db.execute(
                    "SELECT title FROM notes WHERE score > ?", [](sb::Statement& s) { return s.bind(1, 2.0); },
                    [&](const sb::RowView& row) { return row.get("title", found); }));
  EXPECT(found == "b");

  // Scripts with rows, validation, the cache.
  int scriptRows = 0;
  EXPECT_OK(db, db.executeScript("SELECT 1; SELECT 2 UNION ALL SELECT 3", [&](const sb::RowView&) { ++scriptRows; }));
  EXPECT(scriptRows == 3);
  EXPECT(db.validate("SELECT * FROM notes") && !db.validate("SELECT * FROM nowhere"));
  const auto before = db.preparedStatementCount();
  for (int i = 0; i < 10; ++i) EXPECT_OK(db, db.execute("SELECT count(*) FROM notes"));
  EXPECT(db.preparedStatementCount() == before + 1);
  db.setStatementCacheCapacity(4);
  EXPECT(db.statementCacheCapacity() == 4);
  db.clearStatementCache();
}

// MARK: - Transactions, migrations, schema, backup and database files

void transactionsAndSchema(const fs::path& dir) {
  sb::Database db = sb::Database::open((dir / "issue11.db").string());
  EXPECT(db.isOpen());

  // Migrations: each in its own IMMEDIATE transaction, recorded, user_version set.
  sb::Migrator migrator;
  migrator.registerMigration("create notes", [](sb::Database& d) {
    return d.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL)");
  });
  migrator.registerMigration("tags", [](sb::Database& d) {
    return d.execute("CREATE TABLE tags(note INTEGER NOT NULL REFERENCES notes(id), name TEXT UNIQUE)");
  });
  EXPECT_OK(db, migrator.migrate(db, "create notes"));
  EXPECT_OK(db, migrator.migrate(db));
  std::vector<std::string> applied;
  EXPECT_OK(db, migrator.appliedMigrations(db, applied));
  EXPECT((applied == std::vector<std::string>{"create notes", "tags"}));
  bool completed = false;
  EXPECT_OK(db, migrator.hasCompletedMigrations(db, completed));
  EXPECT(completed);
  std::int64_t version = 0;
  EXPECT_OK(db, db.userVersion(version));
  EXPECT(version == 2);

  // Transactions and savepoints.
  EXPECT_OK(db, db.inTransaction(
                    [](sb::Database& d) {
                      return d.execute("INSERT INTO notes(title) VALUES ('kept')") &&
                             !d.inSavepoint([](sb::Database& inner) {
                               inner.execute("INSERT INTO notes(title) VALUES ('undone')");
                               return false;  // rolls back the savepoint only
                             });
                    },
                    sb::TransactionKind::Immediate));
  {
    sb::Transaction transaction(db);
    EXPECT(transaction.isActive());
    EXPECT_OK(db, db.execute("INSERT INTO notes(title) VALUES ('dropped')"));
  }  // rolled back here
  {
    sb::Transaction transaction(db, sb::TransactionKind::Deferred);
    sb::Savepoint savepoint(db, "a \"hostile\" name");
    EXPECT_OK(db, db.execute("INSERT INTO notes(title) VALUES ('saved')"));
    EXPECT_OK(db, savepoint.release());
    EXPECT_OK(db, transaction.commit());
  }
  std::vector<sb::Row> titles;
  EXPECT_OK(db, db.execute("SELECT title FROM notes ORDER BY id", &titles));
  EXPECT(titles.size() == 2 && titles[0].value(0).asText() == "kept" && titles[1].value(0).asText() == "saved");
  EXPECT_OK(db, db.begin(sb::TransactionKind::Exclusive));
  EXPECT_OK(db, db.savepoint("s"));
  EXPECT_OK(db, db.rollbackToSavepoint("s"));
  EXPECT_OK(db, db.releaseSavepoint("s"));
  EXPECT_OK(db, db.rollback());
  EXPECT_OK(db, db.setUserVersion(7));
  EXPECT_OK(db, db.begin());
  EXPECT_OK(db, db.commit());

  // Schema introspection.
  EXPECT(db.tableExists("NOTES") && !db.tableExists("nowhere") && !db.lastError().isError());
  EXPECT(!db.viewExists("notes") && !db.triggerExists("notes") && db.indexExists("sqlite_autoindex_tags_1"));
  std::vector<std::string> tables;
  EXPECT_OK(db, db.tableNames(tables));
  EXPECT((tables == std::vector<std::string>{"notes", "sqlitebridge_migrations", "tags"}));
  std::vector<sb::ColumnInfo> columns;
  EXPECT_OK(db, db.columns("notes", columns));
  EXPECT(columns.size() == 2 && columns[1].name == "title" && columns[1].isNotNull && columns[0].primaryKeyIndex == 1);
  std::vector<std::string> key;
  EXPECT_OK(db, db.primaryKey("tags", key));
  EXPECT((key == std::vector<std::string>{"rowid"}));
  std::vector<sb::IndexInfo> indexes;
  EXPECT_OK(db, db.indexes("tags", indexes));
  EXPECT(indexes.size() == 1 && indexes[0].origin == sb::IndexOrigin::UniqueConstraint && indexes[0].isUnique);
  std::vector<sb::ForeignKeyInfo> foreignKeys;
  EXPECT_OK(db, db.foreignKeys("tags", foreignKeys));
  EXPECT(foreignKeys.size() == 1 && foreignKeys[0].destinationTable == "notes" &&
         foreignKeys[0].onDelete == "NO ACTION");
  EXPECT(!db.columns("nowhere", columns) && db.lastError().is(sb::ResultCode::Error));
  std::vector<std::string> problems;
  EXPECT_OK(db, db.integrityCheck(problems));
  EXPECT(problems.empty());
  EXPECT_OK(db, db.execute("PRAGMA foreign_keys = OFF"));
  EXPECT_OK(db, db.execute("INSERT INTO tags(note, name) VALUES (99, 'orphan')"));
  std::vector<sb::ForeignKeyViolation> violations;
  EXPECT_OK(db, db.foreignKeyCheck(violations));
  EXPECT(violations.size() == 1 && violations[0].table == "tags" && violations[0].destinationTable == "notes");

  // Table helpers: identifiers quoted, values bound, an empty WHERE refused.
  const std::string hostile = "x\"; DROP TABLE notes; --";
  EXPECT_OK(
      db, db.createTable(hostile, {sb::ColumnDefinition("id", "INTEGER", true, true),
                                   sb::ColumnDefinition("name", "TEXT", false, false, true, true),
                                   sb::ColumnDefinition("score", "REAL", false, false, false, false, sb::Value(1.5))}));
  std::int64_t rowID = 0;
  EXPECT_OK(db, db.insert(hostile, sb::NamedValues{{"name", sb::Value("a")}}, &rowID));
  EXPECT(rowID == 1);
  EXPECT_OK(db, db.insert(hostile, sb::NamedValues{{"name", sb::Value("a")}, {"score", sb::Value(2.0)}}, &rowID,
                          sb::ConflictResolution::Replace));
  int changed = 0;
  EXPECT_OK(db, db.update(hostile, sb::NamedValues{{"score", sb::Value(3.0)}}, "name = ?", {sb::Value("a")}, &changed));
  EXPECT(changed == 1);
  EXPECT(!db.remove(hostile, "", {}, &changed) && db.lastError().is(sb::ResultCode::Misuse));
  EXPECT_OK(db,
            db.addColumn(sb::ColumnDefinition("pinned", "INTEGER", false, false, true, false, sb::Value(0)), hostile));
  std::vector<sb::Row> selected;
  EXPECT_OK(db, db.select({"name", "score", "pinned"}, hostile, "score > ?", {sb::Value(2)}, selected, {"name"}, 5));
  EXPECT(selected.size() == 1 && selected[0].value("score").asReal() == 3.0 &&
         selected[0].value("pinned").asInteger() == 0);
  EXPECT_OK(db, db.remove(hostile, "1", {}, &changed));
  EXPECT(changed == 1);
  EXPECT_OK(db, db.dropTable(hostile));
  EXPECT_OK(db, db.dropTable(hostile, true));
  EXPECT(db.tableExists("notes"));

  // Backup, file size, removing a database.
  sb::Database copy = sb::Database::open(":memory:");
  int steps = 0;
  EXPECT_OK(db, db.backup(copy, 1, [&](int remaining, int total) { steps += remaining < total ? 1 : 0; }));
  EXPECT(steps > 0);
  sb::Row count;
  EXPECT_OK(copy, copy.execute("SELECT count(*) FROM notes", count));
  EXPECT(count.value(0).asInteger() == 2);
  std::int64_t bytes = 0;
  EXPECT_OK(db, db.fileSize(bytes));
  EXPECT(bytes > 0);
  sb::Error error;
  EXPECT(!sb::Database::removeDatabase((dir / "issue11.db").string(), &error) && error.is(sb::ResultCode::Busy));
  db.close();
  EXPECT(sb::Database::removeDatabase((dir / "issue11.db").string(), &error) && !error.isError());
  EXPECT(!fs::exists(dir / "issue11.db"));
  sb::Location location;
  location.documentsDirectory = dir.string();
  EXPECT(sb::Database::removeDatabase("issue11.db", location));
}

// MARK: - Sharing a database: DatabaseQueue, DatabasePool

void sharing(const fs::path& dir) {
  sb::Configuration configuration;
  configuration.maximumReaderCount = 2;
  sb::DatabasePool pool((dir / "shared.db").string(), configuration);
  EXPECT(pool.isOpen() && !pool.openError().isError());
  sb::Error error;
  EXPECT(pool.write([](sb::Database& db) { return db.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, n INT)"); },
                    &error));
  std::vector<std::thread> writers;
  for (int t = 0; t < 2; ++t) {
    writers.emplace_back([&pool, t] {
      for (int i = 0; i < 50; ++i) {
        pool.write([&](sb::Database& db) {
          return db.execute("INSERT INTO notes(n) VALUES (?)", {sb::Value(static_cast<std::int64_t>(t))});
        });
      }
    });
  }
  for (std::thread& writer : writers) writer.join();
  const std::int64_t count = pool.read([](sb::Database& db) {
    sb::Row row;
    db.execute("SELECT count(*) FROM notes", row);
    return row.value(0).asInteger();
  });
  EXPECT(count == 100);
  // A write whose block returns false rolls back, error clear.
  EXPECT(!pool.write([](sb::Database& db) { return db.execute("DELETE FROM notes") && false; }, &error));
  EXPECT(!error.isError());
  // Reentrant access fails at once instead of waiting for itself.
  const sb::Error reentrant = pool.read([&](sb::Database&) {
    return pool.writeWithoutTransaction([](sb::Database& inner) { return inner.lastError(); });
  });
  EXPECT(reentrant.is(sb::ResultCode::Misuse));
  EXPECT(pool.checkpoint(sb::CheckpointMode::Truncate, &error));
  pool.interrupt();

  sb::DatabaseQueue queue(":memory:");
  EXPECT(queue.isOpen());
  EXPECT(queue.write([](sb::Database& db) { return db.execute("CREATE TABLE t(x)"); }));
  const bool readOnly = queue.read([](sb::Database& db) {
    return !db.execute("INSERT INTO t VALUES (1)") && db.lastError().is(sb::ResultCode::ReadOnly);
  });
  EXPECT(readOnly);
  EXPECT(queue.writeWithoutTransaction([](sb::Database& db) { return db.execute("VACUUM"); }));
  queue.interrupt();
  sb::DatabaseQueue byName("queue.db", "CREATE TABLE t(x)", sb::Location{dir.string(), dir.string()});
  EXPECT(byName.isOpen());
  sb::Database plain = sb::Database::open(":memory:");
  plain.interrupt();  // the one Database method safe from another thread
  EXPECT(sb::DatabasePool(":memory:").openError().is(sb::ResultCode::CantOpen));
}

// MARK: - Tracing, hooks and library info

void tracingHooksAndLibraryInfo() {
  sb::Database db = sb::Database::open(":memory:");
  std::vector<sb::TraceEvent> events;
  db.trace(sb::TraceOptions::Statements | sb::TraceOptions::Profile | sb::TraceOptions::ExpandedSQL,
           [&events](const sb::TraceEvent& event) { events.push_back(event); });
  int commits = 0;
  int rollbacks = 0;
  std::vector<sb::ChangeKind> changes;
  db.onCommit([&commits] { ++commits; });
  db.onRollback([&rollbacks] { ++rollbacks; });
  db.onChange([&changes](sb::ChangeKind kind, const std::string&, std::int64_t) { changes.push_back(kind); });
  EXPECT_OK(db, db.execute("CREATE TABLE t(x)"));
  EXPECT_OK(db, db.execute("INSERT INTO t VALUES (?)", std::vector<sb::Value>{42}));
  EXPECT(events.size() == 4);
  EXPECT(events.size() == 4 && events[2].kind == sb::TraceEvent::Kind::Statement &&
         events[2].sql == "INSERT INTO t VALUES (?)" &&
         events[2].expandedSQL == std::string("INSERT INTO t VALUES (42)"));
  EXPECT(events.size() == 4 && events[3].kind == sb::TraceEvent::Kind::Profile && events[3].duration.has_value());
  EXPECT(commits == 2);
  EXPECT(changes.size() == 1 && changes[0] == sb::ChangeKind::Insert);
  EXPECT_OK(db, db.begin());
  EXPECT_OK(db, db.rollback());
  EXPECT(rollbacks == 1);
  db.trace(sb::TraceOptions::Statements, {});
  db.onCommit({});
  db.onRollback({});
  db.onChange({});
  EXPECT(!sb::Database::sqliteVersion().empty());
  EXPECT(!sb::Database::compileOptions().empty());
}

}  // namespace

int main() {
  // A fresh temporary directory for every database file this program makes.
  std::string pattern = (fs::temp_directory_path() / "sqlitebridge-cpp-consumer-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    std::cerr << "cpp-consumer: cannot create a temporary directory\n";
    return 1;
  }
  const fs::path dir = pattern;

  values();
  inMemory();
  statements();
  files(dir);
  byName(dir);
  queries();
  transactionsAndSchema(dir);
  sharing(dir);
  tracingHooksAndLibraryInfo();

  {  // Open options (issue 13).
    sb::Configuration options;
    options.journalMode = sb::JournalMode::Wal;
    options.synchronous = sb::Synchronous::Normal;
    options.noFollowSymlinks = true;
    options.uriFilenames = true;
    sb::Database walDb = sb::Database::open((dir / "options.db").string(), options);
    EXPECT(walDb.isOpen());
    sb::Row mode;
    EXPECT_OK(walDb, walDb.execute("PRAGMA journal_mode", mode));
    EXPECT(mode.value(0).asText() == "wal");
    sb::Configuration cache;
    cache.sharedCacheName = "cpp-consumer";
    sb::Database writer = sb::Database::open(":memory:", cache);
    sb::Database reader = sb::Database::open(":memory:", cache);
    EXPECT_OK(writer, writer.execute("CREATE TABLE t(x)"));
    sb::Row tables;
    EXPECT_OK(reader, reader.execute("SELECT count(*) FROM sqlite_master", tables));
    EXPECT(tables.value(0).asInteger() == 1);
  }

  {  // Custom functions, aggregates and collations.
    struct Total : sb::Aggregate {
      std::int64_t sum = 0;
      bool step(const std::vector<sb::Value>& arguments, std::string&) override {
        sum += arguments[0].asInteger();
        return true;
      }
      bool finalize(sb::Value& result, std::string&) override {
        result = sb::Value(sum);
        return true;
      }
    };
    sb::Database db = sb::Database::open(":memory:");
    EXPECT(db.createFunction("double_it", 1, true,
                             [](const std::vector<sb::Value>& arguments, sb::Value& result, std::string&) {
                               result = sb::Value(arguments[0].asInteger() * 2);
                               return true;
                             }));
    EXPECT(db.createAggregate("total", 1, false, [] { return std::make_unique<Total>(); }));
    EXPECT(db.createCollation("reversed", [](std::string_view a, std::string_view b) { return b.compare(a); }));
    EXPECT(db.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2);"));
    sb::Row row;
    EXPECT(db.execute(
        "SELECT double_it(21), total(x), (SELECT x FROM t ORDER BY CAST(x AS TEXT) COLLATE reversed) FROM t", row));
    EXPECT(row.value(0).asInteger() == 42 && row.value(1).asInteger() == 3 && row.value(2).asInteger() == 2);
    EXPECT(db.removeFunction("double_it", 1));
    EXPECT(db.removeCollation("reversed"));
    EXPECT(!db.execute("SELECT double_it(1)"));
  }

  // Records (RecordTraits) and values bound without a vector.
  {
    sb::Database db = sb::Database::open(":memory:");
    EXPECT(db.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL)"));
    EXPECT(db.execute("INSERT INTO notes(id, title) VALUES (?, ?)", 1, "Buy milk"));
    std::int64_t id = 0;
    EXPECT(db.insert(ExampleNote{std::nullopt, "Call Bob"}, &id) && id == 2);
    EXPECT(db.update(ExampleNote{id, "Call Alice"}));
    EXPECT(!db.update(ExampleNote{99, "nobody"}) && db.lastError().is(sb::ResultCode::NotFound));
    std::vector<ExampleNote> notes;
    EXPECT(db.fetch("SELECT * FROM notes ORDER BY id", {}, notes) && notes.size() == 2 &&
           notes[1].title == "Call Alice");
    std::optional<ExampleNote> one;
    EXPECT(db.fetchByKey<ExampleNote>(sb::Value(1), one) && one && one->title == "Buy milk");
    bool removed = false;
    EXPECT(db.remove(ExampleNote{1, ""}, &removed) && removed);
  }

  std::error_code ignored;
  fs::remove_all(dir, ignored);

  if (failures > 0) {
    std::cerr << "cpp-consumer: " << failures << " check(s) failed\n";
    return 1;
  }
  std::cout << "cpp-consumer: all checks passed\n";
  return 0;
}
