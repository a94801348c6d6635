"""Attribute names, start keys and zero's exponent: what DynamoDB answers (issue 50, items 2, 3
and 6). Sources: dynalite's test/query.js and test/scan.js (recorded against DynamoDB) for the
start keys; scylladb's test_limits.py and test_number.py (run against DynamoDB) for long names and
0e126; botocore's model for AttributeDefinitions' 1..255."""
import boto3
import botocore.config
import pytest
from botocore.exceptions import ClientError

from conftest import unique_name

LONG = "a" * 65536
TOO_LARGE = "Attribute name is too large, must be less than 65536 bytes"
OVERFLOW = ("Number overflow. Attempting to store a number with magnitude larger than supported "
            "range")


def error(call):
    with pytest.raises(ClientError) as raised:
        call()
    e = raised.value.response["Error"]
    assert e["Code"] == "ValidationException", e
    return e["Message"]


@pytest.fixture(scope="module")
def unchecked(endpoint):
    """A client that sends what boto3's own checks would refuse (an empty name)."""
    return boto3.session.Session(
        aws_access_key_id="AKIDPARTSTORETEST", aws_secret_access_key="partstore-test-secret",
        region_name="us-east-1").client(
            "dynamodb", endpoint_url=endpoint,
            config=botocore.config.Config(parameter_validation=False,
                                          retries={"total_max_attempts": 1}))


KEY = {"PK": {"S": "p"}, "SK": {"S": "s"}}


def test_an_empty_expression_attribute_name_is_refused(client, table_name):
    want = "ExpressionAttributeNames contains invalid value: Empty attribute name for key #a"
    names = {"#a": ""}
    assert error(lambda: client.get_item(TableName=table_name, Key=KEY, ProjectionExpression="#a",
                                         ExpressionAttributeNames=names)) == want
    assert error(lambda: client.update_item(
        TableName=table_name, Key=KEY, UpdateExpression="SET #a = :v",
        ExpressionAttributeNames=names, ExpressionAttributeValues={":v": {"N": "1"}})) == want
    assert error(lambda: client.scan(TableName=table_name, FilterExpression="attribute_exists(#a)",
                                     ExpressionAttributeNames=names)) == want
    assert "Item" not in client.get_item(TableName=table_name, Key=KEY)


def test_a_name_over_65535_bytes_is_refused_everywhere(client, table_name):
    names = {"#a": LONG}
    calls = [
        lambda: client.put_item(TableName=table_name, Item={**KEY, LONG: {"N": "1"}}),
        lambda: client.put_item(TableName=table_name, Item={**KEY, "m": {"M": {LONG: {"N": "1"}}}}),
        lambda: client.get_item(TableName=table_name, Key=KEY, ProjectionExpression="#a",
                                ExpressionAttributeNames=names),
        lambda: client.get_item(TableName=table_name, Key=KEY, AttributesToGet=[LONG]),
        lambda: client.update_item(TableName=table_name, Key=KEY,
                                   AttributeUpdates={LONG: {"Value": {"N": "2"}, "Action": "PUT"}}),
        lambda: client.update_item(TableName=table_name, Key=KEY, UpdateExpression="SET #a = :v",
                                   ExpressionAttributeNames=names,
                                   ExpressionAttributeValues={":v": {"N": "3"}}),
        lambda: client.update_item(TableName=table_name, Key=KEY, UpdateExpression="SET a = :v",
                                   ConditionExpression="#a = :v", ExpressionAttributeNames=names,
                                   ExpressionAttributeValues={":v": {"N": "1"}}),
        lambda: client.put_item(TableName=table_name, Item=KEY,
                                Expected={LONG: {"Exists": False}}),
        lambda: client.scan(TableName=table_name,
                            ScanFilter={LONG: {"ComparisonOperator": "NULL"}}),
    ]
    for i, call in enumerate(calls):
        assert error(call) == TOO_LARGE, i
    assert "Item" not in client.get_item(TableName=table_name, Key=KEY)
    # 65535 bytes is the last size accepted.
    name = "b" * 65535
    client.update_item(TableName=table_name, Key=KEY, UpdateExpression="SET #a = :v",
                       ExpressionAttributeNames={"#a": name},
                       ExpressionAttributeValues={":v": {"N": "4"}})
    got = client.get_item(TableName=table_name, Key=KEY, ProjectionExpression="#a",
                          ExpressionAttributeNames={"#a": name})["Item"]
    assert got == {name: {"N": "4"}}


