// SQLiteBridge: a C++ wrapper over the system SQLite, also imported by Swift
// as the module SQLiteBridgeCore. Include this one header.
#pragma once

#include "SQLite.hpp"
#include "CheckpointMode.hpp"
#include "ColumnView.hpp"
#include "Configuration.hpp"
#include "Database.hpp"
#include "DatabasePool.hpp"
#include "DatabaseQueue.hpp"
#include "Date.hpp"
#include "Error.hpp"
#include "Location.hpp"
#include "Migrator.hpp"
#include "ResultCode.hpp"
#include "OpenMode.hpp"
#include "Row.hpp"
#include "Schema.hpp"
#include "Statement.hpp"
#include "TableHelpers.hpp"
#include "Transaction.hpp"
#include "Uuid.hpp"
#include "Value.hpp"
