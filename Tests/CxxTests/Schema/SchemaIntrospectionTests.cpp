// Schema introspection: exists checks, table names, columns, primary keys,
// indexes, foreign keys, integrity_check and foreign_key_check, with hostile,
// unicode, differently cased, qualified and missing names.
#include "SQLiteVersionSupport.hpp"
#include "TestSupport.hpp"

using sqlitebridge::ColumnInfo;
using sqlitebridge::Database;
using sqlitebridge::ForeignKeyInfo;
using sqlitebridge::ForeignKeyViolation;
using sqlitebridge::IndexInfo;
using sqlitebridge::IndexOrigin;
using namespace sqlitebridge_test;

namespace {

using Names = std::vector<std::string>;

ColumnInfo column(std::string name, std::string type, bool notNull, std::optional<std::string> defaultSQL, int pk,
                  bool hidden) {
  ColumnInfo info;
  info.name = std::move(name);
  info.declaredType = std::move(type);
  info.isNotNull = notNull;
  info.defaultValueSQL = std::move(defaultSQL);
  info.primaryKeyIndex = pk;
  info.isHidden = hidden;
  return info;
}

// Compared field by field: the structs have no operator== of their own.
std::string describe(const ColumnInfo& c) {
  return c.name + "|" + c.declaredType + "|" + (c.isNotNull ? "notnull" : "null") + "|" +
         (c.defaultValueSQL ? "default=" + *c.defaultValueSQL : "nodefault") + "|pk" +
         std::to_string(c.primaryKeyIndex) + "|" + (c.isHidden ? "hidden" : "shown");
}

Names describe(const std::vector<ColumnInfo>& columns) {
  Names lines;
  for (const ColumnInfo& c : columns) lines.push_back(describe(c));
  return lines;
}

std::string originName(IndexOrigin origin) {
  switch (origin) {
    case IndexOrigin::CreateIndex:
      return "c";
    case IndexOrigin::UniqueConstraint:
      return "u";
    case IndexOrigin::PrimaryKey:
      return "pk";
  }
  return "?";
}

std::string joined(const Names& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) text += (i ? "," : "") + names[i];
  return text;
}

Names describe(const std::vector<IndexInfo>& indexes) {
  Names lines;
  for (const IndexInfo& i : indexes) {
    lines.push_back(i.name + "(" + joined(i.columns) + ")" + (i.isUnique ? " unique " : " ") + originName(i.origin));
  }
  return lines;
}

Names describe(const std::vector<ForeignKeyInfo>& keys) {
  Names lines;
  for (const ForeignKeyInfo& k : keys) {
    lines.push_back("(" + joined(k.columns) + ")->" + k.destinationTable + "(" + joined(k.destinationColumns) +
                    ") update " + k.onUpdate + " delete " + k.onDelete);
  }
  return lines;
}

Names describe(const std::vector<ForeignKeyViolation>& violations) {
  Names lines;
  for (const ForeignKeyViolation& v : violations) {
    lines.push_back(v.table + " rowid " + (v.rowID ? std::to_string(*v.rowID) : "none") + " -> " + v.destinationTable +
                    " key " + std::to_string(v.foreignKeyIndex));
  }
  return lines;
}

class SchemaIntrospection : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.executeScript(
        "CREATE TABLE parent(id INTEGER PRIMARY KEY, code TEXT NOT NULL, region TEXT, UNIQUE(code, region));"
        "CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent ON DELETE CASCADE,"
        "  code TEXT, region TEXT,"
        "  FOREIGN KEY(code, region) REFERENCES parent(code, region) ON UPDATE SET NULL);"
        "CREATE INDEX child_parent ON child(parent_id);"
        "CREATE VIEW parent_codes AS SELECT code FROM parent;"
        "CREATE TRIGGER child_added AFTER INSERT ON child BEGIN SELECT 1; END;"))
        << db_.error();
  }

  // Every table call fails for `name` with "no such table: <name>", leaving
  // its list empty.
  void expectNoSuchTable(const std::string& name) {
    SCOPED_TRACE(name);
    std::vector<ColumnInfo> columns(1);
    EXPECT_FALSE(db_.columns(name, columns));
    expectNoSuchTableError(name);
    EXPECT_TRUE(columns.empty());
    Names key{"stale"};
    EXPECT_FALSE(db_.primaryKey(name, key));
    expectNoSuchTableError(name);
    EXPECT_TRUE(key.empty());
    std::vector<IndexInfo> indexes(1);
    EXPECT_FALSE(db_.indexes(name, indexes));
    expectNoSuchTableError(name);
    EXPECT_TRUE(indexes.empty());
    std::vector<ForeignKeyInfo> keys(1);
    EXPECT_FALSE(db_.foreignKeys(name, keys));
    expectNoSuchTableError(name);
    EXPECT_TRUE(keys.empty());
    Names names{"stale"};
    EXPECT_FALSE(db_.tableColumns(name, names));
    expectNoSuchTableError(name);
    EXPECT_FALSE(db_.tableExists(name));
    EXPECT_EQ(db_.lastError().code, 0) << db_.error();
  }

  void expectNoSuchTableError(const std::string& name) {
    EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
    EXPECT_EQ(db_.lastError().extendedCode, SQLITE_ERROR);
    EXPECT_EQ(db_.error(), "no such table: " + name);
  }

  // Every call finds table `name`, whose one column is `columnName`.
  void expectFoundWithOneColumn(const std::string& name, const std::string& columnName) {
    SCOPED_TRACE(name);
    EXPECT_TRUE(db_.tableExists(name)) << db_.error();
    std::vector<ColumnInfo> columns;
    ASSERT_TRUE(db_.columns(name, columns)) << db_.error();
    ASSERT_EQ(columns.size(), 1u);
    EXPECT_EQ(columns[0].name, columnName);
    Names key;
    ASSERT_TRUE(db_.primaryKey(name, key)) << db_.error();
    EXPECT_EQ(key, Names{"rowid"});
    Names names;
    ASSERT_TRUE(db_.tableColumns(name, names)) << db_.error();
    EXPECT_EQ(names, Names{columnName});
    EXPECT_TRUE(db_.hasTableColumn(name, columnName)) << db_.error();
  }

  Names tableNames() {
    Names names;
    EXPECT_TRUE(db_.tableNames(names)) << db_.error();
    return names;
  }

  Database db_ = Database::open(":memory:");
};

}  // namespace

