// For the Swift facade only; no stability promise. Observation as Swift
// drives it: transaction observers, and value and region observations whose
// fetch and callbacks are Swift's, each as C callbacks and a box the core
// releases. Never included by <sqlitebridge/sqlitebridge.hpp>; Swift imports
// it with the explicit submodule SQLiteBridgeCore.Interop. Definitions:
// Sources/SQLiteBridgeCore/Observation/ForeignObservers.cpp and
// ForeignObservations.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "../Export.hpp"
#include "../sqlitebridge.hpp"
#include "SwiftBox.hpp"
#include "Values.hpp"

namespace sqlitebridge::interop {

/// A Swift transaction observer as the core calls it (see
/// `ObservationAccess::addObserver`): every callback gets `box` first. A
/// null callback is not called (`observes` null observes nothing,
/// `willCommit` null never vetoes).
struct ObserverCallbacks {
  /// `observes(kind, table, updatedColumns)`; `columns` (the core's, for
  /// the call only) is read with `ObservationAccess::columnCount` and
  /// `column`.
  using Observes = bool (*)(SwiftBox box, ChangeKind kind, const char* table, const StringList* columns);
  /// `databaseDidChange` for a row of `table`.
  using DidChange = void (*)(SwiftBox box, ChangeKind kind, const char* table, std::int64_t rowID);
  /// False vetoes the commit; call `ObservationAccess::setVeto(veto, …)`
  /// first to say why.
  using WillCommit = bool (*)(SwiftBox box, Error* veto);
  /// The transaction ended (`committed`, or rolled back): `database` is read
  /// with `ObservationAccess::share`, and only during the call.
  using DidEnd = void (*)(SwiftBox box, const Database* database, bool committed);
  /// Whether the Swift observer still exists (held weakly); once false the
  /// core forgets it.
  using Alive = bool (*)(SwiftBox box);

  Observes observes = nullptr;      ///< Whether a change interests the observer.
  DidChange didChange = nullptr;    ///< A change it observes.
  WillCommit willCommit = nullptr;  ///< Before a commit it observed changes in.
  DidEnd didEnd = nullptr;          ///< After that commit or a rollback.
  Alive alive = nullptr;            ///< For `ObserverExtent::ObserverLifetime`.
  ReleaseBox release = nullptr;     ///< Gives `box` up, once.
  SwiftBox box = nullptr;           ///< The facade's box (the observer).
};

/// Transaction observers written in Swift: the core calls them through C
/// functions with the box the facade gives (a retained box the core
/// releases once it forgets the observer). Every rule (when each is called,
/// savepoints, vetoes, extents) is the core's, as for a C++
/// `TransactionObserver`.
struct SQLITEBRIDGE_API ObservationAccess {
  /// Adds a Swift observer, known by `identity` (for `removeObserver`: the
  /// address of the Swift object, never dereferenced), for `extent` (the
  /// core holds the box strongly; `ObserverLifetime` is told by
  /// `callbacks.alive`). On a closed database SQLITE_MISUSE is recorded and
  /// `callbacks.release(box)` is called at once; out of memory, the same
  /// with SQLITE_NOMEM.
  static void addObserver(Database& database, std::uintptr_t identity, ObserverExtent extent,
                          const ObserverCallbacks& callbacks) noexcept;
  /// Forgets every observer added with `identity`.
  static void removeObserver(Database& database, std::uintptr_t identity) noexcept;
  /// How many columns `columns` holds (0 for null).
  static int columnCount(const StringList* columns) noexcept;
  /// Column `index` of `columns`; empty when out of range or out of memory.
  static std::string column(const StringList* columns, int index) noexcept;
  /// Says why a commit is vetoed (`code` 0: SQLITE_CONSTRAINT_COMMITHOOK).
  static void setVeto(Error* veto, int code, int extendedCode, const std::string& message) noexcept;
  /// A `Database` sharing the connection of a callback's `database` (the
  /// Swift `Database` the observer is given, closed after the call).
  static Database share(const Database* database) noexcept;
  /// A region of `table`'s `columns` (Swift builds the list); the full
  /// database when memory runs out.
  static DatabaseRegion columns(const std::string& table, const StringList& columns) noexcept;
};

/// A running value or region observation the Swift facade holds (its state
/// is the core's `ObservationHandle`); copies share it, and the last copy
/// gone cancels the observation.
struct ObservationToken {
  /// The observation; null when it did not start.
  std::shared_ptr<ObservationHandle> handle;
};

/// What a value observation's fetch gave: `Changed` (the box keeps the value
/// for `deliver`), `Same` (equal to the last one delivered, duplicates
/// removed) or `Failed` (the box keeps Swift's error; `fail` is called next).
enum class Fetched : int { Changed = 0, Same = 1, Failed = 2 };

/// A value observation's callbacks (`ObservationStartAccess::startValue…`).
struct ValueObservationCallbacks {
  /// Runs the fetch on `database` (read with `ObservationAccess::share`,
  /// and only during the call).
  using Fetch = Fetched (*)(SwiftBox box, const Database* database);
  /// Hands the value the last `Changed` fetch kept to the observer.
  using Deliver = void (*)(SwiftBox box);
  /// The observation ended (or could not start) with `error` (the core's,
  /// for the call only).
  using Fail = void (*)(SwiftBox box, const Error* error);

