// Join columns from an association or the schema (JoinColumns.hpp).
#include "JoinColumns.hpp"

#include <string>
#include <utility>
#include <vector>

#include "PrimaryKeyCache.hpp"
#include "SqlText.hpp"
#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

bool resolveJoinColumns(Database& db, const AssociationState& a, const std::string& originTable, JoinColumns& columns,
                        Error& error) {
  const auto fail = [&](int code, std::string message) {
    error = Error{code, code, std::move(message), std::string()};
    return false;
  };
  // A schema lookup failed: its error is already the connection's.
  const auto schemaFailure = [&] {
    error = db.lastError();
    return false;
  };
  const std::string between = quoteIdentifier(originTable) + " and " + quoteIdentifier(a.table);
  const bool childIsOrigin = a.eitherWay || a.kind == AssociationKind::BelongsTo;
  if (a.foreignKey) {
    // For an association, `origin` names the child's columns; for a plain
    // join, the request's.
    std::vector<std::string> child = a.foreignKey->origin;
    std::vector<std::string> parent = a.foreignKey->destination;
    const std::string& childTable = childIsOrigin ? originTable : a.table;
    const std::string& parentTable = childIsOrigin ? a.table : originTable;
    if (child.empty()) {
      return fail(SQLITE_MISUSE, "the join of " + between + " names no column of " + quoteIdentifier(childTable));
    }
    if (parent.empty() && !cachedPrimaryKey(db, parentTable, parent)) return schemaFailure();
    if (child.size() != parent.size()) {
      return fail(SQLITE_MISUSE, "the join of " + between + " pairs " + std::to_string(child.size()) +
                                     " column(s) of " + quoteIdentifier(childTable) + " with " +
                                     std::to_string(parent.size()) + " of " + quoteIdentifier(parentTable));
    }
    columns = childIsOrigin ? JoinColumns{child, parent} : JoinColumns{parent, child};
    return true;
  }
  std::vector<JoinColumns> found;
  if (a.eitherWay || a.kind == AssociationKind::BelongsTo) {
    std::vector<ForeignKeyInfo> outgoing;
    if (!db.foreignKeys(originTable, outgoing)) return schemaFailure();
    for (const ForeignKeyInfo& key : outgoing) {
      if (!sameIdentifier(key.destinationTable, a.table)) continue;
      JoinColumns candidate{key.columns, key.destinationColumns};
      if (candidate.destination.empty() && !cachedPrimaryKey(db, a.table, candidate.destination))
        return schemaFailure();
      found.push_back(std::move(candidate));
    }
  }
  if (a.eitherWay || a.kind != AssociationKind::BelongsTo) {
    std::vector<ForeignKeyInfo> incoming;
    if (!db.foreignKeys(a.table, incoming)) return schemaFailure();
    for (const ForeignKeyInfo& key : incoming) {
      if (!sameIdentifier(key.destinationTable, originTable)) continue;
      JoinColumns candidate{key.destinationColumns, key.columns};
      if (candidate.origin.empty() && !cachedPrimaryKey(db, originTable, candidate.origin)) return schemaFailure();
      found.push_back(std::move(candidate));
    }
  }
  if (found.empty()) {
    return fail(SQLITE_ERROR, "no foreign key joins " + between + ": declare one, or give the columns");
  }
  if (found.size() > 1) {
    return fail(SQLITE_ERROR, std::to_string(found.size()) + " foreign keys join " + between +
                                  ": give the columns of the one to use");
  }
  if (found[0].origin.size() != found[0].destination.size()) {
    return fail(SQLITE_ERROR, "the foreign key between " + between + " does not pair its columns");
  }
  columns = std::move(found[0]);
  return true;
}

}  // namespace sqlitebridge
