// Observing a queue's or pool's data: a value fetched again after each
// commit that changes what it read (observeValue), and a callback on the
// writer after each commit that changes a region (observeRegion).
#pragma once

#include <functional>
#include <memory>
#include <utility>

#include "Export.hpp"
#include "Database.hpp"
#include "DatabasePool.hpp"
#include "DatabaseQueue.hpp"
#include "DatabaseRegion.hpp"
#include "Error.hpp"

namespace sqlitebridge {

class ConnectionPool;

namespace detail {
class Observation;
}  // namespace detail

/// One running observation; move-only. Destroying it cancels the
/// observation.
class SQLITEBRIDGE_API ObservationHandle {
 public:
  /// A handle that observes nothing (`isActive()` false).
  ObservationHandle() noexcept;
  /// The handle of a running observation (made by `observeValue` and
  /// `observeRegion`).
  explicit ObservationHandle(std::shared_ptr<detail::Observation> observation) noexcept;
  /// Takes over `other`'s observation; `other` observes nothing after.
  ObservationHandle(ObservationHandle&& other) noexcept;
  /// Cancels the observation this handle held, then takes over `other`'s.
  ObservationHandle& operator=(ObservationHandle&& other) noexcept;
  ObservationHandle(const ObservationHandle&) = delete;
  ObservationHandle& operator=(const ObservationHandle&) = delete;
  ~ObservationHandle();

  /// Stops the observation. After it returns no callback runs again: a
  /// callback running on another thread is waited for, and a fetch running
  /// is interrupted and waited for, so that the observation holds no
  /// connection any more (called from inside one of its own callbacks it
  /// returns at once, and that callback is the last). Waiting for a callback
  /// that itself waits for the caller (say, a callback writing to the pool
  /// while the caller holds the pool's writer) would never end: cancel from
  /// outside the pool's blocks. Cancelling twice does nothing.
  void cancel() noexcept;
  /// True until the observation is cancelled, ended by an error, or its
  /// queue or pool is gone.
  bool isActive() const noexcept;

 private:
  std::shared_ptr<detail::Observation> observation_;
};

/// How `observeValue` delivers values.
struct ObservationOptions {
  /// Drops a value equal (`operator==`) to the one delivered before it.
  bool removeDuplicates = false;
};

namespace detail {

/// A value observation as the core runs it, whatever the value's type (the
/// templates below, and the Swift facade, implement it).
class ValueObserver {
 public:
  enum class Fetched { Changed, Same, Failed };
  virtual ~ValueObserver() = default;
  /// Runs the fetch on `db` and keeps its value: `Same` when it equals the
  /// last delivered one and duplicates are removed, `Failed` with `error`.
  virtual Fetched fetch(Database& db, Error& error) = 0;
  /// Hands the value the last `Changed` fetch kept to the caller.
  virtual void deliver() = 0;
  /// Hands a failure to the caller (the observation then ends).
  virtual void fail(const Error& error) = 0;
};

/// A region observation's callbacks.
class RegionObserver {
 public:
  virtual ~RegionObserver() = default;
  virtual void changed(Database& db) = 0;
  virtual void fail(const Error& error) = 0;
};

/// Starts a value observation on the queue's or pool's `pool`; an inactive
/// handle (with `observer->fail` called at once) when it cannot start.
SQLITEBRIDGE_API ObservationHandle startValueObservation(ConnectionPool* pool,
                                                         std::shared_ptr<ValueObserver> observer) noexcept;
/// Starts a region observation; an inactive handle, with the reason in
/// `*error` (when not null), when it cannot start.
SQLITEBRIDGE_API ObservationHandle startRegionObservation(ConnectionPool* pool, DatabaseRegion region,
                                                          std::shared_ptr<RegionObserver> observer,
                                                          Error* error) noexcept;

template <typename T>
class TypedValueObserver final : public ValueObserver {
 public:
  TypedValueObserver(std::function<bool(Database&, T&, Error*)> fetch, std::function<void(const T&)> onChange,
                     std::function<void(const Error&)> onError, bool removeDuplicates)
      : fetch_(std::move(fetch)),
        onChange_(std::move(onChange)),
        onError_(std::move(onError)),
        removeDuplicates_(removeDuplicates) {}

  Fetched fetch(Database& db, Error& error) override {
    T value{};
    Error reason;
    bool ok = false;
    try {
      ok = fetch_(db, value, &reason);
    } catch (...) {
      reason = Error{1, 1, "the fetch threw a C++ exception", std::string()};
    }
    if (!ok) {
      error = reason.code != 0 ? reason : db.lastError();
      if (error.code == 0) error = Error{1, 1, "the fetch failed without saying why", std::string()};
      return Fetched::Failed;
    }
    if constexpr (IsEqualityComparable<T>::value) {
      if (removeDuplicates_ && hasDelivered_ && value == delivered_) return Fetched::Same;
    }
    pending_ = std::move(value);
    return Fetched::Changed;
  }
  void deliver() override {
    if constexpr (IsEqualityComparable<T>::value) {
      if (removeDuplicates_) {
        delivered_ = pending_;
        hasDelivered_ = true;
      }
    }
    if (onChange_) onChange_(pending_);
  }
  void fail(const Error& error) override {
    if (onError_) onError_(error);
  }

