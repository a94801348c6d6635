"""Persistence of `partstore serve --data-dir DIR` (partstore/snapshot.h): the tables survive a
restart through DIR/partstore.snapshot, written on SIGTERM, every --snapshot-every seconds and on
Partstore.CreateSnapshot; with --wal every change is also logged and replayed, and a SIGKILL
loses nothing acknowledged under fsync=always; a damaged snapshot stops the start with an error
naming the file and stays as it was; a damaged last log record is dropped, said and counted. Each
test starts its own servers.
"""
import json
import os
import random
import select
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request

import pytest

from conftest import START_LINE, make_client, not_through_cache, partstore, serve


def create(client, name):
    client.create_table(TableName=name,
                        AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"},
                                              {"AttributeName": "g", "AttributeType": "S"}],
                        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}],
                        GlobalSecondaryIndexes=[{
                            "IndexName": "ByG",
                            "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                            "Projection": {"ProjectionType": "ALL"}}],
                        BillingMode="PAY_PER_REQUEST")


def put(client, name, i):
    client.put_item(TableName=name, Item={"PK": {"S": f"k{i}"}, "g": {"S": "all"},
                                          "n": {"N": str(i)}, "b": {"B": b"\x00\x01"},
                                          "l": {"L": [{"NULL": True}, {"BOOL": False}]}})


def count(client, name):
    return client.query(TableName=name, IndexName="ByG", KeyConditionExpression="g = :g",
                        ExpressionAttributeValues={":g": {"S": "all"}}, Select="COUNT")["Count"]


def start_killable(*args):
    proc = subprocess.Popen([os.environ["PARTSTORE_BIN"], "serve", "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ready, _, _ = select.select([proc.stdout], [], [], 20)
    line = proc.stdout.readline().rstrip("\n") if ready else ""
    match = START_LINE.match(line)
    assert match, (line, proc.poll())
    return proc, match.group(1)


def test_tables_survive_a_graceful_restart(tmp_path):
    data = str(tmp_path / "data")
    with serve("--data-dir", data) as endpoint:
        client = make_client(endpoint)
        create(client, "Kept")
        for i in range(50):
            put(client, "Kept", i)
    assert os.path.exists(os.path.join(data, "partstore.snapshot"))
    with serve("--data-dir", data) as endpoint:
        client = make_client(endpoint)
        assert client.list_tables()["TableNames"] == ["Kept"]
        item = client.get_item(TableName="Kept", Key={"PK": {"S": "k7"}})["Item"]
        assert item == {"PK": {"S": "k7"}, "g": {"S": "all"}, "n": {"N": "7"},
                        "b": {"B": b"\x00\x01"}, "l": {"L": [{"NULL": True}, {"BOOL": False}]}}
        assert count(client, "Kept") == 50  # the GSI is back too


def test_create_snapshot_on_demand_and_what_sigkill_loses(tmp_path):
    data = str(tmp_path / "data")
    proc, endpoint = start_killable("--data-dir", data)
    try:
        client = make_client(endpoint)
        create(client, "Demand")
        for i in range(10):
            put(client, "Demand", i)
        body = partstore(endpoint, "CreateSnapshot", {})
        assert body["Path"] == os.path.join(data, "partstore.snapshot")
        assert (body["Tables"], body["Items"]) == (1, 10)
        assert body["Bytes"] == os.path.getsize(body["Path"])
        put(client, "Demand", 10)  # after the snapshot: lost by SIGKILL
    finally:
        proc.kill()
        proc.wait()
    with serve("--data-dir", data) as endpoint:
        assert count(make_client(endpoint), "Demand") == 10


def test_periodic_snapshots(tmp_path):
    data = str(tmp_path / "data")
    proc, endpoint = start_killable("--data-dir", data, "--snapshot-every", "0.2")
    try:
        client = make_client(endpoint)
        create(client, "Periodic")
        for i in range(5):
            put(client, "Periodic", i)
        time.sleep(1.0)
    finally:
        proc.kill()
        proc.wait()
    with serve("--data-dir", data) as endpoint:
        assert count(make_client(endpoint), "Periodic") == 5


@not_through_cache("Partstore.CreateSnapshot is the engine's")
def test_create_snapshot_without_a_data_dir_is_refused(endpoint):
    with pytest.raises(urllib.error.HTTPError) as refused:
        partstore(endpoint, "CreateSnapshot", {})
    assert refused.value.code == 400
    body = json.load(refused.value)
    assert body["__type"].endswith("ValidationException")
    assert "--data-dir" in body["message"]


def test_a_damaged_snapshot_stops_the_start_and_stays(tmp_path):
    data = tmp_path / "data"
    with serve("--data-dir", str(data)) as endpoint:
        client = make_client(endpoint)
        create(client, "Damaged")
        put(client, "Damaged", 1)
    snapshot = data / "partstore.snapshot"
    content = bytearray(snapshot.read_bytes())
    content[len(content) // 2] ^= 0x40
    snapshot.write_bytes(bytes(content))
    result = subprocess.run([os.environ["PARTSTORE_BIN"], "serve", "--port", "0", "--data-dir",
                             str(data)], capture_output=True, text=True, timeout=20)
    assert result.returncode == 1
    assert f"cannot open the data: {snapshot}: checksum mismatch" in result.stderr, \
        result.stderr
    assert snapshot.read_bytes() == bytes(content)


def test_a_damaged_last_log_record_is_dropped_said_and_counted(tmp_path):
    """The last record of the log damaged (a flipped byte): the start drops it, says so on
    standard error (the file, the offset, the bytes and why) and counts it in /metrics; what came
    before it is there."""
    data = tmp_path / "data"
    proc, endpoint = start_killable("--data-dir", str(data), "--wal", "fsync=always")
    try:
        client = make_client(endpoint)
        create(client, "Logged")
        for i in range(5):
            put(client, "Logged", i)
        [segment] = sorted(data.glob("wal.*"))
        offset = segment.stat().st_size
        put(client, "Logged", 5)  # the last record: acknowledged after it is written
        size = segment.stat().st_size
    finally:
        proc.kill()
        proc.wait()
    content = bytearray(segment.read_bytes())
    content[offset + 10] ^= 0x04
    segment.write_bytes(bytes(content))
    proc, endpoint = start_killable("--data-dir", str(data), "--wal", "fsync=always")
    try:
        ready, _, _ = select.select([proc.stderr], [], [], 10)
        assert ready, "nothing on standard error"
        assert proc.stderr.readline().rstrip("\n") == (
            f"partstore serve: warning: write-ahead log {segment}: dropped the last record "
            f"({size - offset} bytes at offset {offset}): checksum mismatch (the block is "
            f"damaged)")
        with urllib.request.urlopen(endpoint + "/metrics", timeout=10) as response:
            metrics = response.read().decode()
        assert "\npartstore_wal_records_dropped_total 1\n" in metrics
        client = make_client(endpoint)
        assert count(client, "Logged") == 5
        assert "Item" not in client.get_item(TableName="Logged", Key={"PK": {"S": "k5"}})
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)


def test_snapshot_every_needs_a_data_dir():
    result = subprocess.run([os.environ["PARTSTORE_BIN"], "serve", "--port", "0",
                             "--snapshot-every", "5"], capture_output=True, text=True, timeout=20)
    assert result.returncode == 2
    assert "--snapshot-every needs --data-dir" in result.stderr


def test_sigkill_during_writes_loses_nothing_acknowledged_under_fsync_always(tmp_path):
    """Writers put items and run two-item transactions while the server is killed with SIGKILL
    at a random moment, three times; after each restart every acknowledged write is there (at
    its value or a later one: a write in flight may have landed too), and every transaction's two
    items agree (all or nothing)."""
    data = str(tmp_path / "data")
    rng = random.Random(27)
    acknowledged = {}
    for round_ in range(3):
        proc, endpoint = start_killable("--data-dir", data, "--wal", "fsync=always")
        try:
            client = make_client(endpoint)
            if round_ == 0:
                create(client, "Crash")
            check_acknowledged(client, acknowledged)
            stop = threading.Event()

            def writer(w):
                c = make_client(endpoint)
                i = 0
                while not stop.is_set():
                    value = round_ * 1_000_000 + i
                    key = f"w{w}-{i % 25}"
                    try:
                        if i % 3 == 0:
                            c.transact_write_items(TransactItems=[
                                {"Put": {"TableName": "Crash", "Item": {
                                    "PK": {"S": f"{key}-{side}"}, "g": {"S": "tx"},
                                    "n": {"N": str(value)}}}} for side in ("a", "b")])
                            acknowledged[f"{key}-a"] = acknowledged[f"{key}-b"] = value
                        else:
                            c.put_item(TableName="Crash", Item={
                                "PK": {"S": key}, "g": {"S": "all"}, "n": {"N": str(value)}})
                            acknowledged[key] = value
                    except Exception:  # the server is gone
                        return
                    i += 1

            threads = [threading.Thread(target=writer, args=(w,)) for w in range(2)]
            for t in threads:
                t.start()
            time.sleep(rng.uniform(0.3, 0.8))
        finally:
            proc.kill()
            proc.wait()
            stop.set()
            for t in threads:
                t.join()
    with serve("--data-dir", data, "--wal", "fsync=always") as endpoint:
        check_acknowledged(make_client(endpoint), acknowledged)


def check_acknowledged(client, acknowledged):
    items = {}
    for page in client.get_paginator("scan").paginate(TableName="Crash"):
        for item in page["Items"]:
            items[item["PK"]["S"]] = int(item["n"]["N"])
    for key, value in acknowledged.items():
        assert key in items, f"acknowledged write of {key} lost"
        assert items[key] >= value, f"{key}: {items[key]} after acknowledging {value}"
    for key, value in items.items():
        if key.endswith("-a"):
            assert items.get(key[:-2] + "-b") == value, f"half a transaction: {key}"


@pytest.mark.parametrize("args, message", [
    (["--wal", "fsync=always"], "--wal needs --data-dir DIR"),
    (["--data-dir", "unused", "--wal", "fsync=sometimes"],
     "--wal fsync=sometimes: expected fsync=always, fsync=everysec or fsync=off"),
])
def test_bad_wal_flags_are_refused(tmp_path, args, message):
    result = subprocess.run([os.environ["PARTSTORE_BIN"], "serve", "--port", "0", *args],
                            capture_output=True, text=True, timeout=20, cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr, result.stderr
