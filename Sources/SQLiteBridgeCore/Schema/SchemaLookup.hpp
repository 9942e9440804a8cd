// Finding a schema object (table, view, trigger, index) by the name a caller
// gives: the one owner of the name rule every schema call follows (ASCII
// case-insensitive, bound or quoted, temp then main then attached schemas,
// `schema.name` split only when the name as it is names nothing) and of the
// "no such table" error. Internal.
#pragma once

#include <string>

#include "Connection.hpp"

namespace sqlitebridge {

/// What a lookup looks for.
enum class SchemaObjectKind {
  /// An ordinary, virtual or shadow table (SQLite's own tables included).
  Table,
  View,
  /// A table or a view (both have columns).
  TableOrView,
  Trigger,
  Index,
};

/// A schema object found: the schema holding it and its name as stored.
struct SchemaObject {
  std::string schema;
  std::string name;
};

/// Looks for the object of `kind` that `given` names. Sets `found` when there
/// is one (`object` then says where); a name holding NUL names nothing.
/// Returns false, with the error recorded on `connection`, only when SQLite
/// fails.
bool findSchemaObject(Connection& connection, SchemaObjectKind kind, const std::string& given, SchemaObject& object,
                      bool& found);

/// Like `findSchemaObject` for a `kind` of Table or TableOrView, but absence
/// is an error: SQLITE_ERROR "no such table: <given>".
bool requireTable(Connection& connection, SchemaObjectKind kind, const std::string& given, SchemaObject& table);

}  // namespace sqlitebridge
