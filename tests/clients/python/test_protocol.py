"""What the wire carries through boto3: Unicode, key order by type, big bodies, many connections;
and a body over the limit sent whole by Python's http.client."""
import http.client
import json
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

import pytest
from botocore.exceptions import ClientError

from conftest import create_table, unique_name


def test_unicode_round_trip_and_string_key_order(client, table_name):
    # botocore sends JSON with \\u escapes (surrogate pairs for the emoji); DynamoDB orders string
    # sort keys by their UTF-8 bytes.
    sort_keys = ["zz", "é", "a", "😀", "B", "日本", "\u007f", "a\u0000b"]
    for sk in sort_keys:
        client.put_item(TableName=table_name, Item={"PK": {"S": "ü"}, "SK": {"S": sk},
                                                     "text": {"S": f"«{sk}» ✓"}})
    items = client.query(TableName=table_name, KeyConditionExpression="PK = :p",
                         ExpressionAttributeValues={":p": {"S": "ü"}})["Items"]
    assert [i["SK"]["S"] for i in items] == sorted(sort_keys, key=lambda s: s.encode("utf-8"))
    assert items[-1]["text"]["S"] == "«😀» ✓"
    got = client.get_item(TableName=table_name, Key={"PK": {"S": "ü"}, "SK": {"S": "日本"}})
    assert got["Item"]["text"]["S"] == "«日本» ✓"


def test_number_and_binary_sort_keys(client):
    numbers = unique_name("num")
    binary = unique_name("bin")
    create_table(client, numbers, hash_key=("h", "S"), range_key=("n", "N"))
    create_table(client, binary, hash_key=("h", "B"), range_key=("b", "B"))
    try:
        values = ["10", "-1", "0", "1E-5", "2", "1E+10", "-0.5", "99999999999999999999999999999999999999"]
        for v in values:
            client.put_item(TableName=numbers, Item={"h": {"S": "x"}, "n": {"N": v}})
        got = client.query(TableName=numbers, KeyConditionExpression="h = :h AND n BETWEEN :a AND :b",
                           ExpressionAttributeValues={":h": {"S": "x"}, ":a": {"N": "-1"},
                                                      ":b": {"N": "1e10"}})["Items"]
        assert [i["n"]["N"] for i in got] == ["-1", "-0.5", "0", "0.00001", "2", "10",
                                              "10000000000"]

        blobs = [b"\xff", b"\x00", b"\x7f\x80", b"\x80", b"\x00\x00", b"abc"]
        for blob in blobs:
            client.put_item(TableName=binary, Item={"h": {"B": b"\x01\x02"}, "b": {"B": blob}})
        got = client.query(TableName=binary, KeyConditionExpression="h = :h",
                           ExpressionAttributeValues={":h": {"B": b"\x01\x02"}},
                           ScanIndexForward=False)["Items"]
        # Unsigned byte order, descending; botocore decodes base64 into bytes.
        assert [i["b"]["B"] for i in got] == sorted(blobs, reverse=True)
    finally:
        client.delete_table(TableName=numbers)
        client.delete_table(TableName=binary)


def test_item_size_limit_and_big_requests(client, table):
    # 400 KB = 409,600 bytes including attribute names: PK "PK"+"big" (5 bytes) + SK "SK"+"x"
    # (3 bytes) + "p" (1 byte) + value.
    limit_value = 409600 - (2 + 3) - (2 + 1) - 1
    client.put_item(TableName=table.name, Item={"PK": {"S": "big"}, "SK": {"S": "x"},
                                                "p": {"S": "v" * limit_value}},
                    ReturnConsumedCapacity="TOTAL")
    with pytest.raises(ClientError) as error:
        client.put_item(TableName=table.name, Item={"PK": {"S": "big"}, "SK": {"S": "x"},
                                                    "p": {"S": "v" * (limit_value + 1)}})
    assert error.value.response["Error"]["Code"] == "ValidationException"
    assert error.value.response["Error"]["Message"] == \
        "Item size has exceeded the maximum allowed size"

    # A ~9.5 MB BatchWriteItem request, then Scan pages of at most ~1 MB each.
    payload = "w" * (380 * 1024)
    response = client.batch_write_item(RequestItems={table.name: [
        {"PutRequest": {"Item": {"PK": {"S": f"bulk{n}"}, "SK": {"S": "x"}, "p": {"S": payload}}}}
        for n in range(25)]}, ReturnConsumedCapacity="TOTAL")
    assert response["UnprocessedItems"] == {}
    assert response["ConsumedCapacity"][0]["CapacityUnits"] == 25 * 381.0
    pages = list(client.get_paginator("scan").paginate(TableName=table.name))
    assert sum(p["Count"] for p in pages) == 26
    assert len(pages) >= 8
    assert all(p["Count"] <= 3 for p in pages)
    got = client.get_item(TableName=table.name, Key={"PK": {"S": "bulk7"}, "SK": {"S": "x"}})
    assert got["Item"]["p"]["S"] == payload


