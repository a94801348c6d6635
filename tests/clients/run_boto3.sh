#!/usr/bin/env bash
# tests/clients/run_boto3.sh PARTSTORE: the boto3 suite (tests/clients/python) against
# `PARTSTORE serve`, with Debian's python3 (python3-boto3, python3-pytest), never a pyenv one.
# The suite starts and stops its own server (conftest.py). Missing packages fail, never skip.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ $# -eq 1 ] || { echo "usage: $0 PARTSTORE" >&2; exit 2; }
python=/usr/bin/python3
if ! "$python" -c 'import boto3, pytest' 2>/dev/null; then
  echo "clients.boto3: $python cannot import boto3 and pytest;" \
       "install the Debian packages python3-boto3 python3-pytest (tools/run test does)" >&2
  exit 1
fi
[ -x "$1" ] || { echo "clients.boto3: not an executable: $1" >&2; exit 1; }
export PYTHONDONTWRITEBYTECODE=1
export PARTSTORE_BIN="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
cd "$here/python"
# -p no:cacheprovider: write nothing into the source tree.
exec "$python" -m pytest -p no:cacheprovider -q -rxXs "$here/python"
