// Fuzz target changeset_bytes: arbitrary bytes as a changeset or patchset
// (Changeset::fromBytes), and, when they parse, everything the core does with
// one: listing its operations, inverting it (and the inverse), concatenating
// it with itself, applying it and its inverse to a scratch in-memory
// database whose tables match the usual changesets, and rebasing; the bytes
// also go to ChangesetRebaser::configure as rebase data.
//
// The scratch database: t(a PRIMARY KEY, b, c); u(x, y, z, PRIMARY KEY(x,
// y)); w(k TEXT PRIMARY KEY, v UNIQUE) WITHOUT ROWID; v(id INTEGER PRIMARY
// KEY, ta REFERENCES t(a), note TEXT NOT NULL DEFAULT ''), foreign keys on, a
// few rows in each (so changes meet data, not-found, conflict, constraint and
// foreign key conflicts); and plain(p, q), without a primary key. The
// conflict handler answers Omit, Replace, Abort, Omit, ... starting where
// the input's size modulo 3 says. A changeset that names a table the
// database lacks (or one that does not fit) is applied again with t, u, w
// and v as the filter.
//
// Input: the whole input is the changeset's bytes (the seeds: real
// changesets and patchsets over the scratch tables and real rebase data,
// made by SQLite, and three broken ones).
//
// Invariants (a broken one aborts): bytes that do not parse fail with
// SQLITE_CORRUPT (or SQLITE_TOOBIG) and a message, leaving the output alone;
// bytes that parse are kept as they are, a patchset exactly when they start
// with 'P'. Listing the operations succeeds, twice the same, each with one
// primary-key flag per column and old/new values as its kind says. A
// changeset inverts (a patchset fails with SQLITE_MISUSE), its inverse
// inverts, and the inverse of the inverse lists the same operations (up to
// what inverting is defined to drop: the new primary-key values of an
// update, which SQLite's sessions never record). Whatever SQLite writes (an
// inverse, a concatenation, a rebased changeset) parses again with
// fromBytes. Every call that fails leaves a code and a message (never one
// ending in SQLite's "not an error"). An apply:
// the handler is told a foreign key conflict with a count and no operation,
// any other with its operation (and the conflicting row for data conflicts
// and conflicts); an Abort answer makes the apply fail with SQLITE_ABORT, a
// Replace to a kind other than data or conflict with SQLITE_MISUSE; a failed
// apply leaves the whole database exactly as before and its rebase data
// untouched; a successful one leaves integrity_check ok, gives rebase data a
// rebaser takes, and never had SQLite skip a table silently (SQLite's log
// says "sqlite3changeset_apply(): ... mismatch / no such table": the core
// must have refused with SQLITE_SCHEMA first). No crash, leak or hang.
#include <optional>

#include "FuzzSupport.hpp"

using sqlitebridge::ChangeKind;
using sqlitebridge::Changeset;
using sqlitebridge::ChangesetConflict;
using sqlitebridge::ChangesetConflictKind;
using sqlitebridge::ChangesetConflictResolution;
using sqlitebridge::ChangesetOperation;
using sqlitebridge::ChangesetRebaser;
using sqlitebridge::Database;
using sqlitebridge::Error;
using sqlitebridge::Value;
using sqlitebridge::ValueType;

