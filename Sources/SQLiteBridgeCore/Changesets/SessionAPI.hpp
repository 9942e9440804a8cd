// SQLite's session extension as the core calls it. sqlite3.h declares it
// only when read with SQLITE_ENABLE_SESSION and SQLITE_ENABLE_PREUPDATE_HOOK
// defined, and a SQLite built without the extension lacks the functions:
// the core declares them itself, referenced weakly, so that it builds and
// links against any SQLite and finds out at run time (`sessionAPI()`).
// Internal.
#pragma once

#include "sqlitebridge/Error.hpp"
#include "sqlitebridge/SQLite.hpp"

extern "C" {
typedef struct sqlite3_session sqlite3_session;
typedef struct sqlite3_changeset_iter sqlite3_changeset_iter;
typedef struct sqlite3_rebaser sqlite3_rebaser;

__attribute__((weak)) int sqlite3session_create(sqlite3* db, const char* zDb, sqlite3_session** ppSession);
__attribute__((weak)) void sqlite3session_delete(sqlite3_session* pSession);
__attribute__((weak)) int sqlite3session_enable(sqlite3_session* pSession, int bEnable);
__attribute__((weak)) int sqlite3session_indirect(sqlite3_session* pSession, int bIndirect);
__attribute__((weak)) int sqlite3session_attach(sqlite3_session* pSession, const char* zTab);
__attribute__((weak)) int sqlite3session_changeset(sqlite3_session* pSession, int* pnChangeset, void** ppChangeset);
__attribute__((weak)) int sqlite3session_patchset(sqlite3_session* pSession, int* pnPatchset, void** ppPatchset);
__attribute__((weak)) int sqlite3session_diff(sqlite3_session* pSession, const char* zFromDb, const char* zTbl,
                                              char** pzErrMsg);
__attribute__((weak)) int sqlite3session_isempty(sqlite3_session* pSession);
__attribute__((weak)) void sqlite3session_table_filter(sqlite3_session* pSession,
                                                       int (*xFilter)(void* pCtx, const char* zTab), void* pCtx);
__attribute__((weak)) int sqlite3changeset_start(sqlite3_changeset_iter** pp, int nChangeset, void* pChangeset);
__attribute__((weak)) int sqlite3changeset_next(sqlite3_changeset_iter* pIter);
__attribute__((weak)) int sqlite3changeset_op(sqlite3_changeset_iter* pIter, const char** pzTab, int* pnCol, int* pOp,
                                              int* pbIndirect);
__attribute__((weak)) int sqlite3changeset_pk(sqlite3_changeset_iter* pIter, unsigned char** pabPK, int* pnCol);
__attribute__((weak)) int sqlite3changeset_old(sqlite3_changeset_iter* pIter, int iVal, sqlite3_value** ppValue);
__attribute__((weak)) int sqlite3changeset_new(sqlite3_changeset_iter* pIter, int iVal, sqlite3_value** ppValue);
__attribute__((weak)) int sqlite3changeset_conflict(sqlite3_changeset_iter* pIter, int iVal, sqlite3_value** ppValue);
__attribute__((weak)) int sqlite3changeset_fk_conflicts(sqlite3_changeset_iter* pIter, int* pnOut);
__attribute__((weak)) int sqlite3changeset_finalize(sqlite3_changeset_iter* pIter);
__attribute__((weak)) int sqlite3changeset_invert(int nIn, const void* pIn, int* pnOut, void** ppOut);
__attribute__((weak)) int sqlite3changeset_concat(int nA, void* pA, int nB, void* pB, int* pnOut, void** ppOut);
__attribute__((weak)) int sqlite3changeset_apply_v2(sqlite3* db, int nChangeset, void* pChangeset,
                                                    int (*xFilter)(void* pCtx, const char* zTab),
                                                    int (*xConflict)(void* pCtx, int eConflict,
                                                                     sqlite3_changeset_iter* p),
                                                    void* pCtx, void** ppRebase, int* pnRebase, int flags);
__attribute__((weak)) int sqlite3rebaser_create(sqlite3_rebaser** ppNew);
__attribute__((weak)) int sqlite3rebaser_configure(sqlite3_rebaser* p, int nRebase, const void* pRebase);
__attribute__((weak)) int sqlite3rebaser_rebase(sqlite3_rebaser* p, int nIn, const void* pIn, int* pnOut, void** ppOut);
__attribute__((weak)) void sqlite3rebaser_delete(sqlite3_rebaser* p);
}

namespace sqlitebridge {

// SQLite's constants for the session extension (fixed by its ABI; sqlite3.h
// defines them only with the extension's macros).
constexpr int kChangesetData = 1;
constexpr int kChangesetNotFound = 2;
constexpr int kChangesetConflict = 3;
constexpr int kChangesetConstraint = 4;
constexpr int kChangesetForeignKey = 5;
constexpr int kChangesetOmit = 0;
constexpr int kChangesetReplace = 1;
constexpr int kChangesetAbort = 2;

/// Whether the session functions are there, from the same library as the
/// rest of sqlite3 (a session of one SQLite on another's connection would
/// corrupt memory), and not hidden by a test. Decided once per process.
bool sessionAPIAvailable() noexcept;

/// `sessionAPIAvailable()`, or false with `sessionExtensionUnavailableError()`
/// in `*error` (when not null).
bool requireSessionAPI(Error* error) noexcept;

/// Sets `*error` (when not null) to `code` and `message`; returns false.
bool changesetFailure(Error* error, int code, const char* message) noexcept;
/// Sets `*error` (when not null) to `code` and `message`; returns false.
bool changesetFailure(Error* error, int code, const std::string& message) noexcept;

}  // namespace sqlitebridge