// MARK: Exists

TEST_F(SchemaIntrospection, ExistsChecksFindEachKindAndOnlyThatKind) {
  EXPECT_TRUE(db_.tableExists("parent"));
  EXPECT_TRUE(db_.viewExists("parent_codes"));
  EXPECT_TRUE(db_.triggerExists("child_added"));
  EXPECT_TRUE(db_.indexExists("child_parent"));
  EXPECT_TRUE(db_.indexExists("sqlite_autoindex_parent_1"));  // the UNIQUE constraint's
  EXPECT_EQ(db_.lastError().code, 0);
  // Each kind is only that kind.
  EXPECT_FALSE(db_.tableExists("parent_codes"));
  EXPECT_FALSE(db_.viewExists("parent"));
  EXPECT_FALSE(db_.triggerExists("child_parent"));
  EXPECT_FALSE(db_.indexExists("child_added"));
  EXPECT_EQ(db_.lastError().code, 0) << db_.error();
}

TEST_F(SchemaIntrospection, MissingNamesAreFalseWithNoError) {
  for (const std::string name :
       {"nowhere", "", "main.nowhere", "main.", ".parent", "nope.parent", "parent ", "\"parent\""}) {
    SCOPED_TRACE(name);
    EXPECT_FALSE(db_.tableExists(name));
    EXPECT_EQ(db_.lastError().code, 0) << db_.error();
    EXPECT_FALSE(db_.viewExists(name));
    EXPECT_EQ(db_.lastError().code, 0) << db_.error();
    EXPECT_FALSE(db_.triggerExists(name));
    EXPECT_EQ(db_.lastError().code, 0) << db_.error();
    EXPECT_FALSE(db_.indexExists(name));
    EXPECT_EQ(db_.lastError().code, 0) << db_.error();
  }
}

TEST_F(SchemaIntrospection, ExistsCoversVirtualShadowAndSQLitesOwnTables) {
  SQLITEBRIDGE_SKIP_UNLESS_COMPILED("ENABLE_FTS5");
  ASSERT_TRUE(db_.execute("CREATE VIRTUAL TABLE docs USING fts5(body)")) << db_.error();
  ASSERT_TRUE(db_.execute("CREATE TABLE counted(id INTEGER PRIMARY KEY AUTOINCREMENT)")) << db_.error();
  EXPECT_TRUE(db_.tableExists("docs"));
  EXPECT_TRUE(db_.tableExists("docs_data"));  // a shadow table
  EXPECT_TRUE(db_.tableExists("sqlite_sequence"));
  EXPECT_TRUE(db_.tableExists("sqlite_schema"));
  EXPECT_TRUE(db_.tableExists("sqlite_master"));
}

TEST_F(SchemaIntrospection, ExistsChecksFailOnlyWhenClosed) {
  db_.close();
  EXPECT_FALSE(db_.tableExists("parent"));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  EXPECT_FALSE(db_.viewExists("parent_codes"));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  EXPECT_FALSE(db_.triggerExists("child_added"));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  EXPECT_FALSE(db_.indexExists("child_parent"));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
}

// MARK: Table names

TEST_F(SchemaIntrospection, TableNamesListsTheMainSchemasUserTablesSorted) {
  SQLITEBRIDGE_SKIP_UNLESS_COMPILED("ENABLE_FTS5");
  ASSERT_TRUE(
      db_.executeScript("CREATE TABLE Zeta(z); CREATE TABLE alpha(a);"
                        "CREATE TABLE counted(id INTEGER PRIMARY KEY AUTOINCREMENT);"
                        "INSERT INTO counted DEFAULT VALUES;"
                        "CREATE VIRTUAL TABLE docs USING fts5(body);"
                        "CREATE TEMP TABLE scratch(s);"
                        "ATTACH ':memory:' AS aux; CREATE TABLE aux.elsewhere(e);"))
      << db_.error();
  ASSERT_TRUE(db_.tableExists("sqlite_sequence"));
  // Sorted by bytes: capitals first. No sqlite_*, shadow tables, views, temp
  // or attached tables.
  EXPECT_EQ(tableNames(), (Names{"Zeta", "alpha", "child", "counted", "docs", "parent"}));
  EXPECT_EQ(db_.lastError().code, 0);
}

