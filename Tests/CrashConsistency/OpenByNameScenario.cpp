// Open-by-name scenarios: a child repeatedly removes `<docs>/<name>` and
// opens it by name, so that the first-open work runs again and again — the
// copy of a bundled seed of a few MB ("bundle-copy"), or the creation of the
// database by a script that takes a while ("create-by-name") — and the parent
// kills it at a random moment. Afterwards `<docs>/<name>` must be absent or
// complete (byte-identical to the bundle; or the whole creation script's
// result), and opening it by name must work. Temporary files left behind by
// the kills are counted; at the end the stale ones (backdated past the age
// the library waits for) must be swept by the next first open.
#include <sqlitebridge/sqlitebridge.hpp>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "Harness.hpp"

namespace crash {

namespace {

const char* const kName = "seed.db";
constexpr std::int64_t kSeedRows = 1000;
constexpr std::size_t kSeedBlobBytes = 4000;  // 1000 x 4000 bytes: a 4 MB seed
constexpr std::int64_t kCreatedRows = 20000;

// Runs by name as a first open would: the creation script of create-by-name.
const char* const kCreateSQL =
    "CREATE TABLE made(id INTEGER PRIMARY KEY, data TEXT NOT NULL);"
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) "
    "INSERT INTO made(id, data) SELECT i, printf('%08d-%s', i, hex(zeroblob(40))) FROM n;"
    "CREATE INDEX made_data ON made(data);";

std::string seedBlob(std::int64_t id) {
  std::string blob;
  while (blob.size() < kSeedBlobBytes) blob += payload(id * 1000 + static_cast<std::int64_t>(blob.size()));
  blob.resize(kSeedBlobBytes);
  return blob;
}

bool makeSeed(const std::string& path, std::string& error) {
  removeDatabase(path);
  RawDb db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (!db.ok()) {
    error = db.openError();
    return false;
  }
  if (!db.exec("CREATE TABLE seed(id INTEGER PRIMARY KEY, data BLOB NOT NULL); BEGIN", error)) return false;
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(db.get(), "INSERT INTO seed(id, data) VALUES (?, ?)", -1, &stmt, nullptr);
  for (std::int64_t id = 1; id <= kSeedRows; ++id) {
    const std::string blob = seedBlob(id);
    sqlite3_bind_int64(stmt, 1, id);
    sqlite3_bind_blob(stmt, 2, blob.data(), static_cast<int>(blob.size()), SQLITE_TRANSIENT);
    if (sqlite3_step(stmt) != SQLITE_DONE) {
      error = sqlite3_errmsg(db.get());
      sqlite3_finalize(stmt);
      return false;
    }
    sqlite3_reset(stmt);
  }
  sqlite3_finalize(stmt);
  return db.exec("COMMIT", error);
}

// Checks the contents through our API, as an application would see them.
std::string checkContents(sqlitebridge::Database& db, bool bundle) {
  std::vector<sqlitebridge::Row> rows;
  if (!db.execute("PRAGMA integrity_check", &rows)) return "integrity_check failed: " + db.error();
  if (rows.size() != 1 || rows[0].value(0).asText() != "ok") {
    return "integrity_check: " + (rows.empty() ? std::string("no answer") : rows[0].value(0).asText());
  }
  if (bundle) {
    std::int64_t count = 0;
    bool right = true;
    const bool ok = db.forEachRow("SELECT id, data FROM seed ORDER BY id", [&](const sqlitebridge::RowView& row) {
      ++count;
      const std::vector<std::uint8_t> data = row.value(1).asBlob();
      right = right && row.value(0).asInteger() == count && std::string(data.begin(), data.end()) == seedBlob(count);
    });
    if (!ok) return "reading seed failed: " + db.error();
    if (count != kSeedRows || !right) return "seed rows differ (" + std::to_string(count) + " rows)";
    return std::string();
  }
  sqlitebridge::Row row;
  if (!db.execute("SELECT count(*), sum(id), sum(data = printf('%08d-%s', id, hex(zeroblob(40)))) FROM made", row)) {
    return "reading made failed: " + db.error();
  }
  if (row.value(0).asInteger() != kCreatedRows || row.value(1).asInteger() != kCreatedRows * (kCreatedRows + 1) / 2 ||
      row.value(2).asInteger() != kCreatedRows) {
    return "the created table is incomplete: " + row.value(0).asText() + " rows";
  }
  if (!db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'made_data'", row) ||
      row.value(0).asInteger() != 1) {
    return "the index made_data is missing";
  }
  return std::string();
}

Tally runOpenByName(const Options& options, bool bundle) {
  Tally tally;
  tally.scenario = bundle ? "bundle-copy" : "create-by-name";
  auto random = scenarioRandom(options.seed, tally.scenario);
  const std::string directory = makeDirectory(options.workDirectory, tally.scenario);
  const std::string docs = makeDirectory(directory, "docs");
  const std::string bundleDirectory = bundle ? makeDirectory(directory, "bundle") : std::string();
  const sqlitebridge::Location location{docs, bundleDirectory};
  const std::string target = docs + "/" + kName;
  const std::string createSQL = bundle ? std::string() : kCreateSQL;
  std::string seedBytes;
  if (bundle) {
    std::string error;
    if (!makeSeed(bundleDirectory + "/" + kName, error) || !readFile(bundleDirectory + "/" + kName, seedBytes)) {
      tally.fail(tally.otherFailures, "cannot make the seed database: " + error);
      return tally;
    }
  }
  // How long one first open takes here, to spread the kills over it.
  const auto started = std::chrono::steady_clock::now();
  {
    sqlitebridge::Database db(kName, createSQL, location);
    if (!db.isOpen()) {
      tally.fail(tally.otherFailures, "the first open by name failed: " + db.error());
      return tally;
    }
  }
  const auto firstOpenMicros =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started).count();
  tally.notes.push_back("first open " + std::to_string(firstOpenMicros / 1000) + " ms");

