// Database(name, createSQL, location): bundle copy or creation on first open,
// reuse afterwards, bad names, unusable documents directories, and
// Location::defaults().
#include <sys/stat.h>
#include <unistd.h>

#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::Location;
using sqlitebridge::Row;
using sqlitebridge::Value;
using namespace sqlitebridge_test;

namespace {

const char* const kSeedScript =
    "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT);"
    "INSERT INTO notes(title) VALUES ('from the bundle');";

// A temporary root holding `docs/` (documents) and `bundle/` (the seed).
class OpenByName : public DocumentsAndBundle {
 protected:
  void makeBundled(const std::string& name, const std::string& script = kSeedScript) {
    ASSERT_TRUE(makeDatabaseFile(bundle(name), script));
  }
};

// A documents directory the test process cannot create files in. Root ignores
// permission bits, so it gets /proc, where nobody can create files.
class UnwritableDirectory {
 public:
  UnwritableDirectory() {
    if (runningAsRoot()) {
      path_ = "/proc";
    } else {
      path_ = dir_.makeSubdirectory("locked");
      ::chmod(path_.c_str(), 0500);
    }
  }
  const std::string& path() const { return path_; }

 private:
  TempDir dir_;
  std::string path_;
};

}  // namespace

TEST_F(OpenByName, FirstOpenCopiesTheBundledDatabase) {
  makeBundled("notes.db");
  const std::string bundled = readFile(bundle("notes.db"));
  Database db("notes.db", "", location());
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(db.path(), docs("notes.db"));
  EXPECT_EQ(dump(db, "SELECT title FROM notes"), (std::vector<std::string>{"title=text:from the bundle"}));
  // The copy has the bundle's exact content.
  EXPECT_EQ(readFile(docs("notes.db")), bundled);
  // Writes go to the copy; the bundle file is untouched.
  ASSERT_TRUE(db.execute("INSERT INTO notes(title) VALUES ('written')")) << db.error();
  EXPECT_EQ(readFile(bundle("notes.db")), bundled);
  EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM notes"), 2);
}

TEST_F(OpenByName, BundleCopyLeavesNoTemporaryFiles) {
  makeBundled("notes.db");
  {
    Database db("notes.db", "", location());
    ASSERT_TRUE(db.isOpen()) << db.error();
  }
  EXPECT_EQ(listDirectory(docs_), (std::vector<std::string>{"notes.db"}));
  EXPECT_EQ(listDirectory(bundle_), (std::vector<std::string>{"notes.db"}));
}

TEST_F(OpenByName, BundleCopyIsWritableEvenWhenTheBundleFileIsReadOnly) {
  makeBundled("notes.db");
  ASSERT_EQ(::chmod(bundle("notes.db").c_str(), 0444), 0);
  Database db("notes.db", "", location());
  ASSERT_TRUE(db.isOpen()) << db.error();
  struct stat info;
  ASSERT_EQ(::stat(docs("notes.db").c_str(), &info), 0);
  EXPECT_NE(info.st_mode & S_IWUSR, 0u);
  EXPECT_TRUE(db.execute("INSERT INTO notes(title) VALUES ('ok')")) << db.error();
}

TEST_F(OpenByName, BundleCopyDoesNotRunCreateSql) {
  makeBundled("notes.db");
  Database db("notes.db", "CREATE TABLE made_by_script(x);", location());
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM sqlite_master WHERE name = 'made_by_script'"), 0);
}

TEST_F(OpenByName, LaterOpensReuseTheCopyAndNeverCopyAgain) {
  makeBundled("notes.db");
  {
    Database db("notes.db", "", location());
    ASSERT_TRUE(db.isOpen()) << db.error();
    ASSERT_TRUE(db.execute("INSERT INTO notes(title) VALUES ('mine')")) << db.error();
  }
  // Replace the bundle with a different database: later opens must not see it.
  ASSERT_EQ(::unlink(bundle("notes.db").c_str()), 0);
  makeBundled("notes.db", "CREATE TABLE other(x); INSERT INTO other VALUES ('new bundle');");
  const std::string newBundle = readFile(bundle("notes.db"));
  Database db("notes.db", "", location());
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(dump(db, "SELECT title FROM notes ORDER BY id"),
            (std::vector<std::string>{"title=text:from the bundle", "title=text:mine"}));
  EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM sqlite_master WHERE name = 'other'"), 0);
  EXPECT_EQ(readFile(bundle("notes.db")), newBundle);
}

