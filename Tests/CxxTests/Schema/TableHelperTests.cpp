// Table helpers: insert (each ConflictResolution), update and remove (counts,
// the refused empty WHERE), select (columns, WHERE, ORDER BY, LIMIT),
// createTable with every ColumnDefinition option, addColumn, dropTable;
// hostile and unicode names stay names; bad types and references are
// refused before anything runs.
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "HostileSupport.hpp"

using sqlitebridge::ColumnDefinition;
using sqlitebridge::ConflictResolution;
using sqlitebridge::Database;
using sqlitebridge::NamedValues;
using sqlitebridge::ResultCode;
using sqlitebridge::Row;
using sqlitebridge::Value;
using namespace sqlitebridge_test;

namespace {

const std::string kHostileTable = "x\"; DROP TABLE t; --";
const std::string kHostileColumn = "y\"); DELETE FROM t; --";

class TableHelpers : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT UNIQUE, score REAL)")) << db_.error();
    ASSERT_TRUE(db_.execute("INSERT INTO t(name, score) VALUES ('a', 1.5), ('b', 2.5), ('c', 3.5)")) << db_.error();
  }
  std::vector<Row> selectAll(const std::string& table, const std::vector<std::string>& orderBy = {}) {
    std::vector<Row> rows;
    EXPECT_TRUE(db_.select({}, table, "", {}, rows, orderBy)) << db_.error();
    return rows;
  }
  std::int64_t count(const std::string& table = "t") {
    return scalarInteger(db_, "SELECT count(*) FROM \"" + table + "\"");
  }

  TempDir dir_;
  Database db_ = Database::open(dir_ / "helpers.db");
};

}  // namespace

TEST_F(TableHelpers, InsertBindsEveryValueInOrderAndReturnsTheRowId) {
  ASSERT_TRUE(db_.execute("CREATE TABLE v(i INTEGER, r REAL, s TEXT, b BLOB, n)")) << db_.error();
  std::int64_t rowID = -1;
  const Value blob = Value::fromBlob(std::vector<std::uint8_t>{0, 1, 0xff});
  ASSERT_TRUE(
      db_.insert("v", {{"s", "it's"}, {"i", Value(std::int64_t{-7})}, {"r", 0.1}, {"b", blob}, {"n", Value()}}, &rowID))
      << db_.error();
  EXPECT_EQ(rowID, 1);
  EXPECT_EQ(dump(db_, "SELECT * FROM v"),
            std::vector<std::string>{"i=int:-7|r=real:0.10000000000000001|s=text:it's|b=blob:0 1 ff |n=NULL"});
  ASSERT_TRUE(db_.insert("t", {{"name", "d"}}, &rowID)) << db_.error();
  EXPECT_EQ(rowID, 4);
  EXPECT_EQ(rowID, db_.lastInsertRowId());
}

TEST_F(TableHelpers, InsertWithoutValuesInsertsDefaultValues) {
  ASSERT_TRUE(db_.execute("CREATE TABLE d(id INTEGER PRIMARY KEY, note TEXT DEFAULT 'none')")) << db_.error();
  std::int64_t rowID = 0;
  ASSERT_TRUE(db_.insert("d", NamedValues(), &rowID)) << db_.error();
  EXPECT_EQ(rowID, 1);
  EXPECT_EQ(dump(db_, "SELECT * FROM d"), std::vector<std::string>{"id=int:1|note=text:none"});
}

TEST_F(TableHelpers, AbortFailsUndoingTheStatementOnly) {
  ASSERT_TRUE(db_.begin()) << db_.error();
  ASSERT_TRUE(db_.insert("t", {{"name", "e"}}));
  std::int64_t rowID = -1;
  EXPECT_FALSE(db_.insert("t", {{"name", "a"}}, &rowID, ConflictResolution::Abort));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Constraint)) << db_.error();
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_UNIQUE) << db_.error();
  EXPECT_EQ(rowID, -1) << "a failed insert reports no rowid";
  EXPECT_TRUE(db_.isInTransaction());
  ASSERT_TRUE(db_.commit()) << db_.error();
  EXPECT_EQ(count(), 4);
  // Abort is the default.
  EXPECT_FALSE(db_.insert("t", {{"name", "b"}}));
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_UNIQUE) << db_.error();
}

