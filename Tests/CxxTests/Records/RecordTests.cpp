// Records in C++ (issue 14): RecordTraits<T> read and written through
// Database::fetch, fetchOne, forEach, fetchByKey, fetchAll, insert, update,
// save and remove. Hostile names, memory and overloads: RecordEdgeTests.cpp.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "sqlitebridge/sqlitebridge.hpp"

using namespace sqlitebridge;

namespace {

// One field of every type a record stores.
struct Everything {
  std::int64_t id = 0;
  double real = 0;
  std::string text;
  std::vector<std::uint8_t> blob;
  std::optional<std::int64_t> maybe;
  bool flag = false;
  std::chrono::system_clock::time_point date;
  Uuid uuid;
};

// A note whose key may be NULL (assigned by SQLite on insert).
struct Note {
  std::optional<std::int64_t> id;
  std::string title;
};

// A record with a two-column key.
struct Membership {
  std::int64_t group = 0;
  std::int64_t user = 0;
  std::string role;
};

// Reads a column Note's table does not have.
struct NoteWithMissingColumn {
  std::int64_t id = 0;
  std::string color;
};

// Gives up without recording an error.
struct Refusing {
  std::int64_t id = 0;
};

Value optionalValue(const std::optional<std::int64_t>& value) { return value ? Value(*value) : Value(); }

}  // namespace

template <>
struct sqlitebridge::RecordTraits<Everything> {
  static constexpr const char* table = "everything";
  static std::vector<std::string> primaryKey() { return {"id"}; }
  static bool read(const RowView& row, Everything& out) {
    return row.get("id", out.id) && row.get("real", out.real) && row.get("text", out.text) &&
           row.get("blob", out.blob) && row.get("maybe", out.maybe) && row.get("flag", out.flag) &&
           row.get("date", out.date) && row.get("uuid", out.uuid);
  }
  static void write(const Everything& in, NamedValues& out) {
    out.add("id", in.id);
    out.add("real", in.real);
    out.add("text", in.text);
    out.add("blob", Value::fromBlob(in.blob));
    out.add("maybe", optionalValue(in.maybe));
    out.add("flag", in.flag);
    out.add("date", in.date);
    out.add("uuid", in.uuid);
  }
};

template <>
struct sqlitebridge::RecordTraits<Note> {
  static constexpr const char* table = "notes";
  static std::vector<std::string> primaryKey() { return {"id"}; }
  static bool read(const RowView& row, Note& out) { return row.get("id", out.id) && row.get("title", out.title); }
  static void write(const Note& in, NamedValues& out) {
    out.add("id", optionalValue(in.id));
    out.add("title", in.title);
  }
};

template <>
struct sqlitebridge::RecordTraits<Membership> {
  static constexpr const char* table = "membership";
  static std::vector<std::string> primaryKey() { return {"group", "user"}; }
  static bool read(const RowView& row, Membership& out) {
    return row.get("group", out.group) && row.get("user", out.user) && row.get("role", out.role);
  }
  static void write(const Membership& in, NamedValues& out) {
    out.add("group", in.group);
    out.add("user", in.user);
    out.add("role", in.role);
  }
};

template <>
struct sqlitebridge::RecordTraits<NoteWithMissingColumn> {
  static constexpr const char* table = "notes";
  static std::vector<std::string> primaryKey() { return {"id"}; }
  static bool read(const RowView& row, NoteWithMissingColumn& out) {
    return row.get("id", out.id) && row.get("color", out.color);
  }
  static void write(const NoteWithMissingColumn& in, NamedValues& out) {
    out.add("id", in.id);
    out.add("color", in.color);
  }
};

template <>
struct sqlitebridge::RecordTraits<Refusing> {
  static constexpr const char* table = "notes";
  static std::vector<std::string> primaryKey() { return {"id"}; }
  static bool read(const RowView&, Refusing&) { return false; }
  static void write(const Refusing& in, NamedValues& out) { out.add("id", in.id); }
};

namespace {

class RecordTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.executeScript(
        // `real` has no type: a REAL column stores a whole real as an
        // integer (SQLite's rule), which reads back -0.0 as 0.0.
        "CREATE TABLE everything(id INTEGER PRIMARY KEY, real, text TEXT, blob BLOB, maybe INTEGER, flag "
        "INTEGER, date TEXT, uuid BLOB);"
        "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL);"
        "CREATE TABLE membership(\"group\" INTEGER, user INTEGER, role TEXT, PRIMARY KEY(\"group\", user));"))
        << db_.error();
  }

  std::int64_t count(const std::string& table) {
    Row row;
    EXPECT_TRUE(db_.execute("SELECT count(*) FROM " + table, row)) << db_.error();
    std::int64_t n = -1;
    EXPECT_TRUE(row.get(0, n));
    return n;
  }

  Database db_ = Database::open(":memory:");
};

