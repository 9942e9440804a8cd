// Hostile input, files: a file that is not a database, a truncated and a
// corrupted database (clear errors, and the file never made worse by opening
// or reading it), an unwritable documents directory, and the permissions of
// the files the library creates under the process's umask.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "HostileSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::Error;
using sqlitebridge::Location;
using sqlitebridge::OpenMode;
using sqlitebridge::Row;
using namespace sqlitebridge_test;

namespace {

using Lines = std::vector<std::string>;

const OpenMode kModes[] = {OpenMode::ReadOnly, OpenMode::ReadWrite, OpenMode::ReadWriteCreate};

// What a read of every row of `t` gives: true when it succeeded; otherwise
// the error is in `db.lastError()`.
bool readEverything(Database& db) {
  std::vector<Row> rows;
  return db.execute("SELECT * FROM t ORDER BY id", &rows) && db.execute("SELECT count(*) FROM t WHERE payload > ''") &&
         db.execute("SELECT * FROM t INDEXED BY t_payload WHERE payload > ''", &rows);
}

bool isCorruptOrNotADatabase(int code) { return code == SQLITE_CORRUPT || code == SQLITE_NOTADB; }

// Whether PRAGMA integrity_check finds the damage: it reports problems as
// rows, or fails with SQLITE_CORRUPT when it cannot even walk the b-trees.
bool integrityCheckFindsDamage(Database& db) {
  Row row;
  if (!db.execute("PRAGMA integrity_check", row)) return db.lastError().code == SQLITE_CORRUPT;
  return row.value(0).asText() != "ok";
}

// Overwrites `count` bytes at `offset` of the file with `byte`.
void overwrite(const std::string& path, std::size_t offset, std::size_t count, char byte) {
  std::string bytes = readFile(path);
  ASSERT_LE(offset + count, bytes.size());
  bytes.replace(offset, count, std::string(count, byte));
  writeFile(path, bytes);
}

}  // namespace

// MARK: Not a database

TEST(HostileFiles, AFileThatIsNotADatabaseFailsWithNotADbInEveryModeAndIsUntouched) {
  TempDir dir;
  const std::string path = dir / "notes.db";
  std::string garbage = "This is a text file, not an SQLite database.\n";
  while (garbage.size() < 8192) garbage += garbage;
  writeFile(path, garbage);
  for (const OpenMode mode : kModes) {
    Database db = Database::open(path, mode);
    EXPECT_FALSE(db.isOpen());
    const Error error = db.lastError();
    EXPECT_EQ(error.code, SQLITE_NOTADB) << error.message;
    EXPECT_NE(error.message.find("not a database"), std::string::npos) << error.message;
    EXPECT_NE(error.message.find(path), std::string::npos) << error.message;
  }
  // By name it is the existing writable copy: refused the same way.
  Database byName("notes.db", "CREATE TABLE t(x);", Location{dir.path(), ""});
  EXPECT_FALSE(byName.isOpen());
  EXPECT_EQ(byName.lastError().code, SQLITE_NOTADB) << byName.error();
  EXPECT_EQ(readFile(path), garbage);
  EXPECT_EQ(listDirectory(dir.path()), (Lines{"notes.db"}));
}

TEST(HostileFiles, AFileWithTheRightMagicButGarbageAfterItIsNotOpened) {
  TempDir dir;
  const std::string path = dir / "fake.db";
  std::string bytes("SQLite format 3\0", 16);
  for (int i = 0; i < 4096 * 3; ++i) bytes += static_cast<char>((i * 7919) % 251);
  writeFile(path, bytes);
  for (const OpenMode mode : kModes) {
    Database db = Database::open(path, mode);
    EXPECT_FALSE(db.isOpen());
    EXPECT_TRUE(isCorruptOrNotADatabase(db.lastError().code)) << db.error();
  }
  EXPECT_EQ(readFile(path), bytes);
  EXPECT_EQ(listDirectory(dir.path()), (Lines{"fake.db"}));
}

TEST(HostileFiles, ABundledFileThatIsNotADatabaseIsNotLeftAsTheCopy) {
  TempDir root;
  const std::string docs = root.makeSubdirectory("docs");
  const std::string bundle = root.makeSubdirectory("bundle");
  const std::string garbage(10000, 'G');
  writeFile(bundle + "/notes.db", garbage);
  Database db("notes.db", "CREATE TABLE t(x);", Location{docs, bundle});
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_NOTADB) << db.error();
  EXPECT_EQ(readFile(bundle + "/notes.db"), garbage);
  EXPECT_TRUE(listDirectory(docs).empty());
}

