// Hostile input, names: SQL injection through every identifier the API takes
// (hasTableColumn, tableColumns, updateTable, named-argument keys,
// Statement::parameterIndex, index and trigger names updateTable recreates),
// and database names and paths that try to leave the documents directory or
// to be read as something else. Each test checks the error and that no data
// was lost.
#include <climits>

#include "HostileSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::Error;
using sqlitebridge::Location;
using sqlitebridge::NamedValues;
using sqlitebridge::OpenMode;
using sqlitebridge::Statement;
using sqlitebridge::StepResult;
using sqlitebridge::Value;
using namespace sqlitebridge_test;

namespace {

using Lines = std::vector<std::string>;

const char* const kVictimSchema =
    "CREATE TABLE victims(id INTEGER PRIMARY KEY, name TEXT NOT NULL);"
    "CREATE INDEX victims_name ON victims(name);"
    "CREATE TABLE audit(msg TEXT);"
    "CREATE TRIGGER victims_audit AFTER INSERT ON victims BEGIN INSERT INTO audit VALUES (new.name); END;"
    "INSERT INTO victims(name) VALUES ('alice'), ('bob'), ('carol');";

// A file database holding `victims` (with an index and a trigger) and
// `audit`, to check that no hostile name changed either.
class HostileIdentifiers : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = Database::open(dir_ / "victims.db");
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.executeScript(kVictimSchema)) << db_.error();
    before_ = state();
  }

  Lines state() { return snapshot(db_, {"victims", "audit"}); }

  // Nothing ran: same schema, same rows, no transaction left open, no file
  // beside the database.
  void expectUntouched() {
    EXPECT_EQ(state(), before_);
    EXPECT_FALSE(db_.isInTransaction());
    EXPECT_EQ(scalarText(db_, "PRAGMA integrity_check"), "ok");
    EXPECT_EQ(listDirectory(dir_.path()), (Lines{"victims.db"}));
  }

  TempDir dir_;
  Database db_ = Database::open(":memory:");
  Lines before_;
};

}  // namespace

// MARK: Table and column names

TEST_F(HostileIdentifiers, TableColumnsTreatsEveryHostileTableNameAsAMissingTable) {
  for (const std::string& name : hostileIdentifiers()) {
    SCOPED_TRACE(name);
    std::vector<std::string> columns{"stale"};
    EXPECT_FALSE(db_.tableColumns(name, columns));
    EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
    EXPECT_NE(db_.lastError().message.find("no such table"), std::string::npos) << db_.error();
    EXPECT_TRUE(columns.empty());
  }
  expectUntouched();
}

TEST_F(HostileIdentifiers, HasTableColumnTreatsEveryHostileTableNameAsAMissingTable) {
  for (const std::string& name : hostileIdentifiers()) {
    SCOPED_TRACE(name);
    EXPECT_FALSE(db_.hasTableColumn(name, "name"));
    EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
    EXPECT_NE(db_.lastError().message.find("no such table"), std::string::npos) << db_.error();
  }
  expectUntouched();
}

TEST_F(HostileIdentifiers, HasTableColumnTreatsEveryHostileColumnNameAsAName) {
  for (const std::string& name : hostileIdentifiers()) {
    SCOPED_TRACE(name);
    // Not a column of the table: false, and no error.
    EXPECT_FALSE(db_.hasTableColumn("victims", name));
    EXPECT_EQ(db_.lastError().code, 0) << db_.error();
  }
  expectUntouched();
}

TEST_F(HostileIdentifiers, UpdateTableTreatsEveryHostileTableNameAsAMissingTable) {
  for (const std::string& name : hostileIdentifiers()) {
    SCOPED_TRACE(name);
    EXPECT_FALSE(db_.updateTable("CREATE TABLE victims(id INTEGER PRIMARY KEY, name TEXT, extra INT)", "", name));
    EXPECT_EQ(db_.lastError().code, SQLITE_ERROR) << db_.error();
  }
  EXPECT_FALSE(db_.updateTable("CREATE TABLE victims(x)", "", ""));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE) << db_.error();
  expectUntouched();
}

