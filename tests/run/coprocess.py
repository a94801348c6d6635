#!/usr/bin/env python3
"""`partstore run` as a co-process: a request is written, its answer read before the next is
written (stdin stays open), so every answer must be flushed as it is made. Also: a line that is
not JSON and an unknown operation are answered with errors naming the line and the operation.

Usage: coprocess.py PARTSTORE
"""

import json
import select
import subprocess
import sys


def fail(message):
    print(f"run.coprocess: FAIL: {message}")
    sys.exit(1)


def main():
    proc = subprocess.Popen([sys.argv[1], "run"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, bufsize=1)

    def ask(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], 10)
        if not ready:
            fail(f"no answer within 10 s to {line!r} (the answer was not flushed)")
        return json.loads(proc.stdout.readline())

    created = ask(json.dumps({"op": "CreateTable", "request": {
        "TableName": "Things", "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}]}}))
    if created.get("TableDescription", {}).get("TableName") != "Things":
        fail(f"CreateTable answered {created}")
    ask(json.dumps({"op": "PutItem", "request": {"TableName": "Things",
                                                 "Item": {"PK": {"S": "a"}, "n": {"N": "1"}}}}))
    got = ask(json.dumps({"op": "GetItem", "request": {"TableName": "Things",
                                                       "Key": {"PK": {"S": "a"}}}}))
    if got.get("Item", {}).get("n") != {"N": "1"}:
        fail(f"GetItem answered {got}")
    def message(answer):
        return answer.get("Message") or answer.get("message") or ""

    bad = ask("not json")
    if "SerializationException" not in bad.get("__type", "") or \
            "line 4" not in message(bad) or "not JSON" not in message(bad):
        fail(f"a line that is not JSON answered {bad}")
    unknown = ask(json.dumps({"op": "Frobnicate", "request": {}}))
    if "UnknownOperationException" not in unknown.get("__type", "") or \
            'line 5: unknown operation "Frobnicate"' not in message(unknown):
        fail(f"an unknown operation answered {unknown}")
    proc.stdin.close()
    if proc.wait(timeout=10) != 0:
        fail(f"exit status {proc.returncode}: {proc.stderr.read()}")
    print("run.coprocess: 5 requests answered one at a time; errors name the line and the op")


if __name__ == "__main__":
    main()
