#!/usr/bin/env bash
# The AWS CLI (Debian's awscli, /usr/bin/aws) against `partstore serve`, with the seed article
# "Step-by-step example of creating single-table RELATIONAL data models with DynamoDB" (banana
# shipping containers, table my-table-name: objectId / relatedObjectId).
#
#   bash tests/clients/cli/awscli_test.sh PARTSTORE
#
# Starts its own server on a free port and stops it on exit (also on failure); the capacity checks
# at the end (capacity.sh) restart it with a manual clock. No user AWS configuration is read:
# config and credentials files are /dev/null, HOME is a scratch directory, credentials and region
# are dummies. Output is checked with --query / --output text, or with the system python3 when
# JSON has to be compared (jq is not assumed).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ $# -eq 1 ] || { echo "usage: $0 PARTSTORE" >&2; exit 2; }
partstore="$1"

AWS=/usr/bin/aws
PY=/usr/bin/python3
if [ ! -x "$AWS" ]; then
  echo "clients.awscli: $AWS is missing; install the Debian package awscli (tools/run test does)" >&2
  exit 1
fi

# --- isolation ----------------------------------------------------------------------------------
for name in $(env | sed -n 's/^\(AWS_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$name"; done
scratch="$(mktemp -d)"
export HOME="$scratch"
export AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
export AWS_ACCESS_KEY_ID=AKIDPARTSTORETEST AWS_SECRET_ACCESS_KEY=partstore-test-secret
export AWS_DEFAULT_REGION=us-east-1 AWS_PAGER="" AWS_CLI_AUTO_PROMPT=off
export AWS_EC2_METADATA_DISABLED=true

source "$here/../lib/server.sh"
mkdir -p "$scratch/s3/exports"
start_server "$partstore" --s3-dir "$scratch/s3" || exit 1
trap 'status=$?; stop_server; rm -rf "$scratch"; exit $status' EXIT
endpoint="$PARTSTORE_ENDPOINT"

# --- checks -------------------------------------------------------------------------------------
passed=0
failed=0
xfailed=0
ddb() { "$AWS" dynamodb --endpoint-url "$endpoint" "$@"; }

# check NAME EXPECTED ACTUAL
check() {
  if [ "$2" == "$3" ]; then
    passed=$((passed + 1))
    echo "ok   $1"
  else
    failed=$((failed + 1))
    printf 'FAIL %s\n  expected: %s\n  actual:   %s\n' "$1" "$2" "$3"
  fi
}

# check_error NAME EXIT_CODE ERROR_CODE MESSAGE -- COMMAND...: the CLI must fail with the given
# exit status and print "An error occurred (ERROR_CODE) when calling ... operation: MESSAGE".
check_error() {
  local name="$1" want_status="$2" code="$3" message="$4"
  shift 5
  local err status
  err="$("$@" 2>&1 >/dev/null)"
  status=$?
  check "$name: exit status" "$want_status" "$status"
  case "$err" in
    # (botocore inserts " (reached max retries: N)" before the colon when it retried.)
    *"An error occurred ($code) when calling the "*" operation"*": $message"*)
      check "$name: error" ok ok ;;
    *) check "$name: error" "($code) ... operation: $message" "$err" ;;
  esac
}

# xfail NAME REASON -- COMMAND...: a check of DynamoDB's behaviour that partstore does not meet yet.
# It must fail (an expected failure); if it passes, the divergence is gone and this must become a
# plain check (strict, as pytest's xfail(strict=True)).
xfail() {
  local name="$1" reason="$2"
  shift 3
  local before=$failed out
  out="$("$@" 2>&1)"
  local status=$?
  # Only an answer of the server ("An error occurred (...)") or a wrong result ("MISMATCH") is the
  # expected failure; anything else (no connection, a broken command) is a failure.
  if [ "$status" -ne 0 ] && [[ "$out" != *"An error occurred ("* && "$out" != *MISMATCH* ]]; then
    failed=$((before + 1))
    printf 'FAIL %s: failed, but not with an answer of the server:\n%s\n' "$name" "$out"
  elif [ "$status" -ne 0 ]; then
    xfailed=$((xfailed + 1))
    echo "xfail $name ($reason)"
    echo "  got: $(printf '%s\n' "$out" | sed '/^[[:space:]]*$/d' | tail -n 1)"
  else
    failed=$((before + 1))
    echo "FAIL $name: expected to fail ($reason) but passed; make it a plain check"
  fi
}