// MARK: Truncated and corrupted databases

TEST(HostileFiles, ATruncatedDatabaseFailsClearlyAndIsNotMadeWorse) {
  TempDir dir;
  const std::string path = dir / "cut.db";
  const int pageSize = makeMultiPageDatabase(path);
  ASSERT_GT(pageSize, 0);
  const std::string whole = readFile(path);
  ASSERT_GT(whole.size(), 40u * pageSize) << "the database must span many pages";
  // Cut at half, at a page boundary and in the middle of a page: the file
  // holds fewer pages than its header says.
  for (const std::size_t size : {whole.size() / 2, static_cast<std::size_t>(3 * pageSize), whole.size() / 2 + 1000}) {
    SCOPED_TRACE(size);
    const std::string cut = whole.substr(0, size);
    writeFile(path, cut);
    for (const OpenMode mode : kModes) {
      Database db = Database::open(path, mode);
      if (db.isOpen()) {
        // Opening reads only the first page; reading the rest must fail.
        EXPECT_FALSE(readEverything(db));
        EXPECT_TRUE(isCorruptOrNotADatabase(db.lastError().code)) << db.error();
      } else {
        EXPECT_TRUE(isCorruptOrNotADatabase(db.lastError().code)) << db.error();
      }
    }
    EXPECT_EQ(readFile(path), cut) << "opening and reading must not change the file";
    EXPECT_EQ(listDirectory(dir.path()), (Lines{"cut.db"}));
  }
}

TEST(HostileFiles, ACutThatDropsOnlyTrailingZerosLosesNothing) {
  // Cut inside the last page, the page count still matches the header and
  // SQLite reads the missing bytes as zeros. When those bytes were zeros
  // (unused space of the last page), every row must read back unchanged;
  // SQLite keeps no checksums, so a cut through data there would be as
  // invisible as any other overwritten payload byte.
  TempDir dir;
  const std::string path = dir / "short.db";
  ASSERT_GT(makeMultiPageDatabase(path), 0);
  const std::string whole = readFile(path);
  std::vector<std::string> rows;
  {
    Database db = Database::open(path, OpenMode::ReadOnly);
    ASSERT_TRUE(db.isOpen()) << db.error();
    rows = dump(db, "SELECT * FROM t ORDER BY id");
  }
  std::size_t size = whole.size();
  while (size > 0 && whole[size - 1] == '\0') --size;
  ASSERT_LT(size, whole.size()) << "the last page should end in unused space";
  const std::string cut = whole.substr(0, size);
  writeFile(path, cut);
  for (const OpenMode mode : kModes) {
    Database db = Database::open(path, mode);
    ASSERT_TRUE(db.isOpen()) << db.error();
    EXPECT_EQ(dump(db, "SELECT * FROM t ORDER BY id"), rows);
    EXPECT_FALSE(integrityCheckFindsDamage(db));
  }
  EXPECT_EQ(readFile(path), cut);
  EXPECT_EQ(listDirectory(dir.path()), (Lines{"short.db"}));
}

TEST(HostileFiles, ACorruptedTablePageFailsWithCorruptAndIsNotMadeWorse) {
  TempDir dir;
  const std::string path = dir / "bad.db";
  const int pageSize = makeMultiPageDatabase(path);
  ASSERT_GT(pageSize, 0);
  std::int64_t root = 0;
  {
    Database db = Database::open(path);
    ASSERT_TRUE(db.isOpen()) << db.error();
    root = scalarInteger(db, "SELECT rootpage FROM sqlite_master WHERE name = 't'");
  }
  ASSERT_GT(root, 1);
  // The b-tree page header of the table's root page: type, free block,
  // cell count, content start, fragments, right child.
  overwrite(path, static_cast<std::size_t>(root - 1) * pageSize, 12, '\xff');
  const std::string corrupted = readFile(path);
  for (const OpenMode mode : kModes) {
    Database db = Database::open(path, mode);
    ASSERT_TRUE(db.isOpen()) << db.error();  // page 1 is intact
    std::vector<Row> rows;
    EXPECT_FALSE(db.execute("SELECT * FROM t ORDER BY id", &rows));
    EXPECT_EQ(db.lastError().code, SQLITE_CORRUPT) << db.error();
    EXPECT_TRUE(rows.empty());
    // The schema and other statements still work on the same connection.
    EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM sqlite_master"), 2);
    EXPECT_TRUE(integrityCheckFindsDamage(db));
  }
  EXPECT_EQ(readFile(path), corrupted) << "opening and reading must not change the file";
  EXPECT_EQ(listDirectory(dir.path()), (Lines{"bad.db"}));
}

