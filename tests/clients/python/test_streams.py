"""DynamoDB Streams through boto3's `dynamodbstreams` client on the same endpoint
(partstore/streams.h): every record of a mixed workload (puts, updates, deletes, a batch, a
transaction, a TTL deletion) read back in order per key, shard lineage across a partition split,
the StreamSpecification rules of UpdateTable, and the errors GetShardIterator and GetRecords
answer with."""
import time

import pytest
from botocore.exceptions import ClientError

from conftest import _config, _session, make_client, partstore, serve


@pytest.fixture(scope="module")
def manual():
    with serve("--clock", "manual") as url:
        yield url


def streams_client(url):
    return _session().client("dynamodbstreams", endpoint_url=url, config=_config())


def _error(call, **kwargs):
    with pytest.raises(ClientError) as error:
        call(**kwargs)
    return error.value.response["Error"]


def _table(client, name, view="NEW_AND_OLD_IMAGES", **kwargs):
    args = dict(TableName=name, BillingMode="PAY_PER_REQUEST",
                KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"},
                           {"AttributeName": "SK", "KeyType": "RANGE"}],
                AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"},
                                      {"AttributeName": "SK", "AttributeType": "S"}])
    if view:
        args["StreamSpecification"] = {"StreamEnabled": True, "StreamViewType": view}
    args.update(kwargs)
    return client.create_table(**args)["TableDescription"]


