// SQLITEBRIDGE_API: what the core's library exports. The core is compiled
// with hidden visibility (-fvisibility=hidden -fvisibility-inlines-hidden in
// the CMake build), so a shared libSQLiteBridgeCore exports exactly the
// classes and functions marked with this: the client API, what the inline
// code in the public headers calls, and what the Swift facade calls through
// include/sqlitebridge/interop/. Anything unmarked that a client reaches
// fails at link time ("undefined reference"), never at run time.
//
// It is the visibility attribute in every build, static ones included: a
// client needs no define to pick the right expansion, and a client compiled
// with -fvisibility=hidden still links a shared core (its references stay
// default-visibility). A static core linked into someone's shared library
// exports this API from that library too, and nothing internal.
#pragma once

#ifndef SQLITEBRIDGE_API
#if defined(__GNUC__) || defined(__clang__)
#define SQLITEBRIDGE_API __attribute__((visibility("default")))
#else
#define SQLITEBRIDGE_API
#endif
#endif