TEST_F(HostileIdentifiers, UpdateTableRefusesSQLitesOwnTablesAndRollsBack) {
  // sqlite_sequence exists once an AUTOINCREMENT table does; the schema
  // tables are not in sqlite_schema. None may be rebuilt.
  ASSERT_TRUE(db_.execute("CREATE TABLE counted(id INTEGER PRIMARY KEY AUTOINCREMENT, x)")) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO counted(x) VALUES (1)")) << db_.error();
  before_ = state();
  const Lines sequence = dump(db_, "SELECT name, seq FROM sqlite_sequence");
  for (const std::string name : {"sqlite_sequence", "sqlite_schema", "sqlite_master", "sqlite_temp_master"}) {
    SCOPED_TRACE(name);
    EXPECT_FALSE(db_.updateTable("CREATE TABLE " + name + "(name, seq)", "", name));
    EXPECT_EQ(db_.lastError().code, SQLITE_ERROR) << db_.error();
    EXPECT_EQ(dump(db_, "SELECT name, seq FROM sqlite_sequence"), sequence);
  }
  expectUntouched();
}

TEST_F(HostileIdentifiers, TablesWithHostileNamesWorkAsNamesThroughEverySchemaCall) {
  // The same names, made on purpose as real tables (with hostile column,
  // index and trigger names too): every call must find exactly that table.
  int made = 0;
  for (const std::string& name : hostileIdentifiers()) {
    SCOPED_TRACE(name);
    const std::string column = name + " col";
    const std::string script = "CREATE TABLE " + quoted(name) + "(id INTEGER PRIMARY KEY, " + quoted(column) +
                               " TEXT);"
                               "CREATE INDEX " +
                               quoted(name + " index") + " ON " + quoted(name) + "(" + quoted(column) +
                               ");"
                               "CREATE TRIGGER " +
                               quoted(name + " trigger") + " AFTER INSERT ON " + quoted(name) +
                               " BEGIN INSERT INTO audit VALUES ('trigger'); END;"
                               "INSERT INTO " +
                               quoted(name) + "(" + quoted(column) + ") VALUES ('kept 1'), ('kept 2');";
    ASSERT_TRUE(db_.executeScript(script)) << db_.error();
    ++made;

    std::vector<std::string> columns;
    ASSERT_TRUE(db_.tableColumns(name, columns)) << db_.error();
    EXPECT_EQ(columns, (Lines{"id", column}));
    EXPECT_TRUE(db_.hasTableColumn(name, column)) << db_.error();
    EXPECT_FALSE(db_.hasTableColumn(name, "name")) << db_.error();

    ASSERT_TRUE(db_.updateTable("CREATE TABLE " + quoted(name) + "(id INTEGER PRIMARY KEY, " + quoted(column) +
                                    " TEXT, added INT NOT NULL DEFAULT 7)",
                                "", name))
        << db_.error();
    EXPECT_EQ(dump(db_, "SELECT id, " + quoted(column) + " AS v, added FROM " + quoted(name) + " ORDER BY id"),
              (Lines{"id=int:1|v=text:kept 1|added=int:7", "id=int:2|v=text:kept 2|added=int:7"}));
    // Its index and trigger were recreated under their hostile names.
    std::vector<sqlitebridge::Row> dependents;
    ASSERT_TRUE(
        db_.execute("SELECT name FROM sqlite_master WHERE tbl_name = ? AND type IN ('index', 'trigger') "
                    "ORDER BY name",
                    {Value(name)}, &dependents))
        << db_.error();
    ASSERT_EQ(dependents.size(), 2u);
    EXPECT_EQ(dependents[0].value(0).asText(), name + " index");
    EXPECT_EQ(dependents[1].value(0).asText(), name + " trigger");
    EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM sqlite_master WHERE name LIKE '%\\_old' ESCAPE '\\'"), 0);
  }
  EXPECT_EQ(made, static_cast<int>(hostileIdentifiers().size()));
  // The victims never changed; audit only gained the hostile tables' rows.
  EXPECT_EQ(dump(db_, "SELECT id, name FROM victims ORDER BY id"),
            (Lines{"id=int:1|name=text:alice", "id=int:2|name=text:bob", "id=int:3|name=text:carol"}));
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM sqlite_master WHERE name IN ('victims_name', 'victims_audit')"),
            2);
  EXPECT_EQ(scalarText(db_, "PRAGMA integrity_check"), "ok");
}

TEST_F(HostileIdentifiers, NamesHoldingNulAreNotCutShort) {
  // SQLite reads names as C strings: "victims\0..." must not reach it as
  // "victims".
  const std::string name("victims\0; DROP TABLE victims", 28);
  std::vector<std::string> columns;
  EXPECT_FALSE(db_.tableColumns(name, columns));
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR) << db_.error();
  EXPECT_TRUE(columns.empty());
  EXPECT_FALSE(db_.hasTableColumn(name, "name"));
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR) << db_.error();
  EXPECT_FALSE(db_.hasTableColumn("victims", std::string("name\0x", 6)));
  EXPECT_EQ(db_.lastError().code, 0) << db_.error();
  EXPECT_FALSE(db_.updateTable("CREATE TABLE victims(id INTEGER PRIMARY KEY, name TEXT, extra INT)", "", name));
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR) << db_.error();
  expectUntouched();
}

