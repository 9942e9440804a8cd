// For the Swift facade only; no stability promise. Never included by
// <sqlitebridge/sqlitebridge.hpp>: only the module map lists it, first, so
// that the Swift module sees the sqlite3 C API declared non-throwing while a
// C++ client gets SQLite's own declarations.
//
// Swift compiles imported inline C++ with exceptions in mind and refuses to
// inline an always_inline accessor (Statement::column, step, the bind
// functions) that calls a function it believes may throw ("incompatible
// personality"). SQLite is C and never throws, so this states the truth; it
// changes inlining across the Swift boundary, never behaviour.
#pragma once

#ifndef SQLITE_API
#define SQLITE_API __attribute__((nothrow))
#endif
#include <sqlite3.h>
