// What a query request is made of: expression nodes and the request's state,
// both immutable once built and shared between the values that hold them.
// Internal: the public types (sqlitebridge/Query.hpp) hold them opaquely.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sqlitebridge/Query.hpp"
#include "sqlitebridge/Value.hpp"

namespace sqlitebridge {

class Connection;
class Statement;

/// What an expression node is. The operators are SQL's; the renderer
/// (QueryCompiler.cpp) knows their text and precedence.
enum class NodeKind : std::uint8_t {
  Column,              // name (table: explicit table, or empty for the request's own)
  AllColumns,          // * (table as Column)
  Value,               // value (NULL renders as the keyword)
  Unary,               // op, left
  Binary,              // op, left, right
  Postfix,             // op (IsNull, IsNotNull), left
  In,                  // left, values
  InList,              // left, operands (expressions; values among them bound)
  Function,            // function, left (absent for COUNT(*))
  Ordering,            // op (Asc, Desc), left
  Alias,               // name, left
  KeyIn,               // values: the request's primary key (one column) equals one of them
  Match,               // value: the request's (FTS5) table MATCH the pattern
  AssociationCount,    // association: COUNT(*) of its rows for the current row
  AssociationIsEmpty,  // association: NOT EXISTS of its rows for the current row
  AssociatedTo,        // association, origin: the row is reached by the association from the origin's rows
  Unsupported,         // name: why; rendering it fails with SQLITE_MISUSE saying so
};

struct AssociationState;

enum class NodeOperator : std::uint8_t {
  None,
  Equal,
  NotEqual,
  Less,
  LessEqual,
  Greater,
  GreaterEqual,
  And,
  Or,
  Add,
  Subtract,
  Multiply,
  Divide,
  Like,
  Not,
  Negate,
  IsNull,
  IsNotNull,
  Asc,
  Desc,
  AscNullsLast,
  DescNullsFirst,
};

enum class NodeFunction : std::uint8_t {
  None,
  Count,
  CountDistinct,
  CountAll,
  Sum,
  Total,
  Min,
  Max,
  Average,
  Length,
  Abs
};

struct ExpressionNode {
  NodeKind kind = NodeKind::Value;
  NodeOperator op = NodeOperator::None;
  NodeFunction function = NodeFunction::None;
  std::string name;
  std::string table;
  Value value;
  std::vector<Value> values;
  std::vector<std::shared_ptr<const ExpressionNode>> operands;
  std::shared_ptr<const ExpressionNode> left;
  std::shared_ptr<const ExpressionNode> right;
  std::shared_ptr<const AssociationState> association;
  std::shared_ptr<const QueryState> origin;
};

struct IncludeSpec;

/// An association's state (immutable once built, shared by copies).
struct AssociationState {
  AssociationKind kind = AssociationKind::BelongsTo;
  /// A plain `QueryRequest::joining`: the foreign key either way round, and
  /// `foreignKey` in the request's orientation (origin: the request's
  /// table).
  bool eitherWay = false;
  bool hasTable = false;
  std::string table;
  std::optional<std::string> key;
  std::optional<std::string> alias;
  std::optional<ForeignKeyColumns> foreignKey;
  std::vector<Expression> filters;
  std::vector<Expression> orderings;
  std::vector<Expression> selection;
  /// Associations of the destination joined with it (Association::including).
  std::vector<IncludeSpec> includes;
};

/// One `including` (or `joining`) call.
struct IncludeSpec {
  std::shared_ptr<const AssociationState> association;
  IncludeKind kind = IncludeKind::JoiningRequired;
};

/// A request's state. Each builder copies it (the expressions in it are
/// shared pointers to const nodes: a shallow copy) and changes the copy.
struct QueryState {
  std::string table;
  bool hasTable = false;
  std::vector<Expression> filters;
  std::vector<Expression> orderings;
  std::optional<std::int64_t> limit;
  std::optional<std::int64_t> offset;
  std::vector<Expression> selection;
  std::vector<Expression> annotations;
  bool distinct = false;
  bool reversed = false;
  std::vector<Expression> groups;
  std::vector<Expression> havings;
  std::vector<IncludeSpec> includes;
};

/// Which statement of a request to render.
/// (SelectOne: the select with at most one row, `LIMIT 1` within the
/// request's own limit and offset.)
enum class QueryStatement { Select, SelectOne, Count, Delete, Update };

/// The core's access to the opaque parts of the public types (and, as a
/// friend of `Database`, to its call bookkeeping).
struct QueryAccess {
  static const std::shared_ptr<const ExpressionNode>& node(const Expression& e) noexcept { return e.node_; }
  static Expression make(std::shared_ptr<const ExpressionNode> node) noexcept { return Expression(std::move(node)); }
  static const QueryState& state(const QueryRequest& r) noexcept { return *r.state_; }
  static QueryRequest make(std::shared_ptr<const QueryState> state) noexcept { return QueryRequest(std::move(state)); }
  static const std::shared_ptr<const AssociationState>& state(const Association& a) noexcept { return a.state_; }
  static Association make(std::shared_ptr<const AssociationState> state) noexcept {
    return Association(std::move(state));
  }
  /// Renders `statement` of `request` into `out` as a call on `db`: clears
  /// `db`'s error first (SQLITE_MISUSE when closed), records the failure
  /// there otherwise (QueryRequest.cpp). Never throws.
  /// `assignments` is read for `Update` only.
  static bool render(Database& db, const QueryRequest& request, QueryStatement statement, SQL& out,
                     const std::vector<ColumnAssignment>* assignments = nullptr) noexcept;
  /// Runs `render(error)` as a call on `db` (as `render` does): false, with
  /// the failure recorded on `db`, when it fails or throws.
  template <typename Render>
  static bool guarded(Database& db, Render&& render) noexcept;
  /// The connection behind `db` (open: rendering began with beginCall).
  static Connection& connection(Database& db) noexcept;
  /// Lends `db`'s cached statement for `sql`'s text into `out` with every
  /// argument bound. False, recorded on `db`, on failure.
  static bool lendBound(Database& db, const SQL& sql, Statement& out) noexcept;
  /// Renders `statement` of `request` and lends it, bound (`lendBound`); a
  /// fetch's render and run share one read transaction (FetchHold), which
  /// ends when `out` is released.
  static bool lend(Database& db, const QueryRequest& request, QueryStatement statement, Statement& out,
                   const std::vector<ColumnAssignment>* assignments = nullptr) noexcept;
  /// `request.makePrefetchSQL`, for the origin rows of `statement` (Select:
  /// all; SelectOne: the first).
  static bool renderPrefetch(Database& db, const QueryRequest& request, std::size_t index, QueryStatement statement,
                             SQL& out, std::vector<std::string>& keyColumns) noexcept;
  /// The connection a `FetchHold` for `statement` holds on: null for a
  /// delete or update (nothing to share: a write opens its own transaction)
  /// and for a closed database.
  static Connection* fetchHoldConnection(Database& db, QueryStatement statement) noexcept;
  /// Records SQLITE_MISUSE naming the name of `literal` that holds NUL.
  static bool failInvalid(Database& db, const SQL& literal) noexcept;
};

}  // namespace sqlitebridge
