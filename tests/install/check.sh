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
  -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O0" -DCMAKE_PREFIX_PATH="$scratch/prefix" \
  -DEXAMPLE_SOURCE="$source/examples/single_table.cc" >/dev/null
cmake --build "$scratch/build" -j2 >/dev/null
"$scratch/build/consumer"
"$scratch/build/engine_only"
"$scratch/build/cache_consumer"
# The engine's package names no HTTP or TLS library; the client's does.
package=$(dirname "$(find "$scratch/prefix" -name partstoreConfig.cmake | head -1)")
if grep -qi 'ssl' "$package/partstoreTargets.cmake" "$package/partstoreTargets-"*.cmake; then
  echo "partstore::partstore (the engine) links OpenSSL" >&2
  exit 1
fi
grep -q 'OpenSSL::SSL' "$package/partstoreClientTargets.cmake" ||
  { echo "partstore::client does not name OpenSSL" >&2; exit 1; }
# The public headers include nothing of the project but each other.
if grep -n '#include "' "$scratch/prefix/include/partstore/"*.h | grep -v '#include "partstore/'; then
  echo "a public header includes an internal one (above)" >&2
  exit 1
fi
installed=$(ls "$scratch/prefix/include/partstore/" | wc -l)
[[ $installed -ge 20 ]] || { echo "only $installed public headers installed" >&2; exit 1; }
echo "consumer built; $installed public headers compile on their own"
