"""`partstore serve --auth sigv4`: boto3's signed requests are verified as DynamoDB verifies them
(Scylla's test_authorization.py, run against DynamoDB): a known key works, an unknown key is
UnrecognizedClientException, a wrong secret or a signature for another region than the server's
(`serve --region`, us-east-1 by default) InvalidSignatureException, no signature
MissingAuthenticationTokenException; the health check needs none; DynamoDB Streams' clients
(which sign for the service "dynamodb") are served."""
import urllib.parse
import http.client
import urllib.request

import boto3
import botocore.config
import pytest
from botocore.exceptions import ClientError

from conftest import serve


def _client(endpoint, key_id, secret, region="us-east-1", service="dynamodb"):
    return boto3.session.Session().client(
        service, endpoint_url=endpoint, region_name=region, aws_access_key_id=key_id,
        aws_secret_access_key=secret,
        config=botocore.config.Config(retries={"total_max_attempts": 1, "mode": "standard"}))


@pytest.fixture(scope="module")
def secured(tmp_path_factory):
    keys = tmp_path_factory.mktemp("auth") / "keys"
    keys.write_text("# test keys\nAKIDPARTSTOREAUTH s3cr3t/Key+1\nsecond other-secret\n")
    with serve("--auth", "sigv4", "--access-keys", str(keys)) as url:
        yield url


def test_known_keys_work(secured):
    assert "TableNames" in _client(secured, "AKIDPARTSTOREAUTH", "s3cr3t/Key+1").list_tables()
    assert _client(secured, "second", "other-secret").describe_endpoints()["Endpoints"]


@pytest.mark.parametrize("key_id,secret,error", [
    ("AKIDNOBODY", "s3cr3t/Key+1", "UnrecognizedClientException"),
    ("AKIDPARTSTOREAUTH", "wrong", "InvalidSignatureException"),
])
def test_bad_credentials_are_refused(secured, key_id, secret, error):
    with pytest.raises(ClientError) as raised:
        _client(secured, key_id, secret).list_tables()
    assert raised.value.response["Error"]["Code"] == error


def test_a_signature_for_another_region_is_refused(secured):
    with pytest.raises(ClientError) as raised:
        _client(secured, "AKIDPARTSTOREAUTH", "s3cr3t/Key+1", region="eu-west-1").list_tables()
    assert raised.value.response["Error"]["Code"] == "InvalidSignatureException"
    assert raised.value.response["Error"]["Message"] == \
        "Credential should be scoped to a valid region. "


def test_streams_clients_sign_for_dynamodb_and_are_served(secured):
    # botocore's dynamodbstreams model signs with the service name "dynamodb".
    streams = _client(secured, "AKIDPARTSTOREAUTH", "s3cr3t/Key+1", service="dynamodbstreams")
    assert streams.list_streams()["Streams"] is not None


def test_serve_region_sets_the_region_signatures_must_name(tmp_path):
    keys = tmp_path / "keys"
    keys.write_text("AKIDPARTSTOREAUTH s3cr3t/Key+1\n")
    with serve("--auth", "sigv4", "--access-keys", str(keys), "--region", "eu-west-1") as url:
        assert "TableNames" in _client(url, "AKIDPARTSTOREAUTH", "s3cr3t/Key+1",
                                       region="eu-west-1").list_tables()
        with pytest.raises(ClientError) as raised:
            _client(url, "AKIDPARTSTOREAUTH", "s3cr3t/Key+1").list_tables()
        assert raised.value.response["Error"]["Code"] == "InvalidSignatureException"


def test_unsigned_requests_are_refused_but_the_health_check_answers(secured):
    url = urllib.parse.urlparse(secured)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=5)
    conn.request("POST", "/", body="{}", headers={
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": "DynamoDB_20120810.ListTables"})
    response = conn.getresponse()
    assert response.status == 400
    assert b"MissingAuthenticationTokenException" in response.read()
    conn.close()
    with urllib.request.urlopen(secured + "/", timeout=5) as health:
        assert health.status == 200


def test_listening_beyond_loopback_without_auth_warns():
    import os
    import select
    import signal
    import subprocess
    proc = subprocess.Popen([os.environ["PARTSTORE_BIN"], "serve", "--host", "0.0.0.0", "--port",
                             "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready, _, _ = select.select([proc.stderr], [], [], 20)
        assert ready, "no warning on standard error"
        line = proc.stderr.readline()
        assert line.startswith("partstore serve: warning: listening on 0.0.0.0 without --auth"), line
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