# pyq JSON EXPR: the Python expression EXPR over the parsed JSON `d`; a list prints space-separated.
pyq() {
  "$PY" -c 'import json,sys; d=json.loads(sys.argv[1] or "null"); r=eval(sys.argv[2]); print(" ".join(map(str, r)) if isinstance(r, list) else r)' "$1" "$2"
}

# json_eq NAME EXPECTED_JSON ACTUAL_JSON: compared as parsed JSON (key order does not matter).
json_eq() {
  local verdict
  verdict="$("$PY" -c 'import json,sys; print("ok" if json.loads(sys.argv[1]) == json.loads(sys.argv[2]) else "differs")' "$2" "$3" 2>&1)"
  if [ "$verdict" = ok ]; then check "$1" ok ok; else check "$1" "$2" "$3"; fi
}

table=my-table-name

# --- the table: objectId (partition key), relatedObjectId (sort key), on-demand -----------------
status="$(ddb create-table --table-name "$table" \
  --attribute-definitions AttributeName=objectId,AttributeType=S \
                          AttributeName=relatedObjectId,AttributeType=S \
  --key-schema AttributeName=objectId,KeyType=HASH AttributeName=relatedObjectId,KeyType=RANGE \
  --billing-mode PAY_PER_REQUEST --query TableDescription.TableStatus --output text)"
check "create-table reports CREATING" CREATING "$status"
ddb wait table-exists --table-name "$table"
check "wait table-exists" 0 $?
described="$(ddb describe-table --table-name "$table")"
check "describe-table: ACTIVE" ACTIVE "$(pyq "$described" 'd["Table"]["TableStatus"]')"
check "describe-table: key schema" "objectId:HASH relatedObjectId:RANGE" \
  "$(pyq "$described" '[k["AttributeName"] + ":" + k["KeyType"] for k in d["Table"]["KeySchema"]]')"
check "describe-table: on-demand" PAY_PER_REQUEST \
  "$(pyq "$described" 'd["Table"]["BillingModeSummary"]["BillingMode"]')"
check "list-tables" "$table" \
  "$(ddb list-tables --query "TableNames[?@=='$table'] | [0]" --output text)"
check_error "create-table again" 254 ResourceInUseException "Table already exists: $table" -- \
  ddb create-table --table-name "$table" \
    --attribute-definitions AttributeName=objectId,AttributeType=S \
    --key-schema AttributeName=objectId,KeyType=HASH --billing-mode PAY_PER_REQUEST

# --- the article's step 3 table: objects (relatedObjectId = objectId) and relations ------------
ddb put-item --table-name my-table-name --item '{"objectId": {"S": "CONTAINER_009998"}, "relatedObjectId": {"S": "CONTAINER_009998"}, "Operator": {"S": "TheBoatingCompany"}}'
check "put-item" 0 $?
ddb put-item --table-name my-table-name --item '{"objectId": {"S": "BOX_A03829"}, "relatedObjectId": {"S": "BOX_A03829"}, "WeightInKg": {"N": "21.20"}, "IsDangerous": {"BOOL": false}}'
check "put-item" 0 $?
unprocessed="$(ddb batch-write-item --request-items '{"my-table-name": [
  {"PutRequest": {"Item": {"objectId": {"S": "CONTAINER_009998"}, "relatedObjectId": {"S": "PALLET_B021002"}, "LinkedDatetime": {"S": "2022-07-19T17:59:58Z"}, "LinkedBy": {"S": "MyLoadingCompany"}, "LinkedAtLocation": {"S": "JPA.Docks"}}}},
  {"PutRequest": {"Item": {"objectId": {"S": "CONTAINER_009998"}, "relatedObjectId": {"S": "PALLET_B021003"}, "LinkedDatetime": {"S": "2022-07-19T18:01:58Z"}, "LinkedBy": {"S": "MyLoadingCompany"}, "LinkedAtLocation": {"S": "JPA.Docks"}}}},
  {"PutRequest": {"Item": {"objectId": {"S": "PALLET_B021002"}, "relatedObjectId": {"S": "PALLET_B021002"}, "Origin": {"S": "BR"}, "Destination": {"S": "DE"}}}},
  {"PutRequest": {"Item": {"objectId": {"S": "PALLET_B021002"}, "relatedObjectId": {"S": "BOX_A03828"}, "LinkedDatetime": {"S": "2022-07-19T10:13:12Z"}, "LinkedBy": {"S": "MyWarehouseCompany"}, "LinkedAtLocation": {"S": "TheWarehouseBuilding"}}}},
  {"PutRequest": {"Item": {"objectId": {"S": "PALLET_B021002"}, "relatedObjectId": {"S": "BOX_A03829"}, "LinkedDatetime": {"S": "2022-07-19T10:13:34Z"}, "LinkedBy": {"S": "MyWarehouseCompany"}, "LinkedAtLocation": {"S": "TheWarehouseBuilding"}}}},
  {"PutRequest": {"Item": {"objectId": {"S": "BOX_A03828"}, "relatedObjectId": {"S": "BOX_A03828"}, "WeightInKg": {"N": "20.56"}, "IsDangerous": {"BOOL": false}}}}]}')"
