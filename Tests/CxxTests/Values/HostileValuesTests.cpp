// Hostile input, values and use: invalid UTF-8 and embedded NUL kept byte for
// byte, a 100 MB blob, more parameters than a statement has, a full disk
// (simulated with PRAGMA max_page_count), and calls on a moved-from
// Database or Statement. Each test checks the error and that no data was
// lost.
#include <climits>
#include <cstring>

#include "HostileSupport.hpp"
#include <sqlitebridge/interop/Interop.hpp>

using sqlitebridge::ColumnView;
using sqlitebridge::Database;
using sqlitebridge::Location;
using sqlitebridge::NamedValues;
using sqlitebridge::OpenMode;
using sqlitebridge::Row;
using sqlitebridge::RowView;
using sqlitebridge::Statement;
using sqlitebridge::StepResult;
using sqlitebridge::Value;
using sqlitebridge::ValueType;
using sqlitebridge::interop::StatementAccess;
using namespace sqlitebridge_test;

namespace {

using Lines = std::vector<std::string>;

// Byte strings that are not valid UTF-8, each for a different reason.
const std::vector<std::string>& invalidUtf8() {
  static const std::vector<std::string> texts = {
      std::string("\xff"),                          // never valid
      std::string("\xc3\x28"),                      // bad continuation
      std::string("\xe2\x82"),                      // truncated sequence
      std::string("\xed\xa0\x80"),                  // UTF-16 surrogate
      std::string("\xf4\x90\x80\x80"),              // beyond U+10FFFF
      std::string("\xc0\xaf"),                      // overlong "/"
      std::string("\x80\x80\x80"),                  // lone continuations
      std::string("caf\xc3\xa9 \xfe\xfe ok"),       // valid around invalid
      std::string("a\0\xff\0b", 5),                 // with NUL bytes
      std::string("\xf0\x9f\x98", 3),               // emoji cut short
      std::string(300, '\xa0') + "long tail text",  // long (on the heap in a Value)
  };
  return texts;
}

std::string hex(const std::string& bytes) {
  static const char digits[] = "0123456789ABCDEF";
  std::string text;
  for (unsigned char c : bytes) {
    text += digits[c >> 4];
    text += digits[c & 15];
  }
  return text;
}

std::string textOf(const ColumnView& view) { return std::string(static_cast<const char*>(view.bytes), view.size); }

}  // namespace

// MARK: Invalid UTF-8

TEST(HostileValues, InvalidUtf8TextIsKeptByteForByteEverywhere) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.isOpen()) << db.error();
  ASSERT_TRUE(db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)")) << db.error();
  for (const std::string& bytes : invalidUtf8()) {
    SCOPED_TRACE(hex(bytes));
    // A Value keeps it as it is.
    const Value value(bytes);
    EXPECT_EQ(value.type(), ValueType::Text);
    EXPECT_EQ(value.asText(), bytes);
    EXPECT_EQ(Value(value).asText(), bytes);

    // Bound positionally, by name and through a statement.
    ASSERT_TRUE(db.execute("DELETE FROM t")) << db.error();
    ASSERT_TRUE(db.execute("INSERT INTO t(id, v) VALUES (1, ?)", {value})) << db.error();
    ASSERT_TRUE(db.execute("INSERT INTO t(id, v) VALUES (2, :v)", {{"v", value}})) << db.error();
    Statement insert = db.prepare("INSERT INTO t(id, v) VALUES (3, ?1)");
    ASSERT_TRUE(insert.bindText(1, bytes.data(), bytes.size())) << db.error();
    ASSERT_EQ(insert.step(), StepResult::Done) << db.error();

    // SQLite stored the exact bytes, as text.
    std::vector<Row> stored;
    ASSERT_TRUE(db.execute("SELECT typeof(v), hex(v), length(CAST(v AS BLOB)) FROM t ORDER BY id", &stored))
        << db.error();
    ASSERT_EQ(stored.size(), 3u);
    for (const Row& row : stored) {
      EXPECT_EQ(row.value(0).asText(), "text");
      EXPECT_EQ(row.value(1).asText(), hex(bytes));
      EXPECT_EQ(row.value(2).asInteger(), static_cast<std::int64_t>(bytes.size()));
    }

    // Read back through every path: rows, a first row, a borrowed column, a
    // RowView getter, a copied value.
    std::vector<Row> rows;
    ASSERT_TRUE(db.execute("SELECT v FROM t ORDER BY id", &rows)) << db.error();
    for (const Row& row : rows) {
      EXPECT_EQ(row.value(0).type(), ValueType::Text);
      EXPECT_EQ(row.value(0).asText(), bytes);
      EXPECT_EQ(row.value("v"), value);
    }
    Row first;
    ASSERT_TRUE(db.execute("SELECT v FROM t WHERE id = 3", first)) << db.error();
    EXPECT_EQ(first.value(0).asText(), bytes);
    int seen = 0;
    ASSERT_TRUE(db.forEachRow("SELECT v FROM t ORDER BY id", [&](const RowView& row) {
      ++seen;
      EXPECT_EQ(row.column(0).type, ValueType::Text);
      EXPECT_EQ(textOf(row.column(0)), bytes);
      std::string text;
      EXPECT_TRUE(row.get(0, text)) << db.error();
      EXPECT_EQ(text, bytes);
      EXPECT_EQ(row.value(0).asText(), bytes);
      EXPECT_EQ(row.copy().value(0).asText(), bytes);
    })) << db.error();
    EXPECT_EQ(seen, 3);
  }
}

