"""Capacity simulation through boto3: a throttled request raises botocore's throttling error,
botocore's own retries show in Partstore.GetMetrics, and Partstore.AdvanceClock refills.

Each test starts its own `partstore serve --clock manual`: the clock stands at 0 until the test
moves it, so every count below is exact. The Partstore_20261120.<Op> extensions are plain JSON
POSTs (README.md, "Capacity simulation"); they need no signature.
"""
import json

import pytest
from botocore.exceptions import ClientError

from conftest import make_client, partstore, serve

PROVISIONED_MESSAGE = ("The level of configured provisioned throughput for the table was exceeded."
                       " Consider increasing your provisioning level with the UpdateTable API.")
SMALL_ITEM = {"pk": {"S": "hot"}}


@pytest.fixture
def endpoint_manual():
    with serve("--clock", "manual") as url:
        yield url




def metric(endpoint, table, name):
    """One GetMetrics counter of the table (everything here happens in its first minute)."""
    points = partstore(endpoint, "GetMetrics", {"TableName": table, "Period": 60})["Datapoints"]
    assert [point["Timestamp"] for point in points] == [0]
    return points[0][name]


def create(client, name, wcu=None):
    """A table with hash key pk (S): provisioned (1 RCU, `wcu` WCU), or on-demand if wcu is None."""
    billing = ({"BillingMode": "PAY_PER_REQUEST"} if wcu is None else
               {"ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": wcu}})
    client.create_table(TableName=name, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                        **billing)


def record(client, operation, event="after-call"):
    """The raw bodies of `operation`'s responses (after-call: once per call, after the retries)
    or the requests sent (before-send: once per attempt)."""
    seen = []
    if event == "after-call":
        client.meta.events.register(f"after-call.dynamodb.{operation}",
                                    lambda http_response, **_: seen.append(http_response.content))
    else:
        client.meta.events.register(f"before-send.dynamodb.{operation}",
                                    lambda request, **_: seen.append(request))
    return seen


def test_throttled_put_raises_provisioned_throughput_exceeded(endpoint_manual):
    client = make_client(endpoint_manual)  # one attempt: no retries
    create(client, "hot", wcu=1)
    bodies = record(client, "PutItem")
    client.put_item(TableName="hot", Item=SMALL_ITEM)  # the partition's one second of 1 WCU
    with pytest.raises(client.exceptions.ProvisionedThroughputExceededException) as error:
        client.put_item(TableName="hot", Item=SMALL_ITEM)
    response = error.value.response
    assert response["Error"] == {"Code": "ProvisionedThroughputExceededException",
                                 "Message": PROVISIONED_MESSAGE}
    assert response["ResponseMetadata"]["HTTPStatusCode"] == 400
    assert response["ResponseMetadata"]["RetryAttempts"] == 0
    reasons = [{"reason": "TableWriteProvisionedThroughputExceeded",
                "resource": "arn:aws:dynamodb:us-east-1:000000000000:table/hot"}]
    assert json.loads(bodies[-1])["ThrottlingReasons"] == reasons
    # botocore parses the member only if its service model has it (Debian 12's 1.29 does not).
    shape = client.meta.service_model.shape_for("ProvisionedThroughputExceededException")
    if "ThrottlingReasons" in shape.members:
        assert response["ThrottlingReasons"] == reasons
    else:
        assert "ThrottlingReasons" not in response
    assert metric(endpoint_manual, "hot", "ThrottledWriteRequests") == 1
    assert metric(endpoint_manual, "hot", "WriteRequests") == 1

    # The clock does not move by itself: only AdvanceClock refills the bucket.
    assert partstore(endpoint_manual, "AdvanceClock", {"Seconds": 1}) == {"Now": 1}
    client.put_item(TableName="hot", Item=SMALL_ITEM)
    assert metric(endpoint_manual, "hot", "WriteRequests") == 2


