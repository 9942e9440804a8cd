// For the Swift facade only; no stability promise. Never included by
// <sqlitebridge/sqlitebridge.hpp> for a C++ client: SQLite.hpp includes it
// only when Swift's importer reads the headers (__swift__ is defined), so
// that the Swift module sees what follows while a C++ client gets SQLite's
// own declarations and plain attributes.
#pragma once

// Declare the sqlite3 functions non-throwing. Swift compiles imported inline
// C++ with exceptions in mind and refuses to inline an always_inline accessor
// (Statement::column, step, the bind functions) that calls a function it
// believes may throw ("incompatible personality"). SQLite is C and never
// throws, so this states the truth; it changes inlining across the Swift
// boundary, never behaviour.
#ifndef SQLITE_API
#define SQLITE_API __attribute__((nothrow))
#endif
#include "../SQLiteHeader.hpp"

// Swift compiles imported C++ for size and does not inline plain `inline`
// accessors: the per-row hot path must be forced.
#define SQLITEBRIDGE_INLINE inline __attribute__((always_inline))

// A method that returns a borrowed view (pointers into a statement's current
// row) is imported by Swift only when marked; the view is valid until the
// next step, reset or finalize, as each such method documents.
#if defined(__has_attribute)
#if __has_attribute(swift_attr)
#define SQLITEBRIDGE_BORROWED __attribute__((swift_attr("import_unsafe")))
#endif
#endif
#ifndef SQLITEBRIDGE_BORROWED
#define SQLITEBRIDGE_BORROWED
#endif
