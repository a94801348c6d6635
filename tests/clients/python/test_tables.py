"""Table lifecycle through boto3: create, waiters, describe, list (paginator), update, delete."""
import pytest
from botocore.exceptions import ClientError

from conftest import create_table, unique_name

FAST_WAIT = {"Delay": 1, "MaxAttempts": 10}


def test_create_wait_describe_delete(client):
    name = unique_name("life")
    created = create_table(client, name)["TableDescription"]
    assert created["TableName"] == name
    assert created["TableStatus"] in ("CREATING", "ACTIVE")
    assert created["KeySchema"] == [{"AttributeName": "PK", "KeyType": "HASH"},
                                    {"AttributeName": "SK", "KeyType": "RANGE"}]
    assert sorted(created["AttributeDefinitions"], key=lambda d: d["AttributeName"]) == [
        {"AttributeName": "PK", "AttributeType": "S"},
        {"AttributeName": "SK", "AttributeType": "S"}]
    assert created["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    assert created["TableArn"].endswith(":table/" + name)
    assert created["ItemCount"] == 0 and created["TableSizeBytes"] == 0

    client.get_waiter("table_exists").wait(TableName=name, WaiterConfig=FAST_WAIT)
    table = client.describe_table(TableName=name)["Table"]
    assert table["TableStatus"] == "ACTIVE"
    assert table["TableId"] == created["TableId"]
    # botocore parses the epoch-seconds timestamp into a datetime.
    assert table["CreationDateTime"] == created["CreationDateTime"]
    assert table["ProvisionedThroughput"]["ReadCapacityUnits"] == 0

    client.put_item(TableName=name, Item={"PK": {"S": "a"}, "SK": {"S": "b"}})
    deleted = client.delete_table(TableName=name)["TableDescription"]
    assert deleted["TableStatus"] == "DELETING"
    assert deleted["TableName"] == name
    # What DynamoDB's DeleteTable answers, and what it leaves out (Alternator's
    # test_delete_table_description, run against DynamoDB).
    for present in ("TableArn", "TableId", "ItemCount", "TableSizeBytes", "ProvisionedThroughput",
                    "BillingModeSummary"):
        assert present in deleted, present
    assert deleted["ItemCount"] == 1
    for absent in ("KeySchema", "AttributeDefinitions", "CreationDateTime"):
        assert absent not in deleted, absent
    client.get_waiter("table_not_exists").wait(TableName=name, WaiterConfig=FAST_WAIT)
    assert name not in client.list_tables()["TableNames"]


def test_delete_table_answers_without_the_indexes(client):
    # With a GSI and an LSI, DescribeTable lists them and DeleteTable does not (Alternator's
    # test_delete_table_description_with_si, run against DynamoDB).
    name = unique_name("deleted")
    client.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"},
                   {"AttributeName": "SK", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"},
                              {"AttributeName": "SK", "AttributeType": "S"},
                              {"AttributeName": "G", "AttributeType": "S"},
                              {"AttributeName": "L", "AttributeType": "S"}],
        GlobalSecondaryIndexes=[{"IndexName": "ByG",
                                 "KeySchema": [{"AttributeName": "G", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"}}],
        LocalSecondaryIndexes=[{"IndexName": "ByL",
                                "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"},
                                              {"AttributeName": "L", "KeyType": "RANGE"}],
                                "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    described = client.describe_table(TableName=name)["Table"]
    assert "GlobalSecondaryIndexes" in described and "LocalSecondaryIndexes" in described
    deleted = client.delete_table(TableName=name)["TableDescription"]
    assert deleted["TableStatus"] == "DELETING"
    for absent in ("KeySchema", "AttributeDefinitions", "CreationDateTime",
                   "GlobalSecondaryIndexes", "LocalSecondaryIndexes"):
        assert absent not in deleted, absent


def test_provisioned_table_then_update_throughput_and_billing(client):
    name = unique_name("prov")
    created = create_table(client, name, range_key=None, BillingMode="PROVISIONED",
                           ProvisionedThroughput={"ReadCapacityUnits": 5,
                                                  "WriteCapacityUnits": 5})["TableDescription"]
    assert created["ProvisionedThroughput"]["ReadCapacityUnits"] == 5
    assert created["ProvisionedThroughput"]["WriteCapacityUnits"] == 5
    client.get_waiter("table_exists").wait(TableName=name, WaiterConfig=FAST_WAIT)
    try:
        updated = client.update_table(
            TableName=name,
            ProvisionedThroughput={"ReadCapacityUnits": 10, "WriteCapacityUnits": 5},
        )["TableDescription"]
        assert updated["ProvisionedThroughput"]["ReadCapacityUnits"] == 10
        client.get_waiter("table_exists").wait(TableName=name, WaiterConfig=FAST_WAIT)
        described = client.describe_table(TableName=name)["Table"]
        assert described["ProvisionedThroughput"]["ReadCapacityUnits"] == 10
        assert described["ProvisionedThroughput"]["WriteCapacityUnits"] == 5
        assert "LastIncreaseDateTime" in described["ProvisionedThroughput"]

        # The same values again: DynamoDB refuses a no-op throughput change.
        with pytest.raises(ClientError) as error:
            client.update_table(TableName=name, ProvisionedThroughput={
                "ReadCapacityUnits": 10, "WriteCapacityUnits": 5})
        assert error.value.response["Error"]["Code"] == "ValidationException"
        assert error.value.response["Error"]["Message"] == (
            "The provisioned throughput for the table will not change. The requested value "
            "equals the current value. Current ReadCapacityUnits provisioned for the table: 10. "
            "Requested ReadCapacityUnits: 10. Current WriteCapacityUnits provisioned for the "
            "table: 5. Requested WriteCapacityUnits: 5. Refer to the Amazon DynamoDB Developer "
            "Guide for current limits and how to request higher limits.")

        switched = client.update_table(TableName=name, BillingMode="PAY_PER_REQUEST")
        assert switched["TableDescription"]["BillingModeSummary"]["BillingMode"] == \
            "PAY_PER_REQUEST"
        described = client.describe_table(TableName=name)["Table"]
        assert described["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
        assert described["ProvisionedThroughput"]["ReadCapacityUnits"] == 0
        assert described["ProvisionedThroughput"]["WriteCapacityUnits"] == 0
    finally:
        client.delete_table(TableName=name)


def test_update_table_response_reports_updating(client):
    # DynamoDB's UpdateTable response reports UPDATING (the change is asynchronous); partstore
    # applies it at once, so the response says UPDATING and the next DescribeTable ACTIVE.
    name = unique_name("upd")
    create_table(client, name, range_key=None, BillingMode="PROVISIONED",
                 ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})
    try:
        updated = client.update_table(
            TableName=name,
            ProvisionedThroughput={"ReadCapacityUnits": 2, "WriteCapacityUnits": 2},
        )["TableDescription"]
        assert updated["TableStatus"] == "UPDATING"
        assert client.describe_table(TableName=name)["Table"]["TableStatus"] == "ACTIVE"
    finally:
        client.delete_table(TableName=name)


def test_list_tables_paginator(client):
    prefix = unique_name("list")
    names = [f"{prefix}-{i:02d}" for i in range(7)]
    for name in names:
        create_table(client, name, range_key=None)
    try:
        pages = list(client.get_paginator("list_tables").paginate(
            PaginationConfig={"PageSize": 3}))
        # Every page but the last carries LastEvaluatedTableName; the union is every table,
        # in DynamoDB's order (ascending by name).
        assert len(pages) >= 3
        assert all(len(p["TableNames"]) <= 3 for p in pages)
        assert all("LastEvaluatedTableName" in p for p in pages[:-1])
        listed = [n for p in pages for n in p["TableNames"]]
        assert listed == sorted(listed)
        assert [n for n in listed if n.startswith(prefix)] == names

        # Starting after the third of ours, with a Limit.
        page = client.list_tables(ExclusiveStartTableName=names[2], Limit=2)
        assert page["TableNames"] == names[3:5]
        assert page["LastEvaluatedTableName"] == names[4]
    finally:
        for name in names:
            client.delete_table(TableName=name)


def test_create_existing_table_is_resource_in_use(client, table_name):
    with pytest.raises(client.exceptions.ResourceInUseException) as error:
        create_table(client, table_name)
    assert error.value.response["Error"]["Code"] == "ResourceInUseException"
    assert error.value.response["Error"]["Message"] == f"Table already exists: {table_name}"
    assert error.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400


def test_missing_table_is_resource_not_found(client):
    name = unique_name("missing")
    with pytest.raises(client.exceptions.ResourceNotFoundException) as error:
        client.describe_table(TableName=name)
    assert error.value.response["Error"]["Message"] == \
        f"Requested resource not found: Table: {name} not found"
    with pytest.raises(client.exceptions.ResourceNotFoundException) as error:
        client.delete_table(TableName=name)
    assert error.value.response["Error"]["Message"] == \
        f"Requested resource not found: Table: {name} not found"
    # The data plane does not name the table.
    with pytest.raises(client.exceptions.ResourceNotFoundException) as error:
        client.get_item(TableName=name, Key={"PK": {"S": "a"}})
    assert error.value.response["Error"]["Message"] == "Requested resource not found"


def test_invalid_table_name_is_validation_exception(client):
    with pytest.raises(ClientError) as error:
        client.describe_table(TableName="no spaces!")
    assert error.value.response["Error"]["Code"] == "ValidationException"
    assert error.value.response["Error"]["Message"] == (
        "1 validation error detected: Value 'no spaces!' at 'tableName' failed to satisfy "
        "constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+")

