// interop::BundleLookup, the core's rules behind the Swift DatabaseLocation's
// bundle initializers: a bundle's usable directory, and SwiftPM's resource
// bundle found by name in a list of directories, each failing with
// SQLITE_CANTOPEN and a message naming what was looked for and where.
// Tests/SQLiteBridgeTests/Opening/BundleLocationTests.swift checks them
// through the initializers.
#include <sqlitebridge/interop/Interop.hpp>

#include "TestSupport.hpp"

using sqlitebridge::Error;
using sqlitebridge::interop::BundleLookup;
using sqlitebridge::interop::StringList;
using namespace sqlitebridge_test;

namespace {

// The directory findResourceBundle sets, or "" after a failure (the error
// then in `error`).
std::string findBundle(const std::string& name, const StringList& places, Error& error) {
  std::string directory = "stale";
  if (!BundleLookup::findResourceBundle(name, places, directory, error)) {
    EXPECT_EQ(directory, "");
    return std::string();
  }
  EXPECT_EQ(error.code, 0) << error.message;
  return directory;
}

std::string bundleDirectory(const std::string& bundlePath, const std::string& resourcePath, Error& error) {
  std::string directory = "stale";
  if (!BundleLookup::bundleDirectory(bundlePath, resourcePath, directory, error)) {
    EXPECT_EQ(directory, "");
    return std::string();
  }
  EXPECT_EQ(error.code, 0) << error.message;
  return directory;
}

void expectCantOpen(const Error& error, const std::string& part) {
  EXPECT_EQ(error.code, SQLITE_CANTOPEN) << error.message;
  EXPECT_EQ(error.extendedCode, SQLITE_CANTOPEN);
  EXPECT_TRUE(contains(error.message, part)) << error.message << "\nlacks: " << part;
  EXPECT_EQ(error.sql, "");
}

}  // namespace

TEST(BundleLookup, ABundlesResourceDirectoryIsPreferred) {
  TempDir dir;
  const std::string bundle = dir.makeSubdirectory("App.bundle");
  const std::string resources = dir.makeSubdirectory("App.bundle/Resources");
  Error error;
  EXPECT_EQ(bundleDirectory(bundle, resources, error), resources);
}

TEST(BundleLookup, ABundleWithoutAResourceDirectoryUsesItsOwn) {
  TempDir dir;
  const std::string bundle = dir.makeSubdirectory("flat");
  Error error;
  EXPECT_EQ(bundleDirectory(bundle, "", error), bundle);
  EXPECT_EQ(bundleDirectory(bundle, bundle + "/Resources", error), bundle);  // missing
  writeFile(bundle + "/file", "x");
  EXPECT_EQ(bundleDirectory(bundle, bundle + "/file", error), bundle);  // not a directory
}

TEST(BundleLookup, ABundleWithNoUsableDirectoryFailsWithCantOpenNamingIt) {
  TempDir dir;
  const std::string gone = dir / "Gone.bundle";
  Error error;
  EXPECT_EQ(bundleDirectory(gone, gone + "/Resources", error), "");
  expectCantOpen(error, "the bundle \"" + gone +
                            "\" has no usable directory for seed databases: neither its "
                            "resource path \"" +
                            gone + "/Resources\" nor its bundle path \"" + gone + "\" is a directory");
  EXPECT_EQ(bundleDirectory(gone, "", error), "");
  expectCantOpen(error, "\"" + gone + "\" is not a directory");
  EXPECT_EQ(bundleDirectory("", "", error), "");
  expectCantOpen(error, "it has neither a resource path nor a bundle path");
  EXPECT_EQ(bundleDirectory(dir.path() + std::string("\0x", 2), "", error), "");
  expectCantOpen(error, "holds a NUL byte");
  EXPECT_EQ(error.message.find('\0'), std::string::npos);
  EXPECT_TRUE(listDirectory(dir.path()).empty());
}

