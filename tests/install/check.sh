#!/usr/bin/env bash
# install.find_package: installs the build tree into a scratch prefix, then configures, builds and
# runs a consumer project that uses only find_package(partstore) and partstore::partstore.
# Usage: check.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
source=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$source/tests/install" -B "$scratch/build" "${generator[@]}" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$scratch/prefix" \
  -DEXAMPLE_SOURCE="$source/examples/single_table.cc" >/dev/null
cmake --build "$scratch/build" -j2 >/dev/null
"$scratch/build/consumer"
