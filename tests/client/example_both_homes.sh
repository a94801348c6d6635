#!/usr/bin/env bash
# An example of the C++ API run in both homes of partstore::Store: in-process (a Database), then
# against a `partstore serve` process started here with --auth sigv4 (a RemoteStore over HTTP,
# every request signed with the key it knows). Both runs must succeed with the same output.
# Usage: example_both_homes.sh PARTSTORE EXAMPLE
set -u
partstore=$1
example=$2
dir=$(mktemp -d)
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT

"$example" > "$dir/in-process.txt" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
  echo "FAIL: $(basename "$example") in-process exited $rc:"; cat "$dir/in-process.txt"; exit 1
fi

echo "AKIDEXAMPLE0 example-secret-0" > "$dir/keys"
"$partstore" serve --port 0 --auth sigv4 --access-keys "$dir/keys" > "$dir/serve.out" \
  2> "$dir/serve.err" &
server=$!
endpoint=""
for _ in $(seq 300); do
  endpoint=$(sed -n 's|^partstore serve: listening on \(http://[^ ]*\)$|\1|p' "$dir/serve.out")
  [ -n "$endpoint" ] && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$endpoint" ]; then
  echo "FAIL: partstore serve did not start:"; cat "$dir/serve.out" "$dir/serve.err"; exit 1
fi

# Only these credentials: nothing of the developer's own AWS set-up leaks in.
env -u AWS_PROFILE -u AWS_ENDPOINT_URL -u AWS_ENDPOINT_URL_DYNAMODB -u AWS_SESSION_TOKEN \
  AWS_ACCESS_KEY_ID=AKIDEXAMPLE0 AWS_SECRET_ACCESS_KEY=example-secret-0 AWS_REGION=us-east-1 \
  AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null \
  "$example" --endpoint "$endpoint" > "$dir/remote.txt" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
  echo "FAIL: $(basename "$example") against $endpoint exited $rc:"; cat "$dir/remote.txt"; exit 1
fi
if ! diff -u "$dir/in-process.txt" "$dir/remote.txt"; then
  echo "FAIL: $(basename "$example"): the answers differ between the two homes"; exit 1
fi
echo "$(basename "$example"): the same answers in-process and against $endpoint"
