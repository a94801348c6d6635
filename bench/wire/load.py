#!/usr/bin/env python3
"""Creates the benchmark table and loads it through the wire (BatchWriteItem, 25 items per call).

  load.py URL [--pks 10000] [--sks 10] [--table WireBench] [--connections 4]

Table WireBench: PK (S) "USER#000000".."USER#%06d" x SK (S) "ORDER#00".."ORDER#%02d"; every item
has the same shape and about 200 bytes of DynamoDB ItemSize (see item()). The Lua scripts in this
directory build the same keys and items. Standard library only (Debian's python3).
"""
import argparse
import http.client
import json
import sys
import threading
import time
import urllib.parse

TARGET = "DynamoDB_20120810."
# dynalite insists on the presence (not the validity) of a SigV4 Authorization header and a date,
# as every SDK sends them; partstore and nginx ignore them. The Lua scripts send the same headers.
HEADERS = {
    "Content-Type": "application/x-amz-json-1.0",
    "X-Amz-Date": "20260101T000000Z",
    "Authorization": "AWS4-HMAC-SHA256 Credential=AKIDBENCH/20260101/us-east-1/dynamodb/aws4_request, "
                     "SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=" + "0" * 64,
}
DESCRIPTION_LEN = 101  # pads the item below to about 200 bytes of ItemSize


def item(pk, sk, total="123.45", counter="0"):
    # ItemSize (names + values): PK 2+11, SK 2+8, status 6+7, total 5+4, paid 4+1,
    # counter 7+2, address 7+3+(4+5+1)+(3+5+1), description 11+101: 13+10+13+9+5+9+29+112 = 200.
    return {
        "PK": {"S": "USER#%06d" % pk},
        "SK": {"S": "ORDER#%02d" % sk},
        "status": {"S": "SHIPPED"},
        "total": {"N": total},
        "paid": {"BOOL": True},
        "counter": {"N": counter},
        "address": {"M": {"city": {"S": "Paris"}, "zip": {"S": "75001"}}},
        "description": {"S": "x" * DESCRIPTION_LEN},
    }


class Client:
    def __init__(self, url):
        u = urllib.parse.urlparse(url)
        self.host, self.port = u.hostname, u.port or 80
        self.conn = None

    def call(self, op, body):
        data = json.dumps(body, separators=(",", ":")).encode()
        for attempt in range(5):
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
                self.conn.request("POST", "/", data, dict(HEADERS, **{"X-Amz-Target": TARGET + op}))
                r = self.conn.getresponse()
                text = r.read()
                return r.status, json.loads(text) if text else {}
            except (ConnectionError, http.client.HTTPException, OSError):
                self.conn = None
                if attempt == 4:
                    raise
                time.sleep(0.2)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("url")
    p.add_argument("--table", default="WireBench")
    p.add_argument("--pks", type=int, default=10000)
    p.add_argument("--sks", type=int, default=10)
    p.add_argument("--connections", type=int, default=4)
    a = p.parse_args()

    c = Client(a.url)
    status, r = c.call("CreateTable", {
        "TableName": a.table,
        "AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"},
                                 {"AttributeName": "SK", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"},
                      {"AttributeName": "SK", "KeyType": "RANGE"}],
        "BillingMode": "PAY_PER_REQUEST"})
    if status != 200 and "ResourceInUse" not in r.get("__type", ""):
        sys.exit("CreateTable: %d %s" % (status, r))
    for _ in range(100):  # dynalite keeps a table CREATING for --createTableMs
        status, r = c.call("DescribeTable", {"TableName": a.table})
        if status == 200 and r["Table"]["TableStatus"] == "ACTIVE":
            break
        time.sleep(0.1)
    else:
        sys.exit("table never became ACTIVE: %s" % r)

    keys = [(pk, sk) for pk in range(a.pks) for sk in range(a.sks)]
    batches = [keys[i:i + 25] for i in range(0, len(keys), 25)]
    errors = []
    t0 = time.time()

    def worker(part):
        cl = Client(a.url)
        for batch in part:
            pending = {a.table: [{"PutRequest": {"Item": item(pk, sk)}} for pk, sk in batch]}
            for attempt in range(20):
                status, r = cl.call("BatchWriteItem", {"RequestItems": pending})
                if status != 200:
                    errors.append("BatchWriteItem: %d %s" % (status, r))
                    return
                pending = r.get("UnprocessedItems") or {}
                if not pending:
                    break
                time.sleep(0.01 * (attempt + 1))
            else:
                errors.append("UnprocessedItems left after 20 attempts")
                return

    n = max(1, a.connections)
    threads = [threading.Thread(target=worker, args=(batches[i::n],)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        sys.exit(errors[0])
    dt = time.time() - t0

    # Spot checks: the first and last items read back, and one partition's Query count.
    for pk, sk in ((0, 0), (a.pks - 1, a.sks - 1)):
        status, r = c.call("GetItem", {"TableName": a.table,
                                       "Key": {"PK": {"S": "USER#%06d" % pk},
                                               "SK": {"S": "ORDER#%02d" % sk}}})
        if status != 200 or r.get("Item") != item(pk, sk):
            sys.exit("GetItem check failed: %d %s" % (status, r))
    status, r = c.call("Query", {"TableName": a.table, "KeyConditionExpression": "PK = :pk",
                                 "ExpressionAttributeValues": {":pk": {"S": "USER#%06d" % (a.pks // 2)}}})
    if status != 200 or r.get("Count") != a.sks:
        sys.exit("Query check failed: %d %s" % (status, r))
    print("loaded %d items in %.1f s (%.0f items/s, %d BatchWriteItem calls, %d connections)"
          % (len(keys), dt, len(keys) / dt, len(batches), n))


if __name__ == "__main__":
    main()