TEST_F(TableHelpers, ReplaceDeletesTheRowInTheWay) {
  std::int64_t rowID = 0;
  ASSERT_TRUE(db_.insert("t", {{"name", "a"}, {"score", 9.0}}, &rowID, ConflictResolution::Replace)) << db_.error();
  EXPECT_EQ(rowID, 4);
  EXPECT_EQ(dump(db_, "SELECT id, name, score FROM t ORDER BY id"),
            (std::vector<std::string>{"id=int:2|name=text:b|score=real:2.5", "id=int:3|name=text:c|score=real:3.5",
                                      "id=int:4|name=text:a|score=real:9"}));
}

TEST_F(TableHelpers, IgnoreSkipsTheRowAndReportsRowIdZero) {
  std::int64_t rowID = -1;
  ASSERT_TRUE(db_.insert("t", {{"name", "z"}}, &rowID, ConflictResolution::Ignore)) << db_.error();
  EXPECT_EQ(rowID, 4);
  const std::vector<std::string> before = snapshot(db_, {"t"});
  ASSERT_TRUE(db_.insert("t", {{"name", "a"}, {"score", 100.0}}, &rowID, ConflictResolution::Ignore)) << db_.error();
  EXPECT_EQ(rowID, 0) << "nothing was inserted";
  EXPECT_FALSE(db_.lastError().isError());
  EXPECT_EQ(snapshot(db_, {"t"}), before);
}

TEST_F(TableHelpers, FailKeepsTheTransactionAndWhatCameBefore) {
  ASSERT_TRUE(db_.begin()) << db_.error();
  ASSERT_TRUE(db_.insert("t", {{"name", "e"}}, nullptr, ConflictResolution::Fail));
  EXPECT_FALSE(db_.insert("t", {{"name", "a"}}, nullptr, ConflictResolution::Fail));
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_UNIQUE) << db_.error();
  EXPECT_TRUE(db_.isInTransaction());
  ASSERT_TRUE(db_.commit()) << db_.error();
  EXPECT_EQ(count(), 4);
}

TEST_F(TableHelpers, RollbackUndoesTheWholeTransaction) {
  ASSERT_TRUE(db_.begin()) << db_.error();
  ASSERT_TRUE(db_.insert("t", {{"name", "e"}}, nullptr, ConflictResolution::Rollback));
  EXPECT_EQ(count(), 4);
  EXPECT_FALSE(db_.insert("t", {{"name", "a"}}, nullptr, ConflictResolution::Rollback));
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_UNIQUE) << db_.error();
  EXPECT_FALSE(db_.isInTransaction()) << "OR ROLLBACK ends the transaction";
  EXPECT_EQ(count(), 3);
}

TEST_F(TableHelpers, UpdateBindsSetValuesThenWhereArgumentsAndCountsRows) {
  int changed = -1;
  ASSERT_TRUE(
      db_.update("t", {{"score", 0.0}, {"name", Value()}}, "name = ? OR id = ?", {Value("b"), Value(3)}, &changed))
      << db_.error();
  EXPECT_EQ(changed, 2);
  EXPECT_EQ(
      dump(db_, "SELECT name, score FROM t ORDER BY id"),
      (std::vector<std::string>{"name=text:a|score=real:1.5", "name=NULL|score=real:0", "name=NULL|score=real:0"}));
  ASSERT_TRUE(db_.update("t", {{"score", 1.0}}, "id > ?", {Value(99)}, &changed)) << db_.error();
  EXPECT_EQ(changed, 0);
  ASSERT_TRUE(db_.update("t", {{"score", 7.0}}, "1", {}, &changed)) << db_.error();
  EXPECT_EQ(changed, 3);
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM t WHERE score = 7"), 3);
}

TEST_F(TableHelpers, RemoveCountsTheRowsItDeletes) {
  int changed = -1;
  ASSERT_TRUE(db_.remove("t", "score > ?", {Value(2.0)}, &changed)) << db_.error();
  EXPECT_EQ(changed, 2);
  EXPECT_EQ(count(), 1);
  ASSERT_TRUE(db_.remove("t", "id = ?", {Value(42)}, &changed)) << db_.error();
  EXPECT_EQ(changed, 0);
  ASSERT_TRUE(db_.remove("t", "1", {}, &changed)) << db_.error();
  EXPECT_EQ(changed, 1);
  EXPECT_EQ(count(), 0);
}