TEST_F(SchemaIntrospection, TableNamesOfAnEmptyDatabaseIsEmpty) {
  Database empty = Database::open(":memory:");
  Names names{"stale"};
  ASSERT_TRUE(empty.tableNames(names)) << empty.error();
  EXPECT_TRUE(names.empty());
}

// MARK: Columns

TEST_F(SchemaIntrospection, ColumnsReportTypeNotNullDefaultKeyAndHidden) {
  ASSERT_TRUE(
      db_.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name VARCHAR(20) NOT NULL DEFAULT 'x', "
                  "n INT DEFAULT 0, at TEXT DEFAULT CURRENT_TIMESTAMP, neg REAL DEFAULT -1.5, "
                  "plain, twice AS (n * 2) VIRTUAL, total INT GENERATED ALWAYS AS (n + 1) STORED)"))
      << db_.error();
  std::vector<ColumnInfo> columns;
  ASSERT_TRUE(db_.columns("t", columns)) << db_.error();
  EXPECT_EQ(describe(columns), describe(std::vector<ColumnInfo>{
                                   column("id", "INTEGER", false, std::nullopt, 1, false),
                                   column("name", "VARCHAR(20)", true, "'x'", 0, false),
                                   column("n", "INT", false, "0", 0, false),
                                   column("at", "TEXT", false, "CURRENT_TIMESTAMP", 0, false),
                                   column("neg", "REAL", false, "-1.5", 0, false),
                                   column("plain", "", false, std::nullopt, 0, false),
                                   column("twice", "", false, std::nullopt, 0, true),
                                   column("total", "INT", false, std::nullopt, 0, true),
                               }));
  EXPECT_EQ(db_.lastError().code, 0);
}

TEST_F(SchemaIntrospection, HiddenColumnsOfAVirtualTableAreHidden) {
  SQLITEBRIDGE_SKIP_UNLESS_COMPILED("ENABLE_FTS5");
  ASSERT_TRUE(db_.execute("CREATE VIRTUAL TABLE docs USING fts5(title, body)")) << db_.error();
  std::vector<ColumnInfo> columns;
  ASSERT_TRUE(db_.columns("docs", columns)) << db_.error();
  EXPECT_EQ(describe(columns), describe(std::vector<ColumnInfo>{
                                   column("title", "", false, std::nullopt, 0, false),
                                   column("body", "", false, std::nullopt, 0, false),
                                   column("docs", "", false, std::nullopt, 0, true),
                                   column("rank", "", false, std::nullopt, 0, true),
                               }));
}

TEST_F(SchemaIntrospection, ColumnsOfAViewAreListed) {
  std::vector<ColumnInfo> columns;
  ASSERT_TRUE(db_.columns("parent_codes", columns)) << db_.error();
  ASSERT_EQ(columns.size(), 1u);
  EXPECT_EQ(columns[0].name, "code");
}

// MARK: Primary keys

TEST_F(SchemaIntrospection, PrimaryKeyInKeyOrder) {
  ASSERT_TRUE(
      db_.executeScript("CREATE TABLE plain(a, b);"
                        "CREATE TABLE composite(a, b, c, PRIMARY KEY(c, a));"
                        "CREATE TABLE textkey(code TEXT PRIMARY KEY, v);"
                        "CREATE TABLE kv(q, r, s, PRIMARY KEY(r, q)) WITHOUT ROWID;"))
      << db_.error();
  Names key;
  ASSERT_TRUE(db_.primaryKey("plain", key)) << db_.error();
  EXPECT_EQ(key, Names{"rowid"});
  ASSERT_TRUE(db_.primaryKey("parent", key)) << db_.error();
  EXPECT_EQ(key, Names{"id"});
  ASSERT_TRUE(db_.primaryKey("composite", key)) << db_.error();
  EXPECT_EQ(key, (Names{"c", "a"}));
  ASSERT_TRUE(db_.primaryKey("textkey", key)) << db_.error();
  EXPECT_EQ(key, Names{"code"});
  ASSERT_TRUE(db_.primaryKey("kv", key)) << db_.error();
  EXPECT_EQ(key, (Names{"r", "q"}));
  std::vector<ColumnInfo> columns;
  ASSERT_TRUE(db_.columns("kv", columns)) << db_.error();
  EXPECT_EQ(columns[0].primaryKeyIndex, 2);
  EXPECT_EQ(columns[1].primaryKeyIndex, 1);
  EXPECT_EQ(columns[2].primaryKeyIndex, 0);
  EXPECT_TRUE(columns[0].isNotNull);  // WITHOUT ROWID keys are NOT NULL
}

