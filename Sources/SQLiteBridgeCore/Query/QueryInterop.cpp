// The query interface's entry points for the Swift facade
// (sqlitebridge/interop/Query.hpp): typed builders over the same nodes the
// C++ face builds, and requests rendered by the one compiler and lent as
// bound statements.
#include "sqlitebridge/interop/Query.hpp"

#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "QueryCompiler.hpp"
#include "QueryNodes.hpp"
#include "sqlitebridge/interop/Statements.hpp"

namespace sqlitebridge::interop {

namespace {

Expression make(ExpressionNode node) noexcept {
  return QueryAccess::make(std::make_shared<ExpressionNode>(std::move(node)));
}

NodeOperator nodeOperator(QueryOperator op) noexcept {
  switch (op) {
    case QueryOperator::Equal:
      return NodeOperator::Equal;
    case QueryOperator::NotEqual:
      return NodeOperator::NotEqual;
    case QueryOperator::Less:
      return NodeOperator::Less;
    case QueryOperator::LessEqual:
      return NodeOperator::LessEqual;
    case QueryOperator::Greater:
      return NodeOperator::Greater;
    case QueryOperator::GreaterEqual:
      return NodeOperator::GreaterEqual;
    case QueryOperator::And:
      return NodeOperator::And;
    case QueryOperator::Or:
      return NodeOperator::Or;
    case QueryOperator::Add:
      return NodeOperator::Add;
    case QueryOperator::Subtract:
      return NodeOperator::Subtract;
    case QueryOperator::Multiply:
      return NodeOperator::Multiply;
    case QueryOperator::Divide:
      return NodeOperator::Divide;
    case QueryOperator::Like:
      return NodeOperator::Like;
  }
  return NodeOperator::None;
}

QueryStatement queryStatement(RequestStatement statement) noexcept {
  switch (statement) {
    case RequestStatement::Select:
      return QueryStatement::Select;
    case RequestStatement::SelectOne:
      return QueryStatement::SelectOne;
    case RequestStatement::Count:
      return QueryStatement::Count;
    case RequestStatement::Delete:
      return QueryStatement::Delete;
    case RequestStatement::Update:
      return QueryStatement::Update;
  }
  return QueryStatement::Select;
}

}  // namespace

Expression QueryBuilding::column(const void* utf8, std::size_t size) noexcept {
  return sqlitebridge::column(std::string(static_cast<const char*>(utf8), size));
}

Expression QueryBuilding::qualifiedColumn(const std::string& table, const std::string& name) noexcept {
  return sqlitebridge::column(table, name);
}

Expression QueryBuilding::allColumns() noexcept { return sqlitebridge::allColumns(); }

Expression QueryBuilding::null() noexcept { return value(Value()); }

Expression QueryBuilding::unsupported(const std::string& why) noexcept {
  try {
    ExpressionNode node;
    node.kind = NodeKind::Unsupported;
    node.name = why;
    return QueryAccess::make(std::make_shared<ExpressionNode>(std::move(node)));
  } catch (const std::bad_alloc&) {
    return value(Value());
  }
}

Expression QueryBuilding::integer(std::int64_t v) noexcept { return value(Value(v)); }

Expression QueryBuilding::real(double v) noexcept { return value(Value(v)); }

Expression QueryBuilding::text(const void* utf8, std::size_t size) noexcept {
  return value(Value(size > 0 ? std::string(static_cast<const char*>(utf8), size) : std::string()));
}

Expression QueryBuilding::blob(const void* bytes, std::size_t size) noexcept {
  return value(Value::fromBlob(bytes, size));
}

Expression QueryBuilding::binary(QueryOperator op, const Expression& a, const Expression& b) noexcept {
  ExpressionNode node;
  node.kind = NodeKind::Binary;
  node.op = nodeOperator(op);
  node.left = QueryAccess::node(a);
  node.right = QueryAccess::node(b);
  return make(std::move(node));
}

Expression QueryBuilding::logicalNot(const Expression& a) noexcept { return !a; }

Expression QueryBuilding::negated(const Expression& a) noexcept { return -a; }

Expression QueryBuilding::function(QueryFunction function, const Expression& a) noexcept {
  switch (function) {
    case QueryFunction::Count:
      return count(a);
    case QueryFunction::CountDistinct:
      return countDistinct(a);
    case QueryFunction::Sum:
      return sum(a);
    case QueryFunction::Total:
      return total(a);
    case QueryFunction::Min:
      return min(a);
    case QueryFunction::Max:
      return max(a);
    case QueryFunction::Average:
      return average(a);
    case QueryFunction::Length:
      return length(a);
    case QueryFunction::Abs:
      return abs(a);
  }
  return count(a);
}

Expression QueryBuilding::countAll() noexcept { return sqlitebridge::countAll(); }

Expression QueryBuilding::ordering(QueryOrdering ordering, const Expression& a) noexcept {
  switch (ordering) {
    case QueryOrdering::Asc:
      return a.asc();
    case QueryOrdering::Desc:
      return a.desc();
    case QueryOrdering::AscNullsLast:
      return a.ascNullsLast();
    case QueryOrdering::DescNullsFirst:
      return a.descNullsFirst();
  }
  return a.asc();
}

Expression QueryBuilding::aliased(const Expression& a, const std::string& name) noexcept { return a.aliased(name); }

Expression QueryBuilding::isIn(const Expression& a, const ExpressionList& list) noexcept {
  ExpressionNode node;
  node.kind = NodeKind::InList;
  node.left = QueryAccess::node(a);
  node.operands.reserve(list.size());
  for (const Expression& e : list) node.operands.push_back(QueryAccess::node(e));
  return make(std::move(node));
}

bool QueryBuilding::append(ExpressionList& list, const Expression& e) noexcept {
  try {
    list.push_back(e);
    return true;
  } catch (const std::bad_alloc&) {
    return false;
  }
}

bool QueryBuilding::appendAssignment(AssignmentList& list, const std::string& column,
                                     const Expression& value) noexcept {
  try {
    list.push_back(ColumnAssignment{column, value});
    return true;
  } catch (const std::bad_alloc&) {
    return false;
  }
}

bool QueryBuilding::appendKey(std::vector<Value>& keys, const Expression& e) noexcept {
  const auto& node = QueryAccess::node(e);
  if (!node || node->kind != NodeKind::Value) return false;
  try {
    keys.push_back(node->value);
    return true;
  } catch (const std::bad_alloc&) {
    return false;
  }
}

QueryRequest QueryBuilding::filterKeys(const QueryRequest& request, const std::vector<Value>& keys) noexcept {
  try {
    return request.filterKeys(keys);
  } catch (const std::bad_alloc&) {
    return request;
  }
}

QueryRequest QueryBuilding::limit(const QueryRequest& request, std::int64_t limit, bool hasOffset,
                                  std::int64_t offset) noexcept {
  return request.limit(limit, hasOffset ? std::optional<std::int64_t>(offset) : std::nullopt);
}

QueryRequest QueryBuilding::matching(const QueryRequest& request, bool hasPattern,
                                     const std::string& pattern) noexcept {
  try {
    return request.matching(hasPattern ? std::optional<std::string>(pattern) : std::nullopt);
  } catch (const std::bad_alloc&) {
    return request;
  }
}

std::string QueryBuilding::text(const SQL& sql) noexcept {
  try {
    return sql.text();
  } catch (const std::bad_alloc&) {
    return std::string();
  }
}

bool QueryBuilding::render(Database& db, const QueryRequest& request, RequestStatement statement,
                           const AssignmentList& assignments, SQL& out) noexcept {
  return QueryAccess::render(db, request, queryStatement(statement), out, &assignments);
}

Association QueryBuilding::association(AssociationKind kind, const std::string& table, bool hasColumns,
                                       const std::vector<std::string>& origin,
                                       const std::vector<std::string>& destination) noexcept {
  try {
    std::optional<ForeignKeyColumns> columns;
    if (hasColumns) columns = ForeignKeyColumns{origin, destination};
    switch (kind) {
      case AssociationKind::BelongsTo:
        return Association::belongsTo(table, std::move(columns));
      case AssociationKind::HasOne:
        return Association::hasOne(table, std::move(columns));
      case AssociationKind::HasMany:
        return Association::hasMany(table, std::move(columns));
    }
  } catch (const std::bad_alloc&) {
  }
  return Association();
}

bool QueryBuilding::scopes(Database& db, const QueryRequest& request, ScopeSpanList& out) noexcept {
  return request.scopes(db, out);
}

bool QueryBuilding::lendPrefetch(Database& db, const QueryRequest& request, RequestStatement statement,
                                 std::size_t index, Statement& out, std::vector<std::string>& keyColumns) noexcept {
  SQL sql;
  if (!QueryAccess::renderPrefetch(db, request, index, queryStatement(statement), sql, keyColumns)) return false;
  return lendBound(db, sql, out);
}

bool QueryBuilding::lend(Database& db, const QueryRequest& request, RequestStatement statement,
                         const AssignmentList& assignments, Statement& out) noexcept {
  return QueryAccess::lend(db, request, queryStatement(statement), out, &assignments);
}

bool QueryBuilding::isAddedKeyColumn(const std::string& keyColumn) noexcept { return isAddedOriginKey(keyColumn); }

bool QueryBuilding::lendBound(Database& db, const SQL& sql, Statement& out) noexcept {
  return QueryAccess::lendBound(db, sql, out);
}

}  // namespace sqlitebridge::interop