TEST(HostileValues, InvalidUtf8InSqlTextAndNamesIsKeptToo) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.isOpen()) << db.error();
  // A literal in the SQL text.
  std::vector<Row> rows;
  ASSERT_TRUE(db.execute("SELECT 'x\xff\xfey' AS v", &rows)) << db.error();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].value(0).asText(), "x\xff\xfey");
  // A table and a column whose names are not valid UTF-8.
  const std::string table = "t\xff";
  const std::string column = "c\xc3\x28";
  ASSERT_TRUE(db.execute("CREATE TABLE " + quoted(table) + "(" + quoted(column) + ")")) << db.error();
  std::vector<std::string> columns;
  ASSERT_TRUE(db.tableColumns(table, columns)) << db.error();
  EXPECT_EQ(columns, (Lines{column}));
  EXPECT_TRUE(db.hasTableColumn(table, column)) << db.error();
  // A name that is the same but for a replacement character is another name.
  EXPECT_FALSE(db.tableColumns("t\xef\xbf\xbd", columns));
  EXPECT_EQ(db.lastError().code, SQLITE_ERROR);
}

// MARK: Embedded NUL

TEST(HostileValues, TextAndBlobsWithNulBytesRoundTripWhole) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.isOpen()) << db.error();
  ASSERT_TRUE(db.execute("CREATE TABLE t(v)")) << db.error();
  const std::string text("\0lead\0middle\0\0trail\0", 21);
  const std::vector<std::uint8_t> blob = {0, 0, 1, 0, 255, 0};
  ASSERT_TRUE(db.execute("INSERT INTO t VALUES (?), (?)", {Value(text), Value::fromBlob(blob)})) << db.error();
  std::vector<Row> rows;
  ASSERT_TRUE(db.execute("SELECT v, length(CAST(v AS BLOB)) FROM t ORDER BY rowid", &rows)) << db.error();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].value(0).type(), ValueType::Text);
  EXPECT_EQ(rows[0].value(0).asText(), text);
  EXPECT_EQ(rows[0].value(1).asInteger(), 21);
  EXPECT_EQ(rows[1].value(0).type(), ValueType::Blob);
  EXPECT_EQ(rows[1].value(0).asBlob(), blob);
  EXPECT_EQ(rows[1].value(1).asInteger(), 6);
  // A query with the text as argument finds exactly it, not its prefix.
  ASSERT_TRUE(db.execute("INSERT INTO t VALUES ('')")) << db.error();
  rows.clear();
  ASSERT_TRUE(db.execute("SELECT count(*) FROM t WHERE v = ?", {Value(text)}, &rows)) << db.error();
  EXPECT_EQ(rows[0].value(0).asInteger(), 1);
}