TEST_F(SchemaIntrospection, AViewHasNoPrimaryKeyIndexesOrForeignKeys) {
  Names key{"stale"};
  EXPECT_FALSE(db_.primaryKey("parent_codes", key));
  expectNoSuchTableError("parent_codes");
  EXPECT_TRUE(key.empty());
  std::vector<IndexInfo> indexes;
  EXPECT_FALSE(db_.indexes("parent_codes", indexes));
  expectNoSuchTableError("parent_codes");
  std::vector<ForeignKeyInfo> keys;
  EXPECT_FALSE(db_.foreignKeys("parent_codes", keys));
  expectNoSuchTableError("parent_codes");
}

// MARK: Indexes

TEST_F(SchemaIntrospection, IndexesWithColumnsUniquenessAndOrigin) {
  ASSERT_TRUE(
      db_.executeScript("CREATE TABLE kv(q, r, s UNIQUE, PRIMARY KEY(r, q)) WITHOUT ROWID;"
                        "CREATE UNIQUE INDEX kv_s_q ON kv(s DESC, q);"
                        "CREATE INDEX kv_expr ON kv(lower(s), r);"
                        "CREATE TABLE textkey(code TEXT PRIMARY KEY);"
                        "CREATE TABLE bare(x);"))
      << db_.error();
  std::vector<IndexInfo> indexes;
  ASSERT_TRUE(db_.indexes("kv", indexes)) << db_.error();
  EXPECT_EQ(describe(indexes), (Names{
                                   "kv_expr(,r) c",
                                   "kv_s_q(s,q) unique c",
                                   "sqlite_autoindex_kv_1(s) unique u",
                                   "sqlite_autoindex_kv_2(r,q) unique pk",
                               }));
  ASSERT_TRUE(db_.indexes("parent", indexes)) << db_.error();
  EXPECT_EQ(describe(indexes), (Names{"sqlite_autoindex_parent_1(code,region) unique u"}));
  ASSERT_TRUE(db_.indexes("child", indexes)) << db_.error();
  EXPECT_EQ(describe(indexes), (Names{"child_parent(parent_id) c"}));
  ASSERT_TRUE(db_.indexes("textkey", indexes)) << db_.error();
  EXPECT_EQ(describe(indexes), (Names{"sqlite_autoindex_textkey_1(code) unique pk"}));
  indexes.resize(3);
  ASSERT_TRUE(db_.indexes("bare", indexes)) << db_.error();
  EXPECT_TRUE(indexes.empty());
}

// MARK: Foreign keys

TEST_F(SchemaIntrospection, ForeignKeysGroupColumnsAndKeepActions) {
  std::vector<ForeignKeyInfo> keys;
  ASSERT_TRUE(db_.foreignKeys("child", keys)) << db_.error();
  // SQLite's id order: the last declared key is id 0.
  EXPECT_EQ(describe(keys), (Names{
                                "(code,region)->parent(code,region) update SET NULL delete NO ACTION",
                                "(parent_id)->parent() update NO ACTION delete CASCADE",
                            }));
  ASSERT_TRUE(db_.foreignKeys("parent", keys)) << db_.error();
  EXPECT_TRUE(keys.empty());
}

// MARK: Checks

TEST_F(SchemaIntrospection, IntegrityCheckOfASoundDatabaseIsEmpty) {
  ASSERT_TRUE(db_.execute("INSERT INTO parent(code, region) VALUES ('a', 'b')")) << db_.error();
  Names problems{"stale"};
  ASSERT_TRUE(db_.integrityCheck(problems)) << db_.error();
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(db_.lastError().code, 0);
}

TEST_F(SchemaIntrospection, IntegrityCheckReportsACorruptIndex) {
  // An index that disagrees with its table: written with writable_schema.
  TempDir dir;
  const std::string path = dir / "corrupt.db";
  ASSERT_TRUE(makeDatabaseFile(path,
                               "CREATE TABLE t(a); CREATE INDEX t_a ON t(a);"
                               "INSERT INTO t VALUES (1), (2), (3);"
                               "PRAGMA writable_schema = ON;"
                               "UPDATE sqlite_master SET sql = 'CREATE INDEX t_a ON t(a DESC)' WHERE name = 't_a';"));
  Database file = Database::open(path);
  ASSERT_TRUE(file.isOpen()) << file.error();
  Names problems;
  ASSERT_TRUE(file.integrityCheck(problems)) << file.error();
  EXPECT_FALSE(problems.empty());
  for (const std::string& problem : problems) EXPECT_NE(problem, "ok");
}

