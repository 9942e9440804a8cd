// For the Swift facade only; no stability promise. Every production interop
// header, for a C++ file that wants them all (the facade's Swift files import
// the submodule SQLiteBridgeCore.Interop instead, which lists each). Each
// concern's entry points are in that concern's header; what only tests call
// is in Testing.hpp, which this does not include. Never included by
// <sqlitebridge/sqlitebridge.hpp>.
#pragma once

#include "Changesets.hpp"
#include "Concurrency.hpp"
#include "Extensions.hpp"
#include "Observation.hpp"
#include "Opening.hpp"
#include "Query.hpp"
#include "Records.hpp"
#include "RowListAccess.hpp"
#include "Schema.hpp"
#include "Snapshots.hpp"
#include "Statements.hpp"
#include "SwiftBox.hpp"
#include "Values.hpp"
