// Building expressions: every function makes one new immutable node over the
// (shared) nodes of its operands. Nothing here renders SQL or touches a
// database: QueryCompiler.cpp does the rendering.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "QueryNodes.hpp"

namespace sqlitebridge {

namespace {

using NodePointer = std::shared_ptr<const ExpressionNode>;

Expression make(ExpressionNode node) noexcept {
  return QueryAccess::make(std::make_shared<ExpressionNode>(std::move(node)));
}

const NodePointer& nodeOf(const Expression& e) noexcept { return QueryAccess::node(e); }

Expression unary(NodeKind kind, NodeOperator op, const Expression& operand) noexcept {
  ExpressionNode node;
  node.kind = kind;
  node.op = op;
  node.left = nodeOf(operand);
  return make(std::move(node));
}

Expression binary(NodeOperator op, const Expression& a, const Expression& b) noexcept {
  ExpressionNode node;
  node.kind = NodeKind::Binary;
  node.op = op;
  node.left = nodeOf(a);
  node.right = nodeOf(b);
  return make(std::move(node));
}

Expression function(NodeFunction function, const Expression* argument) noexcept {
  ExpressionNode node;
  node.kind = NodeKind::Function;
  node.function = function;
  if (argument != nullptr) node.left = nodeOf(*argument);
  return make(std::move(node));
}

}  // namespace

Expression::Expression() noexcept : node_(std::make_shared<ExpressionNode>()) {}

Expression::Expression(std::shared_ptr<const ExpressionNode> node) noexcept : node_(std::move(node)) {}

Expression Expression::isNull() const noexcept { return unary(NodeKind::Postfix, NodeOperator::IsNull, *this); }
Expression Expression::isNotNull() const noexcept { return unary(NodeKind::Postfix, NodeOperator::IsNotNull, *this); }
Expression Expression::like(Expression pattern) const noexcept { return binary(NodeOperator::Like, *this, pattern); }

Expression Expression::in(std::vector<Value> values) const noexcept {
  ExpressionNode node;
  node.kind = NodeKind::In;
  node.left = node_;
  node.values = std::move(values);
  return make(std::move(node));
}

Expression Expression::asc() const noexcept { return unary(NodeKind::Ordering, NodeOperator::Asc, *this); }
Expression Expression::desc() const noexcept { return unary(NodeKind::Ordering, NodeOperator::Desc, *this); }
Expression Expression::ascNullsLast() const noexcept {
  return unary(NodeKind::Ordering, NodeOperator::AscNullsLast, *this);
}
Expression Expression::descNullsFirst() const noexcept {
  return unary(NodeKind::Ordering, NodeOperator::DescNullsFirst, *this);
}

Expression Expression::aliased(std::string name) const noexcept {
  ExpressionNode node;
  node.kind = NodeKind::Alias;
  node.name = std::move(name);
  node.left = node_;
  return make(std::move(node));
}

Expression column(std::string name) noexcept {
  ExpressionNode node;
  node.kind = NodeKind::Column;
  node.name = std::move(name);
  return make(std::move(node));
}

Expression column(std::string table, std::string name) noexcept {
  ExpressionNode node;
  node.kind = NodeKind::Column;
  node.table = std::move(table);
  node.name = std::move(name);
  return make(std::move(node));
}

Expression allColumns() noexcept {
  ExpressionNode node;
  node.kind = NodeKind::AllColumns;
  return make(std::move(node));
}

Expression value(Value v) noexcept {
  ExpressionNode node;
  node.kind = NodeKind::Value;
  node.value = std::move(v);
  return make(std::move(node));
}

#define SQLITEBRIDGE_QUERY_BINARY(symbol, op)                                     \
  Expression operator symbol(const Expression& a, const Expression& b) noexcept { \
    return binary(NodeOperator::op, a, b);                                        \
  }                                                                               \
  Expression operator symbol(const Expression& a, const Value& b) noexcept {      \
    return binary(NodeOperator::op, a, value(b));                                 \
  }                                                                               \
  Expression operator symbol(const Value& a, const Expression& b) noexcept {      \
    return binary(NodeOperator::op, value(a), b);                                 \
  }

SQLITEBRIDGE_QUERY_BINARY(==, Equal)
SQLITEBRIDGE_QUERY_BINARY(!=, NotEqual)
SQLITEBRIDGE_QUERY_BINARY(<, Less)
SQLITEBRIDGE_QUERY_BINARY(<=, LessEqual)
SQLITEBRIDGE_QUERY_BINARY(>, Greater)
SQLITEBRIDGE_QUERY_BINARY(>=, GreaterEqual)
SQLITEBRIDGE_QUERY_BINARY(&&, And)
SQLITEBRIDGE_QUERY_BINARY(||, Or)
SQLITEBRIDGE_QUERY_BINARY(+, Add)
SQLITEBRIDGE_QUERY_BINARY(-, Subtract)
SQLITEBRIDGE_QUERY_BINARY(*, Multiply)
SQLITEBRIDGE_QUERY_BINARY(/, Divide)

#undef SQLITEBRIDGE_QUERY_BINARY

Expression operator!(const Expression& a) noexcept { return unary(NodeKind::Unary, NodeOperator::Not, a); }
Expression operator-(const Expression& a) noexcept { return unary(NodeKind::Unary, NodeOperator::Negate, a); }

Expression count(Expression e) noexcept { return function(NodeFunction::Count, &e); }
Expression countDistinct(Expression e) noexcept { return function(NodeFunction::CountDistinct, &e); }
Expression countAll() noexcept { return function(NodeFunction::CountAll, nullptr); }
Expression sum(Expression e) noexcept { return function(NodeFunction::Sum, &e); }
Expression total(Expression e) noexcept { return function(NodeFunction::Total, &e); }
Expression min(Expression e) noexcept { return function(NodeFunction::Min, &e); }
Expression max(Expression e) noexcept { return function(NodeFunction::Max, &e); }
Expression average(Expression e) noexcept { return function(NodeFunction::Average, &e); }
Expression length(Expression e) noexcept { return function(NodeFunction::Length, &e); }
Expression abs(Expression e) noexcept { return function(NodeFunction::Abs, &e); }

ColumnAssignment assign(std::string column, Expression value) noexcept {
  return ColumnAssignment{std::move(column), std::move(value)};
}

}  // namespace sqlitebridge