TEST_F(OpenByName, LaterOpensUseTheCopyEvenAfterItChanged) {
  makeBundled("notes.db");
  {
    Database db("notes.db", "", location());
    ASSERT_TRUE(db.isOpen()) << db.error();
    ASSERT_TRUE(db.execute("DELETE FROM notes")) << db.error();
  }
  Database db("notes.db", "", location());
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM notes"), 0);
}

TEST_F(OpenByName, WithoutABundledCopyItCreatesAndRunsEveryStatementOfCreateSql) {
  const std::string script =
      "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT);\n"
      "CREATE TABLE log(msg TEXT);\n"
      "CREATE TRIGGER notes_log AFTER INSERT ON notes BEGIN INSERT INTO log VALUES (new.title); END;\n"
      "-- a comment between statements\n"
      "INSERT INTO notes(title) VALUES ('one');\n"
      "INSERT INTO notes(title) VALUES ('two');\n";
  Database db("fresh.db", script, location());
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(db.path(), docs("fresh.db"));
  EXPECT_EQ(dump(db, "SELECT title FROM notes ORDER BY id"),
            (std::vector<std::string>{"title=text:one", "title=text:two"}));
  EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM log"), 2);
  EXPECT_EQ(listDirectory(docs_), (std::vector<std::string>{"fresh.db"}));
  EXPECT_TRUE(listDirectory(bundle_).empty());
}

TEST_F(OpenByName, EmptyBundleDirectoryMeansCreate) {
  Database db("plain.db", "CREATE TABLE t(x); INSERT INTO t VALUES (1);", Location{docs_, ""});
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(scalarInteger(db, "SELECT x FROM t"), 1);
}

TEST_F(OpenByName, MissingBundleDirectoryMeansCreate) {
  Database db("plain.db", "CREATE TABLE t(x);", Location{docs_, root_ / "no-such-bundle"});
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_TRUE(db.hasTableColumn("t", "x")) << db.error();
}

TEST_F(OpenByName, ADirectoryInTheBundleIsNotABundledDatabase) {
  root_.makeSubdirectory("bundle/notes.db");
  Database db("notes.db", "CREATE TABLE created(x);", location());
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_TRUE(db.hasTableColumn("created", "x")) << db.error();
}

TEST_F(OpenByName, EmptyCreateSqlCreatesAnEmptyDatabase) {
  Database db("empty.db", "", location());
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM sqlite_master"), 0);
  EXPECT_TRUE(db.execute("CREATE TABLE later(x)")) << db.error();
  EXPECT_EQ(listDirectory(docs_), (std::vector<std::string>{"empty.db"}));
}

TEST_F(OpenByName, LaterOpensNeverRunCreateSqlAgain) {
  const std::string script = "CREATE TABLE IF NOT EXISTS t(x); INSERT INTO t VALUES ('once');";
  {
    Database db("once.db", script, location());
    ASSERT_TRUE(db.isOpen()) << db.error();
  }
  for (int i = 0; i < 2; ++i) {
    Database db("once.db", script, location());
    ASSERT_TRUE(db.isOpen()) << db.error();
    EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM t"), 1);
  }
  // Not even a script that would fail is run.
  Database db("once.db", "THIS IS NOT SQL", location());
  EXPECT_TRUE(db.isOpen()) << db.error();
}

TEST_F(OpenByName, LaterOpensDoNotCopyABundleThatAppearedAfterCreation) {
  {
    Database db("late.db", "CREATE TABLE created(x);", location());
    ASSERT_TRUE(db.isOpen()) << db.error();
  }
  makeBundled("late.db");
  Database db("late.db", "CREATE TABLE created(x);", location());
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_TRUE(db.hasTableColumn("created", "x")) << db.error();
  EXPECT_FALSE(db.hasTableColumn("notes", "title"));
}

