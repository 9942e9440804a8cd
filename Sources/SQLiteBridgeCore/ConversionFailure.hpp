// The wording of a failed typed read, in one place: Statement::failConversion
// (RowView::get), RowView's and Row's missing-column errors and Row::get all
// say the same thing for the same failure. Internal.
#pragma once

#include <cstddef>
#include <string>

#include "sqlitebridge/Value.hpp"

namespace sqlitebridge {

/// "column "id" holds text 'abc', which does not convert to Int": the
/// value shown as NULL, its integer or real, its text cut to 40 bytes, or
/// its blob's size. Throws std::bad_alloc.
std::string conversionFailureMessage(const std::string& column, const Value& value, const char* typeName);
/// "column index 7 is out of range: the row has 2 column(s)". Throws
/// std::bad_alloc.
std::string columnIndexOutOfRangeMessage(long long index, std::size_t count);
/// "no column named "x" in the row". Throws std::bad_alloc.
std::string missingColumnMessage(const std::string& name);

}  // namespace sqlitebridge
