# Sourced by awscli_test.sh after its own checks, once it has restarted the server with
# `--clock manual`: the capacity simulation (README.md, "Capacity simulation") through the AWS CLI.
# The clock stands at 0 until Partstore.AdvanceClock moves it, so every count is exact. Uses
# awscli_test.sh's helpers (check, check_error, json_eq, pyq) and its $AWS, $PY, $endpoint and
# $scratch.
#
# The CLI retries throttling errors by itself (standard mode, 3 attempts by default);
# AWS_MAX_ATTEMPTS counts every attempt, the first included.

PROVISIONED_MESSAGE="The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API."

# ddb_attempts N ARGS...: `aws dynamodb ARGS...` making at most N attempts (standard retry mode).
ddb_attempts() {
  local attempts="$1"
  shift
  AWS_MAX_ATTEMPTS="$attempts" AWS_RETRY_MODE=standard \
    "$AWS" dynamodb --endpoint-url "$endpoint" "$@"
}

# partstore_op OP JSON: the extension Partstore.OP, a plain POST (no signature needed).
partstore_op() {
  if command -v curl >/dev/null; then
    curl -sS -X POST -H "X-Amz-Target: Partstore_20261120.$1" \
      -H "Content-Type: application/x-amz-json-1.0" --data-binary "$2" "$endpoint"
  else
    "$PY" -c 'import sys, urllib.request
request = urllib.request.Request(sys.argv[1], data=sys.argv[3].encode(), headers={
    "X-Amz-Target": "Partstore_20261120." + sys.argv[2],
    "Content-Type": "application/x-amz-json-1.0"})
print(urllib.request.urlopen(request, timeout=10).read().decode())' "$endpoint" "$1" "$2"
  fi
}

# metric TABLE NAME: one GetMetrics counter of TABLE (everything here happens in its first minute,
# one datapoint).
metric() {
  pyq "$(partstore_op GetMetrics "{\"TableName\": \"$1\", \"Period\": 60}")" \
    "[p[\"$2\"] for p in d[\"Datapoints\"]]"
}

# capacity_table NAME WCU|on-demand: a table with hash key pk (S), provisioned with 1 RCU.
capacity_table() {
  local billing=(--provisioned-throughput "ReadCapacityUnits=1,WriteCapacityUnits=$2")
  [ "$2" = on-demand ] && billing=(--billing-mode PAY_PER_REQUEST)
  ddb_attempts 1 create-table --table-name "$1" --key-schema AttributeName=pk,KeyType=HASH \
    --attribute-definitions AttributeName=pk,AttributeType=S "${billing[@]}" >/dev/null
}

# --- provisioned, 1 WCU: one small write a second --------------------------------------------------
capacity_table hot 1
put_hot=(put-item --table-name hot --item '{"pk": {"S": "hot"}}')
ddb_attempts 1 "${put_hot[@]}"
check "capacity: put-item within 1 WCU" 0 $?
check_error "capacity: put-item beyond 1 WCU, one attempt" 254 \
  ProvisionedThroughputExceededException "$PROVISIONED_MESSAGE" -- ddb_attempts 1 "${put_hot[@]}"
check "capacity: 1 throttled write in the metrics" 1 "$(metric hot ThrottledWriteRequests)"

# The CLI's own retries: the clock does not move, so all 3 attempts are throttled, and each counts.
err="$(ddb_attempts 3 "${put_hot[@]}" 2>&1 >/dev/null)"
check "capacity: put-item with 3 attempts: exit status" 254 $?
case "$err" in
  *"(ProvisionedThroughputExceededException) when calling the PutItem operation (reached max retries: 2): "*)
    check "capacity: put-item with 3 attempts: error" ok ok ;;
  *) check "capacity: put-item with 3 attempts: error" "... (reached max retries: 2) ..." "$err" ;;
esac
check "capacity: 3 more throttled writes in the metrics" 4 "$(metric hot ThrottledWriteRequests)"

json_eq "capacity: AdvanceClock 1 s" '{"Now": 1}' "$(partstore_op AdvanceClock '{"Seconds": 1}')"
ddb_attempts 1 "${put_hot[@]}"
check "capacity: put-item after a second" 0 $?
check "capacity: 2 writes in the metrics" 2 "$(metric hot WriteRequests)"

# --- on-demand: 4 partitions of at most 1000 WCU a second; three 390 KB writes to one key ---------
capacity_table ondemand on-demand
"$PY" -c 'import json; print(json.dumps({"pk": {"S": "hot"}, "v": {"S": "x" * (390 * 1024 - 6)}}))' \
  >"$scratch/big-item.json"
put_big=(put-item --table-name ondemand --item "file://$scratch/big-item.json")
for n in 1 2; do
  check "capacity: on-demand put-item $n of 390 WCU" 390.0 \
    "$(ddb_attempts 1 "${put_big[@]}" --return-consumed-capacity TOTAL \
         --query ConsumedCapacity.CapacityUnits --output text)"
done
check_error "capacity: on-demand put-item beyond the partition's 1000 WCU" 254 ThrottlingException \
  "Throughput exceeds the current capacity of your table or index." -- \
  ddb_attempts 1 "${put_big[@]}"