  int complete = 0;
  int absent = 0;
  int roundsLeavingTemporaries = 0;
  std::size_t mostTemporaries = 0;
  std::set<std::string> seenTemporaries;
  for (int round = 1; round <= options.rounds; ++round) {
    ++tally.rounds;
    KillPlan plan;
    if (uniform(random, 0, 2) == 0) {
      plan.delayMicros = uniform(random, 0, 3 * firstOpenMicros + 20000);
    } else {
      // After some completed opens, within about one more first open.
      plan.anchorKind = 'O';
      plan.anchorCount = static_cast<int>(uniform(random, 1, 3));
      plan.delayMicros = uniform(random, 0, firstOpenMicros + firstOpenMicros / 2);
    }
    const ChildRun run = runAndKill({"open-by-name", docs, bundleDirectory, kName, createSQL}, plan);
    const std::string where = "round " + std::to_string(round) + " (" + plan.describe() + ")";
    const std::int64_t failuresBefore = tally.lost + tally.partial + tally.integrityFailures + tally.otherFailures;
    if (!run.problem.empty()) tally.fail(tally.otherFailures, where + ": " + run.problem);
    tally.checked += run.last('O', 0);

    const std::vector<std::string> temporaries = temporaryFiles(docs);
    std::size_t fresh = 0;
    for (const std::string& name : temporaries) fresh += seenTemporaries.insert(name).second ? 1 : 0;
    if (fresh > 0) ++roundsLeavingTemporaries;
    mostTemporaries = std::max(mostTemporaries, temporaries.size());

    const bool existed = fileExists(target);
    if (existed) {
      if (bundle) {
        std::string bytes;
        if (!readFile(target, bytes) || bytes != seedBytes) {
          tally.fail(tally.partial, where + ": " + target + " exists but differs from the bundle (" +
                                        std::to_string(bytes.size()) + " of " + std::to_string(seedBytes.size()) +
                                        " bytes)");
        }
      } else {
        RawDb raw(target);
        const std::string integrity = raw.ok() ? raw.integrity() : raw.openError();
        if (integrity != "ok") tally.fail(tally.integrityFailures, where + ": " + integrity);
      }
      ++complete;
    } else {
      ++absent;
    }
    // Whatever the kill left, opening by name works and shows the whole
    // database (a copy or creation now when the file was absent).
    {
      sqlitebridge::Database db(kName, createSQL, location);
      if (!db.isOpen()) {
        tally.fail(existed ? tally.partial : tally.otherFailures, where + ": opening by name failed: " + db.error());
      } else {
        const std::string problem = checkContents(db, bundle);
        if (!problem.empty()) tally.fail(existed ? tally.partial : tally.otherFailures, where + ": " + problem);
      }
    }
    if (bundle) {
      std::string bytes;
      if (!readFile(target, bytes) || bytes != seedBytes) {
        tally.fail(tally.otherFailures, where + ": after opening by name the copy differs from the bundle");
      }
    }
    const bool clean = tally.lost + tally.partial + tally.integrityFailures + tally.otherFailures == failuresBefore;
    if (clean) ++tally.survived;
    if (options.verbose || !clean) {
      std::printf("  %s %s: opens reported %lld, file %s, %zu temporary files%s\n", tally.scenario.c_str(),
                  where.c_str(), static_cast<long long>(run.last('O', 0)), existed ? "complete" : "absent",
                  temporaries.size(), clean ? "" : "  FAILED");
    }
  }
  tally.notes.push_back("file complete after kill " + std::to_string(complete) + ", absent " + std::to_string(absent));
  tally.notes.push_back("kills leaving temporary files " + std::to_string(roundsLeavingTemporaries) + " (at most " +
                        std::to_string(mostTemporaries) + " at once)");