TEST_F(TableHelpers, AnEmptyWhereIsRefusedAndChangesNothing) {
  const std::vector<std::string> before = snapshot(db_, {"t"});
  for (const std::string& where : {std::string(), std::string(" \t\n ")}) {
    int changed = -1;
    EXPECT_FALSE(db_.update("t", {{"score", 0.0}}, where, {}, &changed));
    EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << db_.error();
    EXPECT_NE(db_.error().find("write \"1\" to update every row"), std::string::npos) << db_.error();
    EXPECT_FALSE(db_.remove("t", where, {}, &changed));
    EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << db_.error();
    EXPECT_NE(db_.error().find("write \"1\" to delete every row"), std::string::npos) << db_.error();
    EXPECT_EQ(changed, -1);
  }
  EXPECT_FALSE(db_.update("t", NamedValues(), "1"));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << db_.error();
  EXPECT_NE(db_.error().find("no column to set"), std::string::npos) << db_.error();
  EXPECT_EQ(snapshot(db_, {"t"}), before);
}

TEST_F(TableHelpers, WhereArgumentsMustMatchTheirParameters) {
  const std::vector<std::string> before = snapshot(db_, {"t"});
  EXPECT_FALSE(db_.remove("t", "id = ?", {}));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Range)) << db_.error();
  EXPECT_FALSE(db_.update("t", {{"score", 0.0}}, "id = ?", {Value(1), Value(2)}));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Range)) << db_.error();
  // A trailing comment cannot swallow what the core writes after it.
  std::vector<Row> rows;
  ASSERT_TRUE(db_.select({"name"}, "t", "id > ? -- comment", {Value(1)}, rows, {}, 1)) << db_.error();
  ASSERT_EQ(rows.size(), 1u);
  // A second statement never runs: cut inside the parentheses it is a
  // syntax error; closing them first, it is trailing SQL, refused as
  // everywhere.
  EXPECT_FALSE(db_.remove("t", "1; DROP TABLE t"));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Error)) << db_.error();
  EXPECT_FALSE(db_.remove("t", "1); DROP TABLE t; --"));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << db_.error();
  EXPECT_EQ(snapshot(db_, {"t"}), before);
}

TEST_F(TableHelpers, SelectReadsColumnsWhereOrderByAndLimit) {
  std::vector<Row> rows = selectAll("t");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].size(), 3u) << "no columns selects *";
  ASSERT_TRUE(db_.insert("t", {{"name", "0"}, {"score", 2.5}})) << db_.error();
  ASSERT_TRUE(db_.select({"name", "score"}, "t", "score >= ?", {Value(2.0)}, rows, {"score", "name"})) << db_.error();
  std::vector<std::string> lines;
  for (const Row& row : rows)
    lines.push_back(row.columnName(0) + "=" + row.value(0).asText() + "," + row.columnName(1));
  EXPECT_EQ(lines, (std::vector<std::string>{"name=0,score", "name=b,score", "name=c,score"}));
  ASSERT_TRUE(db_.select({"id"}, "t", "", {}, rows, {"name"}, 2)) << db_.error();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].value(0).asInteger(), 4);
  EXPECT_EQ(rows[1].value(0).asInteger(), 1);
  ASSERT_TRUE(db_.select({"id"}, "t", "id > ?", {Value(1)}, rows, {"id"}, 0)) << db_.error();
  EXPECT_TRUE(rows.empty());
  ASSERT_TRUE(db_.select({"id"}, "t", "id > ?", {Value(1)}, rows, {"id"}, 1)) << db_.error();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].value(0).asInteger(), 2);
  EXPECT_FALSE(db_.select({"id"}, "t", "", {}, rows, {}, -1));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << db_.error();
  EXPECT_TRUE(rows.empty()) << "a failed select leaves no rows";
  // A misspelt column is an error, not a column of constant text (SQLite's
  // leniency with double-quoted names that match no column).
  EXPECT_FALSE(db_.select({"nope"}, "t", "", {}, rows));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Error)) << db_.error();
  EXPECT_NE(db_.error().find("no such column"), std::string::npos) << db_.error();
  EXPECT_FALSE(db_.select({}, "t", "", {}, rows, {"nope"}));
  EXPECT_NE(db_.error().find("no such column"), std::string::npos) << db_.error();
  // The keys are the names as asked for (SQLite compares them ignoring case).
  ASSERT_TRUE(db_.select({"NAME"}, "t", "id = ?", {Value(1)}, rows, {"Id"})) << db_.error();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].columnName(0), "NAME");
  EXPECT_FALSE(db_.select({}, "missing", "", {}, rows));
  EXPECT_NE(db_.error().find("no such table"), std::string::npos) << db_.error();
}