TEST_F(SchemaIntrospection, ForeignKeyCheckFindsRowsThatBreakAKey) {
  ASSERT_TRUE(
      db_.executeScript("PRAGMA foreign_keys = OFF;"
                        "INSERT INTO parent(id, code, region) VALUES (1, 'a', 'b');"
                        "INSERT INTO child(id, parent_id, code, region) VALUES (10, 1, 'a', 'b');"
                        "INSERT INTO child(id, parent_id, code, region) VALUES (11, 99, 'a', 'b');"
                        "INSERT INTO child(id, parent_id, code, region) VALUES (12, 1, 'zz', 'b');"
                        "CREATE TABLE kv(k PRIMARY KEY, p REFERENCES parent) WITHOUT ROWID;"
                        "INSERT INTO kv VALUES ('x', 42);"))
      << db_.error();
  std::vector<ForeignKeyViolation> violations;
  ASSERT_TRUE(db_.foreignKeyCheck(violations)) << db_.error();
  std::vector<std::string> lines = describe(violations);
  std::sort(lines.begin(), lines.end());
  // Key 0 of child is (code, region), key 1 is parent_id (see foreignKeys).
  // An older SQLite may report a meaningless rowid for a row of a WITHOUT
  // ROWID table (SQLCipher 3's SQLite 3.15 did); 3.40 reports none.
  if (!sqliteIsAtLeast(3040000) && lines.size() == 3 && lines[2].rfind("kv rowid ", 0) == 0) {
    lines[2] = "kv rowid none -> parent key 0";
  }
  EXPECT_EQ(lines, (Names{"child rowid 11 -> parent key 1", "child rowid 12 -> parent key 0",
                          "kv rowid none -> parent key 0"}));
  std::vector<ForeignKeyInfo> keys;
  ASSERT_TRUE(db_.foreignKeys("child", keys)) << db_.error();
  EXPECT_EQ(keys[1].columns, Names{"parent_id"});
}

TEST_F(SchemaIntrospection, ForeignKeyCheckOfASoundDatabaseIsEmpty) {
  std::vector<ForeignKeyViolation> violations(2);
  ASSERT_TRUE(db_.foreignKeyCheck(violations)) << db_.error();
  EXPECT_TRUE(violations.empty());
}

// MARK: Names

TEST_F(SchemaIntrospection, NamesMatchIgnoringASCIICase) {
  EXPECT_TRUE(db_.tableExists("PARENT"));
  EXPECT_TRUE(db_.viewExists("Parent_Codes"));
  EXPECT_TRUE(db_.triggerExists("CHILD_ADDED"));
  EXPECT_TRUE(db_.indexExists("Child_Parent"));
  std::vector<ColumnInfo> columns;
  ASSERT_TRUE(db_.columns("ChIlD", columns)) << db_.error();
  EXPECT_EQ(columns.size(), 4u);
  Names key;
  ASSERT_TRUE(db_.primaryKey("CHILD", key)) << db_.error();
  EXPECT_EQ(key, Names{"id"});
  std::vector<IndexInfo> indexes;
  ASSERT_TRUE(db_.indexes("CHILD", indexes)) << db_.error();
  EXPECT_EQ(describe(indexes), (Names{"child_parent(parent_id) c"}));
  std::vector<ForeignKeyInfo> keys;
  ASSERT_TRUE(db_.foreignKeys("Child", keys)) << db_.error();
  EXPECT_EQ(keys.size(), 2u);
}

TEST_F(SchemaIntrospection, HostileNamesAreJustNames) {
  const std::string hostile = "x\"; DROP TABLE t; --";
  const std::string spaced = "order items";
  ASSERT_TRUE(
      db_.executeScript("CREATE TABLE t(id INTEGER PRIMARY KEY);"
                        "CREATE TABLE \"x\"\"; DROP TABLE t; --\"(\"a\"\"; b\" INTEGER PRIMARY KEY, "
                        "  \"ref col\" REFERENCES \"order items\"(\"the id\"));"
                        "CREATE TABLE \"order items\"(\"the id\" INTEGER PRIMARY KEY, \"x y\" UNIQUE);"
                        "CREATE INDEX \"x\"\"; DROP TABLE t; -- index\" ON \"x\"\"; DROP TABLE t; --\"(\"ref col\");"
                        "CREATE VIEW \"a view; --\" AS SELECT 1;"
                        "CREATE TRIGGER \"trig\"\"ger\" AFTER INSERT ON t BEGIN SELECT 1; END;"))
      << db_.error();
  EXPECT_TRUE(db_.tableExists(hostile));
  EXPECT_TRUE(db_.tableExists(spaced));
  EXPECT_TRUE(db_.indexExists(hostile + " index"));
  EXPECT_TRUE(db_.viewExists("a view; --"));
  EXPECT_TRUE(db_.triggerExists("trig\"ger"));
  std::vector<ColumnInfo> columns;
  ASSERT_TRUE(db_.columns(hostile, columns)) << db_.error();
  ASSERT_EQ(columns.size(), 2u);
  EXPECT_EQ(columns[0].name, "a\"; b");
  EXPECT_EQ(columns[1].name, "ref col");
  Names key;
  ASSERT_TRUE(db_.primaryKey(hostile, key)) << db_.error();
  EXPECT_EQ(key, Names{"a\"; b"});
  std::vector<IndexInfo> indexes;
  ASSERT_TRUE(db_.indexes(hostile, indexes)) << db_.error();
  EXPECT_EQ(describe(indexes), (Names{hostile + " index(ref col) c"}));
  ASSERT_TRUE(db_.indexes(spaced, indexes)) << db_.error();
  EXPECT_EQ(describe(indexes), (Names{"sqlite_autoindex_order items_1(x y) unique u"}));
  std::vector<ForeignKeyInfo> keys;
  ASSERT_TRUE(db_.foreignKeys(hostile, keys)) << db_.error();
  EXPECT_EQ(describe(keys), (Names{"(ref col)->order items(the id) update NO ACTION delete NO ACTION"}));
  EXPECT_EQ(tableNames(), (Names{"child", "order items", "parent", "t", hostile}));
  // Nothing ran: t is still there.
  EXPECT_TRUE(db_.tableExists("t"));
  expectNoSuchTable("x\"; DROP TABLE t; -- ");
  EXPECT_TRUE(db_.tableExists("t"));
}