// MARK: Parameter names

TEST_F(HostileIdentifiers, HostileNamedArgumentKeysMatchNoParameterAndNothingRuns) {
  const std::string insert = "INSERT INTO victims(name) VALUES (:name)";
  for (const std::string& key : hostileIdentifiers()) {
    SCOPED_TRACE(key);
    if (key == ":name") continue;  // that one is the parameter's real name
    NamedValues arguments;
    arguments.add(key, Value("mallory"));
    EXPECT_FALSE(db_.execute(insert, arguments));
    EXPECT_EQ(db_.lastError().code, SQLITE_RANGE) << db_.error();
    // The parameter itself and the key beside it: still an error.
    NamedValues both{{"name", Value("mallory")}};
    both.add(key, Value("eve"));
    EXPECT_FALSE(db_.execute(insert, both));
    EXPECT_EQ(db_.lastError().code, SQLITE_RANGE) << db_.error();
  }
  NamedValues withNul;
  withNul.add(std::string("name\0; DROP TABLE victims", 25), Value("mallory"));
  EXPECT_FALSE(db_.execute(insert, withNul));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE) << db_.error();
  expectUntouched();
}

TEST_F(HostileIdentifiers, ParameterIndexTakesTheWholeName) {
  Statement statement = db_.prepare("SELECT :id, @id");
  ASSERT_TRUE(statement.isValid()) << db_.error();
  EXPECT_EQ(statement.parameterIndex(":id"), 1);
  EXPECT_EQ(statement.parameterIndex("@id"), 2);
  EXPECT_EQ(statement.parameterIndex(std::string(":id\0x", 5)), 0);
  EXPECT_EQ(statement.parameterIndex(":id; DROP TABLE victims"), 0);
  EXPECT_EQ(statement.parameterIndex(""), 0);
  expectUntouched();
}

// MARK: SQL text holding NUL

TEST_F(HostileIdentifiers, SqlAfterANulByteIsNeverSilentlyDropped) {
  const std::string query("SELECT count(*) FROM victims\0; DROP TABLE victims", 48);
  EXPECT_FALSE(db_.execute(query));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE) << db_.error();
  EXPECT_FALSE(db_.prepare(query).isValid());
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE) << db_.error();
  EXPECT_FALSE(db_.validate(query));
  const std::string insert("INSERT INTO victims(name) VALUES ('mallory')\0garbage", 51);
  EXPECT_FALSE(db_.execute(insert));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE) << db_.error();
  // A script stops at the NUL: the statement before it ran, none after it.
  const std::string script("INSERT INTO audit VALUES ('before');\0DROP TABLE victims;", 55);
  EXPECT_FALSE(db_.executeScript(script));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE) << db_.error();
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM audit WHERE msg = 'before'"), 1);
  ASSERT_TRUE(db_.execute("DELETE FROM audit WHERE msg = 'before'")) << db_.error();
  expectUntouched();
}

// MARK: Database names

namespace {

// A root holding docs/ (documents), bundle/ and, beside them, x.db — the
// file a traversal through `..` would reach.
class HostileDatabaseNames : public DocumentsAndBundle {
 protected:
  void SetUp() override {
    DocumentsAndBundle::SetUp();
    ASSERT_TRUE(makeDatabaseFile(root_ / "x.db", "CREATE TABLE precious(v); INSERT INTO precious VALUES ('keep');"));
    ASSERT_TRUE(makeDatabaseFile(bundle_ + "/x.db", "CREATE TABLE bundled(v);"));
    precious_ = readFile(root_ / "x.db");
    bundled_ = readFile(bundle_ + "/x.db");
    etcHadIt_ = fileExists("/etc/x.db");
  }

  // Nothing was created or changed anywhere the test can see.
  void expectNothingCreated() {
    EXPECT_TRUE(listDirectory(docs_).empty()) << listDirectory(docs_).size() << " file(s) in docs";
    EXPECT_EQ(listDirectory(root_.path()), (Lines{"bundle", "docs", "x.db"}));
    EXPECT_EQ(listDirectory(bundle_), (Lines{"x.db"}));
    EXPECT_EQ(readFile(root_ / "x.db"), precious_);
    EXPECT_EQ(readFile(bundle_ + "/x.db"), bundled_);
    EXPECT_EQ(fileExists("/etc/x.db"), etcHadIt_);
  }

