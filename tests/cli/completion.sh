#!/usr/bin/env bash
# tools/completion/partstore.bash completes commands, each command's options (read from its
# --help), the built-in scenarios, and `help COMMAND`. Usage: completion.sh PARTSTORE SOURCE_DIR
set -u
partstore=$1
source "$2/tools/completion/partstore.bash"
failures=0
# completes EXPECTED WORDS...: completing the last word of WORDS offers EXPECTED (among others).
completes() {
  local expected=$1
  shift
  COMP_WORDS=("$partstore" "$@")
  COMP_CWORD=$#
  COMPREPLY=()
  _partstore
  if [[ " ${COMPREPLY[*]} " != *" $expected "* ]]; then
    echo "FAIL: completing '$*' offers '${COMPREPLY[*]}', not $expected"
    failures=$((failures + 1))
  fi
}
completes simulate sim
completes --version --ver
completes --trace simulate --tr
completes --record serve --rec
completes --hash-keys run --hash
completes celebrity simulate cel
completes serve help se
[[ $failures -eq 0 ]] && echo "cli.completion: every case completed" || exit 1