TEST_F(SchemaIntrospection, UnicodeNamesWork) {
  ASSERT_TRUE(
      db_.executeScript("CREATE TABLE café_ñ(\"ünï\" TEXT PRIMARY KEY, 表 REFERENCES 表);"
                        "CREATE TABLE 表(列 INTEGER PRIMARY KEY);"
                        "CREATE INDEX 索引 ON café_ñ(表);"))
      << db_.error();
  EXPECT_TRUE(db_.tableExists("café_ñ"));
  EXPECT_TRUE(db_.tableExists("表"));
  EXPECT_TRUE(db_.indexExists("索引"));
  // Only ASCII letters fold, as in SQLite.
  EXPECT_TRUE(db_.tableExists("CAFé_ñ"));
  EXPECT_FALSE(db_.tableExists("CAFÉ_Ñ"));
  EXPECT_EQ(db_.lastError().code, 0);
  Names key;
  ASSERT_TRUE(db_.primaryKey("café_ñ", key)) << db_.error();
  EXPECT_EQ(key, Names{"ünï"});
  std::vector<ColumnInfo> columns;
  ASSERT_TRUE(db_.columns("表", columns)) << db_.error();
  EXPECT_EQ(describe(columns), Names{"列|INTEGER|null|nodefault|pk1|shown"});
  std::vector<IndexInfo> indexes;
  ASSERT_TRUE(db_.indexes("café_ñ", indexes)) << db_.error();
  EXPECT_EQ(describe(indexes), (Names{"sqlite_autoindex_café_ñ_1(ünï) unique pk", "索引(表) c"}));
  std::vector<ForeignKeyInfo> keys;
  ASSERT_TRUE(db_.foreignKeys("café_ñ", keys)) << db_.error();
  EXPECT_EQ(describe(keys), (Names{"(表)->表() update NO ACTION delete NO ACTION"}));
  EXPECT_EQ(tableNames(), (Names{"café_ñ", "child", "parent", "表"}));
  expectNoSuchTable("CAFÉ_Ñ");
}

TEST_F(SchemaIntrospection, AttachedSchemasAreReachedByQualifiedNames) {
  ASSERT_TRUE(
      db_.executeScript("ATTACH ':memory:' AS aux;"
                        "CREATE TABLE aux.remote(r TEXT PRIMARY KEY, p REFERENCES parent);"
                        "CREATE INDEX aux.remote_p ON remote(p);"
                        "CREATE VIEW aux.remote_view AS SELECT 1;"
                        "CREATE TRIGGER aux.remote_added AFTER INSERT ON remote BEGIN SELECT 1; END;"
                        "CREATE TABLE aux.parent(only_in_aux);"))
      << db_.error();
  for (const std::string name : {"aux.remote", "AUX.Remote", "remote"}) {
    SCOPED_TRACE(name);
    EXPECT_TRUE(db_.tableExists(name));
    Names key;
    ASSERT_TRUE(db_.primaryKey(name, key)) << db_.error();
    EXPECT_EQ(key, Names{"r"});
    std::vector<IndexInfo> indexes;
    ASSERT_TRUE(db_.indexes(name, indexes)) << db_.error();
    EXPECT_EQ(describe(indexes), (Names{"remote_p(p) c", "sqlite_autoindex_remote_1(r) unique pk"}));
    std::vector<ForeignKeyInfo> keys;
    ASSERT_TRUE(db_.foreignKeys(name, keys)) << db_.error();
    EXPECT_EQ(describe(keys), (Names{"(p)->parent() update NO ACTION delete NO ACTION"}));
  }
  EXPECT_TRUE(db_.indexExists("aux.remote_p"));
  EXPECT_TRUE(db_.viewExists("aux.remote_view"));
  EXPECT_TRUE(db_.triggerExists("aux.remote_added"));
  EXPECT_FALSE(db_.indexExists("main.remote_p"));
  EXPECT_EQ(db_.lastError().code, 0);
  // Unqualified, main comes before aux; qualified, each its own.
  std::vector<ColumnInfo> columns;
  ASSERT_TRUE(db_.columns("parent", columns)) << db_.error();
  EXPECT_EQ(columns.size(), 3u);
  ASSERT_TRUE(db_.columns("main.parent", columns)) << db_.error();
  EXPECT_EQ(columns.size(), 3u);
  ASSERT_TRUE(db_.columns("aux.parent", columns)) << db_.error();
  ASSERT_EQ(columns.size(), 1u);
  EXPECT_EQ(columns[0].name, "only_in_aux");
  Names names;
  ASSERT_TRUE(db_.tableColumns("aux.parent", names)) << db_.error();
  EXPECT_EQ(names, Names{"only_in_aux"});
  EXPECT_TRUE(db_.hasTableColumn("AUX.PARENT", "only_in_aux"));
  // tableNames is the main schema's.
  EXPECT_EQ(tableNames(), (Names{"child", "parent"}));
  expectNoSuchTable("main.remote");
  expectNoSuchTable("aux.nowhere");
  expectNoSuchTable("nope.remote");
}