def test_empty_names_in_legacy_parameters_and_items(unchecked, table_name):
    calls = [
        lambda: unchecked.put_item(TableName=table_name, Item={**KEY, "": {"N": "1"}}),
        lambda: unchecked.get_item(TableName=table_name, Key=KEY, AttributesToGet=[""]),
        lambda: unchecked.put_item(TableName=table_name, Item=KEY, Expected={"": {"Exists": False}}),
        lambda: unchecked.scan(TableName=table_name, ScanFilter={"": {"ComparisonOperator": "NULL"}}),
        lambda: unchecked.update_item(TableName=table_name, Key=KEY,
                                      AttributeUpdates={"": {"Value": {"N": "2"}}}),
    ]
    for i, call in enumerate(calls):
        assert error(call) == "Empty attribute name", i


def test_attribute_definitions_names_are_1_to_255_bytes(unchecked):
    for name, constraint in (("", "greater than or equal to 1"),
                             ("n" * 256, "less than or equal to 255")):
        table = unique_name()
        message = error(lambda: unchecked.create_table(
            TableName=table, BillingMode="PAY_PER_REQUEST",
            KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"},
                                  {"AttributeName": name, "AttributeType": "S"}]))
        assert message == (f"1 validation error detected: Value '{name}' at "
                           "'attributeDefinitions.2.member.attributeName' failed to satisfy "
                           f"constraint: Member must have length {constraint}")
        with pytest.raises(ClientError):
            unchecked.describe_table(TableName=table)
    # A key attribute with no definition, and a definition no key uses.
    assert error(lambda: unchecked.create_table(
        TableName=unique_name(), BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])) == (
        "One or more parameter values were invalid: Some index key attributes are not defined in "
        "AttributeDefinitions. Keys: [PK], AttributeDefinitions: [pk]")
    assert error(lambda: unchecked.create_table(
        TableName=unique_name(), BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"},
                              {"AttributeName": "x", "AttributeType": "S"}])) == (
        "One or more parameter values were invalid: Number of attributes in KeySchema does not "
        "exactly match number of attributes defined in AttributeDefinitions")


def test_a_query_start_key_of_the_wrong_type(client, table_name):
    def query(start, condition="PK = :p"):
        return lambda: client.query(TableName=table_name, KeyConditionExpression=condition,
                                    ExpressionAttributeValues={":p": {"S": "p"}},
                                    ExclusiveStartKey=start)
    mismatch = "The provided key element does not match the schema"
    invalid = "The provided starting key is invalid"
    assert error(query({"PK": {"N": "1"}, "SK": {"S": "s"}})) == mismatch
    assert error(query({"PK": {"S": "p"}, "SK": {"B": b"s"}})) == mismatch
    assert error(query({"PK": {"S": "p"}})) == invalid
    assert error(query({"PK": {"S": "p"}, "SK": {"S": "s"}, "x": {"S": "x"}})) == invalid
    assert error(query({"PK": {"S": "p"}, "x": {"S": "s"}})) == invalid
    # The partition key's type is checked before the key condition, the sort key's after it.
    assert error(query({"PK": {"N": "1"}, "SK": {"S": "s"}}, "x = :p")) == mismatch
    assert error(query({"PK": {"S": "p"}, "SK": {"N": "1"}}, "x = :p")) == (
        "Query condition missed key schema element: PK")
    assert client.query(TableName=table_name, KeyConditionExpression="PK = :p",
                        ExpressionAttributeValues={":p": {"S": "p"}},
                        ExclusiveStartKey=KEY)["Items"] == []