// MARK: A 100 MB blob

TEST(HostileValues, AHundredMegabyteBlobIsStoredAndReadBackExactlyInBoundedMemory) {
  constexpr std::size_t kSize = 100u * 1024 * 1024;
  const auto byteAt = [](std::size_t i) { return static_cast<std::uint8_t>((i * 2654435761u) >> 13); };
  TempDir dir;
  Database db = Database::open(dir / "big.db");
  ASSERT_TRUE(db.isOpen()) << db.error();
  ASSERT_TRUE(db.execute("CREATE TABLE blobs(id INTEGER PRIMARY KEY, b BLOB)")) << db.error();
  ASSERT_TRUE(db.execute("INSERT INTO blobs(id, b) VALUES (1, x'00')")) << db.error();

  const bool peakReset = resetPeakResident();
  const std::int64_t baseline = residentBytes();
  {
    std::vector<std::uint8_t> bytes(kSize);
    for (std::size_t i = 0; i < kSize; ++i) bytes[i] = byteAt(i);
    Statement insert = db.prepare("INSERT INTO blobs(id, b) VALUES (2, ?1)");
    ASSERT_TRUE(insert.bindBlob(1, bytes.data(), bytes.size())) << db.error();
    ASSERT_EQ(insert.step(), StepResult::Done) << db.error();
  }
  EXPECT_EQ(scalarInteger(db, "SELECT length(b) FROM blobs WHERE id = 2"), static_cast<std::int64_t>(kSize));
  EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM blobs"), 2);

  // Borrowed from the statement: no copy.
  {
    Statement select = db.prepare("SELECT b FROM blobs WHERE id = 2");
    ASSERT_EQ(select.step(), StepResult::Row) << db.error();
    const ColumnView view = select.column(0);
    ASSERT_EQ(view.type, ValueType::Blob);
    ASSERT_EQ(view.size, kSize);
    const auto* read = static_cast<const std::uint8_t*>(view.bytes);
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < kSize; ++i) mismatches += read[i] != byteAt(i);
    EXPECT_EQ(mismatches, 0u);
  }
  // Copied into a Row.
  {
    Row row;
    ASSERT_TRUE(db.execute("SELECT b FROM blobs WHERE id = 2", row)) << db.error();
    ASSERT_EQ(row.value(0).type(), ValueType::Blob);
    const std::vector<std::uint8_t> copy = row.value(0).asBlob();
    ASSERT_EQ(copy.size(), kSize);
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < kSize; ++i) mismatches += copy[i] != byteAt(i);
    EXPECT_EQ(mismatches, 0u);
  }
  const std::int64_t peak = peakResidentBytes();
  if (kMemoryFiguresAreMeaningful && peakReset && baseline > 0 && peak > 0) {
    // Writing holds the caller's bytes, SQLite's copy and the record built
    // from it; reading via a Row holds SQLite's value, the Row's and the
    // vector asBlob returns. Never more than four copies at once.
    const double copies = static_cast<double>(peak - baseline) / kSize;
    RecordProperty("peak_copies_of_the_blob", std::to_string(copies));
    EXPECT_LT(copies, 4.0) << "peak grew by " << (peak - baseline) / (1024 * 1024) << " MiB";
  }
  // The small row beside it is intact, and the file is sound.
  EXPECT_EQ(scalarText(db, "SELECT hex(b) FROM blobs WHERE id = 1"), "00");
  EXPECT_EQ(scalarText(db, "PRAGMA integrity_check"), "ok");
}

