"""What DynamoDB's endpoint answers at the HTTP level: DescribeEndpoints, the health check, and
the Server and Date headers on every answer (Scylla's test_describe_endpoints.py, test_health.py
and test_http_headers.py, which run against DynamoDB)."""
import email.utils
import urllib.error
import urllib.request

import pytest
from botocore.exceptions import ClientError

from conftest import THROUGH_CACHE, make_client, not_through_cache


def test_describe_endpoints_names_a_usable_endpoint(client, endpoint):
    endpoints = client.describe_endpoints()["Endpoints"]
    assert len(endpoints) == 1
    assert endpoints[0]["CachePeriodInMinutes"] == 1440
    address = endpoints[0]["Address"]
    assert endpoint == "http://" + address
    make_client("http://" + address).describe_endpoints()


def test_health_check_only_at_the_root(endpoint):
    with urllib.request.urlopen(endpoint + "/", timeout=5) as response:
        assert response.status == 200
        assert response.read().decode() == "healthy: " + endpoint.removeprefix("http://")
    for suffix in ("/abc", "/-", "/index.htm", "/health"):
        with pytest.raises(urllib.error.HTTPError) as error:
            urllib.request.urlopen(endpoint + suffix, timeout=5)
        assert 400 <= error.value.code <= 404, suffix


def test_server_and_date_headers_on_answers_and_errors(client):
    headers = client.list_tables()["ResponseMetadata"]["HTTPHeaders"]
    assert headers["server"] == "Server"
    assert email.utils.parsedate_to_datetime(headers["date"]).tzname() == "UTC"
    with pytest.raises(ClientError) as error:
        client.describe_table(TableName="no-such-table")
    headers = error.value.response["ResponseMetadata"]["HTTPHeaders"]
    assert headers["server"] == "Server" and "date" in headers


@pytest.mark.skipif(not THROUGH_CACHE, reason="the proxy's metrics (PARTSTORE_THROUGH_CACHE=1)")
def test_the_proxy_reports_its_cache_on_metrics(client, endpoint, table_name):
    client.put_item(TableName=table_name, Item={"PK": {"S": "m"}, "SK": {"S": "1"}})
    for _ in range(3):
        client.get_item(TableName=table_name, Key={"PK": {"S": "m"}, "SK": {"S": "1"}})
    with urllib.request.urlopen(endpoint + "/metrics", timeout=5) as response:
        text = response.read().decode()
    samples = dict(line.rsplit(" ", 1) for line in text.splitlines()
                   if line and not line.startswith("#"))
    assert float(samples["partstore_cache_item_hits_total"]) >= 3
    assert float(samples["partstore_cache_writes_total"]) >= 1
    assert 'partstore_requests_total{operation="GetItem"}' in samples
    assert not any(name.startswith("partstore_table_items") for name in samples)


@not_through_cache("the tables' metrics are the engine's; a proxy reports its cache's (partstore_cache_*)")
def test_metrics_in_prometheus_text(client, endpoint, table_name):
    client.put_item(TableName=table_name, Item={"PK": {"S": "m"}, "SK": {"S": "1"}})
    with pytest.raises(ClientError):
        client.get_item(TableName="no-such-table", Key={"PK": {"S": "m"}})
    with urllib.request.urlopen(endpoint + "/metrics", timeout=5) as response:
        assert response.headers["Content-Type"] == "text/plain; version=0.0.4"
        text = response.read().decode()
    samples = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            samples[name] = float(value)
    assert samples['partstore_requests_total{operation="PutItem"}'] >= 1
    assert samples['partstore_errors_total{operation="GetItem",error="ResourceNotFoundException"}'] >= 1
    assert samples[f'partstore_table_items{{table="{table_name}"}}'] == 1
    assert samples["partstore_connections"] >= 1
    assert samples['partstore_request_duration_seconds_count{operation="PutItem"}'] == \
        samples['partstore_requests_total{operation="PutItem"}']
