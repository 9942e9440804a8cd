// The sqlite3 C API as the core sees it, plus the two attributes the core's
// headers use. Every other public header includes this one first.
#pragma once

// Swift's importer (which defines __swift__) takes the interop header first:
// sqlite3 declared non-throwing and the Swift attributes (see there). A C++
// client gets SQLite's own declarations and the plain attributes below.
#if defined(__swift__)
#include "interop/SwiftImport.hpp"
#endif
#include "SQLiteHeader.hpp"

// An accessor on the per-row hot path (Statement::column, step, bind...):
// inlined into the caller.
#ifndef SQLITEBRIDGE_INLINE
#define SQLITEBRIDGE_INLINE inline __attribute__((always_inline))
#endif
// Marks a method that returns a borrowed view (for Swift; nothing in C++).
#ifndef SQLITEBRIDGE_BORROWED
#define SQLITEBRIDGE_BORROWED
#endif
