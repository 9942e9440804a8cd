// Records in C++ at their edges: hostile table and column names, a record
// type without its key column, constant memory over a million rows, and the
// older Database calls the record templates must leave alone.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "sqlitebridge/sqlitebridge.hpp"

using namespace sqlitebridge;

namespace {

// Names that are only names once quoted: quotes, spaces, a keyword, Unicode.
const std::string kHostileTable = "we\"ird 'table; DROP TABLE x --";
const std::string kQuotedColumn = "\"quoted\" col";
const std::string kSpacedColumn = "select from";
const std::string kUnicodeColumn = "名前 ✓";

struct Hostile {
  std::int64_t id = 0;
  std::string quoted;
  std::string spaced;
  std::string unicode;
};

// The table name holds NUL.
struct NulTable {
  std::int64_t id = 0;
};

// A column name holds NUL.
struct NulColumn {
  std::int64_t id = 0;
};

// Its key column is not among the columns it writes.
struct Keyless {
  std::string title;
};

// Reads its columns by name in an order that changes from row to row, each
// name spelled a different way (literal, char buffer, std::string), so the
// lookup remembered from the row before is wrong every other row.
struct Shifting {
  std::int64_t id = 0;
  std::string title;
};

// A million rows of this, streamed.
struct Counter {
  std::int64_t x = 0;
  std::string text;
};

}  // namespace

template <>
struct sqlitebridge::RecordTraits<Hostile> {
  static constexpr const char* table = "we\"ird 'table; DROP TABLE x --";
  static std::vector<std::string> primaryKey() { return {"id"}; }
  static bool read(const RowView& row, Hostile& out) {
    return row.get("id", out.id) && row.get(kQuotedColumn, out.quoted) && row.get(kSpacedColumn, out.spaced) &&
           row.get(kUnicodeColumn, out.unicode);
  }
  static void write(const Hostile& in, NamedValues& out) {
    out.add("id", in.id);
    out.add(kQuotedColumn, in.quoted);
    out.add(kSpacedColumn, in.spaced);
    out.add(kUnicodeColumn, in.unicode);
  }
};

template <>
struct sqlitebridge::RecordTraits<NulTable> {
  static constexpr const char* table = "notes";
  static std::vector<std::string> primaryKey() { return {"id"}; }
  static bool read(const RowView& row, NulTable& out) { return row.get("id", out.id); }
  static void write(const NulTable& in, NamedValues& out) {
    out.add("id", in.id);
    out.add(std::string("tit\0le", 6), "x");
  }
};

template <>
struct sqlitebridge::RecordTraits<NulColumn> {
  static constexpr const char* table = "notes";
  static std::vector<std::string> primaryKey() { return {std::string("i\0d", 3)}; }
  static bool read(const RowView& row, NulColumn& out) { return row.get("id", out.id); }
  static void write(const NulColumn& in, NamedValues& out) { out.add("id", in.id); }
};

template <>
struct sqlitebridge::RecordTraits<Keyless> {
  static constexpr const char* table = "notes";
  static std::vector<std::string> primaryKey() { return {"id"}; }
  static bool read(const RowView& row, Keyless& out) { return row.get("title", out.title); }
  static void write(const Keyless& in, NamedValues& out) { out.add("title", in.title); }
};

template <>
struct sqlitebridge::RecordTraits<Shifting> {
  static constexpr const char* table = "notes";
  static std::vector<std::string> primaryKey() { return {"id"}; }
  static bool read(const RowView& row, Shifting& out) {
    std::int64_t rowid = 0;
    if (!row.get("rowid_", rowid)) return false;
    char title[8] = "title";
    if (rowid % 2 == 0) return row.get(title, out.title) && row.get(std::string("ID"), out.id);
    return row.get("id", out.id) && row.get(std::string("TITLE"), out.title);
  }
  static void write(const Shifting& in, NamedValues& out) {
    out.add("id", in.id);
    out.add("title", in.title);
  }
};

template <>
struct sqlitebridge::RecordTraits<Counter> {
  static constexpr const char* table = "counter";
  static std::vector<std::string> primaryKey() { return {"x"}; }
  static bool read(const RowView& row, Counter& out) { return row.get("x", out.x) && row.get("text", out.text); }
  static void write(const Counter& in, NamedValues& out) {
    out.add("x", in.x);
    out.add("text", in.text);
  }
};

