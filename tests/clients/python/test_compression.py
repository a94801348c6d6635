"""Compressed bodies on the wire, both ways, as DynamoDB's endpoint handles them.

Requests: boto3 sends gzip'd PutItems (its request compression, switched on here per operation
the way Scylla's test_compressed_request.py does it against DynamoDB: Debian's botocore 1.29
predates the Config option, so a request-created hook compresses the body). Broken streams and
unknown codings are sent raw: DynamoDB answers them with HTTP 500.

Responses: raw HTTP with Accept-Encoding, decoded with Python's gzip and zlib modules (boto3
does not decode compressed responses); x-amz-crc32 covers the bytes sent, as DynamoDB's.
"""
import gzip
import http.client
import json
import urllib.parse
import zlib

from conftest import make_client


def _post(endpoint, operation, body, headers=None):
    url = urllib.parse.urlparse(endpoint)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
    try:
        all_headers = {"Content-Type": "application/x-amz-json-1.0",
                       "X-Amz-Target": f"DynamoDB_20120810.{operation}"}
        all_headers.update(headers or {})
        conn.request("POST", "/", body=body, headers=all_headers)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def _gzip_requests(client, operation):
    """Compresses `operation`'s requests; returns the list of (plain, sent) body sizes."""
    sizes = []

    def compress(request, **_):
        data = request.data if isinstance(request.data, bytes) else request.data.encode("utf-8")
        request.data = gzip.compress(data)
        request.headers["Content-Encoding"] = "gzip"
        sizes.append((len(data), len(request.data)))
    client.meta.events.register(f"request-created.dynamodb.{operation}", compress)
    return sizes


def test_boto3_gzip_requests_are_decoded(endpoint, table_name):
    compressing = make_client(endpoint)
    sizes = _gzip_requests(compressing, "PutItem")
    long = "x" * 20000
    compressing.put_item(TableName=table_name,
                         Item={"PK": {"S": "gz"}, "SK": {"S": "1"}, "long": {"S": long}})
    assert len(sizes) == 1 and sizes[0][1] * 50 < sizes[0][0], sizes  # it went out compressed
    got = make_client(endpoint).get_item(TableName=table_name,
                                         Key={"PK": {"S": "gz"}, "SK": {"S": "1"}})
    assert got["Item"]["long"]["S"] == long


def test_concatenated_gzip_members_and_deflate(endpoint, table_name, client):
    payload = json.dumps({"TableName": table_name,
                          "Item": {"PK": {"S": "two"}, "SK": {"S": "1"}, "v": {"S": "a"}}})
    body = gzip.compress(payload[:10].encode()) + gzip.compress(payload[10:].encode())
    status, _, raw = _post(endpoint, "PutItem", body, {"Content-Encoding": "gzip"})
    assert status == 200, raw
    payload = json.dumps({"TableName": table_name,
                          "Item": {"PK": {"S": "deflate"}, "SK": {"S": "1"}}})
    status, _, raw = _post(endpoint, "PutItem", zlib.compress(payload.encode()),
                           {"Content-Encoding": "deflate"})
    assert status == 200, raw
    for pk in ("two", "deflate"):
        assert "Item" in client.get_item(TableName=table_name,
                                         Key={"PK": {"S": pk}, "SK": {"S": "1"}})


def test_undecodable_bodies_are_500_and_write_nothing(endpoint, table_name, client):
    payload = json.dumps({"TableName": table_name, "Item": {"PK": {"S": "bad"}, "SK": {"S": "1"}}})
    compressed = gzip.compress(payload.encode())
    for coding, body in (("gzip", payload.encode()), ("gzip", compressed[:-1]), ("gzip", b""),
                         ("garbage", payload.encode())):
        status, _, raw = _post(endpoint, "PutItem", body, {"Content-Encoding": coding})
        assert status == 500, (coding, raw)
        assert json.loads(raw)["__type"].endswith("#InternalServerError")
    assert "Item" not in client.get_item(TableName=table_name,
                                         Key={"PK": {"S": "bad"}, "SK": {"S": "1"}})


def test_responses_are_compressed_per_accept_encoding(endpoint, table_name, client):
    big = "y" * 6000
    client.put_item(TableName=table_name, Item={"PK": {"S": "big"}, "SK": {"S": "1"},
                                                "big": {"S": big}})
    get = json.dumps({"TableName": table_name, "Key": {"PK": {"S": "big"}, "SK": {"S": "1"}}})
    status, headers, plain = _post(endpoint, "GetItem", get)
    assert status == 200 and "Content-Encoding" not in headers
    for accept, coding, decode in (("gzip", "gzip", gzip.decompress),
                                   ("deflate", "deflate", zlib.decompress),
                                   ("br, identity, deflate, gzip", "deflate", zlib.decompress),
                                   ("*", "gzip", gzip.decompress)):
        status, headers, raw = _post(endpoint, "GetItem", get, {"Accept-Encoding": accept})
        assert status == 200
        assert headers.get("Content-Encoding") == coding, accept
        assert int(headers["x-amz-crc32"]) == zlib.crc32(raw)
        assert len(raw) * 10 < len(plain)
        assert decode(raw) == plain
    # Below 4 KB, or refused codings: as it is.
    small = json.dumps({"TableName": table_name, "Key": {"PK": {"S": "none"}, "SK": {"S": "1"}}})
    status, headers, raw = _post(endpoint, "GetItem", small, {"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in headers and raw == b"{}"
    status, headers, raw = _post(endpoint, "GetItem", get, {"Accept-Encoding": "gzip;q=0, br"})
    assert "Content-Encoding" not in headers and raw == plain
