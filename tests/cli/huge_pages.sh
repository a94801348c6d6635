#!/usr/bin/env bash
# The program asks jemalloc for transparent huge pages (tools/cli/allocator.cc), and
# MALLOC_CONF=thp:never turns that off (README, "Memory limit"): a server holding some data has
# AnonHugePages with the default settings and none with thp:never (where the kernel gives huge
# pages only on request, THP "madvise").
# Skipped (77) where it cannot be seen: a kernel with THP off, a build without jemalloc
# (sanitizers), or no /proc/PID/smaps_rollup.
# Usage: huge_pages.sh PARTSTORE
set -u
partstore=$1
thp=/sys/kernel/mm/transparent_hugepage/enabled
if [[ ! -r $thp ]] || grep -q '\[never\]' "$thp"; then echo "SKIP: THP off"; exit 77; fi
if ! ldd "$partstore" 2>/dev/null | grep -q jemalloc; then echo "SKIP: no jemalloc"; exit 77; fi
if [[ ! -r /proc/self/smaps_rollup ]]; then echo "SKIP: no smaps_rollup"; exit 77; fi

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# huge_kb [ENV...]: AnonHugePages (kB) of a `partstore run` holding 20,000 items of 1 KB.
huge_kb() {
  local script="$dir/load.jsonl" i
  if [[ ! -s $script ]]; then
    {
      echo '{"op":"CreateTable","request":{"TableName":"Big","KeySchema":[{"AttributeName":"PK","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}}'
      local pad
      pad=$(head -c 1000 /dev/zero | tr '\0' 'x')
      for ((i = 0; i < 20000; i++)); do
        echo "{\"op\":\"PutItem\",\"request\":{\"TableName\":\"Big\",\"Item\":{\"PK\":{\"S\":\"k$i\"},\"D\":{\"S\":\"$pad\"}}}}"
      done
    } > "$script"
  fi
  # The run holds the data after its last answer: its input stays open (cat waits on a fifo that
  # is written to only at the end, to let cat go).
  rm -f "$dir/wait" "$dir/out"
  mkfifo "$dir/wait"
  env "$@" "$partstore" run - < <(cat "$script" "$dir/wait") > "$dir/out" &
  local pid=$! kb=0
  for ((i = 0; i < 600; i++)); do
    [[ -f $dir/out && $(wc -l < "$dir/out") -ge 20001 ]] && break
    sleep 0.1
  done
  kb=$(awk '/AnonHugePages/ {print $2}' "/proc/$pid/smaps_rollup" 2>/dev/null)
  kill "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  : > "$dir/wait"
  echo "${kb:-0}"
}

on=$(huge_kb)
off=$(huge_kb MALLOC_CONF=thp:never)
echo "AnonHugePages: ${on} kB by default, ${off} kB with MALLOC_CONF=thp:never"
failures=0
if [[ $on -le 0 ]]; then echo "FAIL: no huge pages by default"; failures=1; fi
# With the kernel's THP at "always", memory outside jemalloc's may get huge pages too.
if [[ $off -ne 0 ]] && ! grep -q '\[always\]' "$thp"; then
  echo "FAIL: huge pages with MALLOC_CONF=thp:never"
  failures=1
fi
exit $failures
