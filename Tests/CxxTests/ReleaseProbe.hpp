// A callback's captured state that counts its own destruction, to see when
// the core releases a callback (replaced, removed, closed).
#pragma once

#include <memory>

namespace sqlitebridge_test {

/// Counts into `*released` when destroyed. Captured through a shared_ptr,
/// so that copies of a callback share one probe: the count becomes 1 when
/// the last copy goes.
struct ReleaseProbe {
  explicit ReleaseProbe(int* released) : released(released) {}
  ~ReleaseProbe() { ++*released; }
  ReleaseProbe(const ReleaseProbe&) = delete;
  ReleaseProbe& operator=(const ReleaseProbe&) = delete;
  int* released;
};

/// A probe counting into `released`, for capturing in a callback.
inline std::shared_ptr<ReleaseProbe> makeProbe(int& released) { return std::make_shared<ReleaseProbe>(&released); }

}  // namespace sqlitebridge_test