TEST(HostileFiles, ACorruptedLeafPageFailsWithCorruptAndIsNotMadeWorse) {
  TempDir dir;
  const std::string path = dir / "leaf.db";
  const int pageSize = makeMultiPageDatabase(path);
  ASSERT_GT(pageSize, 0);
  // Every page after the first three: leaves of the table and the index.
  const std::string whole = readFile(path);
  std::string damaged = whole;
  for (std::size_t page = 3; page * pageSize < whole.size(); page += 2) {
    damaged[page * pageSize] = '\x01';  // not a valid page type
  }
  writeFile(path, damaged);
  Database db = Database::open(path, OpenMode::ReadWrite);
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_FALSE(readEverything(db));
  EXPECT_EQ(db.lastError().code, SQLITE_CORRUPT) << db.error();
  EXPECT_EQ(readFile(path), damaged);
}

TEST(HostileFiles, ADamagedHeaderFailsWithNotADbAndIsUntouched) {
  TempDir dir;
  const std::string path = dir / "header.db";
  ASSERT_GT(makeMultiPageDatabase(path, 20), 0);
  overwrite(path, 0, 6, 'X');  // "SQLite format 3" becomes "XXXXXXe format 3"
  const std::string damaged = readFile(path);
  for (const OpenMode mode : kModes) {
    Database db = Database::open(path, mode);
    EXPECT_FALSE(db.isOpen());
    EXPECT_EQ(db.lastError().code, SQLITE_NOTADB) << db.error();
  }
  EXPECT_EQ(readFile(path), damaged);
}

TEST(HostileFiles, ACorruptedDatabaseOpenedByNameIsNotReplacedOrChanged) {
  TempDir dir;
  const std::string path = dir / "notes.db";
  const int pageSize = makeMultiPageDatabase(path);
  ASSERT_GT(pageSize, 0);
  std::string bytes = readFile(path);
  writeFile(path, bytes.substr(0, bytes.size() / 2));
  const std::string cut = readFile(path);
  {
    // Neither the bundle copy nor createSQL may replace an existing file.
    Database db("notes.db", "CREATE TABLE fresh(x);", Location{dir.path(), ""});
    if (db.isOpen()) {
      EXPECT_FALSE(readEverything(db));
      EXPECT_TRUE(isCorruptOrNotADatabase(db.lastError().code)) << db.error();
    } else {
      EXPECT_TRUE(isCorruptOrNotADatabase(db.lastError().code)) << db.error();
    }
  }
  EXPECT_EQ(readFile(path), cut);
  EXPECT_EQ(listDirectory(dir.path()), (Lines{"notes.db"}));
}

// MARK: Unwritable documents directory

TEST(HostileFiles, AnUnwritableDocumentsDirectoryFailsWithCantOpenAndCreatesNothing) {
  TempDir root;
  // Root ignores permission bits: it gets /proc, where nobody can create
  // files, and a "directory" below a regular file.
  std::string locked;
  if (runningAsRoot()) {
    locked = "/proc";
  } else {
    locked = root.makeSubdirectory("locked");
    ASSERT_EQ(::chmod(locked.c_str(), 0555), 0);
  }
  const Lines before = listDirectory(locked);
  Database db("notes.db", "CREATE TABLE t(x);", Location{locked, ""});
  EXPECT_FALSE(db.isOpen());
  EXPECT_EQ(db.lastError().code, SQLITE_CANTOPEN) << db.error();
  EXPECT_FALSE(db.error().empty());
  EXPECT_FALSE(fileExists(locked + "/notes.db"));
  if (!runningAsRoot()) EXPECT_EQ(listDirectory(locked), before);
  Database byPath = Database::open(locked + "/direct.db");
  EXPECT_FALSE(byPath.isOpen());
  EXPECT_EQ(byPath.lastError().code, SQLITE_CANTOPEN) << byPath.error();
  EXPECT_FALSE(fileExists(locked + "/direct.db"));

  // A documents "directory" inside a regular file.
  writeFile(root / "plain-file", "not a directory");
  Database below("notes.db", "CREATE TABLE t(x);", Location{root / "plain-file/docs", ""});
  EXPECT_FALSE(below.isOpen());
  EXPECT_EQ(below.lastError().code, SQLITE_CANTOPEN) << below.error();
  Database belowByPath = Database::open(root / "plain-file/direct.db");
  EXPECT_FALSE(belowByPath.isOpen());
  EXPECT_EQ(belowByPath.lastError().code, SQLITE_CANTOPEN) << belowByPath.error();
  EXPECT_EQ(readFile(root / "plain-file"), "not a directory");
}

