// The query compiler: the one place a query request becomes SQL text and
// arguments (QueryRequest::makeSQL, the Database query members, and the
// Swift face through them). Internal.
#pragma once

#include "QueryNodes.hpp"
#include "sqlitebridge/Error.hpp"
#include "sqlitebridge/SQL.hpp"

namespace sqlitebridge {

class Database;

/// Renders the `statement` of the request `state` into `out` (replaced).
/// Reads `db`'s schema only for what it decides (join foreign keys, primary
/// keys). Returns false with `error` set (SQLITE_MISUSE for a malformed
/// request, the schema call's error, or SQLITE_ERROR naming both tables of a
/// join no foreign key, or several, decide). May throw std::bad_alloc.
/// `assignments` are the SET terms of an `Update` (read for it only).
bool renderQuery(Database& db, const QueryState& state, QueryStatement statement, SQL& out, Error& error,
                 const std::vector<ColumnAssignment>* assignments = nullptr);

/// Where each selected association's columns are in the rows of the
/// request's select (QueryRequest::scopes). Fails as renderQuery.
bool renderScopes(Database& db, const QueryState& state, std::vector<ScopeSpan>& out, Error& error);

/// Whether `name` is one of the columns a select adds after all the others
/// for the origin keys its selection lacks (`"sqlitebridge_origin_N"`).
bool isAddedOriginKey(const std::string& name) noexcept;

/// The prefetch query of the `index`th IncludingAll association, for every
/// row of the request's select or only its first (`firstRow`: fetchOne),
/// and the origin columns its key matches (QueryRequest::makePrefetchSQL).
/// Fails as renderQuery, and with SQLITE_RANGE for no such association.
bool renderPrefetch(Database& db, const QueryState& state, std::size_t index, bool firstRow, SQL& out,
                    std::vector<std::string>& keyColumns, Error& error);

}  // namespace sqlitebridge
