// interop::BundleLookup: the seed directory of a bundle, and SwiftPM's
// resource bundle found by name, for the Swift DatabaseLocation's bundle
// initializers. The rules and their errors live here, with the file system.
#include <set>

#include "FileSystem.hpp"
#include "sqlitebridge/interop/Opening.hpp"

namespace sqlitebridge::interop {

namespace {

bool cantOpen(Error& error, const std::string& message) noexcept {
  error = Error();
  error.code = SQLITE_CANTOPEN;
  error.extendedCode = SQLITE_CANTOPEN;
  try {
    error.message = message;
  } catch (...) {
  }
  return false;
}

bool holdsNul(const std::string& text) noexcept { return text.find('\0') != std::string::npos; }

// `text` quoted for a message, each NUL byte shown as '?'.
std::string quoted(const std::string& text) {
  std::string shown = "\"";
  for (char c : text) shown += c == '\0' ? '?' : c;
  return shown + "\"";
}

// Where SwiftPM puts the resource bundle `name` in `directory`, in the order
// they are tried: Linux's flat `.resources` folder, a macOS bundle's
// Contents/Resources, and the flat `.bundle` of the other Apple platforms.
std::string candidate(const std::string& directory, const std::string& name, int kind) {
  switch (kind) {
    case 0:
      return joinPath(directory, name + ".resources");
    case 1:
      return joinPath(directory, name + ".bundle/Contents/Resources");
    default:
      return joinPath(directory, name + ".bundle");
  }
}

}  // namespace

bool BundleLookup::bundleDirectory(const std::string& bundlePath, const std::string& resourcePath,
                                   std::string& directory, Error& error) noexcept {
  directory.clear();
  error = Error();
  try {
    if (holdsNul(bundlePath) || holdsNul(resourcePath)) {
      return cantOpen(error, "the bundle " + quoted(bundlePath) + " has a path that holds a NUL byte");
    }
    for (const std::string* path : {&resourcePath, &bundlePath}) {
      if (!path->empty() && isDirectory(*path)) {
        directory = *path;
        return true;
      }
    }
    std::string message = "the bundle " + quoted(bundlePath) + " has no usable directory for seed databases: ";
    if (resourcePath.empty() && bundlePath.empty()) {
      message += "it has neither a resource path nor a bundle path";
    } else if (resourcePath.empty() || resourcePath == bundlePath) {
      message += quoted(bundlePath) + " is not a directory";
    } else {
      message += "neither its resource path " + quoted(resourcePath) + " nor its bundle path " + quoted(bundlePath) +
                 " is a directory";
    }
    return cantOpen(error, message);
  } catch (...) {
    directory.clear();
    return cantOpen(error, "out of memory while reading a bundle's directory");
  }
}

bool BundleLookup::findResourceBundle(const std::string& name, const StringList& searchDirectories,
                                      std::string& directory, Error& error) noexcept {
  directory.clear();
  error = Error();
  try {
    if (name.empty() || name.find('/') != std::string::npos || holdsNul(name)) {
      return cantOpen(error, "invalid resource bundle name " + quoted(name) +
                                 ": it must be a bundle's name (<package>_<target>), not empty, without / or NUL");
    }
    std::set<std::string> seen;
    std::string looked;
    for (const std::string& place : searchDirectories) {
      if (place.empty() || !seen.insert(place).second) continue;
      if (holdsNul(place)) {
        return cantOpen(error, "a directory to look for the resource bundle " + quoted(name) + " in holds a NUL byte");
      }
      for (int kind = 0; kind < 3; ++kind) {
        const std::string path = candidate(place, name, kind);
        if (isDirectory(path)) {
          directory = path;
          return true;
        }
      }
      looked += (looked.empty() ? "" : ", ") + place;
    }
    if (looked.empty()) {
      return cantOpen(error,
                      "the resource bundle " + quoted(name) + " was not found: there was no directory to look in");
    }
    return cantOpen(error, "the resource bundle " + quoted(name) + " (" + name + ".resources or " + name +
                               ".bundle) was not found in any of: " + looked);
  } catch (...) {
    directory.clear();
    return cantOpen(error, "out of memory while looking for a resource bundle");
  }
}

}  // namespace sqlitebridge::interop