check "batch-write-item: nothing unprocessed" "{}" "$(pyq "$unprocessed" 'json.dumps(d["UnprocessedItems"])')"
check "8 put-item" 8 "$(ddb scan --table-name "$table" --select COUNT --query Count --output text)"

# --- the article's get-item (step 3), adapted only for the endpoint ----------------------------
item="$(ddb get-item \
--table-name my-table-name \
--key '{"objectId":{"S":"CONTAINER_009998"}, "relatedObjectId":{"S":"CONTAINER_009998"}}')"
# Returns all attributes of container 009998
json_eq "get-item: container 009998" \
  '{"Item": {"objectId": {"S": "CONTAINER_009998"}, "relatedObjectId": {"S": "CONTAINER_009998"}, "Operator": {"S": "TheBoatingCompany"}}}' \
  "$item"
check "get-item: box weight in canonical form" "21.2" \
  "$(ddb get-item --table-name "$table" \
       --key '{"objectId":{"S":"BOX_A03829"}, "relatedObjectId":{"S":"BOX_A03829"}}' \
       --query Item.WeightInKg.N --output text)"
check "get-item: a missing item prints nothing" "" \
  "$(ddb get-item --table-name "$table" \
       --key '{"objectId":{"S":"CONTAINER_000000"}, "relatedObjectId":{"S":"CONTAINER_000000"}}')"

# --- the article's query (steps 2 and 4): the pallets of container 009998 -----------------------
# As the article writes it, except for two typos that stop it from running in any shell: the
# line break after --key-condition-expression lacks its backslash, and the
# --expression-attribute-values JSON lacks its closing brace.
pallets="$(ddb query \
--table-name my-table-name \
--key-condition-expression "objectId = :objectId and begins_with(relatedObjectId, :prefix)" \
--expression-attribute-values '{":objectId":{"S":"CONTAINER_009998"}, ":prefix": {"S": "PALLET"}}')"
json_eq "query: pallets of container 009998" \
  '{"Items": [{"objectId": {"S": "CONTAINER_009998"}, "relatedObjectId": {"S": "PALLET_B021002"}, "LinkedDatetime": {"S": "2022-07-19T17:59:58Z"}, "LinkedBy": {"S": "MyLoadingCompany"}, "LinkedAtLocation": {"S": "JPA.Docks"}}, {"objectId": {"S": "CONTAINER_009998"}, "relatedObjectId": {"S": "PALLET_B021003"}, "LinkedDatetime": {"S": "2022-07-19T18:01:58Z"}, "LinkedBy": {"S": "MyLoadingCompany"}, "LinkedAtLocation": {"S": "JPA.Docks"}}], "Count": 2, "ScannedCount": 2}' \
  "$("$PY" -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps({k: d.get(k) for k in ("Items", "Count", "ScannedCount")}))' <<<"$pallets")"
check "query: the boxes on pallet B021002, newest link first" "BOX_A03829	BOX_A03828" \
  "$(ddb query --table-name "$table" \
       --key-condition-expression "objectId = :objectId and begins_with(relatedObjectId, :prefix)" \
       --expression-attribute-values '{":objectId":{"S":"PALLET_B021002"}, ":prefix": {"S": "BOX"}}' \
       --no-scan-index-forward --query 'Items[].relatedObjectId.S' --output text)"
check "query: consumed capacity (2 small items, eventually consistent)" "0.5" \
  "$(ddb query --table-name "$table" --key-condition-expression "objectId = :o" \
       --expression-attribute-values '{":o":{"S":"CONTAINER_009998"}}' \
       --return-consumed-capacity TOTAL --query ConsumedCapacity.CapacityUnits --output text)"
