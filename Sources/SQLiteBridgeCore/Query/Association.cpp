// Associations: the builders (each copies the association's state, sharing
// its expression nodes) and the aggregates made from one. What they render
// to belongs to QueryCompiler.cpp.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "QueryNodes.hpp"

namespace sqlitebridge {

namespace {

const std::shared_ptr<const AssociationState>& emptyAssociation() noexcept {
  static const std::shared_ptr<const AssociationState> state = std::make_shared<AssociationState>();
  return state;
}

Association make(AssociationKind kind, std::string destination, std::optional<ForeignKeyColumns> using_) noexcept {
  auto state = std::make_shared<AssociationState>();
  state->kind = kind;
  state->hasTable = true;
  state->table = std::move(destination);
  state->foreignKey = std::move(using_);
  return QueryAccess::make(std::move(state));
}

template <typename Change>
Association changed(const AssociationState& state, Change&& change) noexcept {
  auto next = std::make_shared<AssociationState>(state);
  change(*next);
  return QueryAccess::make(std::move(next));
}

Expression aggregate(NodeKind kind, const std::shared_ptr<const AssociationState>& association) noexcept {
  ExpressionNode node;
  node.kind = kind;
  node.association = association;
  return QueryAccess::make(std::make_shared<ExpressionNode>(std::move(node)));
}

}  // namespace

Association::Association() noexcept : state_(emptyAssociation()) {}

Association::Association(std::shared_ptr<const AssociationState> state) noexcept : state_(std::move(state)) {}

Association Association::belongsTo(std::string destination, std::optional<ForeignKeyColumns> using_) noexcept {
  return make(AssociationKind::BelongsTo, std::move(destination), std::move(using_));
}

Association Association::hasOne(std::string destination, std::optional<ForeignKeyColumns> using_) noexcept {
  return make(AssociationKind::HasOne, std::move(destination), std::move(using_));
}

Association Association::hasMany(std::string destination, std::optional<ForeignKeyColumns> using_) noexcept {
  return make(AssociationKind::HasMany, std::move(destination), std::move(using_));
}

Association Association::forKey(std::string key) const noexcept {
  return changed(*state_, [&](AssociationState& s) { s.key = std::move(key); });
}

Association Association::aliased(std::string alias) const noexcept {
  return changed(*state_, [&](AssociationState& s) { s.alias = std::move(alias); });
}

Association Association::filter(Expression predicate) const noexcept {
  return changed(*state_, [&](AssociationState& s) { s.filters.push_back(std::move(predicate)); });
}

Association Association::order(std::vector<Expression> orderings) const noexcept {
  return changed(*state_, [&](AssociationState& s) { s.orderings = std::move(orderings); });
}

Association Association::select(std::vector<Expression> selection) const noexcept {
  return changed(*state_, [&](AssociationState& s) { s.selection = std::move(selection); });
}

Association Association::including(const Association& nested, IncludeKind kind) const noexcept {
  return changed(*state_, [&](AssociationState& s) { s.includes.push_back(IncludeSpec{nested.state_, kind}); });
}

Expression Association::count() const noexcept { return aggregate(NodeKind::AssociationCount, state_); }

Expression Association::isEmpty() const noexcept { return aggregate(NodeKind::AssociationIsEmpty, state_); }

std::string Association::key() const noexcept { return state_->key ? *state_->key : state_->table; }

std::string Association::destination() const noexcept { return state_->table; }

AssociationKind Association::kind() const noexcept { return state_->kind; }

}  // namespace sqlitebridge