TEST_F(TableHelpers, HostileTableAndColumnNamesAreJustNames) {
  const std::vector<std::string> before = snapshot(db_, {"t"});
  ASSERT_TRUE(
      db_.createTable(kHostileTable, {ColumnDefinition{kHostileColumn, "TEXT"}, ColumnDefinition{"n", "INTEGER"}}))
      << db_.error();
  EXPECT_EQ(scalarInteger(
                db_, "SELECT count(*) FROM sqlite_master WHERE name = '" + std::string("x\"; DROP TABLE t; --") + "'"),
            1);
  std::vector<std::string> columns;
  ASSERT_TRUE(db_.tableColumns(kHostileTable, columns)) << db_.error();
  EXPECT_EQ(columns, (std::vector<std::string>{kHostileColumn, "n"}));
  std::int64_t rowID = 0;
  ASSERT_TRUE(db_.insert(kHostileTable, {{kHostileColumn, "v'); DROP TABLE t; --"}, {"n", 1}}, &rowID)) << db_.error();
  EXPECT_EQ(rowID, 1);
  int changed = 0;
  ASSERT_TRUE(db_.update(kHostileTable, {{kHostileColumn, "w\"; --"}}, "n = ?", {Value(1)}, &changed)) << db_.error();
  EXPECT_EQ(changed, 1);
  std::vector<Row> rows;
  ASSERT_TRUE(db_.select({kHostileColumn}, kHostileTable, "", {}, rows, {kHostileColumn})) << db_.error();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].columnName(0), kHostileColumn);
  EXPECT_EQ(rows[0].value(0).asText(), "w\"; --");
  ASSERT_TRUE(db_.addColumn(ColumnDefinition{"z\" TEXT); DROP TABLE t; --", "TEXT"}, kHostileTable)) << db_.error();
  ASSERT_TRUE(db_.remove(kHostileTable, "1", {}, &changed)) << db_.error();
  EXPECT_EQ(changed, 1);
  ASSERT_TRUE(db_.dropTable(kHostileTable)) << db_.error();
  EXPECT_EQ(snapshot(db_, {"t"}), before) << "nothing but the hostile table changed";
}

TEST_F(TableHelpers, UnicodeNamesRoundTrip) {
  const std::string table = "таблица 表 ✓";
  const std::string column = "名前 é";
  ASSERT_TRUE(db_.createTable(table, {ColumnDefinition{column, "TEXT", false, false, true}})) << db_.error();
  ASSERT_TRUE(db_.insert(table, {{column, "значение"}})) << db_.error();
  std::vector<Row> rows;
  ASSERT_TRUE(db_.select({column}, table, "", {}, rows, {column}, 10)) << db_.error();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].columnName(0), column);
  EXPECT_EQ(rows[0].value(0).asText(), "значение");
  EXPECT_EQ(scalarText(db_, "SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 't'"), table);
}

TEST_F(TableHelpers, NamesHoldingNulAreRefusedBeforeAnythingRuns) {
  const std::vector<std::string> before = snapshot(db_, {"t"});
  const std::string nul("t\0x", 3);
  std::vector<Row> rows;
  const auto expectMisuse = [&](bool ok, const char* what) {
    EXPECT_FALSE(ok) << what;
    EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << what << ": " << db_.error();
    EXPECT_NE(db_.error().find("NUL"), std::string::npos) << what << ": " << db_.error();
  };
  expectMisuse(db_.insert(nul, {{"name", "n"}}), "insert table");
  expectMisuse(db_.insert("t", {{nul, "n"}}), "insert column");
  expectMisuse(db_.update(nul, {{"name", "n"}}, "1"), "update table");
  expectMisuse(db_.update("t", {{nul, "n"}}, "1"), "update column");
  expectMisuse(db_.remove(nul, "1"), "remove table");
  expectMisuse(db_.select({}, nul, "", {}, rows), "select table");
  expectMisuse(db_.select({nul}, "t", "", {}, rows), "select column");
  expectMisuse(db_.select({}, "t", "", {}, rows, {nul}), "select order by");
  expectMisuse(db_.createTable(nul, {ColumnDefinition{"a"}}), "create table");
  expectMisuse(db_.createTable("u", {ColumnDefinition{nul}}), "create column");
  ColumnDefinition reference{"p", "INTEGER"};
  reference.references = nul + "(id)";
  expectMisuse(db_.createTable("u", {reference}), "references");
  ColumnDefinition text{"p", "TEXT"};
  text.defaultValue = Value(nul);
  expectMisuse(db_.createTable("u", {text}), "default text");
  expectMisuse(db_.addColumn(ColumnDefinition{nul}, "t"), "add column");
  expectMisuse(db_.dropTable(nul), "drop table");
  EXPECT_EQ(snapshot(db_, {"t"}), before);
}

