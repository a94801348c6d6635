#!/usr/bin/env bash
# tests/run/check.sh PARTSTORE SCRIPT.jsonl [EXPECTED]
#
# Runs `PARTSTORE run [FLAGS] SCRIPT.jsonl` and compares its output, one response per request
# line, with EXPECTED. FLAGS come from the script itself: a first line
#   # run-flags: --clock manual
# (a comment, so `partstore run` skips it) passes its words to `partstore run`; without one there
# are none. Values that change from run to run are replaced by placeholders in the output before
# comparing (EXPECTED holds the placeholders):
#   "<Name>DateTime":<number>   ->  "<Name>DateTime":"<timestamp>"   (CreationDateTime, ...)
#   "TableId":"<uuid>"          ->  "TableId":"<uuid>"
# On a mismatch it prints, for each differing response, the request line that produced it, the
# expected and the actual response and where they first differ; exit status 1.
#
# Without EXPECTED it prints the normalized output, to start a new expected file from. Such
# output is only a draft: every line must be checked against DynamoDB's documented behaviour
# before it becomes the expected file.
set -uo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 PARTSTORE SCRIPT.jsonl [EXPECTED]" >&2
  exit 2
fi
partstore="$1" script="$2" expected="${3:-}"

normalize() {
  sed -E -e 's/"([A-Za-z]+DateTime)":-?[0-9][0-9.eE+-]*/"\1":"<timestamp>"/g' \
         -e 's/"TableId":"[0-9a-fA-F-]{36}"/"TableId":"<uuid>"/g'
}

flags=()
first_line="$(head -n 1 "$script")"
if [[ "$first_line" =~ ^\#\ run-flags:\ (.*)$ ]]; then
  read -r -a flags <<<"${BASH_REMATCH[1]}"
fi

actual_raw="$("$partstore" run "${flags[@]}" "$script")"
status=$?
if [ $status -ne 0 ]; then
  echo "FAIL: '$partstore run ${flags[*]} $script' exited with status $status" >&2
  exit 1
fi
actual="$(printf '%s\n' "$actual_raw" | normalize)"

if [ -z "$expected" ]; then
  printf '%s\n' "$actual"
  exit 0
fi

# The request lines, with their line numbers in the script (comments and blank lines answer
# nothing, exactly as `partstore run` skips them).
requests=() request_lines=() n=0
while IFS= read -r line || [ -n "$line" ]; do
  n=$((n + 1))
  trimmed="${line#"${line%%[![:space:]]*}"}"
  [ -z "$trimmed" ] && continue
  [ "${trimmed:0:1}" = "#" ] && continue
  requests+=("$line")
  request_lines+=("$n")
done <"$script"

mapfile -t want <"$expected"
mapfile -t got <<<"$actual"
[ -z "$actual" ] && got=()

failures=0
count=${#want[@]}
[ ${#got[@]} -gt "$count" ] && count=${#got[@]}
[ ${#requests[@]} -gt "$count" ] && count=${#requests[@]}
for ((i = 0; i < count; i++)); do
  w="${want[i]-<no line>}" g="${got[i]-<no line>}"
  [ "$w" = "$g" ] && continue
  failures=$((failures + 1))
  echo "---- response $((i + 1)), for $script line ${request_lines[i]-?}:"
  echo "request:  ${requests[i]-<no request>}"
  echo "expected: $w"
  echo "actual:   $g"
  # The first differing byte, with some context.
  at=$(cmp <(printf '%s' "$w") <(printf '%s' "$g") 2>/dev/null | sed -nE 's/.* byte ([0-9]+),.*/\1/p')
  if [ -z "$at" ]; then  # one is a prefix of the other
    at=$(( ${#w} < ${#g} ? ${#w} + 1 : ${#g} + 1 ))
  fi
  from=$(( at > 41 ? at - 41 : 0 ))
  echo "first difference at byte $at:"
  echo "  expected: ...${w:from:80}..."
  echo "  actual:   ...${g:from:80}..."
done

if [ ${#want[@]} -ne ${#requests[@]} ]; then
  echo "note: $expected has ${#want[@]} lines for ${#requests[@]} requests in $script"
  failures=$((failures + 1))
fi
if [ $failures -ne 0 ]; then
  echo "FAIL: $failures problem(s) comparing '$partstore run $script' and $expected"
  exit 1
fi
echo "OK: ${#requests[@]} responses match $expected"
