// The wording of a failed typed read, in one place: Statement::failConversion
// (RowView::get), RowView's and Row's missing-column errors, Row::get and the
// Swift facade (through interop::Conversions) all say the same thing for the
// same failure. Internal.
#pragma once

#include <cstddef>
#include <string>

#include "sqlitebridge/ColumnView.hpp"

namespace sqlitebridge {

/// How a failed read shows the value: `NULL`, `integer 42`, `real 2.5` (as
/// SQLite prints a real: `real 2.0`, `real 1.0e+300`), `text 'abc'` (cut
/// after 40 bytes, never inside a character, with `...` added), `text that is
/// not valid UTF-8 (3 byte(s))`, `a blob of 3 byte(s)`. Throws
/// std::bad_alloc.
std::string describeValueForConversion(const ColumnView& value);
/// `column "id" holds text 'abc', which does not convert to int64`; `note`
/// (when not empty) follows the value: `... holds a blob of 2 byte(s) <note>,
/// which ...`. Throws std::bad_alloc.
std::string conversionFailureMessage(const std::string& column, const ColumnView& value, const std::string& typeName,
                                     const std::string& note = std::string());
/// "column index 7 is out of range: the row has 2 column(s)". Throws
/// std::bad_alloc.
std::string columnIndexOutOfRangeMessage(long long index, std::size_t count);
/// "no column named "x" in the row". Throws std::bad_alloc.
std::string missingColumnMessage(const std::string& name);
/// Whether `size` bytes at `bytes` are well-formed UTF-8 (no overlong forms,
/// surrogates or code points past U+10FFFF).
bool isValidUTF8(const void* bytes, std::size_t size) noexcept;

}  // namespace sqlitebridge