Everything sample(std::int64_t id) {
  Everything e;
  e.id = id;
  e.real = 2.5;
  e.text = "plain";
  e.blob = {1, 2, 3};
  e.maybe = 7;
  e.flag = true;
  e.date = std::chrono::system_clock::time_point(std::chrono::milliseconds(1709642096789));
  e.uuid = Uuid({0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x0f, 0xed, 0xcb, 0xa9, 0x87, 0x65, 0x43, 0x21});
  return e;
}

TEST_F(RecordTest, EveryValueTypeRoundTrips) {
  std::vector<Everything> written;
  Everything a = sample(1);
  written.push_back(a);
  Everything b = sample(2);
  b.real = -0.0;
  b.text = std::string("nul\0inside \xF0\x9F\x98\x80", 16);
  b.blob = {};
  b.maybe = std::nullopt;
  b.flag = false;
  written.push_back(b);
  Everything c = sample(3);
  c.real = std::numeric_limits<double>::infinity();
  c.maybe = std::numeric_limits<std::int64_t>::min();
  c.text = "";
  written.push_back(c);
  Everything d = sample(4);
  d.real = -std::numeric_limits<double>::infinity();
  d.maybe = std::numeric_limits<std::int64_t>::max();
  written.push_back(d);
  for (const Everything& e : written) {
    std::int64_t rowID = 0;
    ASSERT_TRUE(db_.insert(e, &rowID)) << db_.error();
    EXPECT_EQ(rowID, e.id);
  }

  std::vector<Everything> read;
  ASSERT_TRUE(db_.fetch("SELECT * FROM everything ORDER BY id", {}, read)) << db_.error();
  ASSERT_EQ(read.size(), written.size());
  for (std::size_t i = 0; i < read.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(read[i].id, written[i].id);
    EXPECT_EQ(read[i].real, written[i].real);
    EXPECT_EQ(std::signbit(read[i].real), std::signbit(written[i].real));
    EXPECT_EQ(read[i].text, written[i].text);
    EXPECT_EQ(read[i].blob, written[i].blob);
    EXPECT_EQ(read[i].maybe, written[i].maybe);
    EXPECT_EQ(read[i].flag, written[i].flag);
    EXPECT_EQ(read[i].date, written[i].date);
    EXPECT_EQ(read[i].uuid, written[i].uuid);
  }
  // Stored as the storage classes they are: an empty blob is a blob, not NULL.
  Row types;
  ASSERT_TRUE(db_.execute("SELECT typeof(blob), typeof(maybe), typeof(text) FROM everything WHERE id = 2", types));
  EXPECT_EQ(types.value(0), Value("blob"));
  EXPECT_EQ(types.value(1), Value("null"));
  EXPECT_EQ(types.value(2), Value("text"));
}

TEST_F(RecordTest, FetchAppendsAndFetchOneTakesTheFirstRow) {
  ASSERT_TRUE(db_.insert(Note{1, "one"}));
  ASSERT_TRUE(db_.insert(Note{2, "two"}));
  std::vector<Note> notes{Note{99, "kept"}};
  ASSERT_TRUE(db_.fetch("SELECT * FROM notes WHERE id >= ? ORDER BY id", {Value(1)}, notes)) << db_.error();
  ASSERT_EQ(notes.size(), 3u);
  EXPECT_EQ(notes[0].title, "kept");
  EXPECT_EQ(notes[2].title, "two");

  std::optional<Note> one;
  ASSERT_TRUE(db_.fetchOne("SELECT * FROM notes ORDER BY id DESC", {}, one)) << db_.error();
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ(one->title, "two");
  ASSERT_TRUE(db_.fetchOne("SELECT * FROM notes WHERE id > ?", {Value(5)}, one)) << db_.error();
  EXPECT_FALSE(one.has_value());

  std::vector<Note> all;
  ASSERT_TRUE(db_.fetchAll(all)) << db_.error();
  EXPECT_EQ(all.size(), 2u);
}

TEST_F(RecordTest, FetchWithWrongArgumentCountFailsWithRange) {
  std::vector<Note> notes;
  EXPECT_FALSE(db_.fetch("SELECT * FROM notes WHERE id = ?", {}, notes));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Range)) << db_.error();
}

