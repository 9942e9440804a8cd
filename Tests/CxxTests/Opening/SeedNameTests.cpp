// Location::seedName: a seed of another name than the database's, copied on
// first open as a seed of the database's own name is (and only then), a
// missing one falling back to creation, an invalid one refused with
// SQLITE_CANTOPEN naming it, the bundle never touched, and a queue by name
// using it. Mirrored by Tests/SQLiteBridgeTests/Opening/SeedNameTests.swift.
#include <sys/stat.h>

#include "TestSupport.hpp"

using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::DatabaseQueue;
using sqlitebridge::Error;
using sqlitebridge::Location;
using namespace sqlitebridge_test;

namespace {

const char* const kSeedScript =
    "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT);"
    "INSERT INTO notes(title) VALUES ('from the seed');";
const char* const kCreateSQL =
    "CREATE TABLE created(x);"
    "INSERT INTO created VALUES ('by createSQL');";

// `docs/` and `bundle/`, the bundle holding `notes-seed.db`.
class SeedName : public DocumentsAndBundle {
 protected:
  void SetUp() override {
    DocumentsAndBundle::SetUp();
    ASSERT_TRUE(makeDatabaseFile(bundle("notes-seed.db"), kSeedScript));
    seedBytes_ = readFile(bundle("notes-seed.db"));
  }
  Location seeded(const std::string& seedName = "notes-seed.db") const {
    Location location = this->location();
    location.seedName = seedName;
    return location;
  }
  // The bundle still holds exactly the seed, byte for byte.
  void expectBundleUntouched() const {
    EXPECT_EQ(listDirectory(bundle_), (std::vector<std::string>{"notes-seed.db"}));
    EXPECT_EQ(readFile(bundle("notes-seed.db")), seedBytes_);
  }

  std::string seedBytes_;
};

}  // namespace

TEST_F(SeedName, IsEmptyByDefaultMeaningTheDatabasesOwnName) {
  EXPECT_EQ(Location().seedName, "");
  EXPECT_EQ(Location::defaults().seedName, "");
  // The seed of the database's own name is copied; notes-seed.db is not.
  ASSERT_TRUE(makeDatabaseFile(bundle("notes.db"), "CREATE TABLE own(x); INSERT INTO own VALUES ('own name');"));
  Database db("notes.db", kCreateSQL, location());
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(scalarText(db, "SELECT x FROM own"), "own name");
  EXPECT_EQ(readFile(docs("notes.db")), readFile(bundle("notes.db")));
}

TEST_F(SeedName, ASeedUnderAnotherNameIsCopiedOnFirstOpen) {
  Database db("notes.db", kCreateSQL, seeded());
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(db.path(), docs("notes.db"));
  EXPECT_EQ(dump(db, "SELECT title FROM notes"), (std::vector<std::string>{"title=text:from the seed"}));
  EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM sqlite_master WHERE name = 'created'"), 0);  // no createSQL
  // The seed's exact bytes, under the database's name, and nothing else: no
  // temporary file, no file under the seed's name.
  EXPECT_EQ(readFile(docs("notes.db")), seedBytes_);
  EXPECT_EQ(listDirectory(docs_), (std::vector<std::string>{"notes.db"}));
  // Writes go to the copy; the seed is untouched.
  ASSERT_TRUE(db.execute("INSERT INTO notes(title) VALUES ('written')")) << db.error();
  EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM notes"), 2);
  expectBundleUntouched();
}

TEST_F(SeedName, TheCopyIsWritableEvenWhenTheSeedIsReadOnly) {
  ASSERT_EQ(::chmod(bundle("notes-seed.db").c_str(), 0444), 0);
  Database db("notes.db", "", seeded());
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_TRUE(db.execute("INSERT INTO notes(title) VALUES ('ok')")) << db.error();
  expectBundleUntouched();
}

