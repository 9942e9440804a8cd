// interop::RowListAccess: row lists read and value lists filled from Swift.
// Each entry point is noexcept; a copy that runs out of memory stops here.
#include "sqlitebridge/interop/RowListAccess.hpp"

namespace sqlitebridge::interop {

std::string RowListAccess::columnName(const RowList& rows, std::size_t column) noexcept {
  try {
    return rows.empty() ? std::string() : rows.front().columnName(column);
  } catch (...) {
    return std::string();
  }
}

bool RowListAccess::appendNull(ValueList& values) noexcept {
  try {
    values.emplace_back();
    return true;
  } catch (...) {
    return false;
  }
}

bool RowListAccess::appendInteger(ValueList& values, std::int64_t integer) noexcept {
  try {
    values.emplace_back(integer);
    return true;
  } catch (...) {
    return false;
  }
}

bool RowListAccess::appendReal(ValueList& values, double real) noexcept {
  try {
    values.emplace_back(real);
    return true;
  } catch (...) {
    return false;
  }
}

bool RowListAccess::appendText(ValueList& values, const void* bytes, std::size_t size) noexcept {
  try {
    values.emplace_back(std::string(bytes != nullptr ? static_cast<const char*>(bytes) : "", size));
    return true;
  } catch (...) {
    return false;
  }
}

bool RowListAccess::appendBlob(ValueList& values, const void* bytes, std::size_t size) noexcept {
  try {
    values.push_back(Value::fromBlob(bytes, size));
    return true;
  } catch (...) {
    return false;
  }
}

}  // namespace sqlitebridge::interop