def test_a_parallel_scan_start_key_from_another_segment(client, table_name):
    for i in range(20):
        client.put_item(TableName=table_name, Item={"PK": {"S": f"p{i}"}, "SK": {"S": "s"}})
    segments = {}
    for segment in range(2):
        for item in client.scan(TableName=table_name, Segment=segment, TotalSegments=2)["Items"]:
            segments[item["PK"]["S"]] = segment
    assert sorted(set(segments.values())) == [0, 1]
    for pk, segment in segments.items():
        start = {"PK": {"S": pk}, "SK": {"S": "s"}}
        client.scan(TableName=table_name, Segment=segment, TotalSegments=2, ExclusiveStartKey=start)
        other = 1 - segment
        assert error(lambda: client.scan(TableName=table_name, Segment=other, TotalSegments=2,
                                         ExclusiveStartKey=start)) == (
            "The provided starting key is invalid: Invalid ExclusiveStartKey. Please use "
            f"ExclusiveStartKey with correct Segment. TotalSegments: 2 Segment: {other}")
    # The most segments there may be, and one more (scylladb's test_scan.py against DynamoDB).
    message = error(lambda: client.scan(TableName=table_name, Segment=0, TotalSegments=1000000,
                                        ExclusiveStartKey={"PK": {"S": "p0"}, "SK": {"S": "s"}}))
    assert "Invalid ExclusiveStartKey" in message
    assert error(lambda: client.scan(TableName=table_name, Segment=0, TotalSegments=1000001)) == (
        "1 validation error detected: Value '1000001' at 'totalSegments' failed to satisfy "
        "constraint: Member must have value less than or equal to 1000000")


def test_an_index_start_key_of_the_wrong_type(client):
    name = unique_name()
    client.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"},
                   {"AttributeName": "SK", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"}
                              for a in ("PK", "SK", "GSI1PK")],
        GlobalSecondaryIndexes=[{"IndexName": "GSI1", "Projection": {"ProjectionType": "ALL"},
                                 "KeySchema": [{"AttributeName": "GSI1PK", "KeyType": "HASH"}]}])
    try:
        def scan(start):
            return lambda: client.scan(TableName=name, IndexName="GSI1", ExclusiveStartKey=start)
        good = {"GSI1PK": {"S": "g"}, "PK": {"S": "p"}, "SK": {"S": "s"}}
        assert client.scan(TableName=name, IndexName="GSI1", ExclusiveStartKey=good)["Items"] == []
        assert error(scan({**good, "GSI1PK": {"N": "1"}})) == (
            "The provided key element does not match the schema")
        assert error(scan({**good, "PK": {"N": "1"}})) == (
            "The provided starting key is invalid: The provided key element does not match the "
            "schema")
        assert error(scan({"PK": {"S": "p"}, "SK": {"S": "s"}})) == (
            "The provided starting key is invalid")
    finally:
        client.delete_table(TableName=name)


def test_zero_with_a_large_exponent(client, table_name):
    """Issue 50 asks for 0E+500 to be stored as 0; DynamoDB refuses 0e126 but accepts 0.0e126
    (scylladb test_number.py test_number_magnitude_not_allowed_zero, run against DynamoDB), and
    partstore answers as DynamoDB does."""
    def put(number):
        return lambda: client.put_item(TableName=table_name, Item={**KEY, "n": {"N": number}})
    put("0e125")()
    put("0.0e126")()
    assert client.get_item(TableName=table_name, Key=KEY)["Item"]["n"] == {"N": "0"}
    for number in ("0e126", "0E+500"):
        assert error(put(number)) == OVERFLOW