# The CLI pages by itself: --page-size 1 makes three requests, the output merges them.
check "query: auto-pagination with --page-size 1" "CONTAINER_009998 PALLET_B021002 PALLET_B021003" \
  "$(ddb query --table-name "$table" --key-condition-expression "objectId = :o" \
       --expression-attribute-values '{":o":{"S":"CONTAINER_009998"}}' --page-size 1 \
       --query 'Items[].relatedObjectId.S' --output json | tr -d '[]",\n' | xargs)"
next="$(ddb query --table-name "$table" --key-condition-expression "objectId = :o" \
          --expression-attribute-values '{":o":{"S":"CONTAINER_009998"}}' --page-size 2 --max-items 2 \
          --output json)"
next="$(pyq "$next" 'd.get("NextToken", "")')"
check "query: --max-items 2 returns a NextToken" yes "$([ -n "$next" ] && [ "$next" != None ] && echo yes)"
check "query: --starting-token resumes" "PALLET_B021003" \
  "$(ddb query --table-name "$table" --key-condition-expression "objectId = :o" \
       --expression-attribute-values '{":o":{"S":"CONTAINER_009998"}}' --starting-token "$next" \
       --query 'Items[].relatedObjectId.S' --output text)"
check_error "query: wrong key attribute" 254 ValidationException \
  "Query condition missed key schema element: objectId" -- \
  ddb query --table-name "$table" --key-condition-expression "relatedObjectId = :r" \
    --expression-attribute-values '{":r":{"S":"PALLET_B021002"}}'

# The article's reverse lookup (step 4) through its GSI reverse-lookup-index: the containers of a
# pallet. (The article writes --index; the option is --index-name.)
gsi_reverse_lookup() {
  ddb update-table --table-name "$table" \
    --attribute-definitions AttributeName=objectId,AttributeType=S \
                            AttributeName=relatedObjectId,AttributeType=S \
    --global-secondary-index-updates '[{"Create": {"IndexName": "reverse-lookup-index", "KeySchema": [{"AttributeName": "relatedObjectId", "KeyType": "HASH"}, {"AttributeName": "objectId", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "ALL"}}}]' \
    || return 1
  local got
  got="$(ddb query \
    --table-name my-table-name \
    --index-name reverse-lookup-index \
    --key-condition-expression "relatedObjectId = :relatedObjectId and begins_with(objectId, :prefix)" \
    --expression-attribute-values '{":relatedObjectId":{"S":"PALLET_B021002"}, ":prefix": {"S": "CONTAINER"}}' \
    --query 'Items[].objectId.S' --output text)" || return 1
  [ "$got" = CONTAINER_009998 ] || { echo "MISMATCH: got '$got'"; return 1; }
}
if gsi_reverse_lookup; then
  check "query: reverse-lookup-index (containers of pallet B021002)" ok ok
else
  check "query: reverse-lookup-index (containers of pallet B021002)" ok failed
fi

# "first perform a query like above, and then a BatchGetItem with the objectId's returned"
check "batch-get-item: the pallets' own items" "PALLET_B021002:BR>DE" \
  "$(ddb batch-get-item --request-items '{"my-table-name": {"Keys": [{"objectId": {"S": "PALLET_B021002"}, "relatedObjectId": {"S": "PALLET_B021002"}}, {"objectId": {"S": "PALLET_B021003"}, "relatedObjectId": {"S": "PALLET_B021003"}}]}}' \
       --query 'Responses."my-table-name"[].join(`:`, [objectId.S, join(`>`, [Origin.S, Destination.S])])' \
       --output text)"

# --- scan ----------------------------------------------------------------------------------------
check "scan: every item, in pages of 3" 8 \
  "$(ddb scan --table-name "$table" --page-size 3 --query 'length(Items)' --output json)"
check "scan: filter on an attribute" "BOX_A03828 BOX_A03829" \
  "$(ddb scan --table-name "$table" --filter-expression "IsDangerous = :f" \
       --expression-attribute-values '{":f":{"BOOL":false}}' \
       --query 'sort(Items[].objectId.S)' --output text | tr '\t' ' ')"
covered=0
for segment in 0 1 2; do
  n="$(ddb scan --table-name "$table" --segment "$segment" --total-segments 3 \
         --query 'length(Items)' --output text)"
  covered=$((covered + n))
