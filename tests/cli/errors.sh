#!/usr/bin/env bash
# The first things a new user mistypes, and what partstore answers: the exit status (2 for bad
# arguments, 0 for help) and a message that says what is wrong.
# Also: every example `partstore --help` shows is in the README, word for word.
# Usage: errors.sh PARTSTORE README
set -u
partstore=$1
readme=$2
failures=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# expect STATUS TEXT ARGS...: `partstore ARGS` exits with STATUS and prints TEXT (stdout or stderr).
expect() {
  local status=$1 text=$2
  shift 2
  local out rc
  out=$("$partstore" "$@" 2>&1 < /dev/null)
  rc=$?
  if [[ $rc -ne $status ]]; then
    echo "FAIL: partstore $*: exit $rc, expected $status; output: ${out:0:300}"
    failures=$((failures + 1))
  elif [[ "$out" != *"$text"* ]]; then
    echo "FAIL: partstore $*: no \"$text\" in: ${out:0:300}"
    failures=$((failures + 1))
  fi
}

expect 2 "unknown command 'frobnicate' (commands: demo, simulate, run, serve" frobnicate
expect 2 "unknown option '--bogus'" --bogus
expect 0 "Subcommands:" help
expect 0 "--record" help run
expect 2 "unknown command 'nope'" help nope
expect 0 "partstore " --version
expect 2 "Value -3 not in range 0 to 1024" serve --threads -3
expect 2 "0 is out of range 0.001 to 86400" bench --seconds 0
expect 2 "-1 is out of range 0 to 31536000" serve --snapshot-every -1
expect 2 "'soon' is not a number" serve --snapshot-every soon
expect 2 "The following argument was not expected: --nope" simulate celebrity --nope
expect 2 "--html: cannot write /nonexistent/dir/x.html" simulate celebrity --quiet --html /nonexistent/dir/x.html
expect 2 "--json: cannot write /nonexistent/dir/x.json" simulate celebrity --quiet --json /nonexistent/dir/x.json

expect 2 "/dev/null: the trace is empty" simulate --trace /dev/null --quiet
expect 2 "cannot read /nonexistent/t.jsonl" simulate --trace /nonexistent/t.jsonl --quiet
expect 2 "cannot read /nonexistent/t.toml" simulate --trace /dev/null --tables /nonexistent/t.toml
expect 2 "--speed 0x: expected a factor" simulate --trace /dev/null --speed 0x
expect 2 "give no workload or --compare with it" simulate celebrity --trace /dev/null
expect 2 "invalid --host no.such.host.invalid" serve --host no.such.host.invalid --port 0
expect 2 "--region EU: expected a region name such as us-east-1" serve --region EU --port 0
expect 2 "an empty region names none" serve --region "" --port 0

# serve: a host name is resolved; an IPv6 address is bracketed in the URL it prints.
# listens HOST URL: `partstore serve --host HOST --port 0` prints a URL starting with URL.
# Waits up to 30 s for the line (a loaded CI machine may take seconds to start it), then stops it.
listens() {
  local out="$dir/serve.out" pid i
  "$partstore" serve --host "$1" --port 0 > "$out" 2>&1 &
  pid=$!
  for ((i = 0; i < 300; i++)); do
    grep -qF "listening on $2" "$out" && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  out=$(cat "$out")
  if [[ "$out" != *"listening on $2"* ]]; then
    echo "FAIL: partstore serve --host $1: no \"listening on $2\" in: ${out:0:300}"
    failures=$((failures + 1))
  fi
}
listens localhost "http://localhost:"
if grep -q "00000000000000000000000000000001" /proc/net/if_inet6 2>/dev/null; then
  listens ::1 "http://[::1]:"
fi

examples=0
while IFS= read -r line; do
  examples=$((examples + 1))
  if ! grep -qF -- "$line" "$readme"; then
    echo "FAIL: the --help example '$line' is not in the README"
    failures=$((failures + 1))
  fi
done < <("$partstore" --help | sed -n 's/^  \(partstore .*\)$/\1/p')
if [[ $examples -lt 5 ]]; then
  echo "FAIL: partstore --help shows $examples examples"
  failures=$((failures + 1))
fi

if [[ $failures -gt 0 ]]; then
  echo "cli.errors: $failures failure(s)"
  exit 1
fi
echo "cli.errors: every case answered as expected"
