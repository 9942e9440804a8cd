// Fuzz target database_name: random bytes as the name (and the createSQL) of
// Database(name, createSQL, Location{documents, bundle}).
//
// A per-process sandbox directory (under /dev/shm when it is writable, for
// cheap fsyncs; else $TMPDIR or /tmp; removed at exit) holds documents/,
// bundle/ (a seed database, a file that is not a database, an empty file, a
// directory and a symbolic link named like databases), outside/ (a database
// that must never change) and cwd/ (the working directory, so a relative
// path lands inside the sandbox). Every connection is hardened through
// sqlite3_auto_extension: createSQL cannot attach files, change global
// settings, run long or grow the file past 8 MB.
//
// Input: a mode byte (bit 0: documents path with a trailing slash; bit 1: no
// bundle directory; bit 2: documents as a relative path; bit 3: open a
// second time), a name length byte (255 takes one more byte), the name, and
// the rest as createSQL.
//
// Invariants (a broken one aborts): nothing outside documents/ is created,
// removed or modified (every path, type, size, mode, time and content of the
// sandbox is compared before and after); a name that is empty, `.` or `..`
// or holds `/`, `\` or NUL fails with SQLITE_CANTOPEN and creates nothing; a
// failure leaves a code and a message and an empty documents directory; a
// success opens exactly `<documents>/<name>` (path() says so, and it is a
// regular file), and once the database is closed the documents directory
// holds that file and nothing else (no temporary file, journal or WAL left
// behind); a bundled seed is what a first open copies (a bundled file that is
// not a database fails with SQLITE_NOTADB); a second open reuses the file
// without running its createSQL. documents/ is emptied after every input.
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>

#include "FuzzSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::Location;