done
check "scan: 3 parallel segments cover the table" 8 "$covered"
check "scan: consumed capacity of a 4-partition table (eventually consistent)" 2.0 \
  "$(ddb scan --table-name "$table" --select COUNT --return-consumed-capacity TOTAL \
       --query ConsumedCapacity.CapacityUnits --output text)"

# --- writes: conditions and return values ------------------------------------------------------
check_error "put-item: create-only on an existing object" 254 ConditionalCheckFailedException \
  "The conditional request failed" -- \
  ddb put-item --table-name "$table" \
    --item '{"objectId": {"S": "BOX_A03828"}, "relatedObjectId": {"S": "BOX_A03828"}}' \
    --condition-expression "attribute_not_exists(objectId)"
check_error "transact-write-items: create-only on an existing object" 254 \
  TransactionCanceledException \
  "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]" -- \
  ddb transact-write-items --transact-items '[
    {"Put": {"TableName": "my-table-name", "Item": {"objectId": {"S": "BOX_A09999"}, "relatedObjectId": {"S": "BOX_A09999"}}}},
    {"Put": {"TableName": "my-table-name", "Item": {"objectId": {"S": "BOX_A03828"}, "relatedObjectId": {"S": "BOX_A03828"}}, "ConditionExpression": "attribute_not_exists(objectId)"}}]'
check "transact-write-items: nothing of a cancelled transaction is written" "" \
  "$(ddb get-item --table-name "$table" \
       --key '{"objectId":{"S":"BOX_A09999"}, "relatedObjectId":{"S":"BOX_A09999"}}')"
check "update-item: UPDATED_NEW" "20.06" \
  "$(ddb update-item --table-name "$table" \
       --key '{"objectId":{"S":"BOX_A03828"}, "relatedObjectId":{"S":"BOX_A03828"}}' \
       --update-expression "SET WeightInKg = WeightInKg - :d" \
       --condition-expression "IsDangerous = :f" \
       --expression-attribute-values '{":d":{"N":"0.5"}, ":f":{"BOOL":false}}' \
       --return-values UPDATED_NEW --query Attributes.WeightInKg.N --output text)"
check "delete-item: ALL_OLD" "MyWarehouseCompany" \
  "$(ddb delete-item --table-name "$table" \
       --key '{"objectId":{"S":"PALLET_B021002"}, "relatedObjectId":{"S":"BOX_A03829"}}' \
       --return-values ALL_OLD --query Attributes.LinkedBy.S --output text)"
check "scan after the writes" "BOX_A03828 BOX_A03829 CONTAINER_009998 PALLET_B021002" \
  "$(ddb scan --table-name "$table" --filter-expression "objectId = relatedObjectId" \
       --query 'sort(Items[].objectId.S)' --output text | tr '\t' ' ')"

# --- errors --------------------------------------------------------------------------------------
check_error "get-item: key not matching the schema" 254 ValidationException \
  "The provided key element does not match the schema" -- \
  ddb get-item --table-name "$table" --key '{"objectId":{"S":"BOX_A03828"}}'
check_error "get-item: missing table" 254 ResourceNotFoundException \
  "Requested resource not found" -- \
  ddb get-item --table-name no-such-table --key '{"objectId":{"S":"x"}}'
check_error "describe-table: missing table" 254 ResourceNotFoundException \
  "Requested resource not found: Table: no-such-table not found" -- \
  ddb describe-table --table-name no-such-table

# --- Time to Live ---------------------------------------------------------------------------------
check "describe-time-to-live: off" DISABLED \
  "$(ddb describe-time-to-live --table-name "$table" \
       --query TimeToLiveDescription.TimeToLiveStatus --output text)"
check "update-time-to-live: the specification echoed" "expiresAt True" \
  "$(ddb update-time-to-live --table-name "$table" \
       --time-to-live-specification Enabled=true,AttributeName=expiresAt \
       --query '[TimeToLiveSpecification.AttributeName, TimeToLiveSpecification.Enabled]' \
       --output text | tr '\t' ' ')"
check "describe-time-to-live: on" "ENABLED expiresAt" \
  "$(ddb describe-time-to-live --table-name "$table" \
       --query '[TimeToLiveDescription.TimeToLiveStatus, TimeToLiveDescription.AttributeName]' \
       --output text | tr '\t' ' ')"
