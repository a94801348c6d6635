"""Secondary indexes through boto3: an LSI and a GSI created with the table, queried with the
resource layer and the paginator, kept in step with writes, and their errors."""
import pytest
from boto3.dynamodb.conditions import Key
from botocore.exceptions import ClientError

from conftest import unique_name


@pytest.fixture
def indexed(client, dynamodb):
    name = unique_name("idx")
    client.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": t} for a, t in
                              (("PK", "S"), ("SK", "S"), ("placed", "N"), ("status", "S"))],
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"},
                   {"AttributeName": "SK", "KeyType": "RANGE"}],
        LocalSecondaryIndexes=[{
            "IndexName": "ByPlaced",
            "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"},
                          {"AttributeName": "placed", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "KEYS_ONLY"}}],
        GlobalSecondaryIndexes=[{
            "IndexName": "ByStatus",
            "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"},
                          {"AttributeName": "placed", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["total"]}}])
    table = dynamodb.Table(name)
    with table.batch_writer() as batch:
        for n in range(12):
            batch.put_item(Item={"PK": "USER#1", "SK": f"ORDER#{n:02d}", "placed": 100 - n,
                                 "status": "open" if n % 3 else "shipped", "total": n,
                                 "note": "x"})
    yield table
    client.delete_table(TableName=name)


def test_lsi_query_orders_by_the_index_sort_key(indexed):
    got = indexed.query(IndexName="ByPlaced",
                        KeyConditionExpression=Key("PK").eq("USER#1") & Key("placed").lt(92))
    # placed = 100 - n: the LSI orders by placed, ascending.
    assert [i["SK"] for i in got["Items"]] == ["ORDER#11", "ORDER#10", "ORDER#09"]
    assert set(got["Items"][0]) == {"PK", "SK", "placed"}  # KEYS_ONLY
    # ALL_ATTRIBUTES on an LSI fetches the base items.
    full = indexed.query(IndexName="ByPlaced", Select="ALL_ATTRIBUTES",
                         KeyConditionExpression=Key("PK").eq("USER#1") & Key("placed").eq(100))
    assert full["Items"][0]["note"] == "x"


def test_gsi_paginator_and_maintenance(client, indexed):
    pages = list(client.get_paginator("query").paginate(
        TableName=indexed.name, IndexName="ByStatus",
        KeyConditionExpression="#s = :s", ExpressionAttributeNames={"#s": "status"},
        ExpressionAttributeValues={":s": {"S": "open"}}, PaginationConfig={"PageSize": 3}))
    placed = [int(i["placed"]["N"]) for p in pages for i in p["Items"]]
    assert placed == sorted(100 - n for n in range(12) if n % 3)
    assert set(pages[0]["LastEvaluatedKey"]) == {"PK", "SK", "status", "placed"}
    # An update moves the item between index partitions before the call returns.
    indexed.update_item(Key={"PK": "USER#1", "SK": "ORDER#01"},
                        UpdateExpression="SET #s = :s", ExpressionAttributeNames={"#s": "status"},
                        ExpressionAttributeValues={":s": "shipped"})
    shipped = indexed.query(IndexName="ByStatus", KeyConditionExpression=Key("status").eq("shipped"),
                            ReturnConsumedCapacity="INDEXES")
    assert "ORDER#01" in [i["SK"] for i in shipped["Items"]]
    assert "Table" not in shipped["ConsumedCapacity"]
    assert shipped["ConsumedCapacity"]["GlobalSecondaryIndexes"]["ByStatus"]["CapacityUnits"] == 0.5


def test_index_errors(indexed):
    with pytest.raises(ClientError) as e:
        indexed.query(IndexName="ByStatus", ConsistentRead=True,
                      KeyConditionExpression=Key("status").eq("open"))
    assert e.value.response["Error"]["Code"] == "ValidationException"
    assert e.value.response["Error"]["Message"] == \
        "Consistent reads are not supported on global secondary indexes"
    with pytest.raises(ClientError) as e:
        indexed.put_item(Item={"PK": "USER#2", "SK": "X", "placed": "soon"})
    assert "Type mismatch for Index Key placed" in e.value.response["Error"]["Message"]
    with pytest.raises(ClientError) as e:
        indexed.query(IndexName="Nope", KeyConditionExpression=Key("PK").eq("USER#1"))
    assert e.value.response["Error"]["Message"] == \
        "The table does not have the specified index: Nope"


def test_update_table_index_errors_are_dynamodbs(client, indexed):
    # UpdateTable's GlobalSecondaryIndexUpdates refused in DynamoDB's words (issue 48, item 5;
    # a live catalogue of UpdateTable errors, dynalite's tests, Alternator's test_gsi_updatetable.py).
    def refused(updates, definitions=()):
        with pytest.raises(ClientError) as error:
            client.update_table(TableName=indexed.name, GlobalSecondaryIndexUpdates=updates,
                                AttributeDefinitions=[
                                    {"AttributeName": a, "AttributeType": t}
                                    for a, t in definitions])
        assert error.value.response["Error"]["Code"] == "ValidationException"
        return error.value.response["Error"]["Message"]

    def create(name):
        return {"Create": {"IndexName": name,
                           "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}],
                           "Projection": {"ProjectionType": "KEYS_ONLY"}}}

    for existing in ("ByStatus", "ByPlaced"):  # a GSI's name, an LSI's
        assert refused([create(existing)], [("status", "S")]) == (
            "Attempting to create an index which already exists")
    both = create("Other")
    both["Delete"] = {"IndexName": "ByStatus"}
    assert refused([both], [("status", "S")]) == (
        "One or more parameter values were invalid: Only one global secondary index action is "
        "allowed per GlobalSecondaryIndexUpdate object")
    assert refused([{}]) == (
        "One or more parameter values were invalid: One of GlobalSecondaryIndexUpdate.Update, "
        "GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete must not be null")
    assert refused([{"Delete": {"IndexName": "ByStatus"}}, create("ByStatus")],
                   [("status", "S")]) == (
        "One or more parameter values were invalid: Only one global secondary index update per "
        "index is allowed simultaneously. Index: ByStatus")
    # Nothing was changed.
    described = client.describe_table(TableName=indexed.name)["Table"]
    assert [i["IndexName"] for i in described["GlobalSecondaryIndexes"]] == ["ByStatus"]
