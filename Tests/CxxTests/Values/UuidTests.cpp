// UUIDs: Uuid's text form (Foundation's UUID(uuidString:) and uuidString),
// written through Value and Statement::bind as a 16-byte blob and read
// back with RowView::get and Row::get from that blob or from the text form.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "TestSupport.hpp"
#include "TypedReadSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::DecodedTypeName;
using sqlitebridge::Error;
using sqlitebridge::Row;
using sqlitebridge::RowView;
using sqlitebridge::Statement;
using sqlitebridge::StepResult;
using sqlitebridge::Uuid;
using sqlitebridge::Value;
using sqlitebridge::ValueType;
using namespace sqlitebridge_test;

namespace {

const char* const kText = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F";
constexpr std::array<std::uint8_t, 16> kBytes = {0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A,
                                                 0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F};

class Uuids : public TypedReads {
 protected:
  /// Expects `sql`'s value (column `v`) to be refused as a Uuid by
  /// RowView::get and Row::get, with SQLITE_MISMATCH naming the column,
  /// `shown` and "uuid", and the output left alone.
  void expectUuidMismatch(const std::string& sql, const std::string& shown) {
    expectMismatch<Uuid>(sql, shown, "uuid", Uuid(kBytes));
  }
};

}  // namespace

// MARK: Text form

TEST(UuidText, FromStringAcceptsUpperLowerAndMixedCase) {
  for (const char* text : {"E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f",
                           "e621E1f8-C36c-495a-93Fc-0c247A3E6e5F"}) {
    const std::optional<Uuid> uuid = Uuid::fromString(text);
    ASSERT_TRUE(uuid.has_value()) << text;
    EXPECT_EQ(uuid->bytes(), kBytes) << text;
  }
  EXPECT_EQ(Uuid::fromString("00000000-0000-0000-0000-000000000000"), Uuid());
  EXPECT_EQ(Uuid::fromString("FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")->bytes(),
            (std::array<std::uint8_t, 16>{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                          0xFF, 0xFF, 0xFF}));
}

TEST(UuidText, FromStringRejectsEveryOtherShape) {
  for (const std::string& text : std::vector<std::string>{
           "",
           "E621E1F8-C36C-495A-93FC-0C247A3E6E5",                     // 35 characters
           "E621E1F8-C36C-495A-93FC-0C247A3E6E5F0",                   // 37 characters
           "E621E1F8C36C495A93FC0C247A3E6E5F",                        // no hyphens
           "E621E1F8-C36C-495A-93FC0C247A3E6E5F0",                    // a hyphen missing (36 characters)
           "E621E1F-8C36C-495A-93FC-0C247A3E6E5F",                    // a hyphen misplaced
           "E621E1F8-C36C-495A-93FC-0C247A3E6E5G",                    // not a hex digit
           "E621E1F8-C36C-495A-93FC-0C247A3E6E5 ",                    // a space
           " E621E1F8-C36C-495A-93FC-0C247A3E6E5F",                   // a leading space
           "{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}",                  // braces
           "E621E1F8_C36C_495A_93FC_0C247A3E6E5F",                    // other separators
           "+621E1F8-C36C-495A-93FC-0C247A3E6E5F",                    // a sign
           std::string("E621E1F8-C36C-495A-93FC-0C247A3E6E5\0", 36),  // a NUL
       }) {
    EXPECT_EQ(Uuid::fromString(text), std::nullopt) << "'" << text << "'";
  }
}

TEST(UuidText, ToStringIsTheUppercaseTextForm) {
  EXPECT_EQ(Uuid(kBytes).toString(), kText);
  EXPECT_EQ(Uuid::fromString("e621e1f8-c36c-495a-93fc-0c247a3e6e5f")->toString(), kText);
  EXPECT_EQ(Uuid().toString(), "00000000-0000-0000-0000-000000000000");
}

TEST(UuidText, ToStringThenFromStringGivesBackTheSameBytes) {
  std::array<std::uint8_t, 16> bytes{};
  for (int round = 0; round < 256; ++round) {
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::uint8_t>(round * 31 + i * 17);
    const Uuid uuid(bytes);
    EXPECT_EQ(Uuid::fromString(uuid.toString()), uuid) << uuid.toString();
  }
}

TEST(UuidText, EqualityComparesTheBytes) {
  std::array<std::uint8_t, 16> other = kBytes;
  other[15] ^= 1;
  EXPECT_TRUE(Uuid(kBytes) == Uuid(kBytes));
  EXPECT_FALSE(Uuid(kBytes) != Uuid(kBytes));
  EXPECT_TRUE(Uuid(kBytes) != Uuid(other));
  EXPECT_FALSE(Uuid(kBytes) == Uuid(other));
  EXPECT_EQ(Uuid().bytes(), (std::array<std::uint8_t, 16>{}));
}

// MARK: Writing a Uuid

TEST_F(Uuids, ValueOfAUuidIsASixteenByteBlobInRfc4122Order) {
  const Value value{Uuid(kBytes)};
  EXPECT_EQ(value.type(), ValueType::Blob);
  EXPECT_EQ(value.asBlob(), std::vector<std::uint8_t>(kBytes.begin(), kBytes.end()));
}

TEST_F(Uuids, ValueAndBindStoreASixteenByteBlob) {
  ASSERT_TRUE(db_.executeScript("CREATE TABLE things(id INTEGER PRIMARY KEY, u)")) << db_.error();
  const Uuid uuid(kBytes);
  Statement insert = db_.prepare("INSERT INTO things(u) VALUES (?)");
  ASSERT_TRUE(insert.bind(1, uuid)) << db_.error();
  ASSERT_EQ(insert.step(), StepResult::Done) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO things(u) VALUES (?)", std::vector<Value>{Value(uuid)})) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO things(u) VALUES (:u)", {{"u", uuid}})) << db_.error();
  const std::string row = "t=text:blob|n=int:16|h=text:E621E1F8C36C495A93FC0C247A3E6E5F";
  EXPECT_EQ(dump(db_, "SELECT typeof(u) AS t, length(u) AS n, hex(u) AS h FROM things ORDER BY id"),
            (std::vector<std::string>{row, row, row}));
}

