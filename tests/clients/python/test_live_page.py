"""The live page's data (GET /ui/data, README "Capacity simulation") after load sent with boto3:
its shape for a table and its GSI, the hot key's partition and throttles, the counts /metrics
has, its parameters and errors, and Basic authentication under --auth. Each test starts its own
`partstore serve --clock manual`: nothing moves until the test moves the clock."""
import base64
import json
import os
import re
import tempfile
import urllib.error
import urllib.request

import pytest
from botocore.exceptions import ClientError

from conftest import make_client, partstore, serve


def get(url, headers=None):
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.headers, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


@pytest.fixture
def manual():
    with serve("--clock", "manual") as url:
        yield url


def test_the_data_after_a_hot_key_is_throttled(manual):
    client = make_client(manual)
    client.create_table(
        TableName="Live", BillingMode="PROVISIONED",
        ProvisionedThroughput={"ReadCapacityUnits": 10, "WriteCapacityUnits": 100},
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "g", "AttributeType": "S"}],
        GlobalSecondaryIndexes=[{
            "IndexName": "ByG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "KEYS_ONLY"},
            "ProvisionedThroughput": {"ReadCapacityUnits": 10, "WriteCapacityUnits": 1000}}])
    partstore(manual, "AdvanceClock", {"Seconds": 1})
    throttled = 0
    for i in range(300):
        try:
            client.put_item(TableName="Live", Item={"pk": {"S": "hot"}, "g": {"S": f"g{i}"}})
        except ClientError as error:
            assert error.response["Error"]["Code"] == "ProvisionedThroughputExceededException"
            throttled += 1
    assert throttled > 0
    partstore(manual, "AdvanceClock", {"Seconds": 1})

    status, headers, body = get(manual + "/ui/data?window=10")
    assert status == 200 and headers["Content-Type"] == "application/json"
    assert headers["Cache-Control"] == "no-store"
    data = json.loads(body)
    assert data["capacity"] is True and data["now"] == 2 and data["window_seconds"] == 10
    assert (data["tables_total"], data["tables_shown"]) == (1, 1)
    table, index = data["resources"]
    assert (table["table"], "index" in table) == ("Live", False)
    assert (index["table"], index["index"]) == ("Live", "ByG")
    assert table["billing_mode"] == "PROVISIONED"
    assert table["provisioned"] == {"read": 10, "write": 100}
    assert set(table) >= {"partitions", "splits", "series", "throttles", "top_keys",
                          "recent_throttles", "throttled_requests"}
    [partition] = table["partitions"]
    assert set(partition) == {"id", "read_units", "write_units", "read_limit", "write_limit",
                              "read_share", "write_share", "throttled", "items", "bytes"}
    assert partition["write_limit"] == 100 and partition["write_share"] >= 1
    assert partition["throttled"] == throttled
    assert [len(table["series"][k]) for k in ("read", "write", "throttled")] == [10, 10, 10]
    assert table["series"]["throttled"][-1] == throttled
    assert [t["reason"] for t in table["throttles"]] == ["TableWriteProvisionedThroughputExceeded"]
    assert table["recent_throttles"][-1]["key"] == {"pk": {"S": "hot"}}
    assert table["throttled_requests"] == {"read": 0, "write": throttled}
    metrics = get(manual + "/metrics")[2]
    assert re.search(r'^partstore_table_throttled_requests_total\{table="Live",'
                     r'operation="write"\} %d$' % throttled, metrics, re.M)
    # Only that table; an unknown table; a bad parameter.
    assert json.loads(get(manual + "/ui/data?table=Live")[2])["tables_shown"] == 1
    status, _, body = get(manual + "/ui/data?table=Nope")
    assert status == 400 and json.loads(body)["__type"].endswith("ResourceNotFoundException")
    status, _, body = get(manual + "/ui/data?window=9999")
    assert status == 400 and json.loads(body)["__type"].endswith("ValidationException")
    # The page itself.
    status, headers, body = get(manual + "/ui")
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert "/ui/data" in body


def test_without_capacity_the_data_says_so():
    with serve() as url:
        data = json.loads(get(url + "/ui/data")[2])
        assert data["capacity"] is False and data["resources"] == []


def test_under_auth_the_page_asks_for_a_key():
    with tempfile.TemporaryDirectory() as scratch:
        keys = os.path.join(scratch, "keys")
        with open(keys, "w") as out:
            out.write("AKIDPARTSTORETEST partstore-test-secret\n")
        with serve("--auth", "sigv4", "--access-keys", keys, "--capacity", "on") as url:
            status, headers, _ = get(url + "/ui/data")
            assert status == 401 and headers["WWW-Authenticate"].startswith("Basic")
            token = base64.b64encode(b"AKIDPARTSTORETEST:partstore-test-secret").decode()
            status, _, body = get(url + "/ui/data", {"Authorization": "Basic " + token})
            assert status == 200 and json.loads(body)["capacity"] is True
            wrong = base64.b64encode(b"AKIDPARTSTORETEST:nope").decode()
            assert get(url + "/ui", {"Authorization": "Basic " + wrong})[0] == 401


def test_ui_off_serves_no_page():
    with serve("--ui", "off", "--capacity", "on") as url:
        status, _, _ = get(url + "/ui/data")
        assert status == 400  # not a page: DynamoDB's answer to an unknown request