TEST_F(TableHelpers, CreateTableRendersEveryOption) {
  ASSERT_TRUE(db_.createTable("parent", {ColumnDefinition{"id", "INTEGER", true, true}})) << db_.error();
  ColumnDefinition code{"code", "VARCHAR(20)"};
  code.notNull = true;
  code.unique = true;
  code.defaultValue = Value("it's");
  ColumnDefinition parent{"parent", "INTEGER"};
  parent.references = " parent ( id ) ";
  ColumnDefinition owner{"owner", "INTEGER"};
  owner.references = "parent";
  ColumnDefinition integer{"i", "INTEGER"};
  integer.defaultValue = Value(std::int64_t{-42});
  ColumnDefinition one{"r1", "REAL"};
  one.defaultValue = Value(1.0);
  ColumnDefinition tenth{"r2"};
  tenth.defaultValue = Value(0.1);
  ColumnDefinition infinite{"r3", "REAL"};
  infinite.defaultValue = Value(-std::numeric_limits<double>::infinity());
  ColumnDefinition blob{"b", "BLOB"};
  blob.defaultValue = Value::fromBlob(std::vector<std::uint8_t>{0xde, 0xad, 0x00});
  ColumnDefinition null{"n", "DECIMAL(10, 2)"};
  null.defaultValue = Value();
  ASSERT_TRUE(db_.createTable("child", {ColumnDefinition{"id", "INTEGER", true}, code, parent, owner, integer, one,
                                        tenth, infinite, blob, null}))
      << db_.error();
  EXPECT_EQ(scalarText(db_, "SELECT sql FROM sqlite_master WHERE name = 'child'"),
            "CREATE TABLE \"child\" (\"id\" INTEGER PRIMARY KEY, \"code\" VARCHAR(20) NOT NULL UNIQUE DEFAULT "
            "'it''s', \"parent\" INTEGER REFERENCES \"parent\"(\"id\"), \"owner\" INTEGER REFERENCES \"parent\", "
            "\"i\" INTEGER DEFAULT -42, \"r1\" REAL DEFAULT (CAST(1 AS REAL)), \"r2\" DEFAULT 0.1, \"r3\" REAL "
            "DEFAULT (-9e999), \"b\" BLOB DEFAULT x'dead00', \"n\" DECIMAL(10, 2) DEFAULT NULL)");
  EXPECT_EQ(scalarText(db_, "SELECT sql FROM sqlite_master WHERE name = 'parent'"),
            "CREATE TABLE \"parent\" (\"id\" INTEGER PRIMARY KEY AUTOINCREMENT)");
  // The pragmas run as statements, which every SQLite has (the pragma
  // functions need 3.16); each row's fields picked by name.
  const auto fields = [](const std::string& line, std::initializer_list<const char*> names) {
    std::vector<std::string> parts;
    for (std::size_t start = 0, bar = 0; bar != std::string::npos; start = bar + 1) {
      bar = line.find('|', start);
      parts.push_back(line.substr(start, bar == std::string::npos ? std::string::npos : bar - start));
    }
    std::string picked;
    for (const char* name : names) {
      for (const std::string& part : parts) {
        if (part.rfind(std::string(name) + "=", 0) == 0) picked += (picked.empty() ? "" : "|") + part;
      }
    }
    return picked;
  };
  std::vector<std::string> columns;
  for (const std::string& line : dump(db_, "PRAGMA table_info('child')")) {
    const std::string name = fields(line, {"name"});
    if (name == "name=text:id" || name == "name=text:code" || name == "name=text:r1") {
      columns.push_back(fields(line, {"name", "type", "notnull", "dflt_value", "pk"}));
    }
  }
  EXPECT_EQ(columns, (std::vector<std::string>{
                         "name=text:id|type=text:INTEGER|notnull=int:0|dflt_value=NULL|pk=int:1",
                         "name=text:code|type=text:VARCHAR(20)|notnull=int:1|dflt_value=text:'it''s'|pk=int:0",
                         "name=text:r1|type=text:REAL|notnull=int:0|dflt_value=text:CAST(1 AS REAL)|pk=int:0"}));
  std::vector<std::string> references;
  for (const std::string& line : dump(db_, "PRAGMA foreign_key_list('child')")) {
    references.push_back(fields(line, {"from", "table", "to"}));
  }
  std::sort(references.begin(), references.end());
  EXPECT_EQ(references, (std::vector<std::string>{"from=text:owner|table=text:parent|to=NULL",
                                                  "from=text:parent|table=text:parent|to=text:id"}));
  // The defaults read back exactly as given.
  ASSERT_TRUE(db_.insert("child", NamedValues())) << db_.error();
  EXPECT_EQ(
      dump(db_, "SELECT code, i, r1, r2, r3, b, n FROM child"),
      std::vector<std::string>{"code=text:it's|i=int:-42|r1=real:1|r2=real:0.10000000000000001|r3=real:-inf|b=blob:"
                               "de ad 0 |n=NULL"});
  EXPECT_EQ(scalarText(db_, "SELECT typeof(r1) FROM child"), "real");
  // UNIQUE and NOT NULL hold.
  EXPECT_FALSE(db_.insert("child", NamedValues()));
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_UNIQUE) << db_.error();
  EXPECT_FALSE(db_.insert("child", {{"code", Value()}}));
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_NOTNULL) << db_.error();
}