  std::string precious_;
  std::string bundled_;
  bool etcHadIt_ = false;
};

}  // namespace

TEST_F(HostileDatabaseNames, TraversalAndAbsoluteNamesFailWithCantOpenAndCreateNothing) {
  const Lines names = {
      "../x.db",
      "/etc/x.db",
      "a/../../x.db",
      "..",
      ".",
      "",
      "./x.db",
      "docs/../x.db",
      "../../../../../../../../etc/x.db",
      "x.db/",
      "/",
      "..\\x.db",
      "a\\..\\..\\x.db",
      "\\x.db",
      root_ / "x.db",
      std::string("x.db\0/../../x.db", 16),
      std::string("\0", 1),
      std::string("../x.db\0", 8),
  };
  for (const std::string& name : names) {
    SCOPED_TRACE("name: " + name);
    Database db(name, "CREATE TABLE made(v); INSERT INTO made VALUES ('should not exist');", location());
    EXPECT_FALSE(db.isOpen());
    const Error error = db.lastError();
    EXPECT_EQ(error.code, SQLITE_CANTOPEN) << error.message;
    EXPECT_NE(error.message.find("invalid database name"), std::string::npos) << error.message;
    // The message never carries a raw NUL (it would cut C callers short).
    EXPECT_EQ(error.message.find('\0'), std::string::npos);
  }
  expectNothingCreated();
}

TEST_F(HostileDatabaseNames, NamesLongerThanAFileNameFailWithCantOpenAndLeaveNothing) {
  for (std::size_t length : {256u, 300u, 1000u, 5000u}) {
    SCOPED_TRACE(length);
    const std::string name(length, 'n');
    Database db(name, "CREATE TABLE made(v);", location());
    EXPECT_FALSE(db.isOpen());
    EXPECT_EQ(db.lastError().code, SQLITE_CANTOPEN) << db.error();
    EXPECT_FALSE(db.error().empty());
    // The bundle path is looked up too; a long name finds nothing there.
    Database copied(name, "", location());
    EXPECT_FALSE(copied.isOpen());
    EXPECT_EQ(copied.lastError().code, SQLITE_CANTOPEN) << copied.error();
  }
  expectNothingCreated();
}

TEST_F(HostileDatabaseNames, EveryAcceptedNameMakesAWritableDatabase) {
  // A name leaving no room for "-journal" in a 255-byte file name made a
  // database that opened but could never be written: such names are refused.
  for (std::size_t length = 240; length <= 255; ++length) {
    SCOPED_TRACE(length);
    const std::string name(length, 'w');
    Database db(name, "CREATE TABLE t(v);", location());
    if (length > 247) {
      EXPECT_FALSE(db.isOpen());
      EXPECT_EQ(db.lastError().code, SQLITE_CANTOPEN) << db.error();
      EXPECT_NE(db.error().find("longer than 247 bytes"), std::string::npos) << db.error();
      EXPECT_FALSE(fileExists(docs_ + "/" + name));
      continue;
    }
    ASSERT_TRUE(db.isOpen()) << db.error();
    EXPECT_TRUE(db.execute("INSERT INTO t VALUES ('written')")) << db.error();
    EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM t"), 1);
    ASSERT_TRUE(db.execute("PRAGMA journal_mode = WAL")) << db.error();
    EXPECT_TRUE(db.execute("INSERT INTO t VALUES ('in wal')")) << db.error();
    EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM t"), 2);
  }
  EXPECT_EQ(listDirectory(docs_).size(), 8u);
  EXPECT_EQ(readFile(root_ / "x.db"), precious_);
}

TEST_F(HostileDatabaseNames, NamesSQLiteCouldReadAsUrisOrMemoryAreFilesInTheDocumentsDirectory) {
  const Lines names = {":memory:",
                       "file:x.db",
                       "file:x.db?mode=memory",
                       "x.db?vfs=unix-none&mode=ro",
                       "file::memory:",
                       "-x.db",
                       " x.db ",
                       "x.db;DROP TABLE precious",
                       "%2e%2e%2fx.db"};
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    {
      Database db(name, "CREATE TABLE t(v); INSERT INTO t VALUES ('on disk');", location());
      ASSERT_TRUE(db.isOpen()) << db.error();
      EXPECT_EQ(db.path(), docs_ + "/" + name);
    }
    // A real file, under exactly that name, that keeps its data.
    EXPECT_TRUE(fileExists(docs_ + "/" + name));
    Database again(name, "", location());
    ASSERT_TRUE(again.isOpen()) << again.error();
    EXPECT_EQ(scalarText(again, "SELECT v FROM t"), "on disk");
  }
  Lines sorted = names;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(listDirectory(docs_), sorted);
  EXPECT_EQ(readFile(root_ / "x.db"), precious_);
  EXPECT_EQ(readFile(bundle_ + "/x.db"), bundled_);
}

