"""CORS, as DynamoDB answers browsers (issue 50, item 1; Alternator's test_cors.py, which passes
against DynamoDB): no CORS header without Origin; with one, Access-Control-Allow-Origin: * and
Access-Control-Expose-Headers on every answer; a preflight (OPTIONS) echoes the requested method
and headers as allowed and adds Access-Control-Max-Age, and needs no signature."""
import json
import urllib.error
import urllib.request


CORS = ["Access-Control-Allow-Origin", "Access-Control-Allow-Credentials",
        "Access-Control-Expose-Headers", "Access-Control-Max-Age",
        "Access-Control-Allow-Methods", "Access-Control-Allow-Headers"]


def send(endpoint, method, headers, body=None):
    request = urllib.request.Request(endpoint, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


LIST = {"X-Amz-Target": "DynamoDB_20120810.ListTables",
        "Content-Type": "application/x-amz-json-1.0"}


def test_no_origin_no_cors_headers(endpoint):
    for method, body in (("POST", b"{}"), ("GET", None), ("OPTIONS", None)):
        _, headers, _ = send(endpoint, method, LIST if method == "POST" else {}, body)
        assert [h for h in CORS if h in headers] == [], method


def test_an_origin_gets_allow_origin_and_expose_headers(endpoint):
    origin = {"Origin": "http://app.example:3000"}
    for method, body in (("POST", b"{}"), ("GET", None)):
        status, headers, answer = send(endpoint, method, {**LIST, **origin}, body)
        assert headers["Access-Control-Allow-Origin"] == "*", method
        exposed = headers["Access-Control-Expose-Headers"].split(",")
        assert {"x-amzn-RequestId", "x-amz-crc32", "Date"} <= set(exposed), exposed
        # Only a preflight says how long to keep it, and what is allowed.
        assert "Access-Control-Max-Age" not in headers
        assert "Access-Control-Allow-Methods" not in headers
        # The other headers stay as they are.
        assert headers["Server"] == "Server" and "x-amzn-RequestId" in headers
        assert "x-amz-crc32" in headers
    status, _, answer = send(endpoint, "POST", {**LIST, **origin}, b"{}")
    assert status == 200 and "TableNames" in json.loads(answer)


def test_a_preflight_echoes_what_was_asked(endpoint):
    status, headers, body = send(endpoint, "OPTIONS", {
        "Origin": "http://app.example:3000",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,x-amz-date,x-amz-target,authorization"})
    assert status == 200 and body == b""
    assert headers["Access-Control-Allow-Origin"] == "*"
    assert headers["Access-Control-Allow-Methods"] == "POST"
    assert headers["Access-Control-Allow-Headers"] == (
        "content-type,x-amz-date,x-amz-target,authorization")
    assert int(headers["Access-Control-Max-Age"]) > 0
    assert "Access-Control-Expose-Headers" in headers
