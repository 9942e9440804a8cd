// interop::Identifiers and interop::Conversions (interop/Values.hpp): SQL
// identifiers and the wording of a failed typed read, as the Swift facade
// reaches them; and interop::ValueTesting (interop/Testing.hpp).
#include <string_view>

#include "ConversionFailure.hpp"
#include "SqlText.hpp"
#include "sqlitebridge/interop/Testing.hpp"
#include "sqlitebridge/interop/Values.hpp"

namespace sqlitebridge::interop {

bool Identifiers::same(const void* a, std::size_t aSize, const void* b, std::size_t bSize) noexcept {
  return sameIdentifier(std::string_view(a != nullptr ? static_cast<const char*>(a) : "", aSize),
                        std::string_view(b != nullptr ? static_cast<const char*>(b) : "", bSize));
}

bool Identifiers::quote(const std::string& name, std::string& quoted, std::string& problem) noexcept {
  quoted.clear();
  problem.clear();
  try {
    if (name.find('\0') != std::string::npos) {
      problem = "the identifier \"" + name + "\" holds a NUL character";
      return false;
    }
    quoted = quoteIdentifier(name);
    return true;
  } catch (...) {
    quoted.clear();
    problem.clear();
    return false;
  }
}

bool Conversions::failureMessage(const std::string& column, const ColumnView& value, const std::string& typeName,
                                 const std::string& note, std::string& message) noexcept {
  try {
    message = conversionFailureMessage(column, value, typeName, note);
    return true;
  } catch (...) {
    message.clear();
    return false;
  }
}

bool Conversions::describeValue(const ColumnView& value, std::string& shown) noexcept {
  try {
    shown = describeValueForConversion(value);
    return true;
  } catch (...) {
    shown.clear();
    return false;
  }
}

bool ValueTesting::isValidUTF8(const void* bytes, std::size_t size) noexcept {
  return sqlitebridge::isValidUTF8(bytes, size);
}

bool Conversions::missingColumnMessage(const std::string& name, std::string& message) noexcept {
  try {
    message = sqlitebridge::missingColumnMessage(name);
    return true;
  } catch (...) {
    message.clear();
    return false;
  }
}

bool Conversions::columnIndexOutOfRangeMessage(long long index, long long count, std::string& message) noexcept {
  try {
    message = sqlitebridge::columnIndexOutOfRangeMessage(index, count < 0 ? 0 : static_cast<std::size_t>(count));
    return true;
  } catch (...) {
    message.clear();
    return false;
  }
}

}  // namespace sqlitebridge::interop
