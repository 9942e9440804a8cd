// The records `sqlite-bridge generate cxx` writes for
// Tests/Fixtures/generate/hostile-schema.sql (HostileRecords.hpp, committed;
// see generate-headers.cmake) compile and round-trip every row of every
// table: hostile names, each affinity, NULL and NOT NULL, composite and
// WITHOUT ROWID keys, two foreign keys to one table, a self-reference.
#include "HostileRecords.hpp"

#include <type_traits>

#include "FixtureSupport.hpp"
#include "Generate/RoundTripSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::JoinKind;
using sqlitebridge::QueryRequest;
using namespace sqlitebridge_test;

namespace {

std::string readFixture(const std::string& name) {
  std::ifstream file(fixturePath(name), std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

class HostileRecords : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(source_.executeScript(readFixture("generate/hostile-schema.sql"))) << source_.error();
    ASSERT_TRUE(source_.executeScript(readFixture("generate/hostile-rows.sql"))) << source_.error();
  }

  TempDir dir_;
  Database source_ = Database::open(dir_ / "hostile.db");
};

TEST_F(HostileRecords, EveryTableRoundTripsEveryRowWithItsStorageClasses) {
  Database copy = Database::open(dir_ / "copy.db");
  ASSERT_NO_FATAL_FAILURE(copySchema(source_, copy));
  EXPECT_EQ(roundTrip<Folder>(source_, copy), 4u);
  EXPECT_EQ(roundTrip<PersonSNote>(source_, copy), 3u);
  EXPECT_EQ(roundTrip<Tag>(source_, copy), 3u);
  EXPECT_EQ(roundTrip<Table2ndTable>(source_, copy), 3u);
  EXPECT_EQ(roundTrip<Café>(source_, copy), 2u);
  std::vector<sqlitebridge::ForeignKeyViolation> violations;
  ASSERT_TRUE(copy.foreignKeyCheck(violations)) << copy.error();
  EXPECT_TRUE(violations.empty());
}

TEST_F(HostileRecords, TypesFollowAffinityNullabilityAndKeys) {
  // INTEGER PRIMARY KEY and NOT NULL: plain; nullable: optional; no type:
  // any value; WITHOUT ROWID key columns: NOT NULL; a composite key of a
  // rowid table: nullable.
  static_assert(std::is_same_v<decltype(Folder::id), std::int64_t>);
  static_assert(std::is_same_v<decltype(Folder::class_), std::string>);
  static_assert(std::is_same_v<decltype(Folder::myColumn), std::optional<std::string>>);
  static_assert(std::is_same_v<decltype(Folder::_2fa), std::optional<std::int64_t>>);
  static_assert(std::is_same_v<decltype(Folder::straße), std::optional<double>>);
  static_assert(std::is_same_v<decltype(Folder::this_), bool>);
  static_assert(std::is_same_v<decltype(Folder::idURL), std::optional<std::chrono::system_clock::time_point>>);
  static_assert(std::is_same_v<decltype(Folder::anything), sqlitebridge::Value>);
  static_assert(std::is_same_v<decltype(Folder::price), std::optional<double>>);
  static_assert(std::is_same_v<decltype(Folder::photo), std::optional<std::vector<std::uint8_t>>>);
  static_assert(std::is_same_v<decltype(Folder::typedClob), std::string>);
  static_assert(std::is_same_v<decltype(Folder::default_), std::optional<double>>);
  static_assert(std::is_same_v<decltype(Folder::errno_), std::int64_t>);
  static_assert(std::is_same_v<decltype(PersonSNote::stamp), std::chrono::system_clock::time_point>);
  static_assert(std::is_same_v<decltype(Tag::namespace_), std::string>);
  static_assert(std::is_same_v<decltype(Tag::weight), std::optional<double>>);
  static_assert(std::is_same_v<decltype(Table2ndTable::a), std::optional<std::int64_t>>);
  static_assert(std::is_same_v<decltype(Café::名前), std::optional<std::string>>);
  EXPECT_EQ(std::string(Folder::databaseTableName), "folder");
  EXPECT_EQ(std::string(PersonSNote::databaseTableName), "person's note");
  EXPECT_EQ(PersonSNote::primaryKey(), (std::vector<std::string>{"note id"}));
  EXPECT_EQ(Tag::primaryKey(), (std::vector<std::string>{"namespace", "name"}));
  EXPECT_EQ(Table2ndTable::primaryKey(), (std::vector<std::string>{"b", "a"}));
  std::vector<Folder> folders;
  ASSERT_TRUE(source_.fetchAll(folders)) << source_.error();
  ASSERT_EQ(folders.size(), 4u);
  EXPECT_EQ(folders[0].myColumn, std::optional<std::string>("x y"));
  EXPECT_EQ(folders[0].quoteD, std::optional<std::string>("it's"));
  EXPECT_TRUE(folders[0].this_);
  EXPECT_EQ(folders[0].anything, sqlitebridge::Value(std::int64_t{42}));
  EXPECT_EQ(folders[2].anything, sqlitebridge::Value(std::string("text")));
  EXPECT_EQ(folders[0].photo, std::optional<std::vector<std::uint8_t>>({0x00, 0xff, 0x10}));
  EXPECT_FALSE(folders[1].idURL.has_value());
}

TEST_F(HostileRecords, ColumnsNameTheirColumnsInQueries) {
  std::int64_t count = 0;
  ASSERT_TRUE(source_.fetchCount(
      QueryRequest::table(Folder::databaseTableName).filter(Folder::Columns::myColumn() == sqlitebridge::Value("x y")),
      count))
      << source_.error();
  EXPECT_EQ(count, 1);
  ASSERT_TRUE(
      source_.fetchCount(QueryRequest::table(Café::databaseTableName).filter(Café::Columns::mood().isNull()), count))
      << source_.error();
  EXPECT_EQ(count, 1);
}

TEST_F(HostileRecords, AssociationsJoinOnTheirOwnForeignKey) {
  // Two keys from "person's note" to "folder": each association joins on
  // its own columns (author 1, 1, 5; editor NULL, 2, 5).
  std::int64_t count = 0;
  const QueryRequest folders = QueryRequest::table(Folder::databaseTableName);
  ASSERT_TRUE(source_.fetchCount(Folder::Associations::authorPersonSNotes(folders), count)) << source_.error();
  EXPECT_EQ(count, 3);
  ASSERT_TRUE(source_.fetchCount(Folder::Associations::editorPersonSNotes(folders).filter(
                                     sqlitebridge::column("folder", "id") == sqlitebridge::Value(2)),
                                 count))
      << source_.error();
  EXPECT_EQ(count, 1);
  const QueryRequest notes = QueryRequest::table(PersonSNote::databaseTableName);
  ASSERT_TRUE(source_.fetchCount(PersonSNote::Associations::editor(notes, JoinKind::Optional), count))
      << source_.error();
  EXPECT_EQ(count, 3);
  ASSERT_TRUE(source_.fetchCount(PersonSNote::Associations::editor(notes), count)) << source_.error();
  EXPECT_EQ(count, 2);
  ASSERT_TRUE(source_.fetchCount(Tag::Associations::folder(QueryRequest::table(Tag::databaseTableName)), count))
      << source_.error();
  EXPECT_EQ(count, 2);
}

TEST_F(HostileRecords, WithoutRowIDRecordsUpdateAndRemoveByTheirCompositeKey) {
  Tag tag;
  tag.namespace_ = "n";
  tag.name = "b";
  tag.weight = 4.5;
  ASSERT_TRUE(source_.update(tag)) << source_.error();
  bool removed = false;
  tag.namespace_ = "m";
  tag.name = "a";
  ASSERT_TRUE(source_.remove(tag, &removed)) << source_.error();
  EXPECT_TRUE(removed);
  EXPECT_EQ(dump(source_, "SELECT namespace, name, weight FROM tag ORDER BY namespace, name"),
            (std::vector<std::string>{"namespace=text:n|name=text:a|weight=real:0.5",
                                      "namespace=text:n|name=text:b|weight=real:4.5"}));
}

}  // namespace