TEST(HostileValues, ValuesBeyondTheLengthLimitFailWithTooBigAndInsertNothing) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.isOpen()) << db.error();
  ASSERT_TRUE(db.execute("CREATE TABLE t(v)")) << db.error();
  ASSERT_TRUE(db.execute("INSERT INTO t VALUES ('kept')")) << db.error();
  sqlite3_limit(db.handle(), SQLITE_LIMIT_LENGTH, 1000000);
  const std::string text(1000001, 't');
  EXPECT_FALSE(db.execute("INSERT INTO t VALUES (?)", {Value(text)}));
  EXPECT_EQ(db.lastError().code, SQLITE_TOOBIG) << db.error();
  EXPECT_FALSE(db.execute("INSERT INTO t VALUES (?)", {Value::fromBlob(text.data(), text.size())}));
  EXPECT_EQ(db.lastError().code, SQLITE_TOOBIG) << db.error();
  // Made inside SQL, the same limit stops it.
  EXPECT_FALSE(db.execute("INSERT INTO t VALUES (zeroblob(2000000))"));
  EXPECT_EQ(db.lastError().code, SQLITE_TOOBIG) << db.error();
  EXPECT_EQ(dump(db, "SELECT v FROM t"), (Lines{"v=text:kept"}));
}

// MARK: Parameters

TEST(HostileValues, MoreArgumentsThanParametersFailWithRangeAndInsertNothing) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.isOpen()) << db.error();
  ASSERT_TRUE(db.execute("CREATE TABLE t(v)")) << db.error();
  ASSERT_TRUE(db.execute("INSERT INTO t VALUES ('kept')")) << db.error();
  const std::string insert = "INSERT INTO t VALUES (?)";
  EXPECT_FALSE(db.execute(insert, {Value("a"), Value("b")}));
  EXPECT_EQ(db.lastError().code, SQLITE_RANGE) << db.error();
  EXPECT_FALSE(db.execute(insert, std::vector<Value>(10000, Value(1))));
  EXPECT_EQ(db.lastError().code, SQLITE_RANGE) << db.error();
  EXPECT_FALSE(db.execute("INSERT INTO t VALUES ('no parameters')", {Value(1)}));
  EXPECT_EQ(db.lastError().code, SQLITE_RANGE) << db.error();
  EXPECT_FALSE(db.execute("INSERT INTO t VALUES (:v)", {{"v", Value(1)}, {"w", Value(2)}}));
  EXPECT_EQ(db.lastError().code, SQLITE_RANGE) << db.error();
  Statement statement = db.prepare(insert);
  ASSERT_TRUE(statement.isValid()) << db.error();
  for (const int index : {0, -1, 2, INT_MAX, INT_MIN}) {
    SCOPED_TRACE(index);
    EXPECT_FALSE(statement.bindInteger(index, 1));
    EXPECT_EQ(db.lastError().code, SQLITE_RANGE) << db.error();
    EXPECT_FALSE(statement.bindText(index, "x", 1));
    EXPECT_FALSE(statement.bindBlob(index, "x", 1));
    EXPECT_FALSE(statement.bindNull(index));
  }
  EXPECT_EQ(dump(db, "SELECT v FROM t"), (Lines{"v=text:kept"}));
}

TEST(HostileValues, ParameterNumbersBeyondTheLimitAreRefused) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.isOpen()) << db.error();
  const int limit = sqlite3_limit(db.handle(), SQLITE_LIMIT_VARIABLE_NUMBER, -1);
  ASSERT_GT(limit, 0);
  // ?NNN past the limit does not prepare.
  for (const std::string sql : {"SELECT ?" + std::to_string(limit + 1), "SELECT ?" + std::to_string(INT_MAX),
                                std::string("SELECT ?99999999999999999999"), std::string("SELECT ?0")}) {
    SCOPED_TRACE(sql);
    EXPECT_FALSE(db.prepare(sql).isValid());
    EXPECT_EQ(db.lastError().code, SQLITE_ERROR) << db.error();
    EXPECT_FALSE(db.execute(sql, {Value(1)}));
  }
  // ?<limit> is the largest: it needs exactly `limit` arguments.
  const std::string largest = "SELECT ?" + std::to_string(limit);
  Statement statement = db.prepare(largest);
  ASSERT_TRUE(statement.isValid()) << db.error();
  EXPECT_EQ(statement.parameterCount(), limit);
  EXPECT_FALSE(statement.bindInteger(limit + 1, 1));
  EXPECT_EQ(db.lastError().code, SQLITE_RANGE) << db.error();
  std::vector<Value> arguments(static_cast<std::size_t>(limit), Value());
  arguments.back() = Value(42);
  std::vector<Row> rows;
  ASSERT_TRUE(db.execute(largest, arguments, &rows)) << db.error();
  EXPECT_EQ(rows.at(0).value(0).asInteger(), 42);
  arguments.emplace_back(43);
  EXPECT_FALSE(db.execute(largest, arguments, &rows));
  EXPECT_EQ(db.lastError().code, SQLITE_RANGE) << db.error();
  // A lowered limit is enforced the same way.
  sqlite3_limit(db.handle(), SQLITE_LIMIT_VARIABLE_NUMBER, 10);
  EXPECT_FALSE(db.prepare("SELECT ?11").isValid());
  EXPECT_EQ(db.lastError().code, SQLITE_ERROR) << db.error();
  EXPECT_TRUE(db.prepare("SELECT ?10").isValid()) << db.error();
}