TEST_F(Uuids, AUuidWrittenAndReadBackIsTheSame) {
  ASSERT_TRUE(db_.executeScript("CREATE TABLE things(id INTEGER PRIMARY KEY, u BLOB)")) << db_.error();
  const std::vector<Uuid> written = {Uuid(kBytes), Uuid(), *Uuid::fromString("00112233-4455-6677-8899-AABBCCDDEEFF")};
  for (const Uuid& uuid : written) {
    Statement insert = db_.prepare("INSERT INTO things(u) VALUES (?)");
    ASSERT_TRUE(insert.bind(1, uuid)) << db_.error();
    ASSERT_EQ(insert.step(), StepResult::Done) << db_.error();
    ASSERT_TRUE(db_.execute("INSERT INTO things(u) VALUES (?)", std::vector<Value>{Value(uuid)})) << db_.error();
  }
  std::vector<Uuid> viaView;
  std::vector<Row> rows;
  ASSERT_TRUE(db_.forEachRow("SELECT u FROM things ORDER BY id", [&](const RowView& row) {
    Uuid byIndex;
    Uuid byName;
    EXPECT_TRUE(row.get(0, byIndex)) << db_.error();
    EXPECT_TRUE(row.get("U", byName)) << db_.error();
    EXPECT_EQ(byIndex, byName);
    viaView.push_back(byIndex);
    rows.push_back(row.copy());
  })) << db_.error();
  const std::vector<Uuid> expected = {written[0], written[0], written[1], written[1], written[2], written[2]};
  EXPECT_EQ(viaView, expected);
  ASSERT_EQ(rows.size(), expected.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    Uuid uuid;
    Error error;
    ASSERT_TRUE(rows[i].get(0, uuid, &error)) << error.message;
    EXPECT_EQ(uuid, expected[i]);
    ASSERT_TRUE(rows[i].get("u", uuid, &error)) << error.message;
    EXPECT_EQ(uuid, expected[i]);
  }
}

TEST_F(Uuids, OptionalUuidBindsNullWhenEmpty) {
  Statement select = db_.prepare("SELECT typeof(?1), length(?1)");
  ASSERT_TRUE(select.bind(1, std::optional<Uuid>())) << db_.error();
  ASSERT_EQ(select.step(), StepResult::Row) << db_.error();
  EXPECT_EQ(select.columnValue(0).asText(), "null");
  ASSERT_TRUE(select.reset() && select.bind(1, std::optional<Uuid>(Uuid(kBytes)))) << db_.error();
  ASSERT_EQ(select.step(), StepResult::Row) << db_.error();
  EXPECT_EQ(select.columnValue(0).asText(), "blob");
  EXPECT_EQ(select.columnValue(1).asInteger(), 16);
}

// MARK: Reading

TEST_F(Uuids, TextFormReadsInEitherCase) {
  EXPECT_EQ(read<Uuid>("SELECT 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'"), Uuid(kBytes));
  EXPECT_EQ(read<Uuid>("SELECT 'e621e1f8-c36c-495a-93fc-0c247a3e6e5f'"), Uuid(kBytes));
}

TEST_F(Uuids, SixteenByteBlobReads) {
  EXPECT_EQ(read<Uuid>("SELECT x'E621E1F8C36C495A93FC0C247A3E6E5F'"), Uuid(kBytes));
}

TEST_F(Uuids, BlobOfAnotherLengthIsAMismatchNamingUuid) {
  expectUuidMismatch("SELECT x'E621E1F8C36C495A93FC0C247A3E6E' AS v", "a blob of 15 byte(s)");
  expectUuidMismatch("SELECT x'E621E1F8C36C495A93FC0C247A3E6E5F00' AS v", "a blob of 17 byte(s)");
  expectUuidMismatch("SELECT x'' AS v", "a blob of 0 byte(s)");
}

TEST_F(Uuids, OtherTextNumbersAndNullAreAMismatchNamingUuid) {
  expectUuidMismatch("SELECT '{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}' AS v", "text '{E621E1F8");
  expectUuidMismatch("SELECT 'E621E1F8C36C495A93FC0C247A3E6E5F' AS v", "text 'E621E1F8C36C495A93FC0C247A3E6E5F'");
  expectUuidMismatch("SELECT 42 AS v", "integer 42");
  expectUuidMismatch("SELECT 4.5 AS v", "real 4.5");
  expectUuidMismatch("SELECT NULL AS v", "NULL");
}

TEST_F(Uuids, NullReadsAsNulloptIntoAnOptional) {
  const std::optional<std::optional<Uuid>> missing = read<std::optional<Uuid>>("SELECT NULL");
  ASSERT_TRUE(missing.has_value()) << db_.error();
  EXPECT_EQ(*missing, std::nullopt);
  const std::optional<std::optional<Uuid>> present =
      read<std::optional<Uuid>>("SELECT x'E621E1F8C36C495A93FC0C247A3E6E5F'");
  ASSERT_TRUE(present.has_value()) << db_.error();
  EXPECT_EQ(*present, Uuid(kBytes));
}

TEST(UuidTypeName, DecodedTypeNameOfAUuidIsUuid) {
  EXPECT_STREQ(DecodedTypeName<Uuid>::value(), "uuid");
  EXPECT_STREQ(DecodedTypeName<std::optional<Uuid>>::value(), "uuid");
}
