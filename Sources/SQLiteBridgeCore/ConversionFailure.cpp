#include "ConversionFailure.hpp"

namespace sqlitebridge {

std::string conversionFailureMessage(const std::string& column, const Value& value, const char* typeName) {
  std::string shown;
  switch (value.type()) {
    case ValueType::Null:
      shown = "NULL";
      break;
    case ValueType::Integer:
      shown = "integer " + value.asText();
      break;
    case ValueType::Real:
      shown = "real " + value.asText();
      break;
    case ValueType::Text: {
      const std::string text = value.asText();
      shown = "text '" + text.substr(0, 40) + (text.size() > 40 ? "...'" : "'");
      break;
    }
    case ValueType::Blob:
      shown = "a blob of " + std::to_string(value.asBlob().size()) + " byte(s)";
      break;
  }
  return "column \"" + column + "\" holds " + shown + ", which does not convert to " + typeName;
}

std::string columnIndexOutOfRangeMessage(long long index, std::size_t count) {
  return "column index " + std::to_string(index) + " is out of range: the row has " + std::to_string(count) +
         " column(s)";
}

std::string missingColumnMessage(const std::string& name) { return "no column named \"" + name + "\" in the row"; }

}  // namespace sqlitebridge