TEST(BundleLookup, SwiftPMsResourceBundleIsFoundInTheFirstDirectoryHoldingOne) {
  TempDir dir;
  dir.makeSubdirectory("empty");
  dir.makeSubdirectory("linuxLayout");
  const std::string linuxLayout = dir.makeSubdirectory("linuxLayout/Pkg_Target.resources");
  dir.makeSubdirectory("later");
  dir.makeSubdirectory("later/Pkg_Target.resources");
  Error error;
  EXPECT_EQ(findBundle("Pkg_Target", {dir / "empty", "", dir / "linuxLayout", dir / "later"}, error), linuxLayout);
  EXPECT_EQ(findBundle("Pkg_Target", {dir / "later", dir / "linuxLayout"}, error), dir / "later/Pkg_Target.resources");
}

TEST(BundleLookup, AppleBundlesAreFoundWithOrWithoutContentsResources) {
  TempDir dir;
  dir.makeSubdirectory("macosLayout");
  dir.makeSubdirectory("macosLayout/Pkg_Target.bundle");
  dir.makeSubdirectory("macosLayout/Pkg_Target.bundle/Contents");
  const std::string macosLayout = dir.makeSubdirectory("macosLayout/Pkg_Target.bundle/Contents/Resources");
  dir.makeSubdirectory("iosLayout");
  const std::string iosLayout = dir.makeSubdirectory("iosLayout/Pkg_Target.bundle");
  Error error;
  EXPECT_EQ(findBundle("Pkg_Target", {dir / "macosLayout"}, error), macosLayout);
  EXPECT_EQ(findBundle("Pkg_Target", {dir / "iosLayout"}, error), iosLayout);
  // In one directory, the Linux layout comes first.
  const std::string linuxLayout = dir.makeSubdirectory("iosLayout/Pkg_Target.resources");
  EXPECT_EQ(findBundle("Pkg_Target", {dir / "iosLayout"}, error), linuxLayout);
}

TEST(BundleLookup, AFileNamedLikeTheBundleIsNoBundle) {
  TempDir dir;
  writeFile(dir / "Pkg_Target.resources", "x");
  writeFile(dir / "Pkg_Target.bundle", "x");
  Error error;
  EXPECT_EQ(findBundle("Pkg_Target", {dir.path()}, error), "");
  expectCantOpen(error, "was not found in any of: " + dir.path());
}

TEST(BundleLookup, AMissingBundleFailsWithCantOpenNamingItAndEveryDirectoryLookedIn) {
  TempDir dir;
  const std::string a = dir.makeSubdirectory("a");
  const std::string b = dir / "b-missing";
  Error error;
  EXPECT_EQ(findBundle("Pkg_Target", {a, b, a, ""}, error), "");
  expectCantOpen(error,
                 "the resource bundle \"Pkg_Target\" (Pkg_Target.resources or Pkg_Target.bundle) was not "
                 "found in any of: " +
                     a + ", " + b);
  EXPECT_FALSE(contains(error.message, b + ", " + a));  // each directory once
  EXPECT_EQ(findBundle("Pkg_Target", {}, error), "");
  expectCantOpen(error, "the resource bundle \"Pkg_Target\" was not found: there was no directory to look in");
  EXPECT_EQ(findBundle("Pkg_Target", {"", ""}, error), "");
  expectCantOpen(error, "there was no directory to look in");
  EXPECT_EQ(listDirectory(dir.path()), (std::vector<std::string>{"a"}));
}

TEST(BundleLookup, InvalidBundleNamesAndDirectoriesFailWithCantOpen) {
  TempDir dir;
  dir.makeSubdirectory("x.resources");
  Error error;
  for (const std::string& name : {std::string(), std::string("../x"), std::string("a/b"), std::string("x\0y", 3)}) {
    EXPECT_EQ(findBundle(name, {dir.path()}, error), "") << name;
    expectCantOpen(error, "invalid resource bundle name");
    EXPECT_EQ(error.message.find('\0'), std::string::npos);
  }
  EXPECT_EQ(findBundle("x", {dir.path() + std::string("\0/elsewhere", 11)}, error), "");
  expectCantOpen(error, "holds a NUL byte");
}

TEST(BundleLookup, SuccessClearsAnEarlierError) {
  TempDir dir;
  dir.makeSubdirectory("x.resources");
  Error error;
  error.code = SQLITE_CANTOPEN;
  error.message = "earlier";
  EXPECT_EQ(findBundle("x", {dir.path()}, error), dir / "x.resources");
  EXPECT_EQ(error.code, 0);
  EXPECT_EQ(error.message, "");
}