TEST_F(RecordTest, MissingColumnFailsNamingItAndAppendsNothing) {
  ASSERT_TRUE(db_.insert(Note{1, "one"}));
  std::vector<NoteWithMissingColumn> out(1);
  EXPECT_FALSE(db_.fetch("SELECT * FROM notes", {}, out));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Range)) << db_.error();
  EXPECT_NE(db_.error().find("color"), std::string::npos) << db_.error();
  EXPECT_EQ(out.size(), 1u);

  std::optional<NoteWithMissingColumn> one = NoteWithMissingColumn{5, "red"};
  EXPECT_FALSE(db_.fetchOne("SELECT * FROM notes", {}, one));
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ(one->color, "red");
}

TEST_F(RecordTest, TypeMismatchFailsWithMismatchNamingTheColumn) {
  ASSERT_TRUE(db_.insert(Note{1, "one"}));
  ASSERT_TRUE(db_.insert(Note{2, "two"}));
  std::vector<Note> out;
  // The second row's id is text: the whole fetch fails, appending nothing.
  EXPECT_FALSE(db_.fetch("SELECT CASE id WHEN 2 THEN 'x' ELSE id END AS id, title FROM notes ORDER BY id", {}, out));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Mismatch)) << db_.error();
  EXPECT_NE(db_.error().find("id"), std::string::npos) << db_.error();
  EXPECT_TRUE(out.empty());
}

TEST_F(RecordTest, ReadGivingUpWithoutAnErrorFailsWithAbort) {
  ASSERT_TRUE(db_.insert(Note{1, "one"}));
  std::vector<Refusing> out;
  EXPECT_FALSE(db_.fetch("SELECT * FROM notes", {}, out));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Abort)) << db_.error();
  EXPECT_TRUE(out.empty());
}

TEST_F(RecordTest, CompositePrimaryKey) {
  ASSERT_TRUE(db_.insert(Membership{1, 10, "owner"})) << db_.error();
  ASSERT_TRUE(db_.insert(Membership{1, 11, "reader"})) << db_.error();
  ASSERT_TRUE(db_.insert(Membership{2, 10, "reader"})) << db_.error();

  std::optional<Membership> found;
  ASSERT_TRUE(db_.fetchByKey<Membership>({Value(1), Value(11)}, found)) << db_.error();
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->role, "reader");

  ASSERT_TRUE(db_.update(Membership{1, 11, "writer"})) << db_.error();
  ASSERT_TRUE(db_.fetchByKey<Membership>({Value(1), Value(11)}, found)) << db_.error();
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->role, "writer");
  // Only that row changed.
  ASSERT_TRUE(db_.fetchByKey<Membership>({Value(2), Value(10)}, found)) << db_.error();
  EXPECT_EQ(found->role, "reader");

  bool removed = false;
  ASSERT_TRUE(db_.remove(Membership{1, 10, ""}, &removed)) << db_.error();
  EXPECT_TRUE(removed);
  EXPECT_EQ(count("membership"), 2);
  ASSERT_TRUE(db_.fetchByKey<Membership>({Value(1), Value(10)}, found)) << db_.error();
  EXPECT_FALSE(found.has_value());

  // One value for a two-column key.
  EXPECT_FALSE(db_.fetchByKey<Membership>(Value(1), found));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Range)) << db_.error();
}

TEST_F(RecordTest, FetchByKey) {
  ASSERT_TRUE(db_.insert(Note{7, "seven"}));
  std::optional<Note> note;
  ASSERT_TRUE(db_.fetchByKey<Note>(Value(7), note)) << db_.error();
  ASSERT_TRUE(note.has_value());
  EXPECT_EQ(note->title, "seven");
  ASSERT_TRUE(db_.fetchByKey<Note>(Value(8), note)) << db_.error();
  EXPECT_FALSE(note.has_value());
}

TEST_F(RecordTest, UpdateOfAMissingRowFailsWithNotFoundNamingTableAndKey) {
  EXPECT_FALSE(db_.update(Note{42, "nobody"}));
  EXPECT_TRUE(db_.lastError().is(ResultCode::NotFound)) << db_.error();
  EXPECT_NE(db_.error().find("notes"), std::string::npos) << db_.error();
  EXPECT_NE(db_.error().find("42"), std::string::npos) << db_.error();
  EXPECT_EQ(count("notes"), 0);

  EXPECT_FALSE(db_.update(Membership{3, 4, "x"}));
  EXPECT_TRUE(db_.lastError().is(ResultCode::NotFound)) << db_.error();
  EXPECT_NE(db_.error().find("membership"), std::string::npos) << db_.error();
  EXPECT_NE(db_.error().find("3"), std::string::npos) << db_.error();
  EXPECT_NE(db_.error().find("4"), std::string::npos) << db_.error();
}