namespace {

class RecordEdgeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT)")) << db_.error();
  }
  Database db_ = Database::open(":memory:");
};

TEST_F(RecordEdgeTest, HostileTableAndColumnNamesAreJustNames) {
  ASSERT_TRUE(db_.createTable(kHostileTable,
                              {ColumnDefinition("id", "INTEGER", true), ColumnDefinition(kQuotedColumn, "TEXT"),
                               ColumnDefinition(kSpacedColumn, "TEXT"), ColumnDefinition(kUnicodeColumn, "TEXT")}))
      << db_.error();
  ASSERT_TRUE(db_.insert(Hostile{1, "a'b\"c", "d e", "ü"})) << db_.error();
  ASSERT_TRUE(db_.update(Hostile{1, "q", "s", "名"})) << db_.error();
  std::optional<Hostile> found;
  ASSERT_TRUE(db_.fetchByKey<Hostile>(Value(1), found)) << db_.error();
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->quoted, "q");
  EXPECT_EQ(found->spaced, "s");
  EXPECT_EQ(found->unicode, "名");
  ASSERT_TRUE(db_.save(Hostile{2, "x", "y", "z"})) << db_.error();
  std::vector<Hostile> all;
  ASSERT_TRUE(db_.fetchAll(all)) << db_.error();
  EXPECT_EQ(all.size(), 2u);
  bool removed = false;
  ASSERT_TRUE(db_.remove(Hostile{2, "", "", ""}, &removed)) << db_.error();
  EXPECT_TRUE(removed);
  // Nothing else was touched: the "DROP TABLE" in the name is only a name.
  EXPECT_TRUE(db_.tableExists(kHostileTable));
  EXPECT_TRUE(db_.tableExists("notes"));
}

TEST_F(RecordEdgeTest, NamesHoldingNulFailWithMisuse) {
  EXPECT_FALSE(db_.insert(NulTable{1}));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << db_.error();
  std::optional<NulColumn> found;
  EXPECT_FALSE(db_.fetchByKey<NulColumn>(Value(1), found));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << db_.error();
  Row row;
  ASSERT_TRUE(db_.execute("SELECT count(*) FROM notes", row));
  EXPECT_EQ(row.value(0), Value(0));
}

TEST_F(RecordEdgeTest, ARecordWithoutItsKeyColumnFailsWithMisuse) {
  ASSERT_TRUE(db_.execute("INSERT INTO notes VALUES (1, 'one')"));
  EXPECT_FALSE(db_.update(Keyless{"x"}));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << db_.error();
  EXPECT_NE(db_.error().find("id"), std::string::npos) << db_.error();
  EXPECT_FALSE(db_.save(Keyless{"x"}));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << db_.error();
  bool removed = true;
  EXPECT_FALSE(db_.remove(Keyless{"x"}, &removed));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Misuse)) << db_.error();
  EXPECT_FALSE(removed);
  // An insert needs no key.
  ASSERT_TRUE(db_.insert(Keyless{"two"})) << db_.error();
}

TEST_F(RecordEdgeTest, ReadsByNameMayChangeOrderFromRowToRow) {
  for (int id = 1; id <= 6; ++id) {
    ASSERT_TRUE(db_.execute("INSERT INTO notes(id, title) VALUES (?, ?)", id, "t" + std::to_string(id)));
  }
  std::vector<Shifting> out;
  ASSERT_TRUE(db_.fetch("SELECT rowid AS rowid_, title, id FROM notes ORDER BY id", {}, out)) << db_.error();
  ASSERT_EQ(out.size(), 6u);
  for (std::size_t i = 0; i < out.size(); ++i) {
    EXPECT_EQ(out[i].id, static_cast<std::int64_t>(i + 1));
    EXPECT_EQ(out[i].title, "t" + std::to_string(i + 1));
  }
  // A name with NUL inside names no column (it is not cut at the NUL).
  bool ran = false;
  EXPECT_FALSE(db_.forEachRow("SELECT id FROM notes", [&](const RowView& row) {
    std::int64_t id = 0;
    ran = true;
    return row.get(std::string("id\0x", 4), id);
  }));
  EXPECT_TRUE(ran);
  EXPECT_TRUE(db_.lastError().is(ResultCode::Range)) << db_.error();
}

