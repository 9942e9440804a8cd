// For the Swift facade only; no stability promise. The one untyped pointer
// the interop headers pass: a box the Swift facade owns, which the core hands
// back to the facade's C callbacks and never reads. Swift imports it with the
// explicit submodule SQLiteBridgeCore.Interop.
#pragma once

namespace sqlitebridge::interop {

/// A Swift object (a retained box holding the facade's closures and state)
/// given to the core with C callbacks: the core passes it back as their
/// first argument and to the matching `ReleaseBox` exactly once, and never
/// reads it. Swift sees `UnsafeMutableRawPointer`. An alias of `void*`, so
/// that the core's own callback slots (which C++ callers fill with their
/// own contexts) take it unchanged; every other pointer across the boundary
/// has its type.
using SwiftBox = void*;
/// Gives up a `SwiftBox`: the core's last use of it.
using ReleaseBox = void (*)(SwiftBox box);

}  // namespace sqlitebridge::interop