check_error "update-time-to-live: already enabled" 254 ValidationException \
  "TimeToLive is already enabled" -- \
  ddb update-time-to-live --table-name "$table" \
    --time-to-live-specification Enabled=true,AttributeName=expiresAt
check_error "update-time-to-live: within the hour" 254 ValidationException \
  "Time to live has been modified multiple times within a fixed interval" -- \
  ddb update-time-to-live --table-name "$table" \
    --time-to-live-specification Enabled=false,AttributeName=expiresAt

# --- streams: update-table --stream-specification, then aws dynamodbstreams -----------------------
streams() { "$AWS" dynamodbstreams --endpoint-url "$endpoint" "$@"; }
stream_arn="$(ddb update-table --table-name "$table" \
  --stream-specification StreamEnabled=true,StreamViewType=KEYS_ONLY \
  --query TableDescription.LatestStreamArn --output text)"
check "update-table --stream-specification: the stream's ARN" "ok" \
  "$(case "$stream_arn" in arn:aws:dynamodb:*:table/"$table"/stream/*) echo ok ;; *) echo "$stream_arn" ;; esac)"
ddb put-item --table-name "$table" \
  --item '{"objectId":{"S":"stream-1"},"relatedObjectId":{"S":"stream-1"}}' >/dev/null
check "dynamodbstreams list-streams" "$stream_arn" \
  "$(streams list-streams --table-name "$table" --query 'Streams[0].StreamArn' --output text)"
records=""
for shard in $(streams describe-stream --stream-arn "$stream_arn" \
                 --query 'StreamDescription.Shards[].ShardId' --output text); do
  iterator="$(streams get-shard-iterator --stream-arn "$stream_arn" --shard-id "$shard" \
                --shard-iterator-type TRIM_HORIZON --query ShardIterator --output text)"
  records+="$(streams get-records --shard-iterator "$iterator" \
                --query 'Records[].[eventName, dynamodb.Keys.objectId.S]' --output text)"
done
check "dynamodbstreams get-records: the put's record" "INSERT	stream-1" "$records"
check_error "update-table: a second stream" 254 ValidationException \
  "Table already has an enabled stream: TableName: $table" -- \
  ddb update-table --table-name "$table" \
    --stream-specification StreamEnabled=true,StreamViewType=NEW_IMAGE

# --- point-in-time recovery, exports and backups ----------------------------------------------------
table_arn="$(ddb describe-table --table-name "$table" --query Table.TableArn --output text)"
items="$(ddb scan --table-name "$table" --select COUNT --query Count --output text)"
check "describe-continuous-backups: recovery off at first" DISABLED \
  "$(ddb describe-continuous-backups --table-name "$table" --output text \
       --query ContinuousBackupsDescription.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus)"
check_error "export-table-to-point-in-time: recovery off" 254 \
  PointInTimeRecoveryUnavailableException \
  "Point in time recovery has not yet been enabled for this source table" -- \
  ddb export-table-to-point-in-time --table-arn "$table_arn" --s3-bucket exports
ddb update-continuous-backups --table-name "$table" \
  --point-in-time-recovery-specification PointInTimeRecoveryEnabled=true >/dev/null
export_arn="$(ddb export-table-to-point-in-time --table-arn "$table_arn" --s3-bucket exports \
                --s3-prefix cli --query ExportDescription.ExportArn --output text)"
export_status=IN_PROGRESS
for _ in $(seq 100); do
  export_status="$(ddb describe-export --export-arn "$export_arn" \
                     --query ExportDescription.ExportStatus --output text)"
  [ "$export_status" != IN_PROGRESS ] && break
  sleep 0.1
done
check "export-table-to-point-in-time, then describe-export: COMPLETED" COMPLETED "$export_status"
manifest="$scratch/s3/exports/$(ddb describe-export --export-arn "$export_arn" \
                                  --query ExportDescription.ExportManifest --output text)"
check "the export's manifest-summary.json: its item count" "$items" \
  "$("$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["itemCount"])' "$manifest")"
backup_arn="$(ddb create-backup --table-name "$table" --backup-name cli-backup \
                --query BackupDetails.BackupArn --output text)"
check "create-backup, then list-backups" "$backup_arn" \
  "$(ddb list-backups --table-name "$table" --query 'BackupSummaries[0].BackupArn' --output text)"
ddb restore-table-from-backup --target-table-name "$table-restored" \
  --backup-arn "$backup_arn" >/dev/null