TEST_F(HostileDatabaseNames, NamesOfCompanionFilesAreRefusedSoNoDatabaseIsDestroyed) {
  // "notes.db-wal" opened by name would be taken by SQLite for the WAL of
  // "notes.db" (found there, it switches notes.db to WAL mode and writes
  // its frames over the other database), "notes.db-journal" for its journal
  // (deleted after the next write or rolled back as hot). So both orders
  // are refused, in any case.
  Database notes("notes.db", "CREATE TABLE notes(v); INSERT INTO notes VALUES ('mine');", location());
  ASSERT_TRUE(notes.isOpen()) << notes.error();
  for (const std::string name :
       {"notes.db-journal", "notes.db-wal", "notes.db-shm", "notes.db-JOURNAL", "x-Wal", "other.db-shm"}) {
    SCOPED_TRACE(name);
    Database companion(name, "CREATE TABLE c(v); INSERT INTO c VALUES ('companion');", location());
    EXPECT_FALSE(companion.isOpen());
    EXPECT_EQ(companion.lastError().code, SQLITE_CANTOPEN) << companion.error();
    EXPECT_NE(companion.error().find("invalid database name"), std::string::npos) << companion.error();
  }
  // A name merely containing the words is fine.
  Database fine("notes-journal.db", "CREATE TABLE c(v);", location());
  EXPECT_TRUE(fine.isOpen()) << fine.error();
  EXPECT_TRUE(notes.execute("INSERT INTO notes VALUES ('more')")) << notes.error();
  EXPECT_EQ(dump(notes, "SELECT v FROM notes ORDER BY rowid"), (Lines{"v=text:mine", "v=text:more"}));
  EXPECT_EQ(listDirectory(docs_), (Lines{"notes-journal.db", "notes.db"}));
}

TEST_F(HostileDatabaseNames, NamesOfOurTemporaryFilesAreRefused) {
  // A first open sweeps abandoned ".sqlitebridge-<pid>-<n>-<n>.tmp" files;
  // a database given such a name could be swept with them.
  for (const std::string name : {".sqlitebridge-1-2-3.tmp", ".sqlitebridge-999999-1-1.tmp", ".sqlitebridge-"}) {
    SCOPED_TRACE(name);
    Database db(name, "CREATE TABLE t(v);", location());
    EXPECT_FALSE(db.isOpen());
    EXPECT_EQ(db.lastError().code, SQLITE_CANTOPEN) << db.error();
  }
  expectNothingCreated();
}

TEST_F(HostileDatabaseNames, DirectoriesHoldingNulAreRefused) {
  // The documents directory is cut at a NUL by every system call; a
  // directory "docs\0/../.." must not be taken as "docs".
  const std::string documents = docs_ + std::string("\0/..", 4);
  Database db("made.db", "CREATE TABLE t(v);", Location{documents, bundle_});
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_CANTOPEN) << db.error();
  const std::string bundle = bundle_ + std::string("\0/..", 4);
  Database fromBundle("x.db", "", Location{docs_, bundle});
  EXPECT_FALSE(fromBundle.isOpen());
  EXPECT_EQ(fromBundle.lastError().code, SQLITE_CANTOPEN) << fromBundle.error();
  expectNothingCreated();
}

TEST_F(HostileDatabaseNames, PathsHoldingNulAreRefusedNotCutShort) {
  for (const OpenMode mode : {OpenMode::ReadOnly, OpenMode::ReadWrite, OpenMode::ReadWriteCreate}) {
    // "<root>/x.db\0.evil" must not open <root>/x.db, nor create anything.
    Database existing = Database::open(root_ / "x.db" + std::string("\0.evil", 6), mode);
    EXPECT_FALSE(existing.isOpen());
    EXPECT_EQ(existing.lastError().code, SQLITE_CANTOPEN) << existing.error();
    Database created = Database::open(docs_ + "/new.db" + std::string("\0", 1), mode);
    EXPECT_FALSE(created.isOpen());
    EXPECT_EQ(created.lastError().code, SQLITE_CANTOPEN) << created.error();
  }
  expectNothingCreated();
}