TEST_F(SeedName, LaterOpensUseTheCopyAndNeverCopyTheSeedAgain) {
  {
    Database db("notes.db", "", seeded());
    ASSERT_TRUE(db.isOpen()) << db.error();
    ASSERT_TRUE(db.execute("INSERT INTO notes(title) VALUES ('mine')")) << db.error();
  }
  // A newer seed must not replace the user's copy.
  ASSERT_EQ(::unlink(bundle("notes-seed.db").c_str()), 0);
  ASSERT_TRUE(makeDatabaseFile(bundle("notes-seed.db"), "CREATE TABLE other(x);"));
  const std::string newSeed = readFile(bundle("notes-seed.db"));
  Database db("notes.db", kCreateSQL, seeded());
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(dump(db, "SELECT title FROM notes ORDER BY id"),
            (std::vector<std::string>{"title=text:from the seed", "title=text:mine"}));
  EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM sqlite_master WHERE name IN ('other', 'created')"), 0);
  EXPECT_EQ(readFile(bundle("notes-seed.db")), newSeed);
  EXPECT_EQ(listDirectory(docs_), (std::vector<std::string>{"notes.db"}));
}

TEST_F(SeedName, AMissingSeedOfThatNameFallsBackToCreation) {
  // A file of the database's own name is no seed once another name is set.
  ASSERT_TRUE(makeDatabaseFile(bundle("notes.db"), "CREATE TABLE own(x);"));
  Database db("notes.db", kCreateSQL, seeded("absent-seed.db"));
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(scalarText(db, "SELECT x FROM created"), "by createSQL");
  EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM sqlite_master WHERE name IN ('own', 'notes')"), 0);
  EXPECT_EQ(listDirectory(docs_), (std::vector<std::string>{"notes.db"}));
  EXPECT_EQ(listDirectory(bundle_), (std::vector<std::string>{"notes-seed.db", "notes.db"}));
}

TEST_F(SeedName, ADirectoryUnderTheSeedNameIsNoSeed) {
  root_.makeSubdirectory("bundle/folder.db");
  Database db("notes.db", kCreateSQL, seeded("folder.db"));
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(scalarText(db, "SELECT x FROM created"), "by createSQL");
}

TEST_F(SeedName, ASeedNameWithoutABundleDirectoryCreates) {
  Location location{docs_, ""};
  location.seedName = "notes-seed.db";
  Database db("notes.db", kCreateSQL, location);
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(scalarText(db, "SELECT x FROM created"), "by createSQL");
}

TEST_F(SeedName, ASeedThatIsNotADatabaseFailsWithNotADbAndLeavesNoCopy) {
  writeFile(bundle("broken-seed.db"), "not a database at all");
  Database db("notes.db", kCreateSQL, seeded("broken-seed.db"));
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_NOTADB);
  EXPECT_TRUE(listDirectory(docs_).empty());
  EXPECT_EQ(readFile(bundle("broken-seed.db")), "not a database at all");
}

TEST_F(SeedName, InvalidSeedNamesFailWithCantOpenNamingThemAndTouchNothing) {
  // Files a seed name that followed paths would reach.
  ASSERT_TRUE(makeDatabaseFile(root_ / "outside.db", kSeedScript));
  root_.makeSubdirectory("bundle/sub");
  ASSERT_TRUE(makeDatabaseFile(bundle("sub/inner.db"), kSeedScript));
  const std::vector<std::string> badNames{".",
                                          "..",
                                          "sub/inner.db",
                                          "../outside.db",
                                          "/abs.db",
                                          "a\\b.db",
                                          std::string("a\0b.db", 6),
                                          "seed.db-journal",
                                          "seed.db-WAL",
                                          "seed.db-shm",
                                          ".sqlitebridge-1-2-3.tmp",
                                          std::string(248, 's')};
  for (const std::string& name : badNames) {
    Database db("notes.db", kCreateSQL, seeded(name));
    EXPECT_FALSE(db.isOpen()) << "seed name: " << name;
    EXPECT_EQ(db.lastError().code, SQLITE_CANTOPEN) << "seed name: " << name;
    EXPECT_EQ(db.lastError().extendedCode, SQLITE_CANTOPEN) << "seed name: " << name;
    std::string shown = name;
    for (char& c : shown) c = c == '\0' ? '?' : c;
    EXPECT_TRUE(contains(db.error(), "invalid seed name \"" + shown + "\" for database \"notes.db\": ")) << db.error();
    EXPECT_EQ(db.error().find('\0'), std::string::npos);
    EXPECT_EQ(db.lastError().sql, "");
    EXPECT_EQ(db.path(), "");
  }
  EXPECT_TRUE(listDirectory(docs_).empty());
  EXPECT_EQ(listDirectory(bundle_), (std::vector<std::string>{"notes-seed.db", "sub"}));
  EXPECT_EQ(listDirectory(bundle_ + "/sub"), (std::vector<std::string>{"inner.db"}));
  EXPECT_EQ(listDirectory(root_.path()), (std::vector<std::string>{"bundle", "docs", "outside.db"}));
}

