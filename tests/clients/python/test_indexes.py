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
    # So does a ProjectionExpression naming an attribute the LSI does not project (issue 50, item
    # 4: DynamoDB fetches it from the base item, and charges for the fetch).
    named = indexed.query(IndexName="ByPlaced", ProjectionExpression="SK, note, #t",
                          ExpressionAttributeNames={"#t": "total"},
                          ReturnConsumedCapacity="TOTAL",
                          KeyConditionExpression=Key("PK").eq("USER#1") & Key("placed").gt(97))
    assert named["Items"] == [{"SK": "ORDER#02", "note": "x", "total": 2},
                              {"SK": "ORDER#01", "note": "x", "total": 1},
                              {"SK": "ORDER#00", "note": "x", "total": 0}]
    keys_only = indexed.query(IndexName="ByPlaced", ProjectionExpression="SK",
                              ReturnConsumedCapacity="TOTAL",
                              KeyConditionExpression=Key("PK").eq("USER#1") &
                              Key("placed").gt(97))
    assert keys_only["Items"] == [{"SK": "ORDER#02"}, {"SK": "ORDER#01"}, {"SK": "ORDER#00"}]
    assert (named["ConsumedCapacity"]["CapacityUnits"] >
            keys_only["ConsumedCapacity"]["CapacityUnits"])


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


def test_a_new_gsi_may_not_redefine_a_key_attributes_type(client, indexed):
    # Issue 48, item 5: `status` is the S partition key of ByStatus; a GSI keyed on it as N is
    # refused (Alternator's test_gsi_key_type_conflict_on_update quotes DynamoDB's text). So is the
    # table's key attribute under another type.
    def create(name, key, key_type):
        with pytest.raises(ClientError) as error:
            client.update_table(
                TableName=indexed.name,
                AttributeDefinitions=[{"AttributeName": key, "AttributeType": key_type}],
                GlobalSecondaryIndexUpdates=[{"Create": {
                    "IndexName": name, "KeySchema": [{"AttributeName": key, "KeyType": "HASH"}],
                    "Projection": {"ProjectionType": "ALL"}}}])
        assert error.value.response["Error"]["Code"] == "ValidationException"
        return error.value.response["Error"]["Message"]

    redefined = ("One or more parameter values were invalid: Attributes cannot be redefined. "
                 "Please check that your attribute has the same type as previously defined. ")
    assert create("ByStatusNumber", "status", "N") == redefined + (
        "Existing schema: Schema:[SchemaElement: key{status:S:HASH}, "
        "SchemaElement: key{placed:N:RANGE}] New schema: Schema:[SchemaElement: key{status:N:HASH}]")
    assert create("ByPk", "PK", "B") == redefined + (
        "Existing schema: Schema:[SchemaElement: key{PK:S:HASH}, SchemaElement: key{SK:S:RANGE}] "
        "New schema: Schema:[SchemaElement: key{PK:B:HASH}]")
    # A definition no new key uses is ignored, whatever its type, and does not join the table's.
    client.update_table(
        TableName=indexed.name,
        AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "N"},
                              {"AttributeName": "total", "AttributeType": "N"}],
        GlobalSecondaryIndexUpdates=[{"Create": {
            "IndexName": "ByTotal", "KeySchema": [{"AttributeName": "total", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "KEYS_ONLY"}}}])
    described = client.describe_table(TableName=indexed.name)["Table"]
    assert sorted((d["AttributeName"], d["AttributeType"])
                  for d in described["AttributeDefinitions"]) == [
        ("PK", "S"), ("SK", "S"), ("placed", "N"), ("status", "S"), ("total", "N")]
    assert indexed.query(IndexName="ByTotal", KeyConditionExpression=Key("total").eq(3))[
        "Count"] == 1


def test_backfill_leaves_out_items_whose_new_key_breaks_the_limits(client, dynamodb):
    # Issue 48, item 6: a GSI added to a table with items whose new key attribute is over the key
    # limits (2,048 bytes for a partition key, 1,024 for a sort key), empty, or of another type:
    # the index is created, those items are left out of it, the rest are indexed (DynamoDB's
    # "Detecting and correcting index key violations"; Alternator's test_gsi_backfill_key_limits
    # and test_gsi_backfill_oversized_key, run against DynamoDB).
    name = unique_name("backfill")
    client.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "p", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "p", "KeyType": "HASH"}])
    table = dynamodb.Table(name)
    sizes = [1, 1024, 1025, 2048, 2049, 66500]
    with table.batch_writer() as batch:
        for size in sizes:
            batch.put_item(Item={"p": f"s{size}", "x": "x" * size, "c": "c"})
        batch.put_item(Item={"p": "empty", "x": "", "c": "c"})
        batch.put_item(Item={"p": "number", "x": 5, "c": "c"})
        batch.put_item(Item={"p": "none", "c": "c"})
    definitions = [{"AttributeName": "x", "AttributeType": "S"},
                   {"AttributeName": "c", "AttributeType": "S"}]
    for index, key in (("ByX", [{"AttributeName": "x", "KeyType": "HASH"}]),
                       ("ByCX", [{"AttributeName": "c", "KeyType": "HASH"},
                                 {"AttributeName": "x", "KeyType": "RANGE"}])):
        client.update_table(TableName=name, AttributeDefinitions=definitions,
                            GlobalSecondaryIndexUpdates=[{"Create": {
                                "IndexName": index, "KeySchema": key,
                                "Projection": {"ProjectionType": "KEYS_ONLY"}}}])
    statuses = {i["IndexName"]: i["IndexStatus"] for i in
                client.describe_table(TableName=name)["Table"]["GlobalSecondaryIndexes"]}
    assert statuses == {"ByX": "ACTIVE", "ByCX": "ACTIVE"}
    by_x = sorted(i["p"] for i in table.scan(IndexName="ByX")["Items"])
    assert by_x == ["s1", "s1024", "s1025", "s2048"]
    by_cx = table.query(IndexName="ByCX", KeyConditionExpression=Key("c").eq("c"))["Items"]
    assert sorted(i["p"] for i in by_cx) == ["s1", "s1024"]
    # After the backfill, writes that break the new key are refused, as on any index, with the
    # table key's texts (a user's report of DynamoDB's answer for a GSI key over 2,048 bytes).
    for item, message in (({"x": "x" * 2049}, "Size of hashkey has exceeded the maximum size "
                                              "limit of2048 bytes"),
                          ({"x": "x" * 1025, "c": "c"}, "Aggregated size of all range keys has "
                                                        "exceeded the size limit of 1024 bytes")):
        with pytest.raises(ClientError) as error:
            table.put_item(Item={"p": "late", **item})
        assert error.value.response["Error"]["Message"] == (
            "One or more parameter values were invalid: " + message)
    with pytest.raises(ClientError) as error:
        table.update_item(Key={"p": "s1"}, UpdateExpression="SET x = :x",
                          ExpressionAttributeValues={":x": "x" * 1025})
    assert "Aggregated size of all range keys" in error.value.response["Error"]["Message"]
    assert table.get_item(Key={"p": "s1"})["Item"]["x"] == "x"
    client.delete_table(TableName=name)
