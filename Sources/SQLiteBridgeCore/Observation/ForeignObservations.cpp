// interop::ObservationStartAccess: value and region observations whose fetch
// and callbacks are Swift's, as C functions and a context, adapted to the
// core's detail::ValueObserver and detail::RegionObserver.
#include <new>

#include "sqlitebridge/interop/Interop.hpp"

namespace sqlitebridge {

namespace {

using Access = interop::ObservationStartAccess;

/// Owns the Swift box: releases it once the core forgets the observer.
class ForeignContext {
 public:
  ForeignContext(Access::Release release, void* context) noexcept : release_(release), context_(context) {}
  ~ForeignContext() {
    if (release_ != nullptr) release_(context_);
  }
  ForeignContext(const ForeignContext&) = delete;
  ForeignContext& operator=(const ForeignContext&) = delete;

 protected:
  void* context() const noexcept { return context_; }

 private:
  Access::Release release_;
  void* context_;
};

class ForeignValueObserver final : public detail::ValueObserver, private ForeignContext {
 public:
  ForeignValueObserver(Access::Fetch fetch, Access::Deliver deliver, Access::Fail fail, Access::Release release,
                       void* context) noexcept
      : ForeignContext(release, context), fetch_(fetch), deliver_(deliver), fail_(fail) {}

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
  Access::Fetch fetch_;
  Access::Deliver deliver_;
  Access::Fail fail_;
};

class ForeignRegionObserver final : public detail::RegionObserver, private ForeignContext {
 public:
  ForeignRegionObserver(Access::Changed changed, Access::Fail fail, Access::Release release, void* context) noexcept
      : ForeignContext(release, context), changed_(changed), fail_(fail) {}

  void changed(Database& db) override { changed_(context(), &db); }
  void fail(const Error& error) override { fail_(context(), &error); }

 private:
  Access::Changed changed_;
  Access::Fail fail_;
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

interop::ObservationToken startValue(ConnectionPool* pool, Access::Fetch fetch, Access::Deliver deliver,
                                     Access::Fail fail, Access::Release release, void* context) noexcept {
  std::shared_ptr<ForeignValueObserver> observer;
  try {
    observer = std::make_shared<ForeignValueObserver>(fetch, deliver, fail, release, context);
  } catch (...) {
    const Error error{SQLITE_NOMEM, SQLITE_NOMEM, "out of memory while starting an observation", std::string()};
    fail(context, &error);
    if (release != nullptr) release(context);
    return interop::ObservationToken();
  }
  return tokenOf(detail::startValueObservation(pool, std::move(observer)));
}

interop::ObservationToken startRegion(ConnectionPool* pool, const DatabaseRegion& region, Access::Changed changed,
                                      Access::Fail fail, Access::Release release, void* context,
                                      Error& error) noexcept {
  std::shared_ptr<ForeignRegionObserver> observer;
  try {
    observer = std::make_shared<ForeignRegionObserver>(changed, fail, release, context);
  } catch (...) {
    if (release != nullptr) release(context);
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

ObservationToken ObservationStartAccess::startValueInQueue(const DatabaseQueue& queue, Fetch fetch, Deliver deliver,
                                                           Fail fail, Release release, void* context) noexcept {
  return startValue(sqlitebridge::ObservationAccess::of(const_cast<DatabaseQueue&>(queue)), fetch, deliver, fail,
                    release, context);
}

ObservationToken ObservationStartAccess::startValueInPool(const DatabasePool& pool, Fetch fetch, Deliver deliver,
                                                          Fail fail, Release release, void* context) noexcept {
  return startValue(sqlitebridge::ObservationAccess::of(const_cast<DatabasePool&>(pool)), fetch, deliver, fail, release,
                    context);
}

ObservationToken ObservationStartAccess::startRegionInQueue(const DatabaseQueue& queue, const DatabaseRegion& region,
                                                            Changed changed, Fail fail, Release release, void* context,
                                                            Error& error) noexcept {
  return startRegion(sqlitebridge::ObservationAccess::of(const_cast<DatabaseQueue&>(queue)), region, changed, fail,
                     release, context, error);
}

ObservationToken ObservationStartAccess::startRegionInPool(const DatabasePool& pool, const DatabaseRegion& region,
                                                           Changed changed, Fail fail, Release release, void* context,
                                                           Error& error) noexcept {
  return startRegion(sqlitebridge::ObservationAccess::of(const_cast<DatabasePool&>(pool)), region, changed, fail,
                     release, context, error);
}

void ObservationStartAccess::cancel(const ObservationToken& token) noexcept {
  if (token.handle) token.handle->cancel();
}

bool ObservationStartAccess::isActive(const ObservationToken& token) noexcept {
  return token.handle && token.handle->isActive();
}

Error ObservationStartAccess::error(const void* error) noexcept {
  if (error == nullptr) return Error();
  try {
    return *static_cast<const Error*>(error);
  } catch (...) {
    return Error{SQLITE_NOMEM, SQLITE_NOMEM, "out of memory", std::string()};
  }
}

}  // namespace interop

}  // namespace sqlitebridge
