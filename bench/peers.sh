# Shared by bench/wire/run.sh and bench/compare.sh (sourced, not run): installing the peers and
# starting them on free loopback ports. Every server started here is stopped when the script exits.
#
# The sourcing script sets ROOT, SCRATCH, LOGS, PY (python3), PARTSTORE (the binary) and log();
# servers land in PID[name] and URL[name] (http://127.0.0.1:PORT/).
DYNALITE=$SCRATCH/node_modules/dynalite/cli.js

# What the peers need, installed when missing: install_peers nginx dynalite redis
install_peers() {
  local need=() want=" $* "
  command -v curl >/dev/null || need+=(curl)
  [[ $want == *" nginx "* ]] && ! [ -x /usr/sbin/nginx ] && need+=(nginx-light)
  [[ $want == *" redis "* ]] && ! [ -x /usr/bin/redis-server ] && need+=(redis-server)
  if [[ $want == *" dynalite "* ]] && ! command -v node >/dev/null; then need+=(nodejs npm); fi
  if [ ${#need[@]} -gt 0 ]; then
    log "apt-get install ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q "${need[@]}" >/dev/null 2>&1 ||
      { apt-get update -q >/dev/null && apt-get install -y -q "${need[@]}" >/dev/null; }
  fi
  if [[ $want == *" dynalite "* ]] && ! [ -f "$DYNALITE" ]; then
    log "npm install dynalite@3 into $SCRATCH"
    npm install --no-audit --no-fund --prefix "$SCRATCH" dynalite@3 >"$LOGS/npm.log" 2>&1
  fi
}

declare -A PID URL
cleanup() {
  local s
  for s in "${!PID[@]}"; do
    kill -TERM "${PID[$s]}" 2>/dev/null || true
  done
  for s in "${!PID[@]}"; do
    for _ in $(seq 50); do kill -0 "${PID[$s]}" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "${PID[$s]}" 2>/dev/null || true
  done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
  "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
# Whether process $1 (or a child of it: nginx's worker) listens on TCP port $2. A port from
# free_port can be taken by another program before the peer binds it (ctest runs servers side by
# side); then the peer dies, and something else answers on its port.
owns_port() {
  "$PY" -c 'import os, sys
pid, port = sys.argv[1], int(sys.argv[2])
inodes = set()
for table in ("/proc/net/tcp", "/proc/net/tcp6"):
    try:
        lines = open(table).read().splitlines()[1:]
    except OSError:
        continue
    for line in lines:
        f = line.split()
        if f[3] == "0A" and int(f[1].split(":")[1], 16) == port:  # LISTEN
            inodes.add(f[9])
try:
    pids = [pid] + open("/proc/%s/task/%s/children" % (pid, pid)).read().split()
except OSError:
    sys.exit(1)
for p in pids:
    try:
        for fd in os.listdir("/proc/%s/fd" % p):
            link = os.readlink("/proc/%s/fd/%s" % (p, fd))
            if link.startswith("socket:[") and link[8:-1] in inodes:
                sys.exit(0)
    except OSError:
        pass
sys.exit(1)' "$1" "$2"
}
wait_http() {  # until something answers HTTP on $1, while server $2 runs
  for _ in $(seq 100); do
    curl -s -o /dev/null -X POST "$1" && return 0
    kill -0 "${PID[$2]}" 2>/dev/null || break
    sleep 0.1
  done
  log "$2: nothing answers on $1"; return 1
}
# The CPU ticks used so far by a server: the process, and for nginx its worker too.
server_pids() {
  echo "${PID[$1]}"
  [ "$1" = nginx ] && pgrep -P "${PID[$1]}" || true
}
proc_ticks() {
  local t=0 p f
  for p in "$@"; do
    f=$(cut -d' ' -f14,15 "/proc/$p/stat" 2>/dev/null) || continue
    t=$((t + ${f% *} + ${f#* }))
  done
  echo $t
}
busy_ticks() {  # all CPUs: everything but idle and iowait; and softirq alone (loopback TCP)
  awk '/^cpu /{print $2+$3+$4+$7+$8+$9, $8}' /proc/stat
}
HZ=$(getconf CLK_TCK)

# start_partstore [NAME [SERVE-ARGS...]]: `partstore serve` as PID[NAME] / URL[NAME] (default
# name: partstore), with SERVE-ARGS after the listening ones (e.g. --upstream URL).
start_partstore() {
  local name=${1:-partstore}
  [ $# -gt 0 ] && shift
  local args=(serve --host 127.0.0.1 --port 0 "$@")
  [ -n "${PARTSTORE_THREADS:-}" ] && args+=(--threads "$PARTSTORE_THREADS")
  "$PARTSTORE" "${args[@]}" >"$LOGS/$name.out" 2>"$LOGS/$name.err" &
  PID[$name]=$!
  for _ in $(seq 100); do
    local line
    line=$(grep -m1 '^partstore serve: listening on ' "$LOGS/$name.out" || true)
    if [ -n "$line" ]; then URL[$name]=${line#partstore serve: listening on }/; return 0; fi
    kill -0 "${PID[$name]}" 2>/dev/null || break
    sleep 0.1
  done
  log "partstore serve ($name) did not start:"; cat "$LOGS/$name.err" >&2; return 1
}
start_dynalite() {
  local port attempt
  for attempt in 1 2 3; do
    port=$(free_port)
    node "$DYNALITE" --port "$port" --createTableMs 0 >"$LOGS/dynalite.out" 2>&1 &
    PID[dynalite]=$!
    URL[dynalite]=http://127.0.0.1:$port/
    wait_http "${URL[dynalite]}" dynalite && owns_port "${PID[dynalite]}" "$port" && return 0
    log "dynalite did not take port $port; again"
    kill "${PID[dynalite]}" 2>/dev/null || true
  done
  return 1
}
start_nginx() {  # $1: the body to return
  local attempt
  for attempt in 1 2 3; do
    start_nginx_once "$1" && owns_port "${PID[nginx]}" "$NGINX_PORT" && return 0
    log "nginx did not take port $NGINX_PORT; again"
    kill "${PID[nginx]}" 2>/dev/null || true
    sleep 0.2
  done
  return 1
}
start_nginx_once() {
  local port prefix=$SCRATCH/nginx
  port=$(free_port)
  NGINX_PORT=$port
  mkdir -p "$prefix"
  "$PY" - "$ROOT/bench/wire/nginx.conf.template" "$prefix/nginx.conf" "$prefix" "$port" "$1" <<'EOF'
import sys, zlib
tpl, out, prefix, port, body_file = sys.argv[1:]
body = open(body_file).read()
# nginx's return would expand '$': JSON's \u0024 is the same string to any client.
body = body.replace("$", "\\u0024")
crc = str(zlib.crc32(body.encode()))
body = body.replace("\\", "\\\\").replace("'", "\\'")
text = open(tpl).read()
for k, v in (("@PREFIX@", prefix), ("@PORT@", port), ("@CRC32@", crc), ("@BODY@", body)):
    text = text.replace(k, v)
open(out, "w").write(text)
EOF
  /usr/sbin/nginx -p "$prefix" -c "$prefix/nginx.conf" -e "$prefix/error.log" \
    >"$LOGS/nginx.out" 2>&1 &
  PID[nginx]=$!
  URL[nginx]=http://127.0.0.1:$port/
  wait_http "${URL[nginx]}" nginx
}

start_redis() {
  local port attempt
  for attempt in 1 2 3; do
    port=$(free_port)
    /usr/bin/redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
      --daemonize no >"$LOGS/redis.out" 2>&1 &
    PID[redis]=$!
    URL[redis]=127.0.0.1:$port
    for _ in $(seq 100); do
      if [ "$(redis-cli -p "$port" ping 2>/dev/null)" = PONG ]; then
        owns_port "${PID[redis]}" "$port" && return 0
        break
      fi
      kill -0 "${PID[redis]}" 2>/dev/null || break
      sleep 0.1
    done
    log "redis-server did not start on port $port:"; cat "$LOGS/redis.out" >&2
    kill "${PID[redis]}" 2>/dev/null || true
  done
  return 1
}
