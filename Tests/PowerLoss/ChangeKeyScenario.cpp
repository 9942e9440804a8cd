// changeKey on the SQLCipher build, cut mid-way: SQLCipher rewrites every
// page under the new key in one transaction, so after any cut the file
// opens with the old key or with the new one, holding the same rows, never
// with neither. (The default build cannot encrypt: no scenario there.)
#include <sqlitebridge/sqlitebridge.hpp>

#include <memory>
#include <string>

#include "AppRetry.hpp"
#include "DatabaseState.hpp"
#include "Harness.hpp"

namespace powerloss {

#ifdef SQLITEBRIDGE_SQLCIPHER

namespace {

using sqlitebridge::Configuration;
using sqlitebridge::Database;

const char kFile[] = "secret.db";
// Raw keys (SQLCipher's x'…' form): no key derivation, which would cost
// most of a second on every open of every run.
const char kOldKey[] = "x'2DD29CA851E7B56E4697B0E1F08507293D761A05CE4D1B628663F411A8086D99'";
const char kNewKey[] = "x'98483C6EB40B6C31A448C22A66DED3B5E5E8D5119CAC8327B655C8B5C4836481'";
const char kRows[] =
    "CREATE TABLE secrets(id INTEGER PRIMARY KEY, body TEXT NOT NULL);"
    "CREATE INDEX secrets_body ON secrets(body);"
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30)"
    "  INSERT INTO secrets(body) SELECT 'secret ' || i || ' ' || hex(zeroblob(100)) FROM n;";

Configuration keyed(const std::string& key, bool throughFaults) {
  Configuration configuration;
  configuration.key = key;
  if (throughFaults) configuration.vfs = FaultVfs::name();
  return configuration;
}

// The state of the file opened with `key`, or empty when it does not open
// (or read) with it.
std::string stateWith(const std::string& path, const std::string& key) {
  Database db = Database::open(path, keyed(key, false));
  if (!db.isOpen() || !integrityProblem(db).empty()) return std::string();
  return stateOf(db);
}

}  // namespace

std::vector<Scenario> changeKeyScenarios() {
  Scenario scenario;
  scenario.name = "change-key-journal-delete-full";
  scenario.lossAllowed = 1;  // DELETE at FULL (WriterScenarios.cpp)
  auto expected = std::make_shared<std::string>();
  scenario.prepare = [expected](const std::string& directory) {
    const std::string path = directory + "/" + kFile;
    {
      Database db = Database::open(path, keyed(kOldKey, false));
      db.executeScript(kRows);
    }
    if (expected->empty()) *expected = stateWith(path, kOldKey);
    syncPath(path);
    syncPath(directory);
  };
  scenario.run = [](const std::string& directory, Failure& failure, bool& workedAfter) {
    // The app does what a failed changeKey's message says: open with the old
    // key and, when the file does not read with it, with the new one (a
    // failure after SQLCipher's commit, an unlock failing say, leaves the
    // file under the new key); then the change has happened.
    auto changed = std::make_shared<bool>(false);
    const auto open = [&directory, changed] {
      Database db = Database::open(directory + "/" + kFile, keyed(kOldKey, true));
      bool readable = db.isOpen();
      if (readable) scalar(db, "SELECT count(*) FROM sqlite_master", readable);
      if (readable || FaultVfs::shared().counts().cut) return db;
      Database withNew = Database::open(directory + "/" + kFile, keyed(kNewKey, true));
      bool newReadable = withNew.isOpen();
      if (newReadable) scalar(withNew, "SELECT count(*) FROM sqlite_master", newReadable);
      if (!newReadable) return db;
      *changed = true;
      return withNew;
    };
    return tryTwice(
        open, [changed](Database& db) { return *changed || db.changeKey(kNewKey); }, 1, failure, workedAfter);
  };
  scenario.check = [expected](const std::string& directory, std::int64_t acknowledged, bool,
                              std::int64_t& lost) -> std::string {
    const std::string path = directory + "/" + kFile;
    const std::string withNew = stateWith(path, kNewKey);
    const std::string withOld = withNew.empty() ? stateWith(path, kOldKey) : std::string();
    if (withNew.empty() && withOld.empty()) return "the file opens with neither key";
    if ((withNew.empty() ? withOld : withNew) != *expected) return "the rows changed";
    lost = acknowledged == 1 && withNew.empty() ? 1 : 0;
    return std::string();
  };
  return {scenario};
}

#else

std::vector<Scenario> changeKeyScenarios() { return {}; }

#endif

}  // namespace powerloss
