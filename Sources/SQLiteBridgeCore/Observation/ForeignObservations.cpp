// interop::ObservationStartAccess: value and region observations whose fetch
// and callbacks are Swift's, as C functions and a context, adapted to the
// core's detail::ValueObserver and detail::RegionObserver.
#include <new>

#include "sqlitebridge/interop/Observation.hpp"

namespace sqlitebridge {

namespace {

using Access = interop::ObservationStartAccess;
using ValueCallbacks = interop::ValueObservationCallbacks;
using RegionCallbacks = interop::RegionObservationCallbacks;

/// Owns the Swift box: releases it once the core forgets the observer.
class ForeignContext {
 public:
  ForeignContext(interop::ReleaseBox release, void* context) noexcept : release_(release), context_(context) {}
  ~ForeignContext() {
    if (release_ != nullptr) release_(context_);
  }
  ForeignContext(const ForeignContext&) = delete;
  ForeignContext& operator=(const ForeignContext&) = delete;

 protected:
  void* context() const noexcept { return context_; }

 private:
  interop::ReleaseBox release_;
  void* context_;
};

class ForeignValueObserver final : public detail::ValueObserver, private ForeignContext {
 public:
  explicit ForeignValueObserver(const ValueCallbacks& callbacks) noexcept
      : ForeignContext(callbacks.release, callbacks.box),
        fetch_(callbacks.fetch),
        deliver_(callbacks.deliver),
        fail_(callbacks.fail) {}

  Fetched fetch(Database& db, Error& error) override {
    switch (fetch_(context(), &db)) {
      case Access::Fetched::Changed:
        return Fetched::Changed;
      case Access::Fetched::Same:
        return Fetched::Same;
      case Access::Fetched::Failed:
        break;
    }
    // Swift keeps its own error and delivers it; this one is what a Swift
    // facade without it would see.
    error = Error{SQLITE_ERROR, SQLITE_ERROR, "the fetch threw an error", std::string()};
    return Fetched::Failed;
  }
  void deliver() override { deliver_(context()); }
  void fail(const Error& error) override { fail_(context(), &error); }

 private:
  ValueCallbacks::Fetch fetch_;
  ValueCallbacks::Deliver deliver_;
  ValueCallbacks::Fail fail_;
};

class ForeignRegionObserver final : public detail::RegionObserver, private ForeignContext {
 public:
  explicit ForeignRegionObserver(const RegionCallbacks& callbacks) noexcept
      : ForeignContext(callbacks.release, callbacks.box), changed_(callbacks.changed), fail_(callbacks.fail) {}

  void changed(Database& db) override { changed_(context(), &db); }
  void fail(const Error& error) override { fail_(context(), &error); }

 private:
  RegionCallbacks::Changed changed_;
  ValueCallbacks::Fail fail_;
};

/// The token of `handle`; an inactive one when memory runs out (the
/// observation is then cancelled with the handle).
interop::ObservationToken tokenOf(ObservationHandle handle) noexcept {
  interop::ObservationToken token;
  try {
    token.handle = std::make_shared<ObservationHandle>(std::move(handle));
  } catch (...) {
  }
  return token;
}

interop::ObservationToken startValue(ConnectionPool* pool, const ValueCallbacks& callbacks) noexcept {
  std::shared_ptr<ForeignValueObserver> observer;
  try {
    observer = std::make_shared<ForeignValueObserver>(callbacks);
  } catch (...) {
    const Error error{SQLITE_NOMEM, SQLITE_NOMEM, "out of memory while starting an observation", std::string()};
    callbacks.fail(callbacks.box, &error);
    if (callbacks.release != nullptr) callbacks.release(callbacks.box);
    return interop::ObservationToken();
  }
  return tokenOf(detail::startValueObservation(pool, std::move(observer)));
}

interop::ObservationToken startRegion(ConnectionPool* pool, const DatabaseRegion& region,
                                      const RegionCallbacks& callbacks, Error& error) noexcept {
  std::shared_ptr<ForeignRegionObserver> observer;
  try {
    observer = std::make_shared<ForeignRegionObserver>(callbacks);
  } catch (...) {
    if (callbacks.release != nullptr) callbacks.release(callbacks.box);
    error = Error{SQLITE_NOMEM, SQLITE_NOMEM, "out of memory while starting an observation", std::string()};
    return interop::ObservationToken();
  }
  try {
    return tokenOf(detail::startRegionObservation(pool, region, std::move(observer), &error));
  } catch (...) {
    // Copying the region ran out of memory.
    error = Error{SQLITE_NOMEM, SQLITE_NOMEM, "out of memory while starting an observation", std::string()};
    return interop::ObservationToken();
  }
}

}  // namespace

namespace interop {

ObservationToken ObservationStartAccess::startValueInQueue(const DatabaseQueue& queue,
                                                           const ValueObservationCallbacks& callbacks) noexcept {
  return startValue(sqlitebridge::ObservationAccess::of(const_cast<DatabaseQueue&>(queue)), callbacks);
}

ObservationToken ObservationStartAccess::startValueInPool(const DatabasePool& pool,
                                                          const ValueObservationCallbacks& callbacks) noexcept {
  return startValue(sqlitebridge::ObservationAccess::of(const_cast<DatabasePool&>(pool)), callbacks);
}

ObservationToken ObservationStartAccess::startRegionInQueue(const DatabaseQueue& queue, const DatabaseRegion& region,
                                                            const RegionObservationCallbacks& callbacks,
                                                            Error& error) noexcept {
  return startRegion(sqlitebridge::ObservationAccess::of(const_cast<DatabaseQueue&>(queue)), region, callbacks, error);
}

ObservationToken ObservationStartAccess::startRegionInPool(const DatabasePool& pool, const DatabaseRegion& region,
                                                           const RegionObservationCallbacks& callbacks,
                                                           Error& error) noexcept {
  return startRegion(sqlitebridge::ObservationAccess::of(const_cast<DatabasePool&>(pool)), region, callbacks, error);
}

void ObservationStartAccess::cancel(const ObservationToken& token) noexcept {
  if (token.handle) token.handle->cancel();
}

bool ObservationStartAccess::isActive(const ObservationToken& token) noexcept {
  return token.handle && token.handle->isActive();
}

Error ObservationStartAccess::error(const Error* error) noexcept {
  if (error == nullptr) return Error();
  try {
    return *error;
  } catch (...) {
    return Error{SQLITE_NOMEM, SQLITE_NOMEM, "out of memory", std::string()};
  }
}

}  // namespace interop

}  // namespace sqlitebridge
