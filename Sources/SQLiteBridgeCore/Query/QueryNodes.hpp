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

/// What an expression node is. The operators are SQL's; the renderer
/// (QueryCompiler.cpp) knows their text and precedence.
enum class NodeKind : std::uint8_t {
  Column,      // name (table: explicit table, or empty for the request's own)
  AllColumns,  // * (table as Column)
  Value,       // value (NULL renders as the keyword)
  Unary,       // op, left
  Binary,      // op, left, right
  Postfix,     // op (IsNull, IsNotNull), left
  In,          // left, values
  InList,      // left, operands (expressions; values among them bound)
  Function,    // function, left (absent for COUNT(*))
  Ordering,    // op (Asc, Desc), left
  Alias,       // name, left
  KeyIn,       // values: the request's primary key (one column) equals one of them
  Match,       // value: the request's (FTS5) table MATCH the pattern
};

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
};

/// One `joining` call.
struct JoinSpec {
  std::string table;
  JoinKind kind = JoinKind::Required;
  std::optional<ForeignKeyColumns> columns;
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
  std::vector<JoinSpec> joins;
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
  /// Renders `statement` of `request` into `out` as a call on `db`: clears
  /// `db`'s error first (SQLITE_MISUSE when closed), records the failure
  /// there otherwise (QueryRequest.cpp). Never throws.
  /// `assignments` is read for `Update` only.
  static bool render(Database& db, const QueryRequest& request, QueryStatement statement, SQL& out,
                     const std::vector<ColumnAssignment>* assignments = nullptr) noexcept;
};

}  // namespace sqlitebridge