// MARK: A full disk

namespace {

// A file database with `notes` (rows, index, trigger) and `log`, whose file
// may grow by only a few pages.
class HostileFullDisk : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = Database::open(dir_ / "full.db");
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.executeScript(
        "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT);"
        "CREATE INDEX notes_title ON notes(title);"
        "CREATE TABLE log(msg TEXT);"
        "CREATE TRIGGER notes_log AFTER INSERT ON notes BEGIN INSERT INTO log VALUES (new.title); END;"
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) "
        "INSERT INTO notes(title, body) SELECT 'note ' || i, hex(randomblob(300)) FROM n;"))
        << db_.error();
    before_ = state();
  }

  Lines state() { return snapshot(db_, {"notes", "log"}); }

  // Lets the file grow by `pages` pages at most.
  void fillDisk(int pages = 2) {
    const std::int64_t count = scalarInteger(db_, "PRAGMA page_count");
    ASSERT_EQ(scalarInteger(db_, "PRAGMA max_page_count = " + std::to_string(count + pages)), count + pages);
  }
  void freeDisk() { scalarInteger(db_, "PRAGMA max_page_count = 1073741823"); }

  void expectIntactAndUsable() {
    EXPECT_FALSE(db_.isInTransaction());
    EXPECT_EQ(state(), before_);
    EXPECT_EQ(scalarText(db_, "PRAGMA integrity_check"), "ok");
    EXPECT_EQ(scalarInteger(db_, "PRAGMA legacy_alter_table"), 0);
    freeDisk();
    EXPECT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('after')")) << db_.error();
    EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM notes"), 301);
  }

  TempDir dir_;
  Database db_ = Database::open(":memory:");
  Lines before_;
};

}  // namespace

TEST_F(HostileFullDisk, AnInsertThatDoesNotFitFailsWithFullAndLeavesNoPartOfIt) {
  fillDisk();
  // One statement inserting many rows: none of them may stay.
  EXPECT_FALSE(db_.execute("INSERT INTO notes(title, body) SELECT 'new ' || id, hex(randomblob(2000)) FROM notes"));
  EXPECT_EQ(db_.lastError().code, SQLITE_FULL) << db_.error();
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_FULL);
  EXPECT_FALSE(db_.execute("INSERT INTO notes(title, body) VALUES ('big', ?)", {Value(std::string(100000, 'b'))}));
  EXPECT_EQ(db_.lastError().code, SQLITE_FULL) << db_.error();
  expectIntactAndUsable();
}

TEST_F(HostileFullDisk, ATransactionThatFillsTheDiskRollsBackWhole) {
  fillDisk();
  ASSERT_TRUE(db_.execute("BEGIN")) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('small, fits')")) << db_.error();
  EXPECT_FALSE(db_.execute("INSERT INTO notes(title, body) VALUES ('big', ?)", {Value(std::string(100000, 'b'))}));
  EXPECT_EQ(db_.lastError().code, SQLITE_FULL) << db_.error();
  // SQLite may have rolled the transaction back itself; if not, the caller
  // does, and either way nothing of it remains.
  if (db_.isInTransaction()) ASSERT_TRUE(db_.execute("ROLLBACK")) << db_.error();
  expectIntactAndUsable();
}

