#include "sqlitebridge/Location.hpp"

#include <cstdlib>

#include "FileSystem.hpp"

#if defined(__APPLE__)
#include <CoreFoundation/CoreFoundation.h>
#include <climits>
#endif

namespace sqlitebridge {

namespace {

#if defined(__APPLE__)
// The main bundle's resources directory, as Bundle.main.resourcePath.
std::string mainBundleResources() {
  CFBundleRef bundle = CFBundleGetMainBundle();
  if (bundle == nullptr) return std::string();
  CFURLRef url = CFBundleCopyResourcesDirectoryURL(bundle);
  if (url == nullptr) return std::string();
  CFURLRef absolute = CFURLCopyAbsoluteURL(url);
  CFRelease(url);
  if (absolute == nullptr) return std::string();
  char path[PATH_MAX];
  const bool ok = CFURLGetFileSystemRepresentation(absolute, true, reinterpret_cast<UInt8*>(path), sizeof path);
  CFRelease(absolute);
  return ok ? std::string(path) : std::string();
}
#endif

}  // namespace

Location Location::defaults() {
  Location location;
#if defined(__APPLE__)
  // An app's home is its container; its Documents folder is where
  // FileManager's .documentDirectory points.
  if (const char* home = std::getenv("HOME")) location.documentsDirectory = joinPath(home, "Documents");
  location.bundleDirectory = mainBundleResources();
#else
  location.documentsDirectory = currentDirectory();
  location.bundleDirectory = executableDirectory();
#endif
  return location;
}

}  // namespace sqlitebridge
