#include "sqlitebridge/Row.hpp"

#include <algorithm>

#include "ConversionFailure.hpp"
#include "SqlText.hpp"

namespace sqlitebridge {

std::string Row::columnName(std::size_t index) const {
  if (!names_ || index >= names_->size()) return std::string();
  return (*names_)[index];
}

Value Row::value(std::size_t index) const {
  if (index >= values_.size()) return Value();
  return values_[index];
}

long Row::columnIndex(const std::string& name) const noexcept {
  if (!names_) return -1;
  const std::size_t count = std::min(names_->size(), values_.size());
  for (std::size_t i = 0; i < count; ++i) {
    if (sameIdentifier((*names_)[i], name)) return static_cast<long>(i);
  }
  return -1;
}

bool Row::hasColumn(const std::string& name) const noexcept { return columnIndex(name) >= 0; }

Value Row::value(const std::string& name) const {
  const long index = columnIndex(name);
  return index < 0 ? Value() : values_[static_cast<std::size_t>(index)];
}

namespace {

// Fills `*error` (when given) with `code` and the message `describe()`
// makes; returns false for `return fail(...)`.
template <typename Describe>
bool report(Error* error, ResultCode code, Describe describe) noexcept {
  if (error == nullptr) return false;
  error->code = error->extendedCode = static_cast<int>(code);
  error->sql.clear();
  try {
    error->message = describe();
  } catch (...) {
    error->message = "a column does not convert to the requested type";
  }
  return false;
}

}  // namespace

bool Row::failConversion(std::size_t index, const char* typeName, Error* error) const noexcept {
  if (index >= values_.size()) {
    return report(error, ResultCode::Range,
                  [&] { return columnIndexOutOfRangeMessage(static_cast<long long>(index), values_.size()); });
  }
  return report(error, ResultCode::Mismatch,
                [&] { return conversionFailureMessage(columnName(index), values_[index].view(), typeName); });
}

bool Row::failMissingColumn(const std::string& name, Error* error) noexcept {
  return report(error, ResultCode::Range, [&] { return missingColumnMessage(name); });
}

}  // namespace sqlitebridge