check "restore-table-from-backup: every item" "$items" \
  "$(ddb scan --table-name "$table-restored" --select COUNT --query Count --output text)"
check "delete-backup: DELETED" DELETED \
  "$(ddb delete-backup --backup-arn "$backup_arn" \
       --query BackupDescription.BackupDetails.BackupStatus --output text)"
ddb delete-table --table-name "$table-restored" >/dev/null

# --- tags, table settings, PartiQL, limits -------------------------------------------------------
arn="$(ddb describe-table --table-name "$table" --query Table.TableArn --output text)"
ddb tag-resource --resource-arn "$arn" --tags Key=team,Value=cart Key=env,Value=test
check "tag-resource, then list-tags-of-resource" "env=test team=cart" \
  "$(ddb list-tags-of-resource --resource-arn "$arn" --output json |
       "$PY" -c 'import json,sys; print(" ".join(t["Key"]+"="+t["Value"] for t in json.load(sys.stdin)["Tags"]))')"
ddb untag-resource --resource-arn "$arn" --tag-keys env
check "untag-resource" "team" \
  "$(ddb list-tags-of-resource --resource-arn "$arn" --query 'Tags[].Key' --output text)"
check_error "tag-resource: aws: prefix" 254 ValidationException \
  "Tag Key cannot be prefixed with aws:, Key: aws:x" -- \
  ddb tag-resource --resource-arn "$arn" --tags Key=aws:x,Value=v
# (Debian 12's AWS CLI, 2.9, predates DeletionProtectionEnabled, OnDemandThroughput and
# WarmThroughput: tests/clients/python/test_table_settings.py sends them raw.)
ddb update-table --table-name "$table" --table-class STANDARD_INFREQUENT_ACCESS >/dev/null
check "update-table --table-class alone" STANDARD_INFREQUENT_ACCESS \
  "$(ddb describe-table --table-name "$table" --query Table.TableClassSummary.TableClass --output text)"
ddb execute-statement --statement "INSERT INTO \"$table\" VALUE {'objectId': 'cli-1', 'relatedObjectId': 'cli-2', 'n': 5}" >/dev/null
check "execute-statement: INSERT" 0 $?
check_error "execute-statement: INSERT of an existing key" 254 DuplicateItemException \
  "Duplicate primary key exists in table" -- \
  ddb execute-statement --statement "INSERT INTO \"$table\" VALUE {'objectId': 'cli-1', 'relatedObjectId': 'cli-2'}"
check "execute-statement: SELECT by key" 1 \
  "$(ddb execute-statement --statement "SELECT * FROM \"$table\" WHERE objectId = 'cli-1' AND relatedObjectId = 'cli-2'" \
       --query 'length(Items)' --output text 2>&1 | head -1)"
ddb execute-statement --statement "DELETE FROM \"$table\" WHERE objectId = 'cli-1' AND relatedObjectId = 'cli-2'" >/dev/null
check "execute-statement: DELETE" 0 $?
check "describe-limits" 40000 \
  "$(ddb describe-limits --query TableMaxReadCapacityUnits --output text)"
check "list-contributor-insights (simulation off: DISABLED)" DISABLED \
  "$(ddb list-contributor-insights --table-name "$table" \
       --query 'ContributorInsightsSummaries[0].ContributorInsightsStatus' --output text)"
check_error "an operation partstore does not serve is named" 254 UnknownOperationException \
  "Unknown operation exception: DescribeGlobalTable" -- \
  ddb describe-global-table --global-table-name "$table"

# --- delete-table ---------------------------------------------------------------------------------
check "delete-table reports DELETING" DELETING \
  "$(ddb delete-table --table-name "$table" --query TableDescription.TableStatus --output text)"
ddb wait table-not-exists --table-name "$table"
check "wait table-not-exists" 0 $?
check "list-tables after delete-table" "" \
  "$(ddb list-tables --query "TableNames[?@=='$table'] | [0]" --output text | grep -v '^None$')"

# --- capacity simulation: a server of its own, on a manual clock (capacity.sh) --------------------
stop_server
start_server "$partstore" --clock manual || exit 1
trap 'status=$?; stop_server; rm -rf "$scratch"; exit $status' EXIT
endpoint="$PARTSTORE_ENDPOINT"
source "$here/capacity.sh"

echo "awscli: $passed passed, $failed failed, $xfailed xfailed"
[ "$failed" -eq 0 ]