TEST_F(HostileFullDisk, UpdateTableOnAFullDatabaseFailsWithFullAndLeavesTheTableIntact) {
  fillDisk();
  EXPECT_FALSE(db_.updateTable(
      "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, pinned INT NOT NULL DEFAULT 0)", "",
      "notes"));
  EXPECT_EQ(db_.lastError().code, SQLITE_FULL) << db_.error();
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM sqlite_master WHERE name = 'notes_old'"), 0);
  expectIntactAndUsable();
  // With room again, the same rebuild succeeds and keeps every row.
  ASSERT_TRUE(db_.updateTable(
      "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, pinned INT NOT NULL DEFAULT 0)", "",
      "notes"))
      << db_.error();
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM notes WHERE pinned = 0"), 301);
}

TEST_F(HostileFullDisk, UpdateTableInsideATransactionOnAFullDatabaseLeavesTheTransactionsEarlierWork) {
  ASSERT_TRUE(db_.execute("BEGIN")) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO log VALUES ('earlier work')")) << db_.error();
  const Lines withEarlierWork = state();
  fillDisk();
  EXPECT_FALSE(db_.updateTable(
      "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, pinned INT NOT NULL DEFAULT 0)", "",
      "notes"));
  EXPECT_EQ(db_.lastError().code, SQLITE_FULL) << db_.error();
  if (db_.isInTransaction()) {
    // The savepoint was rolled back, the caller's transaction kept.
    EXPECT_EQ(state(), withEarlierWork);
    ASSERT_TRUE(db_.execute("ROLLBACK")) << db_.error();
  }
  expectIntactAndUsable();
}

TEST(HostileFullDiskByName, CreateSqlThatFillsTheDiskLeavesNoDatabaseBehind) {
  TempDir dir;
  Database db("full.db", "PRAGMA max_page_count = 3; CREATE TABLE t(v); INSERT INTO t VALUES (zeroblob(100000));",
              Location{dir.path(), ""});
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_FULL) << db.error();
  EXPECT_TRUE(listDirectory(dir.path()).empty());
}

// MARK: Moved-from and closed databases and statements

namespace {

// Every call on `closed` (moved from, or closed) fails with SQLITE_MISUSE and
// changes nothing; table t must not be touched through it.
void expectEveryCallFailsWithMisuse(Database& closed) {
  EXPECT_FALSE(closed.isOpen());
  EXPECT_EQ(closed.path(), "");
  EXPECT_EQ(closed.handle(), nullptr);
  const auto expectMisuse = [&](bool ok, const char* call) {
    EXPECT_FALSE(ok) << call;
    EXPECT_EQ(closed.lastError().code, SQLITE_MISUSE) << call << ": " << closed.error();
  };
  std::vector<Row> rows;
  Row row;
  std::vector<std::string> columns;
  std::size_t offset = 0;
  expectMisuse(closed.execute("INSERT INTO t(v) VALUES ('lost')"), "execute");
  expectMisuse(closed.execute("SELECT * FROM t", &rows), "execute rows");
  expectMisuse(closed.execute("SELECT * FROM t", row), "execute first row");
  expectMisuse(closed.execute("SELECT ?", {Value(1)}), "execute arguments");
  expectMisuse(closed.execute("SELECT :a", {{"a", Value(1)}}), "execute named");
  expectMisuse(closed.executeScript("DROP TABLE t;"), "executeScript");
  expectMisuse(closed.prepare("SELECT 1").isValid(), "prepare");
  expectMisuse(closed.cachedStatement("SELECT 1").isValid(), "cachedStatement");
  expectMisuse(closed.validate("SELECT 1"), "validate");
  expectMisuse(closed.prepareNext("SELECT 1", offset).isValid(), "prepareNext");
  expectMisuse(closed.forEachRow("SELECT * FROM t", [](const RowView&) {}), "forEachRow");
  expectMisuse(closed.hasTableColumn("t", "v"), "hasTableColumn");
  expectMisuse(closed.tableColumns("t", columns), "tableColumns");
  expectMisuse(closed.updateTable("CREATE TABLE t(x)", "", "t"), "updateTable");
  expectMisuse(closed.setBusyTimeout(10), "setBusyTimeout");
  EXPECT_TRUE(rows.empty());
  EXPECT_TRUE(columns.empty());
  EXPECT_EQ(closed.lastInsertRowId(), 0);
  EXPECT_EQ(closed.changes(), 0);
  EXPECT_FALSE(closed.isInTransaction());
}

}  // namespace

