// For the Swift facade only; no stability promise. Records as Swift drives
// them: the core writes every record statement and runs every record rule;
// Swift binds the values through a C callback. Never included by
// <sqlitebridge/sqlitebridge.hpp>; Swift imports it with the explicit
// submodule SQLiteBridgeCore.Interop. All inline (the members they call are
// in Sources/SQLiteBridgeCore/Records/Records.cpp).
#pragma once

#include <cstdint>
#include <string>

#include "../sqlitebridge.hpp"
#include "SwiftBox.hpp"
#include "Values.hpp"

namespace sqlitebridge::interop {

/// Records for the Swift facade (`Database::planRecord`, `runRecord`).
struct RecordAccess {
  /// `Database::planRecord`: same failures, reported in `lastError()`.
  static bool plan(Database& database, RecordOperation operation, const std::string& table, const StringList& columns,
                   const StringList& primaryKey, ConflictResolution onConflict, RecordPlan& plan) noexcept {
    return database.planRecord(operation, table, columns, primaryKey, onConflict, plan);
  }
  /// `Database::runRecord`, its outputs by reference: `bind(box, …)` binds
  /// the record's values (`box` is the facade's, never read by the core).
  static bool run(Database& database, const RecordPlan& plan, RecordBinder bind, SwiftBox box, std::int64_t& rowID,
                  bool& changed) noexcept {
    return database.runRecord(plan, bind, box, &rowID, &changed);
  }
};

}  // namespace sqlitebridge::interop