def read_all(streams, arn):
    """Every record of the stream: shards parents first, each read to its end (or to its newest
    record, when open)."""
    shards, start = [], None
    while True:
        args = {"StreamArn": arn, "Limit": 100}
        if start:
            args["ExclusiveStartShardId"] = start
        described = streams.describe_stream(**args)["StreamDescription"]
        shards += described["Shards"]
        start = described.get("LastEvaluatedShardId")
        if not start:
            break
    done, records = set(), []
    while len(done) < len(shards):
        for shard in shards:
            parent = shard.get("ParentShardId")
            if shard["ShardId"] in done or (parent and parent not in done and
                                            any(s["ShardId"] == parent for s in shards)):
                continue
            iterator = streams.get_shard_iterator(
                StreamArn=arn, ShardId=shard["ShardId"],
                ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
            last = None
            while iterator:
                page = streams.get_records(ShardIterator=iterator)
                for record in page["Records"]:
                    sequence = int(record["dynamodb"]["SequenceNumber"])
                    assert last is None or sequence > last
                    last = sequence
                records.append((shard["ShardId"], page["Records"]))
                if not page["Records"]:
                    break
                iterator = page.get("NextShardIterator")
            done.add(shard["ShardId"])
    return shards, [r for _, page in records for r in page]


def test_a_mixed_workload_reads_back_in_order(manual):
    client, streams = make_client(manual), streams_client(manual)
    described = _table(client, "streams_mixed")
    arn = described["LatestStreamArn"]
    assert described["StreamSpecification"] == {"StreamEnabled": True,
                                                "StreamViewType": "NEW_AND_OLD_IMAGES"}
    assert arn == described["TableArn"] + "/stream/" + described["LatestStreamLabel"]
    client.update_time_to_live(TableName="streams_mixed",
                               TimeToLiveSpecification={"AttributeName": "exp", "Enabled": True})
    key = lambda pk: {"PK": {"S": pk}, "SK": {"S": "1"}}
    put = lambda pk, **attrs: client.put_item(
        TableName="streams_mixed", Item={**key(pk), **{k: {"N": str(v)} for k, v in attrs.items()}})
    put("a", v=1)
    put("a", v=1)  # identical: no record
    client.update_item(TableName="streams_mixed", Key=key("a"), UpdateExpression="SET v = :v",
                       ExpressionAttributeValues={":v": {"N": "2"}})
    client.update_item(TableName="streams_mixed", Key=key("a"), UpdateExpression="SET v = :v",
                       ExpressionAttributeValues={":v": {"N": "2"}})  # no change: no record
    client.delete_item(TableName="streams_mixed", Key=key("missing"))  # nothing to delete
    expired = str(int(time.time()) - 60)  # epoch time on the manual clock starts at the wall's
    client.batch_write_item(RequestItems={"streams_mixed": [
        {"PutRequest": {"Item": {**key("b"), "v": {"N": "1"}}}},
        {"PutRequest": {"Item": {**key("c"), "exp": {"N": expired}}}},
    ]})
    client.transact_write_items(TransactItems=[
        {"Delete": {"TableName": "streams_mixed", "Key": key("a")}},
        {"Put": {"TableName": "streams_mixed", "Item": {**key("d"), "v": {"N": "9"}}}},
    ])
    partstore(manual, "AdvanceClock", {"Seconds": 1})  # the sweep deletes c
    listed = streams.list_streams(TableName="streams_mixed")["Streams"]
    assert [s["StreamArn"] for s in listed] == [arn]
    assert listed[0]["TableName"] == "streams_mixed"
    _, records = read_all(streams, arn)
    by_key = {}
    for r in records:
        assert r["eventSource"] == "aws:dynamodb"
        assert r["awsRegion"] == "us-east-1"
        assert r["dynamodb"]["StreamViewType"] == "NEW_AND_OLD_IMAGES"
        assert r["dynamodb"]["SizeBytes"] > 0
        by_key.setdefault(r["dynamodb"]["Keys"]["PK"]["S"], []).append(r)
    events = {k: [r["eventName"] for r in v] for k, v in by_key.items()}
    assert events == {"a": ["INSERT", "MODIFY", "REMOVE"], "b": ["INSERT"],
                      "c": ["INSERT", "REMOVE"], "d": ["INSERT"]}
    a = by_key["a"]
    assert "OldImage" not in a[0]["dynamodb"] and a[0]["dynamodb"]["NewImage"]["v"] == {"N": "1"}
    assert a[1]["dynamodb"]["OldImage"]["v"] == {"N": "1"}
    assert a[1]["dynamodb"]["NewImage"]["v"] == {"N": "2"}
    assert "NewImage" not in a[2]["dynamodb"] and a[2]["dynamodb"]["OldImage"]["v"] == {"N": "2"}
    assert "userIdentity" not in a[2]
    assert by_key["c"][1]["userIdentity"] == {"PrincipalId": "dynamodb.amazonaws.com",
                                              "Type": "Service"}
    assert len({r["eventID"] for r in records}) == len(records)


def test_a_split_closes_the_shard_and_opens_two_children(manual):
    client, streams = make_client(manual), streams_client(manual)
    described = _table(client, "streams_split", view="KEYS_ONLY", BillingMode="PROVISIONED",
                       ProvisionedThroughput={"ReadCapacityUnits": 100,
                                              "WriteCapacityUnits": 500})
    arn = described["LatestStreamArn"]
    for i in range(10):
        client.put_item(TableName="streams_split",
                        Item={"PK": {"S": f"k{i}"}, "SK": {"S": "before"}})
    partstore(manual, "AdvanceClock", {"Seconds": 1})
    client.update_table(TableName="streams_split",
                        ProvisionedThroughput={"ReadCapacityUnits": 100,
                                               "WriteCapacityUnits": 1500})
    for i in range(10):
        client.put_item(TableName="streams_split",
                        Item={"PK": {"S": f"k{i}"}, "SK": {"S": "after"}})
    shards, records = read_all(streams, arn)
    assert len(shards) == 3
    parent = shards[0]
    assert "EndingSequenceNumber" in parent["SequenceNumberRange"]
    assert [s.get("ParentShardId") for s in shards[1:]] == [parent["ShardId"]] * 2
    per_key = {}
    for r in records:
        per_key.setdefault(r["dynamodb"]["Keys"]["PK"]["S"], []).append(
            r["dynamodb"]["Keys"]["SK"]["S"])
    assert per_key == {f"k{i}": ["before", "after"] for i in range(10)}


def test_stream_specification_rules_and_errors(manual):
    client, streams = make_client(manual), streams_client(manual)
    _table(client, "streams_rules", view=None)
    update = client.update_table
    assert _error(update, TableName="streams_rules",
                  StreamSpecification={"StreamEnabled": False}) == {
        "Code": "ValidationException",
        "Message": "Table has no stream to disable: TableName: streams_rules"}
    assert _error(update, TableName="streams_rules",
                  StreamSpecification={"StreamEnabled": True})["Message"] == (
        "One or more parameter values were invalid: If stream is being enabled then "
        "UpdateViewType is required")
    enabled = update(TableName="streams_rules",
                     StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
    arn = enabled["TableDescription"]["LatestStreamArn"]
    assert _error(update, TableName="streams_rules",
                  StreamSpecification={"StreamEnabled": True,
                                       "StreamViewType": "KEYS_ONLY"})["Message"] == (
        "Table already has an enabled stream: TableName: streams_rules")
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
    assert _error(streams.get_shard_iterator, StreamArn=arn, ShardId=shard,
                  ShardIteratorType="AT_SEQUENCE_NUMBER")["Code"] == "ValidationException"
    assert _error(streams.get_records, ShardIterator="garbage")["Code"] == "ValidationException"
    assert _error(streams.describe_stream, StreamArn=arn + "x")["Code"] == (
        "ResourceNotFoundException")
    iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                          ShardIteratorType="LATEST")["ShardIterator"]
    partstore(manual, "AdvanceClock", {"Seconds": 15 * 60 + 1})
    assert _error(streams.get_records, ShardIterator=iterator) == {
        "Code": "ExpiredIteratorException",
        "Message": "The provided iterator exceeds the maximum age allowed."}
    update(TableName="streams_rules", StreamSpecification={"StreamEnabled": False})
    described = client.describe_table(TableName="streams_rules")["Table"]
    assert "StreamSpecification" not in described
    assert described["LatestStreamArn"] == arn
    assert streams.describe_stream(StreamArn=arn)["StreamDescription"]["StreamStatus"] == (
        "DISABLED")


def test_streams_errors_are_dynamodbs(manual):
    # DynamoDB Streams' answers to ARNs, shards and pages that are not there (issue 48, item 8):
    # a stream ARN that is not one, "Invalid StreamArn" (the aws-sdk-js integration test and a
    # live log); a well-formed one of no stream, ResourceNotFoundException naming it; a shard that
    # is not there, "Shard does not exist" (a live log); DescribeStream after a shard id past
    # every shard, no shards and no error (Alternator's test, run against DynamoDB).
    client, streams = make_client(manual), streams_client(manual)
    arn = _table(client, "streams_errors", view="KEYS_ONLY")["LatestStreamArn"]
    for call, args in ((streams.describe_stream, {}),
                       (streams.get_shard_iterator,
                        {"ShardId": "shardId-00000000000000000001-00000000",
                         "ShardIteratorType": "LATEST"})):
        for bad in ("arn:aws:dynamodb:us-east-1:000000000000:table/x",
                    "x" * 51):
            assert _error(call, StreamArn=bad, **args) == {
                "Code": "ValidationException", "Message": "Invalid StreamArn"}, (call, bad)
    assert _error(streams.list_streams, ExclusiveStartStreamArn="y" * 47) == {
        "Code": "ValidationException", "Message": "Invalid StreamArn"}
    missing = arn.replace("streams_errors", "streams_missing")
    assert _error(streams.describe_stream, StreamArn=missing) == {
        "Code": "ResourceNotFoundException",
        "Message": f"Requested resource not found: Stream: {missing} not found"}
    assert _error(streams.get_shard_iterator, StreamArn=arn,
                  ShardId="shardId-00000000000000000999-00000000",
                  ShardIteratorType="TRIM_HORIZON") == {
        "Code": "ResourceNotFoundException",
        "Message": "Requested resource not found: Shard does not exist"}
    described = streams.describe_stream(StreamArn=arn,
                                        ExclusiveStartShardId="z" * 40)["StreamDescription"]
    assert described["Shards"] == [] and "LastEvaluatedShardId" not in described
    # ListStreams: a page that is not full has no LastEvaluatedStreamArn.
    listed = streams.list_streams(TableName="streams_errors")
    assert [s["StreamArn"] for s in listed["Streams"]] == [arn]
    assert "LastEvaluatedStreamArn" not in listed
