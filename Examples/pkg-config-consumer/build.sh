#!/usr/bin/env bash
# Builds main.cpp against an installed SQLiteBridge with pkg-config alone,
# then runs it (it exits non-zero on any mismatch).
#
# Usage: Examples/pkg-config-consumer/build.sh PREFIX [OUTPUT]
#   PREFIX   the `cmake --install --prefix` of SQLiteBridge (its
#            lib/pkgconfig/sqlitebridge.pc is used)
#   OUTPUT   where the executable goes (default: a temporary directory)
# Environment: CXX (default c++). A shared core is found at run time through
# LD_LIBRARY_PATH=PREFIX/lib (the install has no rpath for us).
set -euo pipefail

prefix="$(cd "${1:?usage: build.sh PREFIX [OUTPUT]}" && pwd)"
source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
output="${2:-$(mktemp -d)/pkg-config-consumer}"
libdir="$(dirname "$(find "$prefix" -name sqlitebridge.pc -path '*/pkgconfig/*' | head -1)")/.."
[ -d "$libdir/pkgconfig" ] || { echo "build.sh: no sqlitebridge.pc under $prefix" >&2; exit 1; }
libdir="$(cd "$libdir" && pwd)"

export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
flags="$(pkg-config --cflags --libs sqlitebridge)"
echo "pkg-config --cflags --libs sqlitebridge: $flags"
# shellcheck disable=SC2086  # the flags are words
"${CXX:-c++}" -std=c++17 -Wall -Wextra -o "$output" "$source_dir/main.cpp" $flags
LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$output"
