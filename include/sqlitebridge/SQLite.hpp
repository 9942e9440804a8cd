// The sqlite3 C API as the core sees it, plus the attributes the core's
// headers need. Every other public header includes this one first.
#pragma once

// A C++ client gets SQLite's own declarations. Only Swift's importer (which
// defines __swift__) takes the interop header that declares them
// non-throwing first, so that Swift inlines the core's accessors; see there.
#if defined(__swift__)
#include "interop/NothrowSQLite.hpp"
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
