// For tests only; no stability promise. What the C++ and Swift test suites
// reach to make the core's rare paths happen and to know that they did:
// transient failures injected into a queue's or pool's transaction begins,
// counters of retries, waits and external-change checks, a statement lent
// without a statement variable, the UTF-8 check behind the core's wording,
// and the message an open fails with on a SQLite older than the minimum.
// Never included by <sqlitebridge/sqlitebridge.hpp> nor by the production
// interop headers; Swift tests import it with the explicit submodule
// SQLiteBridgeCore.Testing, which no source under Sources/ imports.
// Definitions: Sources/SQLiteBridgeCore/Concurrency/ConcurrencyTesting.cpp,
// Values/ValueAccess.cpp, Opening/SQLiteMinimum.cpp and
// Changesets/SessionAPI.cpp (the rest is inline).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "../Export.hpp"
#include "../sqlitebridge.hpp"
#include "Statements.hpp"

namespace sqlitebridge::interop {

/// The state of a `DatabaseQueue`'s or `DatabasePool`'s connections that
/// tests drive or read. Each does nothing (or answers 0) for a queue or pool
/// that failed to open.
struct SQLITEBRIDGE_API ConcurrencyTesting {
  /// The next `count` transaction begins of the queue answer `code` first,
  /// as SQLite can under contention; they are retried.
  static void injectTransientFailures(const DatabaseQueue& queue, int count, int code) noexcept;
  /// The same for the pool.
  static void injectTransientFailures(const DatabasePool& pool, int count, int code) noexcept;
  /// How many blocks wait for a connection of the queue now (for tests that
  /// must know a job waits before they cancel it).
  static int waitingCount(const DatabaseQueue& queue) noexcept;
  /// The same for the pool.
  static int waitingCount(const DatabasePool& pool) noexcept;
  /// Transient answers the queue absorbed by retrying.
  static std::int64_t transientRetryCount(const DatabaseQueue& queue) noexcept;
  /// The same for the pool.
  static std::int64_t transientRetryCount(const DatabasePool& pool) noexcept;
  /// How many checks for other connections' commits the observations of the
  /// queue finished (`Configuration::externalChangeCheckMilliseconds`; 0
  /// before the first observation), for tests that must know a check ran.
  static std::uint64_t externalCheckCount(const DatabaseQueue& queue) noexcept;
  /// The same for the pool.
  static std::uint64_t externalCheckCount(const DatabasePool& pool) noexcept;
  /// How many value-observation fetches of the pool read the snapshot taken
  /// on the writer right after the commit they follow (0 on an engine
  /// without the snapshot API).
  static std::uint64_t observationSnapshotFetchCount(const DatabasePool& pool) noexcept;
  /// How many such fetches could not open their snapshot (a checkpoint went
  /// past it) and read the database as it was when they began instead.
  static std::uint64_t observationSnapshotFallbackCount(const DatabasePool& pool) noexcept;
  /// Waits at most `milliseconds` until no value observation of the pool
  /// has a fetch scheduled or running (the last value delivered and the
  /// fetch done), for tests whose next commit must start a fetch of its own
  /// rather than be folded into one in flight; false when the time ran out.
  static bool waitUntilObservationsIdle(const DatabasePool& pool, std::int64_t milliseconds) noexcept;
};

/// Statements lent as a value, for C++ tests and fuzzers that do not keep a
/// statement variable.
struct StatementTesting {
  /// `DatabaseAccess::lendForArguments` into a new statement, returned
  /// (invalid on failure, with the reason in `lastError()`).
  static Statement cachedStatementForArguments(Database& database, const void* utf8, std::size_t size) noexcept {
    Statement statement;
    DatabaseAccess::lendForArguments(database, utf8, size, statement);
    return statement;
  }
};

/// The checks behind the core's wording of values, for tests that must
/// agree with it.
struct SQLITEBRIDGE_API ValueTesting {
  /// Whether `size` bytes at `bytes` are well-formed UTF-8 (what the core
  /// shows as text, and not as "text that is not valid UTF-8").
  static bool isValidUTF8(const void* bytes, std::size_t size) noexcept;
};

/// The check every open makes of the loaded SQLite's version, for tests:
/// the library the suite runs on is what it is, so the refusal of an older
/// one is tested on version numbers.
struct SQLITEBRIDGE_API OpeningTesting {
  /// The message of the error an open fails with (SQLITE_ERROR) when the
  /// loaded SQLite's `sqlite3_libversion_number()` is `versionNumber`;
  /// empty when that version is new enough (3.37.0 or newer). False, with
  /// `message` empty, only when memory ran out.
  static bool sqliteVersionProblem(int versionNumber, std::string& message) noexcept;
};

/// The changeset API as where SQLite lacks the session extension.
struct SQLITEBRIDGE_API ChangesetTesting {
  /// While `hidden`, `sessionExtensionAvailable()` answers false and every
  /// changeset call fails as it does without the extension (a session
  /// already made goes on working). For the tests of that failure.
  static void hideSessionExtension(bool hidden) noexcept;
};

}  // namespace sqlitebridge::interop