TEST_F(OpenByName, FailingCreateSqlFailsAndLeavesNoFileBehind) {
  Database db("broken.db", "CREATE TABLE a(x); INSERT INTO a VALUES (1); INSERT INTO nowhere VALUES (1);", location());
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_ERROR);
  EXPECT_NE(db.error().find("no such table: nowhere"), std::string::npos) << db.error();
  EXPECT_NE(db.lastError().sql.find("nowhere"), std::string::npos) << db.lastError().sql;
  // Nothing at all in the documents directory: no database, journal or temporary file.
  EXPECT_TRUE(listDirectory(docs_).empty()) << listDirectory(docs_).size() << " entries left";
  EXPECT_EQ(db.path(), "");
  EXPECT_FALSE(db.execute("SELECT 1"));
  EXPECT_EQ(db.lastError().code, SQLITE_MISUSE);
}

TEST_F(OpenByName, CreateSqlSyntaxErrorLeavesNoFileBehind) {
  Database db("syntax.db", "CREATE TABLE a(x); CREATE TABLEX b(y);", location());
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_ERROR);
  EXPECT_NE(db.error().find("syntax error"), std::string::npos) << db.error();
  EXPECT_TRUE(listDirectory(docs_).empty());
}

TEST_F(OpenByName, CreateSqlConstraintErrorLeavesNoFileBehind) {
  Database db("constraint.db", "CREATE TABLE a(x UNIQUE); INSERT INTO a VALUES (1); INSERT INTO a VALUES (1);",
              location());
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_CONSTRAINT);
  EXPECT_EQ(db.lastError().extendedCode, SQLITE_CONSTRAINT_UNIQUE);
  EXPECT_TRUE(listDirectory(docs_).empty());
}

TEST_F(OpenByName, AfterAFailedCreateTheNextOpenStartsClean) {
  Database failed("retry.db", "CREATE TABLE half(x); SELECT * FROM nowhere;", location());
  ASSERT_FALSE(failed.isOpen());
  Database db("retry.db", "CREATE TABLE whole(x);", location());
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_TRUE(db.hasTableColumn("whole", "x")) << db.error();
  EXPECT_FALSE(db.hasTableColumn("half", "x"));
  EXPECT_EQ(db.lastError().code, SQLITE_ERROR);  // no such table: half
}

TEST_F(OpenByName, BadNamesAreRejectedWithCantOpenAndCreateNothing) {
  // Seeds that a path-following implementation would find and copy.
  ASSERT_TRUE(makeDatabaseFile(root_ / "outside.db", kSeedScript));
  root_.makeSubdirectory("docs/sub");
  root_.makeSubdirectory("bundle/sub");
  makeBundled("sub/inner.db");
  const std::string outsideBefore = readFile(root_ / "outside.db");
  const std::vector<std::string> badNames{"",
                                          ".",
                                          "..",
                                          "a/b.db",
                                          "sub/inner.db",
                                          "../outside.db",
                                          "/abs.db",
                                          "a\\b.db",
                                          "..\\x.db",
                                          std::string("a\0b.db", 6),
                                          std::string(1, '\0'),
                                          "trailing/"};
  for (const std::string& name : badNames) {
    Database db(name, "CREATE TABLE t(x);", location());
    EXPECT_FALSE(db.isOpen()) << "name: " << name;
    EXPECT_EQ(db.lastError().code, SQLITE_CANTOPEN) << "name: " << name;
    EXPECT_EQ(db.lastError().extendedCode, SQLITE_CANTOPEN) << "name: " << name;
    EXPECT_NE(db.error().find("invalid database name"), std::string::npos) << db.error();
    EXPECT_EQ(db.path(), "");
  }
  EXPECT_EQ(listDirectory(root_.path()), (std::vector<std::string>{"bundle", "docs", "outside.db"}));
  EXPECT_EQ(listDirectory(docs_), (std::vector<std::string>{"sub"}));
  EXPECT_TRUE(listDirectory(docs_ + "/sub").empty());
  EXPECT_EQ(listDirectory(bundle_ + "/sub"), (std::vector<std::string>{"inner.db"}));
  EXPECT_EQ(readFile(root_ / "outside.db"), outsideBefore);
  EXPECT_FALSE(fileExists("/abs.db"));
}

TEST_F(OpenByName, NameWithEmbeddedNulIsReportedPrintably) {
  Database db(std::string("bad\0name", 8), "", location());
  EXPECT_EQ(db.lastError().code, SQLITE_CANTOPEN);
  EXPECT_EQ(db.error().find('\0'), std::string::npos);
}