def test_sdk_retries_are_visible_in_the_metrics(endpoint_manual):
    # Standard mode, 3 attempts in all (total_max_attempts; a Config's max_attempts counts
    # retries). botocore's backoff sleeps rand(0, 1) * 2^(attempt - 1) s between attempts.
    client = make_client(endpoint_manual, attempts=3)
    create(client, "hot", wcu=1)
    client.put_item(TableName="hot", Item=SMALL_ITEM)
    sent = record(client, "PutItem", "before-send")
    with pytest.raises(client.exceptions.ProvisionedThroughputExceededException) as error:
        client.put_item(TableName="hot", Item=SMALL_ITEM)
    metadata = error.value.response["ResponseMetadata"]
    assert (len(sent), metadata["RetryAttempts"], metadata["MaxAttemptsReached"]) == (3, 2, True)
    assert "(reached max retries: 2)" in str(error.value)
    # Every attempt reached the server and was throttled there.
    assert metric(endpoint_manual, "hot", "ThrottledWriteRequests") == 3
    assert metric(endpoint_manual, "hot", "ThrottleEventsByReason") == \
        {"TableWriteProvisionedThroughputExceeded": 3}

    partstore(endpoint_manual, "AdvanceClock", {"Seconds": 1})
    sent.clear()
    response = client.put_item(TableName="hot", Item=SMALL_ITEM)
    assert (len(sent), response["ResponseMetadata"]["RetryAttempts"]) == (1, 0)
    assert metric(endpoint_manual, "hot", "ThrottledWriteRequests") == 3
    assert metric(endpoint_manual, "hot", "WriteRequests") == 2


def test_batch_write_returns_throttled_puts_unprocessed(endpoint_manual):
    client = make_client(endpoint_manual)
    create(client, "two", wcu=2)
    puts = [{"PutRequest": {"Item": {"pk": {"S": f"k{n}"}}}} for n in range(5)]
    response = client.batch_write_item(RequestItems={"two": puts})
    unprocessed = response["UnprocessedItems"]["two"]
    assert len(unprocessed) == 3 and all(put in puts for put in unprocessed)
    assert metric(endpoint_manual, "two", "WriteRequests") == 2
    # CloudWatch's counting: three throttle events, but no throttled request (the batch was not
    # wholly throttled).
    assert metric(endpoint_manual, "two", "WriteThrottleEvents") == 3
    assert metric(endpoint_manual, "two", "ThrottledWriteRequests") == 0

    # A batch fails only when every write in it is throttled.
    create(client, "one", wcu=1)
    client.put_item(TableName="one", Item=SMALL_ITEM)
    with pytest.raises(client.exceptions.ProvisionedThroughputExceededException) as error:
        client.batch_write_item(RequestItems={"one": puts[:2]})
    assert error.value.response["Error"]["Message"] == PROVISIONED_MESSAGE
    assert metric(endpoint_manual, "one", "ThrottledWriteRequests") == 1
    assert metric(endpoint_manual, "one", "WriteThrottleEvents") == 2


def test_on_demand_throttles_with_throttling_exception(endpoint_manual):
    # A new on-demand table has 4 partitions of at most 1000 WCU a second each; three writes of
    # 390 WCU to one key need 1170 from one partition.
    client = make_client(endpoint_manual)
    create(client, "ondemand")
    bodies = record(client, "PutItem")
    item = {"pk": {"S": "hot"}, "v": {"S": "x" * (390 * 1024 - len("pk" "hot" "v"))}}
    for _ in range(2):
        response = client.put_item(TableName="ondemand", Item=item, ReturnConsumedCapacity="TOTAL")
        assert response["ConsumedCapacity"]["CapacityUnits"] == 390.0
    # botocore 1.29's model has no ThrottlingException shape: a plain ClientError.
    with pytest.raises(ClientError) as error:
        client.put_item(TableName="ondemand", Item=item)
    assert error.value.response["Error"]["Code"] == "ThrottlingException"
    assert error.value.response["Error"]["Message"].startswith(
        "Throughput exceeds the current capacity of your table or index.")
    assert json.loads(bodies[-1])["throttlingReasons"] == [
        {"reason": "TableWriteKeyRangeThroughputExceeded",
         "resource": "arn:aws:dynamodb:us-east-1:000000000000:table/ondemand"}]
    assert metric(endpoint_manual, "ondemand", "ThrottledWriteRequests") == 1
