// The sqlite3 C API as the core sees it, plus the attributes the core's
// headers need. Every other public header includes this one first.
#pragma once

// Declare the sqlite3 functions non-throwing. Swift compiles imported inline
// C++ with exceptions in mind and refuses to inline an always_inline accessor
// that calls a function it believes may throw ("incompatible personality").
// SQLite is C and never throws, so this states the truth. If <sqlite3.h> was
// already included elsewhere, the header guard keeps that declaration; only
// inlining across the Swift boundary is affected, never behaviour.
#ifndef SQLITE_API
#define SQLITE_API __attribute__((nothrow))
#endif
#include <sqlite3.h>

// Inline accessors on the per-row hot path must be inlined into Swift callers.
#define SQLITEBRIDGE_INLINE inline __attribute__((always_inline))

// A method that returns a borrowed view (pointers into a statement's current
// row) is imported by Swift only when marked; the view is valid until the next
// step, reset or finalize, as each such method documents.
#if defined(__has_attribute)
#if __has_attribute(swift_attr)
#define SQLITEBRIDGE_BORROWED __attribute__((swift_attr("import_unsafe")))
#endif
#endif
#ifndef SQLITEBRIDGE_BORROWED
#define SQLITEBRIDGE_BORROWED
#endif
