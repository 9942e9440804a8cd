#include "sqlitebridge/RowView.hpp"

#include "ConversionFailure.hpp"
#include "SqlText.hpp"

namespace sqlitebridge {

int RowView::columnIndex(const std::string& name) const noexcept {
  const int count = size();
  for (int index = 0; index < count; ++index) {
    const char* candidate = sqlite3_column_name(statement_->handle(), index);
    if (candidate != nullptr && sameIdentifier(candidate, name)) return index;
  }
  return -1;
}

Value RowView::value(const std::string& name) const noexcept {
  const int index = columnIndex(name);
  return index < 0 ? Value() : value(index);
}

bool RowView::failMissingColumn(const std::string& name) const noexcept {
  try {
    return statement_->fail(SQLITE_RANGE, missingColumnMessage(name));
  } catch (...) {
    return statement_->fail(SQLITE_RANGE, "no column with that name in the row");
  }
}

}  // namespace sqlitebridge