TEST_F(TableHelpers, IfNotExistsAddColumnAndDropTableIfExists) {
  const std::vector<ColumnDefinition> columns{ColumnDefinition{"a", "TEXT"}};
  ASSERT_TRUE(db_.createTable("u", columns)) << db_.error();
  EXPECT_FALSE(db_.createTable("u", columns));
  EXPECT_NE(db_.error().find("already exists"), std::string::npos) << db_.error();
  EXPECT_TRUE(db_.createTable("u", {ColumnDefinition{"other"}}, true)) << db_.error();
  ColumnDefinition added{"b", "INTEGER"};
  added.notNull = true;
  added.defaultValue = Value(5);
  ASSERT_TRUE(db_.insert("u", {{"a", "x"}})) << db_.error();
  ASSERT_TRUE(db_.addColumn(added, "u")) << db_.error();
  std::vector<std::string> names;
  ASSERT_TRUE(db_.tableColumns("u", names)) << db_.error();
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(dump(db_, "SELECT * FROM u"), std::vector<std::string>{"a=text:x|b=int:5"});
  EXPECT_FALSE(db_.addColumn(ColumnDefinition{"c", "INTEGER", true}, "u")) << "SQLite cannot add a primary key";
  EXPECT_TRUE(db_.lastError().is(ResultCode::Error)) << db_.error();
  EXPECT_FALSE(db_.addColumn(ColumnDefinition{"c"}, "missing"));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Error)) << db_.error();
  ASSERT_TRUE(db_.dropTable("u")) << db_.error();
  EXPECT_FALSE(db_.dropTable("u"));
  EXPECT_NE(db_.error().find("no such table"), std::string::npos) << db_.error();
  EXPECT_TRUE(db_.dropTable("u", true)) << db_.error();
  EXPECT_FALSE(db_.lastError().isError());
}

TEST_F(TableHelpers, TypesMustBeTypeNames) {
  for (const std::string& type : {"", "TEXT", " unsigned big int ", "VARCHAR(20)", "DECIMAL(10, 2)", "NUMERIC( -1 )",
                                  "FLOAT(+3.5,2)", "my_type2"}) {
    ASSERT_TRUE(db_.createTable("ok", {ColumnDefinition{"c", type}})) << "'" << type << "': " << db_.error();
    ASSERT_TRUE(db_.dropTable("ok")) << db_.error();
  }
  const std::vector<std::string> before = snapshot(db_, {"t"});
  for (const std::string& type :
       {"TEXT; DROP TABLE t", "TEXT DEFAULT 1", "INTEGER PRIMARY KEY", "text not null", "TEXT COLLATE NOCASE",
        "INT AS (1)", "VARCHAR(", "VARCHAR(a)", "(10)", "DECIMAL(10,2) x", "\"q\"", "TEXT)", "2INT", "VARCHAR(1,2,3)",
        "TEXT -- c", "INT(1) (2)", "TEXT\nCHECK (0)"}) {
    EXPECT_FALSE(db_.createTable("bad", {ColumnDefinition{"c", type}})) << type;
    EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << type << ": " << db_.error();
    EXPECT_NE(db_.error().find("not a type name"), std::string::npos) << db_.error();
    EXPECT_FALSE(db_.addColumn(ColumnDefinition{"c", type}, "t")) << type;
    EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << type << ": " << db_.error();
  }
  EXPECT_EQ(snapshot(db_, {"t"}), before);
}