TEST_F(SchemaIntrospection, TempComesBeforeMainForAnUnqualifiedName) {
  ASSERT_TRUE(db_.execute("CREATE TEMP TABLE parent(temp_only)")) << db_.error();
  expectFoundWithOneColumn("parent", "temp_only");
  expectFoundWithOneColumn("temp.parent", "temp_only");
  std::vector<ColumnInfo> columns;
  ASSERT_TRUE(db_.columns("main.parent", columns)) << db_.error();
  EXPECT_EQ(columns.size(), 3u);
}

TEST_F(SchemaIntrospection, ATableNamedLikeAQualifiedNameWinsAsItIs) {
  ASSERT_TRUE(
      db_.executeScript("ATTACH ':memory:' AS aux;"
                        "CREATE TABLE aux.t(in_aux);"
                        "CREATE TABLE t(in_main);"
                        "CREATE TABLE \"aux.t\"(dotted);"
                        "CREATE TABLE \"a.b\"(ab);"))
      << db_.error();
  expectFoundWithOneColumn("aux.t", "dotted");  // the name as it is wins
  expectFoundWithOneColumn("AUX.T", "dotted");
  expectFoundWithOneColumn("main.aux.t", "dotted");
  expectFoundWithOneColumn("main.t", "in_main");
  expectFoundWithOneColumn("t", "in_main");
  expectFoundWithOneColumn("a.b", "ab");  // no schema "a": just a name
  expectFoundWithOneColumn("main.a.b", "ab");
  expectNoSuchTable("aux.a.b");
  ASSERT_TRUE(db_.execute("DROP TABLE \"aux.t\"")) << db_.error();
  expectFoundWithOneColumn("aux.t", "in_aux");  // now split at the schema
}

// Found by the execute_sql fuzz target (its oracle asked SQLite for the
// literal name "main.v"): a view has columns too, so tableColumns and
// hasTableColumn follow the same name rule for it.
TEST_F(SchemaIntrospection, AViewIsFoundByItsSchemaQualifiedNameUnlessADottedNameIsItself) {
  ASSERT_TRUE(
      db_.executeScript("CREATE VIEW v AS SELECT 1 AS one, 2 AS two;"
                        "CREATE TEMP VIEW tv AS SELECT 3 AS three;"))
      << db_.error();
  Names names;
  for (const std::string name : {"v", "main.v", "MAIN.V", "main.main.v"}) {
    SCOPED_TRACE(name);
    if (name == "main.main.v") {
      // "main.v" is not a name here, so "main.main.v" is "main.v" in main.
      EXPECT_FALSE(db_.tableColumns(name, names));
      expectNoSuchTableError(name);
      continue;
    }
    ASSERT_TRUE(db_.tableColumns(name, names)) << db_.error();
    EXPECT_EQ(names, (Names{"one", "two"}));
    EXPECT_TRUE(db_.hasTableColumn(name, "TWO")) << db_.error();
  }
  ASSERT_TRUE(db_.tableColumns("temp.tv", names)) << db_.error();
  EXPECT_EQ(names, Names{"three"});
  EXPECT_FALSE(db_.tableColumns("main.tv", names));
  expectNoSuchTableError("main.tv");

  ASSERT_TRUE(db_.execute("CREATE TABLE \"main.v\"(dotted)")) << db_.error();
  ASSERT_TRUE(db_.tableColumns("main.v", names)) << db_.error();
  EXPECT_EQ(names, Names{"dotted"});  // the name as it is wins
  EXPECT_FALSE(db_.hasTableColumn("main.v", "one"));
  EXPECT_EQ(db_.lastError().code, 0);
  ASSERT_TRUE(db_.tableColumns("main.main.v", names)) << db_.error();
  EXPECT_EQ(names, Names{"dotted"});
  ASSERT_TRUE(db_.tableColumns("v", names)) << db_.error();
  EXPECT_EQ(names, (Names{"one", "two"}));
}

TEST_F(SchemaIntrospection, MissingTablesAreErrorsNeverEmptyLists) {
  expectNoSuchTable("nowhere");
  expectNoSuchTable("");
  expectNoSuchTable("parent; DROP TABLE parent");
  expectNoSuchTable("'parent'");
  expectNoSuchTable("main.");
  expectNoSuchTable(".parent");
  EXPECT_TRUE(db_.tableExists("parent"));
}