TEST(HostileUse, EveryCallOnAMovedFromDatabaseFailsWithMisuseAndTheDataMovesIntact) {
  TempDir dir;
  Database source = Database::open(dir / "moved.db");
  ASSERT_TRUE(source.isOpen()) << source.error();
  ASSERT_TRUE(source.executeScript("CREATE TABLE t(id INTEGER PRIMARY KEY, v); INSERT INTO t(v) VALUES ('kept');"))
      << source.error();
  Database target = std::move(source);
  expectEveryCallFailsWithMisuse(source);

  // The moved-to database has the connection and the data.
  ASSERT_TRUE(target.isOpen());
  EXPECT_EQ(target.path(), dir / "moved.db");
  EXPECT_EQ(dump(target, "SELECT v FROM t"), (Lines{"v=text:kept"}));
  // Assigning over an open database closes that one and takes the other.
  Database other = Database::open(":memory:");
  other = std::move(target);
  EXPECT_FALSE(target.isOpen());
  EXPECT_EQ(dump(other, "SELECT v FROM t"), (Lines{"v=text:kept"}));
  // Moving into itself changes nothing.
  Database& alias = other;
  other = std::move(alias);
  EXPECT_TRUE(other.isOpen());
  EXPECT_EQ(dump(other, "SELECT v FROM t"), (Lines{"v=text:kept"}));
  // The moved-from objects can be reused by assignment.
  source = Database::open(dir / "moved.db");
  ASSERT_TRUE(source.isOpen()) << source.error();
  EXPECT_EQ(dump(source, "SELECT v FROM t"), (Lines{"v=text:kept"}));
}

TEST(HostileUse, EveryCallOnAClosedDatabaseFailsWithMisuseAndTheFileKeepsItsData) {
  TempDir dir;
  Database db = Database::open(dir / "closed.db");
  ASSERT_TRUE(db.isOpen()) << db.error();
  ASSERT_TRUE(db.executeScript("CREATE TABLE t(id INTEGER PRIMARY KEY, v); INSERT INTO t(v) VALUES ('kept');"))
      << db.error();
  // Work left in an open transaction is rolled back by the close.
  ASSERT_TRUE(db.executeScript("BEGIN; INSERT INTO t(v) VALUES ('uncommitted');")) << db.error();
  db.close();
  expectEveryCallFailsWithMisuse(db);
  db.close();  // closing again does nothing
  EXPECT_FALSE(db.isOpen());

  db = Database::open(dir / "closed.db");
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(dump(db, "SELECT v FROM t"), (Lines{"v=text:kept"}));
  EXPECT_EQ(scalarText(db, "PRAGMA integrity_check"), "ok");
}

TEST(HostileUse, AStatementAliveAtCloseKeepsItsConnectionUntilItIsDestroyed) {
  TempDir dir;
  Database db = Database::open(dir / "statement.db");
  ASSERT_TRUE(db.isOpen()) << db.error();
  ASSERT_TRUE(db.executeScript("CREATE TABLE t(v); INSERT INTO t VALUES ('kept');")) << db.error();
  Statement statement = db.prepare("SELECT v FROM t");
  ASSERT_TRUE(statement.isValid()) << db.error();
  db.close();
  EXPECT_FALSE(db.isOpen());
  ASSERT_EQ(statement.step(), sqlitebridge::StepResult::Row);
  const ColumnView value = statement.column(0);
  EXPECT_EQ(std::string(static_cast<const char*>(value.bytes), value.size), "kept");
}