TEST(HostileFiles, AnExistingDatabaseInAReadOnlyDirectoryOpensAndKeepsItsData) {
  TempDir root;
  const std::string docs = root.makeSubdirectory("docs");
  ASSERT_TRUE(makeDatabaseFile(docs + "/notes.db", "CREATE TABLE notes(v); INSERT INTO notes VALUES ('kept');"));
  const std::string bytes = readFile(docs + "/notes.db");
  ASSERT_EQ(::chmod(docs.c_str(), 0555), 0);
  {
    Database db("notes.db", "CREATE TABLE never(x);", Location{docs, ""});
    ASSERT_TRUE(db.isOpen()) << db.error();
    EXPECT_EQ(scalarText(db, "SELECT v FROM notes"), "kept");
    if (!runningAsRoot()) {
      // A write needs a journal beside the file, which cannot be created.
      EXPECT_FALSE(db.execute("INSERT INTO notes VALUES ('lost')"));
      const int code = db.lastError().code;
      EXPECT_TRUE(code == SQLITE_CANTOPEN || code == SQLITE_READONLY) << db.error();
      EXPECT_FALSE(db.isInTransaction());
      EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM notes"), 1);
    }
  }
  if (!runningAsRoot()) {
    EXPECT_EQ(readFile(docs + "/notes.db"), bytes);
  }
  EXPECT_EQ(listDirectory(docs), (Lines{"notes.db"}));
  ::chmod(docs.c_str(), 0755);
}

// MARK: Permissions under the umask

TEST(HostileFiles, FilesAreCreatedNoWiderThanTheUmaskAllows) {
  const mode_t original = ::umask(022);
  ::umask(original);
  for (const mode_t mask : {mode_t{077}, mode_t{027}, mode_t{022}}) {
    SCOPED_TRACE(mask);
    TempDir root;
    const std::string docs = root.makeSubdirectory("docs");
    const std::string bundle = root.makeSubdirectory("bundle");
    ASSERT_TRUE(makeDatabaseFile(bundle + "/seed.db", "CREATE TABLE t(v); INSERT INTO t VALUES ('seed');"));
    ASSERT_EQ(::chmod((bundle + "/seed.db").c_str(), 0666), 0);  // the seed itself is wide open
    {
      UmaskGuard guard(mask);
      Database created("created.db", "CREATE TABLE t(v);", Location{docs, bundle});
      ASSERT_TRUE(created.isOpen()) << created.error();
      Database copied("seed.db", "", Location{docs, bundle});
      ASSERT_TRUE(copied.isOpen()) << copied.error();
      Database byPath = Database::open(docs + "/by-path.db");
      ASSERT_TRUE(byPath.isOpen()) << byPath.error();
      ASSERT_TRUE(byPath.execute("CREATE TABLE t(v)")) << byPath.error();
      // Journals and WAL files follow the database's own mode.
      ASSERT_TRUE(copied.execute("PRAGMA journal_mode = WAL")) << copied.error();
      ASSERT_TRUE(copied.execute("INSERT INTO t VALUES ('wal')")) << copied.error();
      for (const std::string name : {"created.db", "seed.db", "by-path.db", "seed.db-wal", "seed.db-shm"}) {
        SCOPED_TRACE(name);
        const int mode = permissionBits(docs + "/" + name);
        ASSERT_GE(mode, 0);
        EXPECT_EQ(mode & static_cast<int>(mask), 0) << std::oct << "mode " << mode << " under umask " << mask;
        EXPECT_EQ(mode & 0600, 0600) << std::oct << mode;  // still the owner's to read and write
      }
      EXPECT_EQ(scalarText(copied, "SELECT group_concat(v) FROM t"), "seed,wal");
    }
  }
  // The umask is back.
  const mode_t now = ::umask(original);
  EXPECT_EQ(now, original);
}