TEST_F(SchemaIntrospection, NamesHoldingNulNameNothing) {
  const std::string name("parent\0; DROP TABLE parent", 26);
  EXPECT_FALSE(db_.tableExists(name));
  EXPECT_EQ(db_.lastError().code, 0);
  EXPECT_FALSE(db_.indexExists(std::string("child_parent\0x", 14)));
  EXPECT_EQ(db_.lastError().code, 0);
  std::vector<ColumnInfo> columns;
  EXPECT_FALSE(db_.columns(name, columns));
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
  EXPECT_EQ(db_.error(), "no such table: parent?; DROP TABLE parent (the name holds a NUL byte)");
  EXPECT_TRUE(db_.tableExists("parent"));
}

TEST_F(SchemaIntrospection, EveryCallFailsWithMisuseWhenClosed) {
  db_.close();
  Names names;
  EXPECT_FALSE(db_.tableNames(names));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  std::vector<ColumnInfo> columns;
  EXPECT_FALSE(db_.columns("parent", columns));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  EXPECT_FALSE(db_.primaryKey("parent", names));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  std::vector<IndexInfo> indexes;
  EXPECT_FALSE(db_.indexes("parent", indexes));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  std::vector<ForeignKeyInfo> keys;
  EXPECT_FALSE(db_.foreignKeys("parent", keys));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  EXPECT_FALSE(db_.integrityCheck(names));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  std::vector<ForeignKeyViolation> violations;
  EXPECT_FALSE(db_.foreignKeyCheck(violations));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
}

TEST_F(SchemaIntrospection, AnswersFollowSchemaChanges) {
  ASSERT_TRUE(db_.execute("ALTER TABLE parent ADD COLUMN added TEXT DEFAULT 'new'")) << db_.error();
  std::vector<ColumnInfo> columns;
  ASSERT_TRUE(db_.columns("parent", columns)) << db_.error();
  ASSERT_EQ(columns.size(), 4u);
  EXPECT_EQ(columns[3].defaultValueSQL, std::optional<std::string>("'new'"));
  ASSERT_TRUE(db_.execute("DROP VIEW parent_codes")) << db_.error();
  EXPECT_FALSE(db_.viewExists("parent_codes"));
  ASSERT_TRUE(db_.execute("DROP TABLE child")) << db_.error();
  EXPECT_FALSE(db_.triggerExists("child_added"));
  EXPECT_FALSE(db_.indexExists("child_parent"));
  expectNoSuchTable("child");
}

// Every reading at once, on main, temp and an attached schema, and
// updateTable on what they read.
TEST(SchemaIntrospectionAcrossSchemas, ColumnsNamesIndexesAndKeysOfMainTempAndAttached) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.executeScript(
      "CREATE TABLE parent(id INTEGER PRIMARY KEY, code TEXT UNIQUE);"
      "CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parent(id) ON DELETE CASCADE, "
      "note TEXT DEFAULT 'n');"
      "CREATE INDEX child_parent ON child(parent_id);"
      "CREATE TEMP TABLE scratch(s);"
      "ATTACH ':memory:' AS aux; CREATE TABLE aux.elsewhere(e);"))
      << db.error();
  std::vector<ColumnInfo> columns;
  ASSERT_TRUE(db.columns("child", columns)) << db.error();
  ASSERT_EQ(columns.size(), 3u);
  EXPECT_EQ(columns[1].name, "parent_id");
  EXPECT_TRUE(columns[1].isNotNull);
  EXPECT_EQ(columns[2].defaultValueSQL.value_or(""), "'n'");
  EXPECT_FALSE(columns[2].isHidden);
  std::vector<std::string> names;
  ASSERT_TRUE(db.tableNames(names)) << db.error();
  EXPECT_EQ(names, (std::vector<std::string>{"child", "parent"}));
  EXPECT_TRUE(db.tableExists("sqlite_master"));
  EXPECT_TRUE(db.tableExists("SCRATCH"));
  EXPECT_TRUE(db.tableExists("aux.elsewhere"));
  EXPECT_TRUE(db.hasTableColumn("scratch", "s")) << db.error();
  EXPECT_TRUE(db.indexExists("child_parent"));
  std::vector<sqlitebridge::IndexInfo> indexes;
  ASSERT_TRUE(db.indexes("child", indexes)) << db.error();
  ASSERT_EQ(indexes.size(), 1u);
  EXPECT_EQ(indexes[0].columns, (std::vector<std::string>{"parent_id"}));
  std::vector<sqlitebridge::ForeignKeyInfo> keys;
  ASSERT_TRUE(db.foreignKeys("child", keys)) << db.error();
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(keys[0].destinationTable, "parent");
  EXPECT_EQ(keys[0].onDelete, "CASCADE");
  // updateTable reads the columns and the references the same way.
  ASSERT_TRUE(db.executeScript("INSERT INTO parent VALUES (1, 'a'); INSERT INTO child(parent_id) VALUES (1);"))
      << db.error();
  ASSERT_TRUE(
      db.updateTable("CREATE TABLE parent(id INTEGER PRIMARY KEY, code TEXT UNIQUE, rank INTEGER)", "", "parent"))
      << db.error();
  EXPECT_TRUE(db.hasTableColumn("parent", "rank"));
  EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM child"), 1);
}