// Peak resident memory (VmHWM) in bytes, after resetting it to the current
// resident size when `reset` (Linux's clear_refs 5).
std::int64_t peakResidentBytes(bool reset) {
  if (reset) std::ofstream("/proc/self/clear_refs") << "5";
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
  }
  return -1;
}

const std::string kMillionRows =
    "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 1000000) "
    "SELECT x, printf('%040d', x) AS text FROM r";
constexpr std::int64_t kBound = 16 * 1024 * 1024;

// AddressSanitizer keeps freed blocks aside (its quarantine, 256 MiB by
// default) and adds shadow memory: resident memory grows there whatever the
// code does, so the bound is checked in the other builds.
#if defined(__SANITIZE_ADDRESS__)
#define SQLITEBRIDGE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SQLITEBRIDGE_ASAN 1
#endif
#endif

TEST_F(RecordEdgeTest, ForEachOverAMillionRowsRunsInConstantMemory) {
#ifdef SQLITEBRIDGE_ASAN
  GTEST_SKIP() << "resident memory under AddressSanitizer says nothing about the code's";
#endif
  const std::int64_t before = peakResidentBytes(true);
  ASSERT_GT(before, 0) << "no VmHWM in /proc/self/status";
  std::int64_t rows = 0;
  std::int64_t sum = 0;
  ASSERT_TRUE(db_.forEach<Counter>(kMillionRows, {}, [&](const Counter& counter) {
    ++rows;
    sum += counter.x;
    if (counter.text.size() != 40) sum = -1;
  })) << db_.error();
  const std::int64_t growth = peakResidentBytes(false) - before;
  EXPECT_EQ(rows, 1000000);
  EXPECT_EQ(sum, std::int64_t{1000000} * 1000001 / 2);
  EXPECT_LT(growth, kBound) << growth << " bytes";
}

// The measure above can fail: keeping the same million records does grow.
TEST_F(RecordEdgeTest, FetchingAMillionRowsIntoMemoryDoesGrowPastTheBound) {
  const std::int64_t before = peakResidentBytes(true);
  std::vector<Counter> all;
  ASSERT_TRUE(db_.fetch(kMillionRows, {}, all)) << db_.error();
  EXPECT_EQ(all.size(), 1000000u);
  EXPECT_GT(peakResidentBytes(false) - before, kBound);
}

// The record templates take part only for record types: the table helpers
// of the same names keep their meaning.
static_assert(IsRecord<Hostile>::value);
static_assert(!IsRecord<std::string>::value);
static_assert(!IsRecord<const char*>::value);
static_assert(!IsRecord<NamedValues>::value);

TEST_F(RecordEdgeTest, TableHelpersOfTheSameNamesKeepTheirMeaning) {
  std::int64_t rowID = 0;
  ASSERT_TRUE(db_.insert("notes", {{"title", "one"}})) << db_.error();
  ASSERT_TRUE(db_.insert("notes", NamedValues{{"title", "two"}}, &rowID)) << db_.error();
  EXPECT_EQ(rowID, 2);
  ASSERT_TRUE(db_.insert(std::string("notes"), {{"id", 2}, {"title", "x"}}, &rowID, ConflictResolution::Ignore));
  EXPECT_EQ(rowID, 0);
  ASSERT_TRUE(db_.insert("notes", {})) << db_.error();
  int changed = 0;
  ASSERT_TRUE(db_.update("notes", {{"title", "changed"}}, "id = ?", {Value(1)}, &changed)) << db_.error();
  EXPECT_EQ(changed, 1);
  ASSERT_TRUE(db_.update("notes", {{"title", "all"}}, "1")) << db_.error();
  ASSERT_TRUE(db_.remove("notes", "id = ?", {Value(1)}, &changed)) << db_.error();
  EXPECT_EQ(changed, 1);
  ASSERT_TRUE(db_.remove("notes", "1")) << db_.error();
  Row row;
  ASSERT_TRUE(db_.execute("SELECT count(*) FROM notes", row));
  EXPECT_EQ(row.value(0), Value(0));
}

}  // namespace