  // Leftovers of dead processes that have not been touched for a while are
  // swept by the next first open; backdate them instead of waiting.
  const std::vector<std::string> leftovers = temporaryFiles(docs);
  for (const std::string& name : leftovers) backdate(docs + "/" + name, 3600 * 2);
  removeDatabase(target);
  {
    sqlitebridge::Database db(kName, createSQL, location);
    if (!db.isOpen()) tally.fail(tally.otherFailures, "the sweeping open by name failed: " + db.error());
  }
  const std::vector<std::string> remaining = temporaryFiles(docs);
  tally.notes.push_back("stale temporary files " + std::to_string(leftovers.size()) +
                        ", left after the next first open " + std::to_string(remaining.size()));
  if (!remaining.empty()) {
    tally.fail(tally.otherFailures, std::to_string(remaining.size()) + " stale temporary files (e.g. " + remaining[0] +
                                        ") survived a first open by name");
  }
  return tally;
}

}  // namespace

Tally runBundleCopyScenario(const Options& options) { return runOpenByName(options, true); }
Tally runCreateScenario(const Options& options) { return runOpenByName(options, false); }

void openByNameChild(const std::vector<std::string>& args) {
  if (args.size() != 4) {
    std::fprintf(stderr, "usage: child open-by-name DOCS BUNDLE NAME CREATE-SQL\n");
    ::_exit(2);
  }
  const Reporter reporter(kReportFd);
  const sqlitebridge::Location location{args[0], args[1]};
  const std::string target = args[0] + "/" + args[2];
  reporter.send('R', 0);
  for (std::int64_t opens = 1;; ++opens) {
    removeDatabase(target);
    sqlitebridge::Database db(args[2], args[3], location);
    if (!db.isOpen()) {
      std::fprintf(stderr, "crash-consistency open-by-name child: open failed: %s\n", db.error().c_str());
      ::_exit(3);
    }
    reporter.send('O', opens);
  }
}

}  // namespace crash