  Fetch fetch = nullptr;         ///< Runs a fetch.
  Deliver deliver = nullptr;     ///< Delivers the value fetched.
  Fail fail = nullptr;           ///< Ends the observation with an error.
  ReleaseBox release = nullptr;  ///< Gives `box` up, once.
  SwiftBox box = nullptr;        ///< The facade's box.
};

/// A region observation's callbacks (`ObservationStartAccess::startRegion…`).
struct RegionObservationCallbacks {
  /// A commit that changed the region: `database` is the writer (read with
  /// `ObservationAccess::share`, only during the call).
  using Changed = void (*)(SwiftBox box, const Database* database);

  Changed changed = nullptr;                       ///< Called for each such commit.
  ValueObservationCallbacks::Fail fail = nullptr;  ///< Ends the observation with an error.
  ReleaseBox release = nullptr;                    ///< Gives `box` up, once.
  SwiftBox box = nullptr;                          ///< The facade's box.
};

/// Value and region observations (`observeValue`, `observeRegion`) whose
/// fetch and callbacks are Swift's. When each is called, on which thread,
/// and what is coalesced is the core's, as for the C++ templates.
struct SQLITEBRIDGE_API ObservationStartAccess {
  /// What a fetch gave (see `interop::Fetched`).
  using Fetched = interop::Fetched;

  /// `observeValue` on the queue; when it cannot start, `fail` is called at
  /// once, on the calling thread, and the token is inactive.
  static ObservationToken startValueInQueue(const DatabaseQueue& queue,
                                            const ValueObservationCallbacks& callbacks) noexcept;
  /// `observeValue` on the pool; fails as `startValueInQueue` does.
  static ObservationToken startValueInPool(const DatabasePool& pool,
                                           const ValueObservationCallbacks& callbacks) noexcept;
  /// `observeRegion` on the queue; when it cannot start, the token is
  /// inactive and `error` says why (`release` is called at once).
  static ObservationToken startRegionInQueue(const DatabaseQueue& queue, const DatabaseRegion& region,
                                             const RegionObservationCallbacks& callbacks, Error& error) noexcept;
  /// `observeRegion` on the pool; fails as `startRegionInQueue` does.
  static ObservationToken startRegionInPool(const DatabasePool& pool, const DatabaseRegion& region,
                                            const RegionObservationCallbacks& callbacks, Error& error) noexcept;
  /// `ObservationHandle::cancel` (waits for a callback running elsewhere).
  static void cancel(const ObservationToken& token) noexcept;
  /// Whether the observation runs.
  static bool isActive(const ObservationToken& token) noexcept;
  /// A copy of the error a `fail` call passes.
  static Error error(const Error* error) noexcept;
};

}  // namespace sqlitebridge::interop