TEST_F(TableHelpers, MalformedDefinitionsAreRefusedBeforeAnythingRuns) {
  const std::vector<std::string> before = snapshot(db_, {"t"});
  for (const std::string& references : {"users(", "(id)", "users()", "users(id", "users(id)x", " ", "users( )"}) {
    ColumnDefinition column{"p", "INTEGER"};
    column.references = references;
    EXPECT_FALSE(db_.createTable("bad", {ColumnDefinition{"id"}, column})) << references;
    EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << references << ": " << db_.error();
    EXPECT_NE(db_.error().find("table(column)"), std::string::npos) << db_.error();
  }
  // A key to SQLite's own table would make every later schema change fail
  // ("foreign key mismatch"), this table's own DROP included.
  for (const std::string& references : {"sqlite_master", "SQLITE_SCHEMA(name)", " sqlite_stat1 "}) {
    ColumnDefinition column{"p"};
    column.references = references;
    EXPECT_FALSE(db_.createTable("bad", {ColumnDefinition{"id"}, column})) << references;
    EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << references << ": " << db_.error();
    EXPECT_NE(db_.error().find("SQLite's own table"), std::string::npos) << db_.error();
    EXPECT_FALSE(db_.addColumn(column, "t")) << references;
    EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << references << ": " << db_.error();
  }
  EXPECT_FALSE(db_.createTable("bad", {ColumnDefinition{"id", "INTEGER", false, true}}));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << db_.error();
  EXPECT_NE(db_.error().find("AUTOINCREMENT"), std::string::npos) << db_.error();
  EXPECT_FALSE(db_.createTable("bad", {}));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << db_.error();
  EXPECT_EQ(snapshot(db_, {"t"}), before);
}

TEST_F(TableHelpers, EveryHelperFailsWithMisuseWhenClosed) {
  db_.close();
  std::vector<Row> rows;
  EXPECT_FALSE(db_.insert("t", {{"name", "n"}}));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse));
  EXPECT_FALSE(db_.update("t", {{"name", "n"}}, "1"));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse));
  EXPECT_FALSE(db_.remove("t", "1"));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse));
  EXPECT_FALSE(db_.select({}, "t", "", {}, rows));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse));
  EXPECT_FALSE(db_.createTable("u", {ColumnDefinition{"a"}}));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse));
  EXPECT_FALSE(db_.addColumn(ColumnDefinition{"a"}, "t"));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse));
  EXPECT_FALSE(db_.dropTable("t"));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse));
}