 private:
  template <typename U, typename = void>
  struct IsEqualityComparable : std::false_type {};
  template <typename U>
  struct IsEqualityComparable<U, std::void_t<decltype(std::declval<const U&>() == std::declval<const U&>())>>
      : std::true_type {};

  std::function<bool(Database&, T&, Error*)> fetch_;
  std::function<void(const T&)> onChange_;
  std::function<void(const Error&)> onError_;
  bool removeDuplicates_;
  T pending_{};
  T delivered_{};
  bool hasDelivered_ = false;
};

class FunctionRegionObserver final : public RegionObserver {
 public:
  FunctionRegionObserver(std::function<void(Database&)> onChange, std::function<void(const Error&)> onError)
      : onChange_(std::move(onChange)), onError_(std::move(onError)) {}
  void changed(Database& db) override {
    if (onChange_) onChange_(db);
  }
  void fail(const Error& error) override {
    if (onError_) onError_(error);
  }

 private:
  std::function<void(Database&)> onChange_;
  std::function<void(const Error&)> onError_;
};

}  // namespace detail

/// The queue's or pool's core, for the observation functions (internal).
struct ObservationAccess {
  /// The pool's core (null when moved from).
  static ConnectionPool* of(DatabasePool& pool) noexcept { return pool.pool_.get(); }
  /// The queue's core (null when moved from).
  static ConnectionPool* of(DatabaseQueue& queue) noexcept { return queue.pool_.get(); }
};

/// Observes a value: `fetch(db, value, error)` runs once at start (the
/// initial value), then again after each commit of the pool that changes a
/// table (or column) of the region the last fetch read, and `onChange`
/// gets each value. The region is recorded per fetch (SQLite's authorizer
/// names what each statement reads), so a fetch whose reads depend on the
/// data stays correct.
///
/// Promises: the first value delivered is the initial value; values come
/// one at a time, in commit order, never older than one delivered before
/// (several commits may give one value); after the last commit that changes
/// the region, the last value delivered equals a fresh fetch; a commit that
/// does not change the region causes no fetch. Fetches run on the pool's
/// reader connections, inside a read transaction that starts after the
/// commit it answers (it sees at least that commit), so a slow fetch never
/// blocks a writer. With `Configuration::externalChangeCheckMilliseconds`,
/// commits by other connections and processes count too, as changes of the
/// whole database.
///
/// Threads: `fetch`, `onChange` and `onError` run one at a time, on threads
/// the pool owns, never on the writer while it holds the write lock;
/// `onChange` and `onError` after the fetch's connection went back, so they
/// may read and write the pool (a write there waits for the writer as any
/// other). `fetch` must read only the `Database` it is given, and must not
/// call the pool.
///
/// Failures: a fetch that returns false ends the observation after
/// `onError(error)` (the error it set, or the connection's last); a pool
/// that is not open, or a start from inside one of the pool's own blocks
/// (SQLITE_MISUSE "reentrant access"), calls `onError` at once, on the
/// calling thread, and returns an inactive handle. Never throws.
template <typename T>
ObservationHandle observeValue(DatabasePool& pool, std::function<bool(Database&, T&, Error*)> fetch,
                               std::function<void(const T&)> onChange, std::function<void(const Error&)> onError,
                               ObservationOptions options = {}) {
  return detail::startValueObservation(ObservationAccess::of(pool), std::make_shared<detail::TypedValueObserver<T>>(
                                                                        std::move(fetch), std::move(onChange),
                                                                        std::move(onError), options.removeDuplicates));
}
/// `observeValue` on a queue: fetches run on the queue's connection, one at
/// a time with its other blocks, on the queue's own thread, each in a read
/// transaction as a `read` block (one snapshot).
template <typename T>
ObservationHandle observeValue(DatabaseQueue& queue, std::function<bool(Database&, T&, Error*)> fetch,
                               std::function<void(const T&)> onChange, std::function<void(const Error&)> onError,
                               ObservationOptions options = {}) {
  return detail::startValueObservation(ObservationAccess::of(queue), std::make_shared<detail::TypedValueObserver<T>>(
                                                                         std::move(fetch), std::move(onChange),
                                                                         std::move(onError), options.removeDuplicates));
}

/// Calls `onChange(db)` on the pool's writer after each commit that changes
/// `region`, once per commit (never coalesced), before any other write can
/// start: `db` is the writer, outside any transaction, and may be read and
/// written (a write there is a commit of its own, and is observed too).
/// Commits by other connections or processes count (as changes of the whole
/// database) with `Configuration::externalChangeCheckMilliseconds`; then
/// `onChange` runs on the pool's observation thread, holding the writer.
/// Fails (inactive handle, `onError` called at once on the calling thread)
/// as `observeValue` does.
SQLITEBRIDGE_API ObservationHandle observeRegion(DatabasePool& pool, DatabaseRegion region,
                                                 std::function<void(Database&)> onChange,
                                                 std::function<void(const Error&)> onError);
/// `observeRegion` on a queue's connection.
SQLITEBRIDGE_API ObservationHandle observeRegion(DatabaseQueue& queue, DatabaseRegion region,
                                                 std::function<void(Database&)> onChange,
                                                 std::function<void(const Error&)> onError);

}  // namespace sqlitebridge
