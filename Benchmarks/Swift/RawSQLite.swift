import SQLiteBridgeCore

// The baseline: the sqlite3 C API called directly from Swift (its
// declarations come with the SQLiteBridgeCore module, which includes
// <sqlite3.h>), opened with the same flags as SQLiteBridge's connections.

/// A raw connection; traps on failure (a benchmark with a broken setup
/// must not report numbers). `@unchecked Sendable` so that a thread of
/// pool_read_scaling can use one: each is used by one thread at a time.
final class RawConnection: @unchecked Sendable {
  let db: OpaquePointer

  init(path: String) {
    var handle: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let handle else {
      fatalError("cannot open \(path)")
    }
    db = handle
  }

  deinit { sqlite3_close(db) }

  func prepare(_ sql: String) -> OpaquePointer {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      fatalError("cannot prepare \(sql): \(String(cString: sqlite3_errmsg(db)))")
    }
    return statement
  }

  func exec(_ sql: String) {
    guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
      fatalError("cannot run \(sql): \(String(cString: sqlite3_errmsg(db)))")
    }
  }
}