def test_a_body_over_the_limit_sent_whole_gets_its_413(endpoint):
    """Python's http.client sends the whole body before it reads the answer: it must read the
    413 (16 MB limit, 20 MB over it), not a broken pipe or a reset (tools/server/server.cc,
    Connection::Drain)."""
    url = urllib.parse.urlparse(endpoint)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=20)
    body = b" " * ((16 + 20) << 20)
    conn.request("POST", "/", body=body, headers={
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": "DynamoDB_20120810.PutItem"})
    response = conn.getresponse()
    assert response.status == 413
    assert json.loads(response.read()) == {
        "__type": "com.amazon.coral.validate#ValidationException",
        "message": "Request size exceeded 16777216 bytes"}
    assert response.getheader("Connection") == "close"
    conn.close()


def test_concurrent_atomic_counters(endpoint, client, table_name):
    # 8 threads, each with its own connection pool, 40 ADDs each on the same item, plus
    # conditional create-only puts racing on one key: exactly one wins.
    import boto3
    import botocore.config

    def worker(n):
        c = boto3.session.Session().client(
            "dynamodb", endpoint_url=endpoint, region_name="us-east-1",
            aws_access_key_id="x", aws_secret_access_key="y",
            config=botocore.config.Config(retries={"max_attempts": 1}))
        for _ in range(40):
            c.update_item(TableName=table_name, Key={"PK": {"S": "counter"}, "SK": {"S": "c"}},
                          UpdateExpression="ADD hits :one SET #w = list_append(if_not_exists(#w, :e), :me)",
                          ExpressionAttributeNames={"#w": "who"},
                          ExpressionAttributeValues={":one": {"N": "1"}, ":e": {"L": []},
                                                     ":me": {"L": [{"N": str(n)}]}})
        try:
            c.put_item(TableName=table_name, Item={"PK": {"S": "winner"}, "SK": {"S": "w"},
                                                   "n": {"N": str(n)}},
                       ConditionExpression="attribute_not_exists(PK)")
            return 1
        except c.exceptions.ConditionalCheckFailedException:
            return 0

    with ThreadPoolExecutor(8) as pool:
        wins = sum(pool.map(worker, range(8)))
    assert wins == 1
    item = client.get_item(TableName=table_name, Key={"PK": {"S": "counter"}, "SK": {"S": "c"}},
                           ConsistentRead=True)["Item"]
    assert item["hits"] == {"N": "320"}
    assert len(item["who"]["L"]) == 320


def test_transactions(client, table_name):
    # (test_transactions.py has the details: cancellation reasons, tokens, capacity.)
    client.transact_write_items(TransactItems=[
        {"Put": {"TableName": table_name, "Item": {"PK": {"S": "t"}, "SK": {"S": "1"}}}},
        {"Put": {"TableName": table_name, "Item": {"PK": {"S": "t"}, "SK": {"S": "2"}}}}])
    got = client.transact_get_items(TransactItems=[
        {"Get": {"TableName": table_name, "Key": {"PK": {"S": "t"}, "SK": {"S": "1"}}}}])
    assert got["Responses"][0]["Item"] == {"PK": {"S": "t"}, "SK": {"S": "1"}}
