# boto3 against `partstore serve`: the session starts one server on a free port and every test
# talks to it through a boto3 client or resource configured with `endpoint_url`, dummy
# credentials and a region. Tests that need a server of their own (test_capacity.py: a manual
# clock) start it with `serve(*extra_args)` and build clients with `make_client`.
#
#   PARTSTORE_BIN=/path/to/partstore /usr/bin/python3 -m pytest tests/clients/python
#
# (tests/clients/run_boto3.sh does exactly this; the ctest clients.boto3 runs that script.)
# No user configuration leaks in: the AWS_* variables a developer may have set are replaced below,
# before boto3 reads them.
import contextlib
import json
import os
import re
import select
import signal
import subprocess
import urllib.request
import uuid

import pytest

for _name in list(os.environ):
    if _name.startswith("AWS_"):
        del os.environ[_name]
os.environ.update({
    "AWS_CONFIG_FILE": os.devnull,
    "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
    "AWS_ACCESS_KEY_ID": "AKIDPARTSTORETEST",
    "AWS_SECRET_ACCESS_KEY": "partstore-test-secret",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_EC2_METADATA_DISABLED": "true",
})

import boto3  # noqa: E402  (after the environment is pinned)
import botocore.config  # noqa: E402

import rvoccf  # noqa: E402

THROUGH_CACHE = os.environ.get("PARTSTORE_THROUGH_CACHE") == "1"


def not_through_cache(reason):
    """A test of what only the engine answers, or of what a cache answers otherwise (a hit reads
    no capacity): an expected failure when the suite runs through `serve --upstream`."""
    return pytest.mark.xfail(THROUGH_CACHE, reason=f"through the cache: {reason}", strict=True)


START_LINE = re.compile(r"^partstore serve: listening on (http://[^:/\s]+:(\d+))$")
START_TIMEOUT_SECONDS = 20


@contextlib.contextmanager
def serve(*extra_args):
    """Runs `partstore serve --port 0 EXTRA_ARGS...` and yields its endpoint (http://HOST:PORT);
    stops it on exit. With `--clock manual`, checks the second line that announces capacity."""
    binary = os.environ.get("PARTSTORE_BIN")
    if not binary or not os.access(binary, os.X_OK):
        pytest.fail(f"PARTSTORE_BIN must name the partstore executable (got {binary!r})",
                    pytrace=False)
    proc = subprocess.Popen([binary, "serve", "--port", "0", *extra_args],
                            stdout=subprocess.PIPE, stderr=None, text=True)
    try:
        ready, _, _ = select.select([proc.stdout], [], [], START_TIMEOUT_SECONDS)
        line = proc.stdout.readline().rstrip("\n") if ready else ""
        match = START_LINE.match(line)
        if not match:
            pytest.fail(f"partstore serve did not print its start-up line within "
                        f"{START_TIMEOUT_SECONDS} s; got {line!r} (exit status {proc.poll()})",
                        pytrace=False)
        assert int(match.group(2)) != 0, "--port 0 must report the port it picked"
        if "manual" in extra_args:
            line = proc.stdout.readline().rstrip("\n")
            assert line == "partstore serve: capacity simulation on (manual clock)", line
        yield match.group(1)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                pytest.fail("partstore serve did not stop within 10 s of SIGTERM", pytrace=False)
        # A server that exits on SIGTERM stops gracefully: status 0, or death by the signal.
        assert proc.returncode in (0, -signal.SIGTERM), f"exit status {proc.returncode}"


@pytest.fixture(scope="session")
def endpoint():
    """The session's server; with PARTSTORE_THROUGH_CACHE=1, a cache (`serve --upstream`) in
    front of it, so that the suite checks the proxy answers as the server does."""
    with serve() as url:
        if THROUGH_CACHE:
            with serve("--upstream", url, "--upstream-region", "us-east-1",
                       "--stream-poll", "0.05") as proxy:
                yield proxy
        else:
            yield url


def _config(attempts=1):
    # One attempt: a retried request would hide what the server answered the first time.
    # (total_max_attempts counts every attempt; the older max_attempts of a Config counts retries,
    # so "max_attempts": 1 would mean two attempts.)
    return botocore.config.Config(retries={"total_max_attempts": attempts, "mode": "standard"},
                                  connect_timeout=5, read_timeout=30)


def _session():
    return boto3.session.Session(aws_access_key_id="AKIDPARTSTORETEST",
                                 aws_secret_access_key="partstore-test-secret",
                                 region_name="us-east-1")


def make_client(endpoint, attempts=1):
    """A boto3 DynamoDB client of `endpoint` that makes at most `attempts` attempts a request."""
    c = _session().client("dynamodb", endpoint_url=endpoint, config=_config(attempts))
    rvoccf.install(c.meta.events, c.meta.service_model)
    return c


@pytest.fixture(scope="session")
def client(endpoint):
    return make_client(endpoint)


@pytest.fixture(scope="session")
def dynamodb(endpoint):
    r = _session().resource("dynamodb", endpoint_url=endpoint, config=_config())
    rvoccf.install(r.meta.client.meta.events, r.meta.client.meta.service_model)
    return r


def unique_name(prefix="t"):
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def create_table(client, name, hash_key=("PK", "S"), range_key=("SK", "S"), **kwargs):
    keys = [{"AttributeName": hash_key[0], "KeyType": "HASH"}]
    defs = [{"AttributeName": hash_key[0], "AttributeType": hash_key[1]}]
    if range_key:
        keys.append({"AttributeName": range_key[0], "KeyType": "RANGE"})
        defs.append({"AttributeName": range_key[0], "AttributeType": range_key[1]})
    kwargs.setdefault("BillingMode", "PAY_PER_REQUEST")
    return client.create_table(TableName=name, KeySchema=keys, AttributeDefinitions=defs,
                               **kwargs)


@pytest.fixture
def table_name(client):
    """A fresh PK/SK (string, string) on-demand table, deleted after the test."""
    name = unique_name()
    create_table(client, name)
    client.get_waiter("table_exists").wait(TableName=name,
                                           WaiterConfig={"Delay": 1, "MaxAttempts": 10})
    yield name
    try:
        client.delete_table(TableName=name)
    except client.exceptions.ResourceNotFoundException:
        pass


@pytest.fixture
def table(dynamodb, table_name):
    return dynamodb.Table(table_name)


def partstore(endpoint, operation, body):
    """One Partstore_20261120.<Op> extension call: a plain JSON POST (no signature needed)."""
    request = urllib.request.Request(endpoint, data=json.dumps(body).encode(), headers={
        "X-Amz-Target": f"Partstore_20261120.{operation}",
        "Content-Type": "application/x-amz-json-1.0"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)