namespace {

const char* const kSchema =
    "CREATE TABLE t(a PRIMARY KEY, b, c);"
    "CREATE TABLE u(x, y, z, PRIMARY KEY(x, y));"
    "CREATE TABLE w(k TEXT PRIMARY KEY, v UNIQUE) WITHOUT ROWID;"
    "CREATE TABLE v(id INTEGER PRIMARY KEY, ta REFERENCES t(a), note TEXT NOT NULL DEFAULT '');"
    "INSERT INTO t VALUES (1, 'one', 1.5), ('two', x'0102', NULL), (3, NULL, -7);"
    "INSERT INTO u VALUES (1, 'a', 'first'), (1, 'b', NULL), ('x', 2.5, x'ff');"
    "INSERT INTO w VALUES ('k1', 'v1'), ('k2', 2);"
    "INSERT INTO v VALUES (1, 1, 'refers to t 1'), (2, NULL, '');"
    "CREATE TABLE plain(p, q);"
    "INSERT INTO plain VALUES (1, 2);";

const std::vector<std::string>& scratchTables() {
  static const std::vector<std::string> tables = {"t", "u", "w", "v"};
  return tables;
}

// MARK: SQLite's log

// What SQLite logged (sqlite3_log) since the last clear: its apply logs
// each table it skips for a schema mismatch there, and nowhere else.
std::vector<std::string>& sqliteLog() {
  static std::vector<std::string> lines;
  return lines;
}

void onSQLiteLog(void*, int code, const char* message) {
  if (message == nullptr) return;
  if (std::strncmp(message, "sqlite3changeset_apply()", 24) != 0) return;
  sqliteLog().push_back(std::to_string(code) + " " + message);
}

// MARK: Describing

std::string describe(const std::optional<Value>& value) {
  if (!value) return "-";
  switch (value->type()) {
    case ValueType::Null:
      return "NULL";
    case ValueType::Integer:
      return std::to_string(value->asInteger());
    case ValueType::Real: {
      char text[40];
      std::snprintf(text, sizeof text, "%a", value->asReal());
      return text;
    }
    case ValueType::Text:
      return "'" + fuzz::printable(value->asText(), 40) + "'";
    default: {
      const std::vector<std::uint8_t> bytes = value->asBlob();
      return "x'" + fuzz::printable(std::string(bytes.begin(), bytes.end()), 40) + "'";
    }
  }
}

std::string describe(const ChangesetOperation& operation) {
  std::string text = operation.kind == ChangeKind::Insert   ? "INSERT "
                     : operation.kind == ChangeKind::Update ? "UPDATE "
                                                            : "DELETE ";
  text += fuzz::printable(operation.table, 40);
  text += operation.isIndirect ? " (indirect) pk[" : " pk[";
  for (bool key : operation.primaryKey) text += key ? "1" : "0";
  text += "] old(";
  for (std::size_t i = 0; i < operation.oldValues.size(); ++i)
    text += (i ? ", " : "") + describe(operation.oldValues[i]);
  text += ") new(";
  for (std::size_t i = 0; i < operation.newValues.size(); ++i)
    text += (i ? ", " : "") + describe(operation.newValues[i]);
  return text + ")";
}

std::string describe(const std::vector<ChangesetOperation>& operations) {
  std::string text;
  for (std::size_t i = 0; i < operations.size() && i < 8; ++i) text += "\n  " + describe(operations[i]);
  if (operations.size() > 8) text += "\n  ... (" + std::to_string(operations.size()) + " in all)";
  return text;
}

/// The first operation where `a` and `b` differ, for messages.
std::string firstDifference(const std::vector<ChangesetOperation>& a, const std::vector<ChangesetOperation>& b) {
  for (std::size_t i = 0; i < a.size() || i < b.size(); ++i) {
    const std::string x = i < a.size() ? describe(a[i]) : "<none>";
    const std::string y = i < b.size() ? describe(b[i]) : "<none>";
    if (x != y || (i < a.size() && i < b.size() && a[i] != b[i])) {
      return "operation " + std::to_string(i) + ":\n  " + x + "\n  " + y;
    }
  }
  return "none";
}

// MARK: The error contract of values

/// A failure's message names what went wrong: it never ends in SQLite's
/// "not an error" (the connection's message read after a call that left
/// none there).
void checkMessageSaysWhy(const Error& error, const char* call) {
  static const std::string kNoError = ": not an error";
  const std::string& message = error.message;
  FUZZ_CHECK(message.size() < kNoError.size() ||
                 message.compare(message.size() - kNoError.size(), kNoError.size(), kNoError) != 0,
             "%s failed with code %d, saying \"%s\"", call, error.extendedCode, fuzz::printable(message).c_str());
}

/// A changeset call's error: on failure a non-zero code (the primary code
/// in the low byte of the extended one) and a message.
void checkFailure(const Error& error, const char* call) {
  FUZZ_CHECK(error.code != 0, "%s failed with code 0", call);
  FUZZ_CHECK((error.extendedCode & 0xff) == error.code, "%s failed with code %d but extended code %d", call, error.code,
             error.extendedCode);
  FUZZ_CHECK(!error.message.empty(), "%s failed with code %d and no message", call, error.code);
  checkMessageSaysWhy(error, call);
}

/// A changeset the fuzzer never makes, to see that a failing call leaves
/// its output alone.
const Changeset& sentinel() {
  static const Changeset changeset = [] {
    Changeset made;
    // A table "sentinel" of one key column, an insert of NULL.
    static const char kBytes[] = "T\x01\x01sentinel\0\x12\x00\x05";
    const std::string bytes(kBytes, sizeof kBytes - 1);
    Error error;
    FUZZ_CHECK(Changeset::fromBytes(bytes, made, &error), "the sentinel changeset does not parse: %s",
               error.message.c_str());
    return made;
  }();
  return changeset;
}

/// Bytes SQLite wrote (`what`): they must parse again, as the same sort.
void checkReparses(const Changeset& written, const char* what) {
  Changeset again;
  Error error;
  FUZZ_CHECK(Changeset::fromBytes(written.bytes(), again, &error),
             "%s (%zu bytes, written by SQLite) does not parse again: %d %s", what, written.bytes().size(),
             error.extendedCode, fuzz::printable(error.message).c_str());
  FUZZ_CHECK(again == written && again.isPatchset() == written.isPatchset(), "%s parses as something else", what);
}

// MARK: Operations

/// Lists `changeset`'s operations (which must succeed, twice the same) and
/// checks each one's shape.
std::vector<ChangesetOperation> listOperations(const Changeset& changeset, const char* what) {
  std::vector<ChangesetOperation> first;
  std::vector<ChangesetOperation> second{ChangesetOperation()};
  Error error;
  FUZZ_CHECK(changeset.operations(first, &error), "listing the operations of %s fails: %d %s", what, error.extendedCode,
             fuzz::printable(error.message).c_str());
  FUZZ_CHECK(changeset.operations(second, &error), "listing the operations of %s a second time fails: %d %s", what,
             error.extendedCode, fuzz::printable(error.message).c_str());
  FUZZ_CHECK(first == second, "listing the operations of %s twice gives two lists: %s", what,
             firstDifference(first, second).c_str());
  FUZZ_CHECK(!changeset.isEmpty() || first.empty(), "the empty %s lists operations", what);
  for (const ChangesetOperation& operation : first) {
    const std::size_t columns = operation.primaryKey.size();
    FUZZ_CHECK(columns > 0 && !operation.table.empty(), "%s lists an operation without columns or table: %s", what,
               describe(operation).c_str());
    const bool hasOld = operation.kind != ChangeKind::Insert;
    const bool hasNew = operation.kind != ChangeKind::Delete;
    FUZZ_CHECK(
        operation.oldValues.size() == (hasOld ? columns : 0) && operation.newValues.size() == (hasNew ? columns : 0),
        "%s lists an operation whose values do not match its kind and columns: %s", what, describe(operation).c_str());
  }
  return first;
}

/// What inverting twice gives back: the same operations, but an update's
/// new values of its primary key columns are dropped (SQLite's invert keeps
/// an update's key in its old values only; a session never records an
/// update that changes the key).
std::vector<ChangesetOperation> afterTwoInversions(std::vector<ChangesetOperation> operations) {
  for (ChangesetOperation& operation : operations) {
    if (operation.kind != ChangeKind::Update) continue;
    for (std::size_t i = 0; i < operation.primaryKey.size() && i < operation.newValues.size(); ++i) {
      if (operation.primaryKey[i]) operation.newValues[i] = std::nullopt;
    }
  }
  return operations;
}

// MARK: Applying

/// Applies `changeset` to `db` (with `tables` as the filter) under the
/// cycling handler and checks the apply's promises. Returns the error code
/// (0 on success); `*rebaseData` receives the rebase data of a success.
int applyChecked(Database& db, const Changeset& changeset, const std::optional<std::vector<std::string>>& tables,
                 int& answerIndex, std::string* rebaseData, const char* what) {
  sqlite3* h = db.handle();
  const std::vector<std::string> before = fuzz::snapshot(h);
  const std::string sentinelRebase = "rebase data left alone";
  std::string rebase = sentinelRebase;
  // The first answer that must stop the apply, and the code it must give.
  int mustFailWith = 0;
  static const ChangesetConflictResolution kAnswers[] = {
      ChangesetConflictResolution::Omit, ChangesetConflictResolution::Replace, ChangesetConflictResolution::Abort};
  const auto handler = [&](const ChangesetConflict& conflict) {
    if (conflict.kind == ChangesetConflictKind::ForeignKey) {
      FUZZ_CHECK(!conflict.operation && !conflict.conflictingValues && conflict.foreignKeyViolations > 0,
                 "a foreign key conflict is told with an operation, a row or no count (%lld)",
                 static_cast<long long>(conflict.foreignKeyViolations));
    } else {
      FUZZ_CHECK(conflict.operation.has_value() && conflict.foreignKeyViolations == 0,
                 "a conflict of kind %d is told without its operation", static_cast<int>(conflict.kind));
      const bool rowExpected =
          conflict.kind == ChangesetConflictKind::Data || conflict.kind == ChangesetConflictKind::Conflict;
      FUZZ_CHECK(conflict.conflictingValues.has_value() == rowExpected,
                 "a conflict of kind %d is told %s the conflicting row (%s)", static_cast<int>(conflict.kind),
                 rowExpected ? "without" : "with", describe(*conflict.operation).c_str());
      if (rowExpected) {
        FUZZ_CHECK(conflict.conflictingValues->size() == conflict.operation->primaryKey.size(),
                   "the conflicting row has %zu values, the change %zu columns", conflict.conflictingValues->size(),
                   conflict.operation->primaryKey.size());
      }
    }
    const ChangesetConflictResolution answer = kAnswers[answerIndex++ % 3];
    if (mustFailWith == 0) {
      if (answer == ChangesetConflictResolution::Abort) {
        mustFailWith = SQLITE_ABORT;
      } else if (answer == ChangesetConflictResolution::Replace && conflict.kind != ChangesetConflictKind::Data &&
                 conflict.kind != ChangesetConflictKind::Conflict) {
        mustFailWith = SQLITE_MISUSE;
      }
    }
    return answer;
  };

  sqliteLog().clear();
  fuzz::resetBudget();
  const bool ok = db.apply(changeset, tables, handler, &rebase);
  fuzz::checkErrorContract(db, ok, what, std::string());
  const Error error = db.lastError();
  if (std::getenv("FUZZ_VERBOSE") != nullptr) {
    std::fprintf(stderr, "%s%s: %s %d %s\n", what, tables ? " (filtered)" : "", ok ? "ok" : "failed",
                 error.extendedCode, fuzz::printable(error.message).c_str());
  }
  FUZZ_CHECK(sqlite3_get_autocommit(h) != 0, "%s left a transaction open", what);
  if (!ok) checkMessageSaysWhy(error, what);
  if (mustFailWith != 0) {
    FUZZ_CHECK(!ok && error.code == mustFailWith,
               "%s: the handler's answer must fail the apply with %d, but it %s (%d %s)", what, mustFailWith,
               ok ? "succeeded" : "failed otherwise", error.extendedCode, fuzz::printable(error.message).c_str());
  }
  if (ok) {
    FUZZ_CHECK(sqliteLog().empty(), "%s succeeded, but SQLite skipped a table without a word: %s", what,
               fuzz::printable(sqliteLog().front()).c_str());
    const std::vector<std::string> integrity = fuzz::rawRows(h, "PRAGMA integrity_check");
    FUZZ_CHECK(integrity.size() == 1 && integrity[0] == "text:ok", "%s succeeded but integrity_check says %s", what,
               fuzz::printable(integrity.empty() ? std::string() : integrity[0]).c_str());
    FUZZ_CHECK(rebase != sentinelRebase, "%s succeeded without setting the rebase data", what);
    if (rebaseData != nullptr) *rebaseData = rebase;
    return 0;
  }
  FUZZ_CHECK(rebase == sentinelRebase, "%s failed (%d %s) but changed the rebase data", what, error.extendedCode,
             fuzz::printable(error.message).c_str());
  const std::vector<std::string> after = fuzz::snapshot(h);
  // Outside a transaction: every failure, interrupts included, rolls back.
  FUZZ_CHECK(after == before, "%s failed (%d %s) but changed the database: %s", what, error.extendedCode,
             fuzz::printable(error.message).c_str(), fuzz::firstDifference(before, after).c_str());
  return error.code;
}

/// `applyChecked` of every table, then, when a table is missing here, of
/// the scratch tables only.
int applyBoth(Database& db, const Changeset& changeset, int& answerIndex, std::string* rebaseData, const char* what) {
  const int code = applyChecked(db, changeset, std::nullopt, answerIndex, rebaseData, what);
  if (code != SQLITE_SCHEMA) return code;
  return applyChecked(db, changeset, scratchTables(), answerIndex, rebaseData, what);
}

// MARK: Rebasing

/// Rebases `changeset` on `rebaser`: a clean error, or bytes that parse.
void rebaseChecked(const ChangesetRebaser& rebaser, const Changeset& changeset, const char* what) {
  Changeset rebased = sentinel();
  Error error;
  if (rebaser.rebase(changeset, rebased, &error)) {
    FUZZ_CHECK(!changeset.isPatchset(), "%s: a patchset was rebased", what);
    checkReparses(rebased, what);
  } else {
    checkFailure(error, what);
    FUZZ_CHECK(rebased == sentinel(), "%s failed but changed its output", what);
    FUZZ_CHECK(!changeset.isPatchset() || error.code == SQLITE_MISUSE, "%s: a patchset fails with %d, not MISUSE", what,
               error.code);
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // Before anything initializes SQLite (the heap limit does).
  FUZZ_CHECK(sqlite3_config(SQLITE_CONFIG_LOG, onSQLiteLog, nullptr) == SQLITE_OK, "cannot install SQLite's log");
  fuzz::hardenProcess();
  FUZZ_CHECK(sqlitebridge::sessionExtensionAvailable(), "this SQLite has no session extension");
  sentinel();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);

  // Rebase data is read by the rebaser alone: any bytes, a clean answer.
  ChangesetRebaser rebaser;
  Error rebaserError;
  const bool configured = rebaser.configure(bytes, &rebaserError);
  if (!configured) checkFailure(rebaserError, "ChangesetRebaser::configure(input)");

  Changeset changeset = sentinel();
  Error error;
  if (!Changeset::fromBytes(data, size, changeset, &error)) {
    checkFailure(error, "Changeset::fromBytes");
    FUZZ_CHECK(error.code == SQLITE_CORRUPT || error.code == SQLITE_TOOBIG,
               "bytes that do not parse fail with %d, not SQLITE_CORRUPT: %s", error.extendedCode,
               fuzz::printable(error.message).c_str());
    FUZZ_CHECK(changeset == sentinel(), "a failed fromBytes changed its output");
    return 0;
  }
  FUZZ_CHECK(changeset.bytes() == bytes, "fromBytes kept other bytes than it was given");
  FUZZ_CHECK(changeset.isPatchset() == (size > 0 && data[0] == 'P'), "fromBytes says patchset = %d for bytes from %c",
             changeset.isPatchset(), size > 0 ? data[0] : '-');
  FUZZ_CHECK(changeset.isEmpty() == (size == 0), "fromBytes of %zu bytes is %sempty", size,
             changeset.isEmpty() ? "" : "not ");

  const std::vector<ChangesetOperation> operations = listOperations(changeset, "the changeset");

  // Inverting, twice.
  Changeset inverse = sentinel();
  bool hasInverse = false;
  if (changeset.isPatchset()) {
    FUZZ_CHECK(!changeset.inverted(inverse, &error) && error.code == SQLITE_MISUSE,
               "inverting a patchset does not fail with SQLITE_MISUSE");
    checkFailure(error, "inverted(patchset)");
    FUZZ_CHECK(inverse == sentinel(), "a failed inverted changed its output");
  } else if (changeset.inverted(inverse, &error)) {
    hasInverse = true;
    checkReparses(inverse, "the inverse");
    const std::vector<ChangesetOperation> inverseOperations = listOperations(inverse, "the inverse");
    FUZZ_CHECK(inverseOperations.size() == operations.size(), "the inverse lists %zu operations, the changeset %zu",
               inverseOperations.size(), operations.size());
    Changeset back = sentinel();
    FUZZ_CHECK(inverse.inverted(back, &error), "the inverse does not invert: %d %s", error.extendedCode,
               fuzz::printable(error.message).c_str());
    checkReparses(back, "the inverse of the inverse");
    const std::vector<ChangesetOperation> expected = afterTwoInversions(operations);
    const std::vector<ChangesetOperation> backOperations = listOperations(back, "the inverse of the inverse");
    FUZZ_CHECK(backOperations == expected, "the inverse of the inverse lists other operations: %s\nchangeset:%s",
               firstDifference(expected, backOperations).c_str(), describe(operations).c_str());
  } else {
    checkFailure(error, "inverted");
    FUZZ_CHECK(inverse == sentinel(), "a failed inverted changed its output");
  }

  // Concatenated with itself.
  Changeset twice = sentinel();
  if (changeset.concatenated(changeset, twice, &error)) {
    checkReparses(twice, "the concatenation");
    FUZZ_CHECK(twice.isEmpty() || twice.isPatchset() == changeset.isPatchset(),
               "concatenating a %s with itself gives a %s", changeset.isPatchset() ? "patchset" : "changeset",
               twice.isPatchset() ? "patchset" : "changeset");
    listOperations(twice, "the concatenation");
  } else {
    checkFailure(error, "concatenated");
    FUZZ_CHECK(twice == sentinel(), "a failed concatenated changed its output");
  }

  // Applied, then its inverse, to the scratch database.
  Database db = fuzz::openFuzzDatabase(kSchema);
  int answerIndex = static_cast<int>(size % 3);
  std::string rebaseData;
  if (applyBoth(db, changeset, answerIndex, &rebaseData, "apply(changeset)") == 0) {
    ChangesetRebaser fromApply;
    FUZZ_CHECK(fromApply.configure(rebaseData, &error), "the rebase data of an apply (%zu bytes) is refused: %d %s",
               rebaseData.size(), error.extendedCode, fuzz::printable(error.message).c_str());
    rebaseChecked(fromApply, changeset, "rebasing on the apply's own rebase data");
  }
  if (hasInverse) applyBoth(db, inverse, answerIndex, nullptr, "apply(inverse)");

  if (configured) rebaseChecked(rebaser, changeset, "rebasing on the input as rebase data");
  return 0;
}