TEST_F(TableHelpers, EveryHostileIdentifierIsJustANameThroughEveryHelper) {
  const std::vector<std::string> before = snapshot(db_, {"t"});
  std::vector<Row> rows;
  for (const std::string& name : hostileIdentifiers()) {
    SCOPED_TRACE(name);
    // No such table: SQLite's error, and nothing ran.
    EXPECT_FALSE(db_.insert(name, {{"name", "mallory"}}));
    EXPECT_NE(db_.error().find("no such table"), std::string::npos) << db_.error();
    EXPECT_FALSE(db_.update(name, {{"name", "mallory"}}, "1"));
    EXPECT_NE(db_.error().find("no such table"), std::string::npos) << db_.error();
    EXPECT_FALSE(db_.remove(name, "1"));
    EXPECT_NE(db_.error().find("no such table"), std::string::npos) << db_.error();
    EXPECT_FALSE(db_.select({}, name, "", {}, rows));
    EXPECT_NE(db_.error().find("no such table"), std::string::npos) << db_.error();
    EXPECT_FALSE(db_.dropTable(name));
    EXPECT_NE(db_.error().find("no such table"), std::string::npos) << db_.error();
    // As a column of t: no such column.
    EXPECT_FALSE(db_.select({name}, "t", "", {}, rows));
    EXPECT_NE(db_.error().find("no such column"), std::string::npos) << db_.error();
    EXPECT_FALSE(db_.update("t", {{name, "mallory"}}, "1"));
    EXPECT_NE(db_.error().find("no such column"), std::string::npos) << db_.error();
    EXPECT_EQ(snapshot(db_, {"t"}), before);

    // Made on purpose, each is exactly the table and column written to.
    const std::string column = name + " col";
    ASSERT_TRUE(db_.createTable(name, {ColumnDefinition(column, "TEXT", false, false, true)})) << db_.error();
    ASSERT_TRUE(db_.insert(name, {{column, "row of " + name}})) << db_.error();
    ASSERT_TRUE(db_.addColumn(ColumnDefinition(name, "INTEGER", false, false, false, false, Value(7)), name))
        << db_.error();
    int changed = 0;
    ASSERT_TRUE(db_.update(name, {{name, 8}}, "1", {}, &changed)) << db_.error();
    EXPECT_EQ(changed, 1);
    ASSERT_TRUE(db_.select({column, name}, name, "", {}, rows, {name, column}, 1)) << db_.error();
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].columnName(0), column);
    EXPECT_EQ(rows[0].value(0).asText(), "row of " + name);
    EXPECT_EQ(rows[0].columnName(1), name);
    EXPECT_EQ(rows[0].value(1).asInteger(), 8);
    ASSERT_TRUE(db_.remove(name, "1", {}, &changed)) << db_.error();
    EXPECT_EQ(changed, 1);
    ASSERT_TRUE(db_.dropTable(name)) << db_.error();
    EXPECT_EQ(snapshot(db_, {"t"}), before);
  }
}

TEST_F(TableHelpers, RealDefaultsReadBackBitForBit) {
  // Values SQLite's own decimal reading misses (3.40 reads the 17 digits of
  // the first a bit off), edges, and a spread of bit patterns.
  std::vector<double> reals{0.1,
                            1.0,
                            -0.0,
                            0.0,
                            -2.5,
                            1e300,
                            2.2250738585072014e-308,
                            4.9406564584124654e-324,
                            1.7976931348623157e308,
                            9007199254740993.0,
                            1e20,
                            -123456789.0};
  const std::uint64_t misread = 0x0079'0000'002f'033dULL;
  std::uint64_t bits = misread;
  for (int i = 0; i < 300; ++i) {
    double real = 0;
    std::memcpy(&real, &bits, sizeof real);
    if (std::isfinite(real)) reals.push_back(real);
    bits = bits * 6364136223846793005ULL + 1442695040888963407ULL;  // a fixed sequence
  }
  std::vector<ColumnDefinition> columns;
  for (std::size_t i = 0; i < reals.size(); ++i) {
    columns.emplace_back("c" + std::to_string(i), "", false, false, false, false, Value(reals[i]));
  }
  ASSERT_TRUE(db_.createTable("reals", columns)) << db_.error();
  ASSERT_TRUE(db_.insert("reals", NamedValues())) << db_.error();
  std::vector<Row> rows;
  ASSERT_TRUE(db_.select({}, "reals", "", {}, rows)) << db_.error();
  ASSERT_EQ(rows.size(), 1u);
  for (std::size_t i = 0; i < reals.size(); ++i) {
    const Value value = rows[0].value(i);
    ASSERT_EQ(value.type(), sqlitebridge::ValueType::Real) << i << ": " << describe(value);
    const double read = value.asReal();
    EXPECT_EQ(std::memcmp(&read, &reals[i], sizeof read), 0)
        << "column " << i << " wrote " << describe(Value(reals[i])) << ", read " << describe(value);
  }
  // A column ALTER TABLE adds gives the rows already there its default: an
  // integral real stays a real.
  ASSERT_TRUE(db_.addColumn(ColumnDefinition("added", "", false, false, false, false, Value(1.0)), "reals"))
      << db_.error();
  ASSERT_TRUE(db_.addColumn(ColumnDefinition("odd", "", false, false, false, false, Value(reals[12])), "reals"))
      << db_.error();
  EXPECT_EQ(scalarText(db_, "SELECT typeof(added) || ' ' || added FROM reals"), "real 1.0");
  ASSERT_TRUE(db_.select({"odd"}, "reals", "", {}, rows)) << db_.error();
  const double odd = rows[0].value(0).asReal();
  EXPECT_EQ(std::memcmp(&odd, &reals[12], sizeof odd), 0) << describe(rows[0].value(0));
}
