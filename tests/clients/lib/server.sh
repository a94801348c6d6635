# Sourced by the client suites' bash drivers: start `partstore serve --port 0`, learn its endpoint
# from the start-up line, and stop it when the script exits, whatever the reason.
#
#   source tests/clients/lib/server.sh
#   start_server PARTSTORE [ARGS...]  # `serve --port 0 ARGS...`; sets PARTSTORE_ENDPOINT
#                                     # (http://127.0.0.1:PORT) and SERVER_PID
#
# One server at a time: stop_server before starting another. start_server sets an EXIT trap that
# stops the server; a caller that sets its own must call stop_server in it. With `--clock manual`
# the server's second line (capacity simulation on) is checked too.

SERVER_PID=""
SERVER_DIR=""
PARTSTORE_ENDPOINT=""

stop_server() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    local waited=0
    while kill -0 "$SERVER_PID" 2>/dev/null && [ "$waited" -lt 100 ]; do
      sleep 0.1
      waited=$((waited + 1))
    done
    if kill -0 "$SERVER_PID" 2>/dev/null; then
      echo "partstore serve (pid $SERVER_PID) ignored SIGTERM for 10 s; killing it" >&2
      kill -KILL "$SERVER_PID" 2>/dev/null || true
    fi
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=""
  [ -n "$SERVER_DIR" ] && rm -rf "$SERVER_DIR"
  SERVER_DIR=""
}

start_server() {
  local binary="$1"
  shift
  local manual=no
  case " $* " in *" manual "*) manual=yes ;; esac
  if [ ! -x "$binary" ]; then
    echo "not an executable: $binary" >&2
    return 1
  fi
  SERVER_DIR="$(mktemp -d)"
  trap 'status=$?; stop_server; exit $status' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  "$binary" serve --port 0 "$@" >"$SERVER_DIR/stdout" 2>"$SERVER_DIR/stderr" &
  SERVER_PID=$!
  local line="" tries=0
  while [ "$tries" -lt 200 ]; do
    line="$(head -n 1 "$SERVER_DIR/stdout" 2>/dev/null || true)"
    case "$line" in
      "partstore serve: listening on http://"*) break ;;
    esac
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      echo "partstore serve exited before listening; stderr:" >&2
      cat "$SERVER_DIR/stderr" >&2
      return 1
    fi
    sleep 0.1
    tries=$((tries + 1))
  done
  if [[ ! "$line" =~ ^"partstore serve: listening on "(http://[^:/[:space:]]+:([0-9]+))$ ]]; then
    echo "partstore serve printed no start-up line within 20 s (got: '$line')" >&2
    return 1
  fi
  if [ "${BASH_REMATCH[2]}" = 0 ]; then
    echo "partstore serve --port 0 reported port 0" >&2
    return 1
  fi
  PARTSTORE_ENDPOINT="${BASH_REMATCH[1]}"
  if [ "$manual" = yes ]; then
    tries=0
    while [ "$tries" -lt 50 ] && [ "$(wc -l <"$SERVER_DIR/stdout")" -lt 2 ]; do
      sleep 0.1
      tries=$((tries + 1))
    done
    line="$(sed -n 2p "$SERVER_DIR/stdout")"
    if [ "$line" != "partstore serve: capacity simulation on (manual clock)" ]; then
      echo "partstore serve --clock manual: unexpected second line '$line'" >&2
      return 1
    fi
  fi
}