TEST(HostileUse, AFailedOpenGivesAClosedDatabaseOnWhichEveryCallFailsWithMisuse) {
  TempDir dir;
  Database closed = Database::open(dir / "missing/x.db", OpenMode::ReadWrite);
  ASSERT_FALSE(closed.isOpen());
  std::vector<std::string> columns;
  EXPECT_FALSE(closed.execute("CREATE TABLE t(x)"));
  EXPECT_EQ(closed.lastError().code, SQLITE_MISUSE);
  EXPECT_FALSE(closed.tableColumns("t", columns));
  EXPECT_EQ(closed.lastError().code, SQLITE_MISUSE);
  EXPECT_FALSE(closed.prepare("SELECT 1").isValid());
  EXPECT_EQ(closed.lastError().code, SQLITE_MISUSE);
  EXPECT_TRUE(listDirectory(dir.path()).empty());
}

TEST(HostileUse, EveryCallOnAMovedFromStatementFailsAndTheMovedToOneWorks) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.isOpen()) << db.error();
  ASSERT_TRUE(db.executeScript("CREATE TABLE t(v); INSERT INTO t VALUES ('kept');")) << db.error();
  Statement source = db.prepare("INSERT INTO t VALUES (:v)");
  ASSERT_TRUE(source.isValid()) << db.error();
  Statement target = std::move(source);

  EXPECT_FALSE(source.isValid());
  EXPECT_EQ(source.handle(), nullptr);
  EXPECT_EQ(source.sql(), "");
  EXPECT_EQ(source.parameterCount(), 0);
  EXPECT_EQ(source.parameterIndex(":v"), 0);
  EXPECT_EQ(source.columnCount(), 0);
  EXPECT_EQ(source.column(0).type, ValueType::Null);
  EXPECT_FALSE(source.expectArgumentCount(1));
  EXPECT_FALSE(source.bindInteger(1, 1));
  EXPECT_FALSE(source.bindText(1, "lost", 4));
  EXPECT_FALSE(source.bind(std::vector<Value>{Value("lost")}));
  EXPECT_FALSE(source.bind(NamedValues{{"v", Value("lost")}}));
  EXPECT_FALSE(StatementAccess::beginNamedArguments(source));
  EXPECT_EQ(StatementAccess::matchNamedArgument(source, "v", 1).count, 0);
  EXPECT_FALSE(StatementAccess::endNamedArguments(source));
  EXPECT_FALSE(source.clearBindings());
  EXPECT_EQ(source.step(), StepResult::Error);
  EXPECT_FALSE(source.reset());
  EXPECT_FALSE(source.forEachRow([](const RowView&) {}));
  EXPECT_TRUE(source.row().empty());
  // A moved-from statement belongs to no connection: the database's state
  // is not touched by its failures.
  EXPECT_EQ(db.lastError().code, 0) << db.error();

  ASSERT_TRUE(target.bind(NamedValues{{"v", Value("added")}})) << db.error();
  ASSERT_EQ(target.step(), StepResult::Done) << db.error();
  EXPECT_EQ(dump(db, "SELECT v FROM t ORDER BY rowid"), (Lines{"v=text:kept", "v=text:added"}));
  // Move-assigning over a live statement finalizes that one.
  Statement other = db.prepare("SELECT v FROM t ORDER BY rowid");
  other = std::move(target);
  EXPECT_FALSE(target.isValid());
  EXPECT_EQ(other.sql(), "INSERT INTO t VALUES (:v)");
}

TEST(HostileUse, AStatementOutlivesItsDatabaseAndStillReadsTheData) {
  TempDir dir;
  Statement statement;
  {
    Database db = Database::open(dir / "outlived.db");
    ASSERT_TRUE(db.isOpen()) << db.error();
    ASSERT_TRUE(db.executeScript("CREATE TABLE t(v); INSERT INTO t VALUES ('one'), ('two');")) << db.error();
    statement = db.prepare("SELECT v FROM t ORDER BY rowid");
    ASSERT_TRUE(statement.isValid()) << db.error();
    Database moved = std::move(db);  // both Database objects go away
  }
  Lines values;
  EXPECT_TRUE(statement.forEachRow([&](const RowView& row) { values.push_back(row.value(0).asText()); }));
  EXPECT_EQ(values, (Lines{"one", "two"}));
}