TEST_F(OpenByName, DotsInsideANameAreFine) {
  for (const std::string& name : {std::string("a..b.db"), std::string("...db"), std::string(".hidden.db")}) {
    Database db(name, "CREATE TABLE t(x);", location());
    ASSERT_TRUE(db.isOpen()) << name << ": " << db.error();
    EXPECT_EQ(db.path(), docs(name));
    EXPECT_TRUE(fileExists(docs(name))) << name;
  }
}

TEST_F(OpenByName, MissingDocumentsDirectoryFailsWithCantOpen) {
  const std::string missing = root_ / "no-such-docs";
  makeBundled("notes.db");
  Database db("notes.db", "CREATE TABLE t(x);", Location{missing, bundle_});
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_CANTOPEN);
  EXPECT_NE(db.error().find(missing), std::string::npos) << db.error();
  EXPECT_FALSE(fileExists(missing));  // not created
}

TEST_F(OpenByName, EmptyDocumentsDirectoryFailsWithCantOpen) {
  Database db("notes.db", "CREATE TABLE t(x);", Location{"", bundle_});
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_CANTOPEN);
}

TEST_F(OpenByName, DocumentsPathThatIsAFileFailsWithCantOpen) {
  writeFile(root_ / "plain-file", "x");
  Database db("notes.db", "CREATE TABLE t(x);", Location{root_ / "plain-file", bundle_});
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_CANTOPEN);
  EXPECT_EQ(readFile(root_ / "plain-file"), "x");
}

TEST_F(OpenByName, UnwritableDocumentsDirectoryFailsWhenCreating) {
  UnwritableDirectory locked;
  const std::string name = "sqlitebridge-unwritable-" + std::to_string(::getpid()) + ".db";
  Database db(name, "CREATE TABLE t(x);", Location{locked.path(), bundle_});
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_CANTOPEN);
  EXPECT_FALSE(db.error().empty());
  EXPECT_FALSE(fileExists(locked.path() + "/" + name));
  if (!runningAsRoot()) {
    EXPECT_TRUE(listDirectory(locked.path()).empty());
  }
}

TEST_F(OpenByName, UnwritableDocumentsDirectoryFailsWhenCopyingTheBundle) {
  UnwritableDirectory locked;
  const std::string name = "sqlitebridge-unwritable-" + std::to_string(::getpid()) + ".db";
  makeBundled(name);
  const std::string bundled = readFile(bundle(name));
  Database db(name, "", Location{locked.path(), bundle_});
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_CANTOPEN);
  EXPECT_NE(db.error().find("bundled"), std::string::npos) << db.error();
  EXPECT_FALSE(fileExists(locked.path() + "/" + name));
  if (!runningAsRoot()) {
    EXPECT_TRUE(listDirectory(locked.path()).empty());
  }
  EXPECT_EQ(readFile(bundle(name)), bundled);
}

TEST_F(OpenByName, ExistingFileThatIsNotADatabaseFailsWithNotADbAndIsUntouched) {
  const std::string garbage = "definitely not sqlite\n" + std::string(4096, '#');
  writeFile(docs("notes.db"), garbage);
  makeBundled("notes.db");
  Database db("notes.db", "CREATE TABLE t(x);", location());
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_NOTADB);
  EXPECT_EQ(db.lastError().extendedCode & 0xff, SQLITE_NOTADB);
  EXPECT_EQ(readFile(docs("notes.db")), garbage);
  EXPECT_EQ(listDirectory(docs_), (std::vector<std::string>{"notes.db"}));
}

TEST_F(OpenByName, DirectoryAtTheDatabasePathFailsAndIsLeftAlone) {
  root_.makeSubdirectory("docs/notes.db");
  Database db("notes.db", "CREATE TABLE t(x);", location());
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_CANTOPEN);
  EXPECT_EQ(listDirectory(docs_), (std::vector<std::string>{"notes.db"}));
  EXPECT_TRUE(fs::is_directory(docs("notes.db")));
}

TEST_F(OpenByName, BundledFileThatIsNotADatabaseFailsWithNotADbAndLeavesNoCopy) {
  writeFile(bundle("notes.db"), "not a database at all");
  Database db("notes.db", "", location());
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_NOTADB);
  EXPECT_EQ(readFile(bundle("notes.db")), "not a database at all");
  // The bad copy is not kept, so a corrected bundle is copied next time.
  EXPECT_TRUE(listDirectory(docs_).empty());
  fs::remove(bundle("notes.db"));
  makeBundled("notes.db");
  Database fixed("notes.db", "", location());
  ASSERT_TRUE(fixed.isOpen()) << fixed.error();
  EXPECT_EQ(scalarInteger(fixed, "SELECT count(*) FROM notes"), 1);
}

