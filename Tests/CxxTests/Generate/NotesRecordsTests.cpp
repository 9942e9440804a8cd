// The records `sqlite-bridge generate cxx` writes for Examples/NotesApp's
// database (its bundled seed, NotesRecords.hpp, committed; see
// generate-headers.cmake) compile and round-trip every row.
#include "NotesRecords.hpp"

#include "Generate/RoundTripSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::QueryRequest;
using namespace sqlitebridge_test;

namespace {

const char* const kSeed = SQLITEBRIDGE_SOURCE_DIR "/Examples/NotesApp/Sources/NotesKit/Seed/notes-seed.db";

TEST(GeneratedRecords, NotesAppSeedRoundTripsEveryRow) {
  TempDir dir;
  // The seed as it ships, plus rows that use what its schema allows (NULL
  // and empty bodies, unicode, a gap in the ids).
  fs::copy_file(kSeed, dir / "seed.db");
  Database seed = Database::open(dir / "seed.db");
  ASSERT_TRUE(
      seed.executeScript("INSERT INTO notes(id, title, body) VALUES (2, 'no body', NULL), "
                         "(7, 'Ünïcødé 😀', ''), (8, 'quote \"'' ', 'line\nbreak')"))
      << seed.error();
  Database copy = Database::open(dir / "copy.db");
  ASSERT_NO_FATAL_FAILURE(copySchema(seed, copy));
  EXPECT_EQ(roundTrip<Notes>(seed, copy), 4u);
}

TEST(GeneratedRecords, NotesColumnsAndKeyWorkWithTheQueryInterfaceAndRecordCalls) {
  TempDir dir;
  fs::copy_file(kSeed, dir / "seed.db");
  Database db = Database::open(dir / "seed.db");
  Notes note;
  note.id = 5;
  note.title = "second";
  ASSERT_TRUE(db.insert(note)) << db.error();
  std::vector<Notes> found;
  ASSERT_TRUE(db.fetchAll(QueryRequest::table(Notes::databaseTableName).filter(Notes::Columns::body().isNull()), found))
      << db.error();
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].id, 5);
  EXPECT_EQ(found[0].title, "second");
  EXPECT_FALSE(found[0].body.has_value());
  found[0].body = "now with a body";
  ASSERT_TRUE(db.update(found[0])) << db.error();  // by the generated primary key
  EXPECT_EQ(dump(db, "SELECT body FROM notes WHERE id = 5"), (std::vector<std::string>{"body=text:now with a body"}));
}

}  // namespace