TEST_F(SeedName, AnInvalidSeedNameFailsLaterOpensTooAndLeavesTheDatabaseAlone) {
  {
    Database db("notes.db", "", seeded());
    ASSERT_TRUE(db.isOpen()) << db.error();
  }
  const std::string before = readFile(docs("notes.db"));
  Database db("notes.db", "", seeded("../notes-seed.db"));
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_CANTOPEN);
  EXPECT_TRUE(contains(db.error(), "invalid seed name \"../notes-seed.db\"")) << db.error();
  EXPECT_EQ(readFile(docs("notes.db")), before);
  EXPECT_EQ(listDirectory(docs_), (std::vector<std::string>{"notes.db"}));
}

TEST_F(SeedName, AnInvalidDatabaseNameIsReportedBeforeTheSeedName) {
  Database db("a/b.db", "", seeded(".."));
  EXPECT_EQ(db.lastError().code, SQLITE_CANTOPEN);
  EXPECT_TRUE(contains(db.error(), "invalid database name \"a/b.db\"")) << db.error();
}

TEST_F(SeedName, ReadOnlyDoesNotCopyTheSeed) {
  Configuration configuration;
  configuration.readOnly = true;
  Database db("notes.db", "", seeded(), configuration);
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_CANTOPEN);
  EXPECT_TRUE(listDirectory(docs_).empty());
  expectBundleUntouched();
}

TEST_F(SeedName, AQueueByNameCopiesTheSeedOfThatName) {
  {
    DatabaseQueue queue("notes.db", kCreateSQL, seeded());
    ASSERT_TRUE(queue.isOpen()) << queue.openError().message;
    EXPECT_EQ(queue.read([](Database& db) { return scalarText(db, "SELECT title FROM notes"); }), "from the seed");
    Error error;
    ASSERT_TRUE(
        queue.write([](Database& db) { return db.execute("INSERT INTO notes(title) VALUES ('queued')"); }, &error))
        << error.message;
  }
  EXPECT_EQ(listDirectory(docs_), (std::vector<std::string>{"notes.db"}));
  DatabaseQueue again("notes.db", kCreateSQL, seeded());
  ASSERT_TRUE(again.isOpen()) << again.openError().message;
  EXPECT_EQ(again.read([](Database& db) { return scalarInteger(db, "SELECT count(*) FROM notes"); }), 2);
  expectBundleUntouched();
}

TEST_F(SeedName, AQueueByNameRefusesAnInvalidSeedName) {
  DatabaseQueue queue("notes.db", kCreateSQL, seeded("a/b"));
  ASSERT_FALSE(queue.isOpen());
  const Error error = queue.openError();
  EXPECT_EQ(error.code, SQLITE_CANTOPEN);
  EXPECT_TRUE(contains(error.message, "invalid seed name \"a/b\"")) << error.message;
  EXPECT_TRUE(listDirectory(docs_).empty());
}

TEST_F(SeedName, RemovingByNameIgnoresTheSeedName) {
  {
    Database db("notes.db", "", seeded());
    ASSERT_TRUE(db.isOpen()) << db.error();
  }
  Error error;
  EXPECT_TRUE(Database::removeDatabase("notes.db", seeded(".."), &error)) << error.message;
  EXPECT_TRUE(listDirectory(docs_).empty());
  expectBundleUntouched();
}