namespace {

struct Sandbox {
  std::string root;
  std::string documents;
  std::string bundle;
};

Sandbox& sandbox() {
  static Sandbox instance;
  return instance;
}

void removeTree(const std::string& path) {
  struct stat info;
  if (::lstat(path.c_str(), &info) != 0) return;
  if (S_ISDIR(info.st_mode)) {
    ::chmod(path.c_str(), 0700);
    if (DIR* dir = ::opendir(path.c_str())) {
      std::vector<std::string> names;
      while (const dirent* entry = ::readdir(dir)) {
        const std::string name = entry->d_name;
        if (name != "." && name != "..") names.push_back(name);
      }
      ::closedir(dir);
      for (const std::string& name : names) removeTree(path + "/" + name);
    }
    ::rmdir(path.c_str());
  } else {
    ::unlink(path.c_str());
  }
}

std::vector<std::string> entries(const std::string& directory) {
  std::vector<std::string> names;
  if (DIR* dir = ::opendir(directory.c_str())) {
    while (const dirent* entry = ::readdir(dir)) {
      const std::string name = entry->d_name;
      if (name != "." && name != "..") names.push_back(name);
    }
    ::closedir(dir);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string readWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Every path under `path` except the documents directory's content, with
// what could change about it.
void describeTree(const std::string& path, const std::string& relative, std::vector<std::string>& out) {
  struct stat info;
  if (::lstat(path.c_str(), &info) != 0) return;
  if (path == sandbox().documents) {
    // Its times change with every file made in it; only it may change.
    out.push_back(relative + " mode=" + std::to_string(info.st_mode));
    return;
  }
  std::string line = relative + " mode=" + std::to_string(info.st_mode) + " size=" + std::to_string(info.st_size) +
                     " mtime=" + std::to_string(info.st_mtim.tv_sec) + "." + std::to_string(info.st_mtim.tv_nsec) +
                     " ctime=" + std::to_string(info.st_ctim.tv_sec) + "." + std::to_string(info.st_ctim.tv_nsec);
  if (S_ISREG(info.st_mode)) line += " content=" + std::to_string(std::hash<std::string>()(readWhole(path)));
  if (S_ISLNK(info.st_mode)) {
    char target[4096];
    const ssize_t n = ::readlink(path.c_str(), target, sizeof target);
    line += " ->" + std::string(target, n > 0 ? static_cast<std::size_t>(n) : 0);
  }
  out.push_back(line);
  if (!S_ISDIR(info.st_mode)) return;
  for (const std::string& name : entries(path)) describeTree(path + "/" + name, relative + "/" + name, out);
}

std::vector<std::string> sandboxState() {
  std::vector<std::string> lines;
  describeTree(sandbox().root, ".", lines);
  return lines;
}

void makeDatabase(const std::string& path, const char* sql) {
  sqlite3* db = nullptr;
  FUZZ_CHECK(sqlite3_open(path.c_str(), &db) == SQLITE_OK, "cannot create %s", path.c_str());
  FUZZ_CHECK(sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK, "%s: %s", path.c_str(), sqlite3_errmsg(db));
  sqlite3_close(db);
}

void writeFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

std::string makeSandbox() {
  std::string base;
  if (const char* chosen = std::getenv("SQLITEBRIDGE_FUZZ_TMP")) base = chosen;
  struct stat info;
  if (base.empty() && ::stat("/dev/shm", &info) == 0 && S_ISDIR(info.st_mode) && ::access("/dev/shm", W_OK) == 0) {
    base = "/dev/shm";
  }
  if (base.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    base = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
  }
  std::string pattern = base + "/sqlitebridge-fuzz-name-XXXXXX";
  FUZZ_CHECK(::mkdtemp(&pattern[0]) != nullptr, "mkdtemp %s failed", pattern.c_str());
  return pattern;
}

void cleanUp() {
  if (!sandbox().root.empty()) removeTree(sandbox().root);
}

// Every connection (the ones the constructor opens included) gets the limits.
int hardenConnection(sqlite3* db, const char**, const sqlite3_api_routines*) {
  fuzz::harden(db, 5000, true);
  return SQLITE_OK;
}

bool forbiddenName(const std::string& name) {
  return name.empty() || name == "." || name == ".." ||
         name.find_first_of(std::string("/\\\0", 3)) != std::string::npos;
}

bool hasTable(Database& db, const char* table) {
  const std::vector<std::string> rows =
      fuzz::rawRows(db.handle(), std::string("SELECT count(*) FROM sqlite_schema WHERE name = '") + table + "'");
  return !rows.empty() && rows[0] == "int:1";
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::hardenProcess();
  Sandbox& box = sandbox();
  box.root = makeSandbox();
  std::atexit(cleanUp);
  box.documents = box.root + "/documents";
  box.bundle = box.root + "/bundle";
  for (const char* dir : {"/documents", "/bundle", "/outside", "/cwd", "/bundle/dir.db"}) {
    FUZZ_CHECK(::mkdir((box.root + dir).c_str(), 0755) == 0, "mkdir %s failed", dir);
  }
  makeDatabase(box.bundle + "/seed.db", "CREATE TABLE seed_marker(x); INSERT INTO seed_marker VALUES (1)");
  makeDatabase(box.root + "/outside/secret.db", "CREATE TABLE secret(x); INSERT INTO secret VALUES ('keep')");
  writeFile(box.bundle + "/junk.db", std::string(4096, 'j'));
  writeFile(box.bundle + "/empty.db", "");
  FUZZ_CHECK(::symlink("../outside/secret.db", (box.bundle + "/link.db").c_str()) == 0, "symlink failed");
  FUZZ_CHECK(::chdir((box.root + "/cwd").c_str()) == 0, "chdir failed");
  sqlite3_auto_extension(reinterpret_cast<void (*)()>(hardenConnection));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Sandbox& box = sandbox();
  fuzz::Input input(data, size);
  const std::uint8_t mode = input.byte();
  std::size_t length = input.byte();
  if (length == 255) length += input.byte();
  const std::string name = input.bytes(length);
  const std::string createSQL = input.rest();

  Location location;
  location.documentsDirectory = (mode & 4) != 0 ? "../documents" : box.documents;
  if ((mode & 1) != 0) location.documentsDirectory += "/";
  location.bundleDirectory = (mode & 2) != 0 ? std::string() : box.bundle;
  const bool reopen = (mode & 8) != 0;

  const std::vector<std::string> before = sandboxState();
  FUZZ_CHECK(entries(box.documents).empty(), "the documents directory is not empty before the run");

  bool opened;
  {
    fuzz::resetBudget();
    Database db(name, createSQL, location);
    opened = db.isOpen();
    const sqlitebridge::Error error = db.lastError();
    fuzz::checkErrorContract(db, opened, "Database(name, createSQL, location)", name);
    if (forbiddenName(name)) {
      FUZZ_CHECK(!opened && error.code == SQLITE_CANTOPEN, "the name \"%s\" was not refused with SQLITE_CANTOPEN (%d)",
                 fuzz::printable(name).c_str(), error.code);
    }
    if (opened) {
      std::string documents = location.documentsDirectory;
      if (documents.back() != '/') documents += "/";
      FUZZ_CHECK(db.path() == documents + name, "opened \"%s\" at \"%s\"", fuzz::printable(name).c_str(),
                 fuzz::printable(db.path()).c_str());
      struct stat info;
      FUZZ_CHECK(::lstat((box.documents + "/" + name).c_str(), &info) == 0 && S_ISREG(info.st_mode),
                 "\"%s\" opened but <documents>/<name> is not a regular file", fuzz::printable(name).c_str());
      const bool bundled = !location.bundleDirectory.empty();
      if (bundled && (name == "seed.db" || name == "link.db")) {
        FUZZ_CHECK(hasTable(db, name == "seed.db" ? "seed_marker" : "secret"),
                   "the bundled %s was not what the first open copied", name.c_str());
      }
    } else {
      FUZZ_CHECK(entries(box.documents).empty(), "\"%s\" failed (%d %s) but left in documents: %s",
                 fuzz::printable(name).c_str(), error.code, fuzz::printable(error.message).c_str(),
                 fuzz::printable(entries(box.documents)[0]).c_str());
    }
    if (!location.bundleDirectory.empty() && name == "junk.db") {
      FUZZ_CHECK(!opened && error.code == SQLITE_NOTADB, "the bundled junk.db opened or failed with %d", error.code);
    }
  }
  if (reopen) {
    fuzz::resetBudget();
    Database again(name, "CREATE TABLE second_open(x)", location);
    fuzz::checkErrorContract(again, again.isOpen(), "Database(name, createSQL, location) again", name);
    if (opened) {
      FUZZ_CHECK(again.isOpen(), "\"%s\" opened once but not a second time: %s", fuzz::printable(name).c_str(),
                 again.error().c_str());
      FUZZ_CHECK(!hasTable(again, "second_open"), "the second open of \"%s\" ran its createSQL",
                 fuzz::printable(name).c_str());
    }
    opened = opened || again.isOpen();
  }

  const std::vector<std::string> left = entries(box.documents);
  if (opened) {
    FUZZ_CHECK(left.size() == 1 && left[0] == name,
               "after opening \"%s\" (and closing it) documents holds %zu entries: \"%s\"%s",
               fuzz::printable(name).c_str(), left.size(), fuzz::printable(left.empty() ? "" : left[0]).c_str(),
               left.size() > 1 ? (" and \"" + fuzz::printable(left[1]) + "\"").c_str() : "");
  } else {
    FUZZ_CHECK(left.empty(), "\"%s\" never opened but documents holds \"%s\"", fuzz::printable(name).c_str(),
               fuzz::printable(left[0]).c_str());
  }
  const std::vector<std::string> after = sandboxState();
  FUZZ_CHECK(after == before, "opening \"%s\" changed something outside the documents directory: %s",
             fuzz::printable(name).c_str(), fuzz::firstDifference(before, after).c_str());

  for (const std::string& entry : left) removeTree(box.documents + "/" + entry);
  return 0;
}