TEST_F(OpenByName, NamesThatLookLikeUrisAreJustFileNames) {
  for (const std::string& name :
       {std::string("file:notes.db"), std::string("a?mode=ro#x.db"), std::string(":memory:")}) {
    Database db(name, "CREATE TABLE t(x);", location());
    ASSERT_TRUE(db.isOpen()) << name << ": " << db.error();
    EXPECT_EQ(db.path(), docs(name));
    ASSERT_TRUE(db.execute("INSERT INTO t VALUES (1)")) << name << ": " << db.error();
    EXPECT_TRUE(fileExists(docs(name))) << name;
  }
  EXPECT_EQ(listDirectory(docs_), (std::vector<std::string>{":memory:", "a?mode=ro#x.db", "file:notes.db"}));
}

TEST_F(OpenByName, RelativeDocumentsDirectoryWorks) {
  WorkingDirectory cd(root_.path());
  makeBundled("seeded.db");
  Database copied("seeded.db", "", Location{"docs", "bundle"});
  ASSERT_TRUE(copied.isOpen()) << copied.error();
  EXPECT_EQ(scalarInteger(copied, "SELECT count(*) FROM notes"), 1);
  Database created("file:made.db", "CREATE TABLE t(x);", Location{"docs", "bundle"});
  ASSERT_TRUE(created.isOpen()) << created.error();
  EXPECT_EQ(listDirectory(docs_), (std::vector<std::string>{"file:made.db", "seeded.db"}));
}

TEST_F(OpenByName, ExistingDatabaseInDocumentsIsOpenedAsIs) {
  ASSERT_TRUE(makeDatabaseFile(docs("notes.db"), "CREATE TABLE existing(x); INSERT INTO existing VALUES (5);"));
  makeBundled("notes.db");
  Database db("notes.db", "CREATE TABLE t(x);", location());
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(scalarInteger(db, "SELECT x FROM existing"), 5);
  EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM sqlite_master"), 1);
}

TEST_F(OpenByName, DatabaseOpenedByNameIsReadWrite) {
  {
    Database db("rw.db", "CREATE TABLE t(x);", location());
    ASSERT_TRUE(db.isOpen()) << db.error();
    ASSERT_TRUE(db.execute("INSERT INTO t VALUES (?)", {Value("kept")})) << db.error();
  }
  Database db("rw.db", "", location());
  EXPECT_EQ(scalarText(db, "SELECT x FROM t"), "kept");
}

TEST(Location, DefaultsAreTheWorkingDirectoryAndTheExecutablesDirectory) {
  const Location location = Location::defaults();
  EXPECT_EQ(location.documentsDirectory, fs::current_path().string());
  EXPECT_EQ(location.bundleDirectory, fs::read_symlink("/proc/self/exe").parent_path().string());
}

TEST(Location, DefaultsFollowTheWorkingDirectory) {
  TempDir dir;
  WorkingDirectory cd(dir.path());
  EXPECT_EQ(fs::path(Location::defaults().documentsDirectory), fs::current_path());
}

TEST(Location, NameOnlyConstructorUsesTheDefaultLocation) {
  TempDir dir;
  WorkingDirectory cd(dir.path());
  // A name no file in the executable's directory has, so it is created.
  const std::string name = "sqlitebridge-default-location-" + std::to_string(::getpid()) + ".db";
  ASSERT_FALSE(fileExists(Location::defaults().bundleDirectory + "/" + name));
  {
    Database db(name, "CREATE TABLE t(x); INSERT INTO t VALUES (1);");
    ASSERT_TRUE(db.isOpen()) << db.error();
    EXPECT_EQ(scalarInteger(db, "SELECT x FROM t"), 1);
  }
  EXPECT_TRUE(fileExists(fs::current_path().string() + "/" + name));
  Database again(name);
  ASSERT_TRUE(again.isOpen()) << again.error();
  EXPECT_EQ(scalarInteger(again, "SELECT count(*) FROM t"), 1);
}
