"""Write sharding over the wire: the Partstore_20261120.<Op> extensions (README.md, "Write
sharding") next to boto3's plain operations on the same table.

The extensions are plain JSON POSTs: they need no signature. Items written through a policy are
ordinary items to boto3 (physical keys, the logical key in LogicalPK); ShardedQuery pages through
all shards with one LastEvaluatedKey.
"""
import json
import urllib.error

import pytest

from conftest import not_through_cache, partstore


@not_through_cache("Partstore.<Op> (write sharding) are the engine's")
def test_sharded_writes_are_plain_items_and_sharded_query_pages_through_every_shard(
        endpoint, client, table_name):
    policy = partstore(endpoint, "PutShardingPolicy",
                       {"TableName": table_name, "Key": "USER#celebrity", "ShardCount": 5})
    assert policy["ShardingPolicy"]["SuffixFormat"] == "#SHARD<n>"
    shards = set()
    for i in range(30):
        put = partstore(endpoint, "ShardedPutItem", {"TableName": table_name, "Item": {
            "PK": {"S": "USER#celebrity"}, "SK": {"S": f"FOLLOWER#{i:02d}"}}})
        shards.add(put["Shard"])
    assert len(shards) > 1

    # boto3 sees the physical items.
    scanned = client.scan(TableName=table_name)["Items"]
    assert len(scanned) == 30
    assert all(item["PK"]["S"].startswith("USER#celebrity#SHARD") for item in scanned)
    assert all(item["LogicalPK"] == {"S": "USER#celebrity"} for item in scanned)

    # Pages of 7 through the merged stream: every follower once, in sort-key order, backward too.
    for forward in (True, False):
        seen, start = [], None
        while True:
            body = {"TableName": table_name, "KeyConditionExpression": "PK = :pk",
                    "ExpressionAttributeValues": {":pk": {"S": "USER#celebrity"}}, "Limit": 7,
                    "ScanIndexForward": forward}
            if start:
                body["ExclusiveStartKey"] = start
            page = partstore(endpoint, "ShardedQuery", body)
            assert page["ShardsQueried"] == 5
            seen += [item["SK"]["S"] for item in page["Items"]]
            assert all(item["PK"] == {"S": "USER#celebrity"} for item in page["Items"])
            start = page.get("LastEvaluatedKey")
            if not start:
                break
        want = [f"FOLLOWER#{i:02d}" for i in range(30)]
        assert seen == (want if forward else want[::-1])

    got = partstore(endpoint, "ShardedGetItem", {"TableName": table_name, "Key": {
        "PK": {"S": "USER#celebrity"}, "SK": {"S": "FOLLOWER#07"}}})
    assert got["ShardsTouched"] == 5
    assert got["Item"]["PK"] == {"S": "USER#celebrity"}


@not_through_cache("Partstore.<Op> (write sharding) are the engine's")
def test_extension_errors_are_dynamodb_error_bodies(endpoint, table_name):
    with pytest.raises(urllib.error.HTTPError) as error:
        partstore(endpoint, "PutShardingPolicy",
                  {"TableName": table_name, "Key": "K", "ShardCount": 0})
    assert error.value.code == 400
    body = json.load(error.value)
    assert body["__type"] == "com.amazon.coral.validate#ValidationException"
    assert body["message"] == "ShardCount must be between 1 and 1000"
