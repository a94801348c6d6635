"""The memory limit through boto3 (`partstore serve --memory-limit`, README.md "Memory limit"):
the reject policy refuses a write with MemoryLimitExceededException and keeps the data, the evict
policy keeps the store within the limit, and Partstore.DescribeMemory and /metrics report it.
Each test starts its own server.
"""
import os
import subprocess
import urllib.request

import pytest
from botocore.exceptions import ClientError

from conftest import make_client, partstore, serve

# Text that takes memory: a stored item writes one byte repeated by its length.
PAYLOAD = ("abcdefghijklmnopqrstuvwxyz" * 80)[:2000]


def create(client, name):
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                   {"AttributeName": "sk", "KeyType": "RANGE"}],
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                              {"AttributeName": "sk", "AttributeType": "S"}])


def put(client, pk, sk):
    client.put_item(TableName="cache", Item={"pk": {"S": pk}, "sk": {"S": sk},
                                             "v": {"S": PAYLOAD}})


def test_reject_refuses_the_write_and_keeps_the_data():
    with serve("--memory-limit", "1MiB") as url:
        client = make_client(url)
        create(client, "cache")
        written = 0
        with pytest.raises(ClientError) as refused:
            for i in range(2000):
                put(client, f"k{i}", "a")
                written += 1
        error = refused.value.response["Error"]
        assert error["Code"] == "MemoryLimitExceededException"
        assert error["Message"].startswith("Memory limit exceeded")
        assert refused.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400
        assert client.scan(TableName="cache", Select="COUNT")["Count"] == written
        memory = partstore(url, "DescribeMemory", {})
        assert memory["LimitBytes"] == 1 << 20
        assert memory["Policy"] == "REJECT"
        assert 0.9 * (1 << 20) < memory["UsedBytes"] <= 1 << 20
        assert memory["RejectedWrites"] == 1
        # A delete makes room.
        client.delete_item(TableName="cache", Key={"pk": {"S": "k0"}, "sk": {"S": "a"}})
        put(client, "k0", "a")


def test_evict_keeps_the_store_within_the_limit():
    with serve("--memory-limit", "1MiB", "--memory-policy", "evict") as url:
        client = make_client(url)
        create(client, "cache")
        for i in range(1500):
            put(client, f"k{i}", "a")
        memory = partstore(url, "DescribeMemory", {})
        assert memory["Policy"] == "EVICT"
        assert memory["UsedBytes"] <= 1 << 20
        [table] = memory["Tables"]
        assert table["TableName"] == "cache"
        assert table["EvictedItems"] > 500
        left = client.scan(TableName="cache", Select="COUNT")["Count"]
        assert left + table["EvictedItems"] == 1500
        with urllib.request.urlopen(f"{url}/metrics") as response:
            metrics = response.read().decode()
        assert f'partstore_evicted_items_total{{table="cache"}} {table["EvictedItems"]}' in metrics
        assert "partstore_memory_limit_bytes 1048576" in metrics


@pytest.mark.parametrize("args,message", [
    (["--memory-limit", "1000"], "memory.limit_bytes"),
    (["--memory-policy", "lru"], "--memory-policy"),
])
def test_bad_options_are_refused(args, message):
    done = subprocess.run([os.environ["PARTSTORE_BIN"], "serve", "--port", "0", *args],
                          capture_output=True, text=True, timeout=20, check=False)
    assert done.returncode != 0
    assert message in done.stderr
