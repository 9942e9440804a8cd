// The columns that join an association's table to the table it starts
// from: the ones the association gives, or the one foreign key the schema
// declares in its direction. Internal (the query compiler's).
#pragma once

#include <string>
#include <vector>

#include "QueryNodes.hpp"
#include "sqlitebridge/Error.hpp"

namespace sqlitebridge {

class Database;

/// The columns a join matches: `origin` in the table the association starts
/// from, `destination` in the joined one (pairwise equal).
struct JoinColumns {
  std::vector<std::string> origin;
  std::vector<std::string> destination;
};

/// The columns that join `a` to `originTable`: the caller's (`using:`; an
/// empty destination list is the parent's primary key), or the one foreign
/// key the schema declares in the association's direction (either way
/// round for a plain join). Fails, into `error`, with SQLITE_MISUSE for
/// given columns that do not pair, SQLITE_ERROR naming both tables when no
/// foreign key, or several, join them, and with the schema lookup's error.
bool resolveJoinColumns(Database& db, const AssociationState& a, const std::string& originTable, JoinColumns& columns,
                        Error& error);

}  // namespace sqlitebridge
