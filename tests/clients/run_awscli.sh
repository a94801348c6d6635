#!/usr/bin/env bash
# tests/clients/run_awscli.sh PARTSTORE: the AWS CLI suite against `PARTSTORE serve`.
# The driver of the ctest clients.awscli; the checks are in cli/awscli_test.sh.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ $# -eq 1 ] || { echo "usage: $0 PARTSTORE" >&2; exit 2; }
exec bash "$here/cli/awscli_test.sh" "$1"