TEST_F(RecordTest, SaveInsertsWhenMissingAndUpdatesWhenPresent) {
  // A NULL key matches no row: inserted, SQLite assigns the rowid.
  ASSERT_TRUE(db_.save(Note{std::nullopt, "first"})) << db_.error();
  EXPECT_EQ(count("notes"), 1);
  std::vector<Note> notes;
  ASSERT_TRUE(db_.fetchAll(notes));
  ASSERT_EQ(notes.size(), 1u);
  ASSERT_TRUE(notes[0].id.has_value());
  const std::int64_t id = *notes[0].id;

  // Present: updated in place.
  ASSERT_TRUE(db_.save(Note{id, "changed"})) << db_.error();
  EXPECT_EQ(count("notes"), 1);
  std::optional<Note> note;
  ASSERT_TRUE(db_.fetchByKey<Note>(Value(id), note));
  EXPECT_EQ(note->title, "changed");

  // A key no row has: inserted with it.
  ASSERT_TRUE(db_.save(Note{100, "hundred"})) << db_.error();
  EXPECT_EQ(count("notes"), 2);
  ASSERT_TRUE(db_.fetchByKey<Note>(Value(100), note));
  EXPECT_EQ(note->title, "hundred");
}

TEST_F(RecordTest, RemoveReportsWhetherARowWasThere) {
  ASSERT_TRUE(db_.insert(Note{1, "one"}));
  bool removed = true;
  ASSERT_TRUE(db_.remove(Note{2, ""}, &removed)) << db_.error();
  EXPECT_FALSE(removed);
  ASSERT_TRUE(db_.remove(Note{1, ""}, &removed)) << db_.error();
  EXPECT_TRUE(removed);
  EXPECT_EQ(count("notes"), 0);
}

TEST_F(RecordTest, InsertOnConflict) {
  ASSERT_TRUE(db_.insert(Note{1, "one"}));
  EXPECT_FALSE(db_.insert(Note{1, "again"}));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Constraint)) << db_.error();

  std::int64_t rowID = -1;
  ASSERT_TRUE(db_.insert(Note{1, "ignored"}, ConflictResolution::Ignore, &rowID)) << db_.error();
  EXPECT_EQ(rowID, 0);
  std::optional<Note> note;
  ASSERT_TRUE(db_.fetchByKey<Note>(Value(1), note));
  EXPECT_EQ(note->title, "one");

  ASSERT_TRUE(db_.insert(Note{1, "replaced"}, ConflictResolution::Replace, &rowID)) << db_.error();
  EXPECT_EQ(rowID, 1);
  ASSERT_TRUE(db_.fetchByKey<Note>(Value(1), note));
  EXPECT_EQ(note->title, "replaced");
  EXPECT_EQ(count("notes"), 1);
}

TEST_F(RecordTest, ForEachStreamsAndStopsWhenTheBodyReturnsFalse) {
  for (std::int64_t id = 1; id <= 5; ++id) ASSERT_TRUE(db_.insert(Note{id, "n" + std::to_string(id)}));
  std::vector<std::string> seen;
  ASSERT_TRUE(db_.forEach<Note>("SELECT * FROM notes ORDER BY id", {}, [&](const Note& note) {
    seen.push_back(note.title);
    return seen.size() < 3;
  })) << db_.error();
  EXPECT_EQ(seen, (std::vector<std::string>{"n1", "n2", "n3"}));

  std::int64_t sum = 0;
  ASSERT_TRUE(db_.forEach<Note>("SELECT * FROM notes WHERE id > ?", {Value(3)}, [&](const Note& note) {
    sum += *note.id;
  })) << db_.error();
  EXPECT_EQ(sum, 9);

  EXPECT_FALSE(db_.forEach<NoteWithMissingColumn>("SELECT * FROM notes", {}, [](const NoteWithMissingColumn&) {}));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Range)) << db_.error();
}

TEST_F(RecordTest, AFailedCallIsClearedByTheNextSuccess) {
  EXPECT_FALSE(db_.update(Note{1, "x"}));
  ASSERT_TRUE(db_.insert(Note{1, "x"})) << db_.error();
  EXPECT_FALSE(db_.lastError().isError());
}

}  // namespace
