"""Single-item operations through boto3: conditions, ReturnValues, failures, capacity, types."""
from decimal import Decimal

import pytest
from boto3.dynamodb.conditions import Attr
from boto3.dynamodb.types import Binary
from botocore.exceptions import ClientError
from conftest import not_through_cache

CONDITION_FAILED = "The conditional request failed"


def key(pk, sk):
    return {"PK": {"S": pk}, "SK": {"S": sk}}


def test_put_get_delete_low_level(client, table_name):
    item = {**key("USER#1", "PROFILE"), "name": {"S": "Ann"}, "age": {"N": "42"},
            "tags": {"SS": ["a", "b"]}, "blob": {"B": b"\x00\x01\xff"},
            "nested": {"M": {"l": {"L": [{"N": "1"}, {"BOOL": True}, {"NULL": True}]}}}}
    assert "Attributes" not in client.put_item(TableName=table_name, Item=item)
    got = client.get_item(TableName=table_name, Key=key("USER#1", "PROFILE"),
                          ConsistentRead=True)
    assert got["Item"] == item
    # A missing item: a response without Item.
    assert "Item" not in client.get_item(TableName=table_name, Key=key("USER#1", "NOPE"))
    projected = client.get_item(TableName=table_name, Key=key("USER#1", "PROFILE"),
                                ProjectionExpression="#n, nested.l[1]",
                                ExpressionAttributeNames={"#n": "name"})
    assert projected["Item"] == {"name": {"S": "Ann"},
                                 "nested": {"M": {"l": {"L": [{"BOOL": True}]}}}}
    # Numbers come back in DynamoDB's canonical form: no exponent, no insignificant zeros.
    # (boto3's resource layer cannot read 1E+125 back: boto/boto3#2500; the client can.)
    client.put_item(TableName=table_name, Item={**key("USER#1", "NUMBERS"),
                                                "big": {"N": "1E+125"}, "n": {"NS": ["1.50", "-0"]},
                                                "small": {"N": "0.000120"}})
    numbers = client.get_item(TableName=table_name, Key=key("USER#1", "NUMBERS"))["Item"]
    assert numbers["big"] == {"N": "1" + "0" * 125}
    assert numbers["small"] == {"N": "0.00012"}
    assert sorted(numbers["n"]["NS"]) == ["0", "1.5"]
    old = client.delete_item(TableName=table_name, Key=key("USER#1", "PROFILE"),
                             ReturnValues="ALL_OLD")
    assert old["Attributes"] == item
    assert "Item" not in client.get_item(TableName=table_name, Key=key("USER#1", "PROFILE"))


def test_put_return_values_all_old(client, table_name):
    first = client.put_item(TableName=table_name, Item={**key("a", "b"), "v": {"N": "1"}},
                            ReturnValues="ALL_OLD")
    assert "Attributes" not in first
    second = client.put_item(TableName=table_name, Item={**key("a", "b"), "v": {"N": "2"}},
                             ReturnValues="ALL_OLD")
    assert second["Attributes"] == {**key("a", "b"), "v": {"N": "1"}}
    with pytest.raises(ClientError) as error:
        client.put_item(TableName=table_name, Item=key("a", "b"), ReturnValues="ALL_NEW")
    assert error.value.response["Error"]["Code"] == "ValidationException"
    assert error.value.response["Error"]["Message"] == \
        "ReturnValues can only be ALL_OLD or NONE"


def test_conditional_put_create_only(client, table_name):
    item = {**key("USER#24680", "USER#24680"), "name": {"S": "Jane Smith"}}
    client.put_item(TableName=table_name, Item=item, ConditionExpression="attribute_not_exists(PK)")
    with pytest.raises(client.exceptions.ConditionalCheckFailedException) as error:
        client.put_item(TableName=table_name, Item={**item, "name": {"S": "Other"}},
                        ConditionExpression="attribute_not_exists(PK)")
    assert error.value.response["Error"]["Code"] == "ConditionalCheckFailedException"
    assert error.value.response["Error"]["Message"] == CONDITION_FAILED
    assert error.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400
    assert "Item" not in error.value.response  # not asked for
    assert client.get_item(TableName=table_name, Key=key("USER#24680", "USER#24680"))["Item"] \
        == item


def test_return_values_on_condition_check_failure_all_old(client, table_name):
    item = {**key("ORDER#1", "ORDER#1"), "status": {"S": "shipped"}, "total": {"N": "199.99"}}
    client.put_item(TableName=table_name, Item=item)
    for call in (
        lambda: client.put_item(TableName=table_name, Item=key("ORDER#1", "ORDER#1"),
                                ConditionExpression="#s = :p",
                                ExpressionAttributeNames={"#s": "status"},
                                ExpressionAttributeValues={":p": {"S": "pending"}},
                                ReturnValuesOnConditionCheckFailure="ALL_OLD"),
        lambda: client.update_item(TableName=table_name, Key=key("ORDER#1", "ORDER#1"),
                                   UpdateExpression="SET #s = :c",
                                   ConditionExpression="#s = :p",
                                   ExpressionAttributeNames={"#s": "status"},
                                   ExpressionAttributeValues={":p": {"S": "pending"},
                                                              ":c": {"S": "cancelled"}},
                                   ReturnValuesOnConditionCheckFailure="ALL_OLD"),
        lambda: client.delete_item(TableName=table_name, Key=key("ORDER#1", "ORDER#1"),
                                   ConditionExpression="attribute_not_exists(#t)",
                                   ExpressionAttributeNames={"#t": "total"},
                                   ReturnValuesOnConditionCheckFailure="ALL_OLD"),
    ):
        with pytest.raises(client.exceptions.ConditionalCheckFailedException) as error:
            call()
        assert error.value.response["Error"]["Message"] == CONDITION_FAILED
        assert error.value.response["Item"] == item
    # On a missing item the condition fails without an Item to return.
    with pytest.raises(client.exceptions.ConditionalCheckFailedException) as error:
        client.delete_item(TableName=table_name, Key=key("ORDER#2", "ORDER#2"),
                           ConditionExpression="attribute_exists(PK)",
                           ReturnValuesOnConditionCheckFailure="ALL_OLD")
    assert "Item" not in error.value.response
    # NONE (the default) returns no Item.
    with pytest.raises(client.exceptions.ConditionalCheckFailedException) as error:
        client.delete_item(TableName=table_name, Key=key("ORDER#1", "ORDER#1"),
                           ConditionExpression="attribute_not_exists(PK)",
                           ReturnValuesOnConditionCheckFailure="NONE")
    assert "Item" not in error.value.response


def test_update_item_return_values(client, table_name):
    k = key("PRODUCT#ABC123", "PRODUCT#ABC123")
    created = client.update_item(TableName=table_name, Key=k,
                                 UpdateExpression="SET price = :p, stock = :s",
                                 ExpressionAttributeValues={":p": {"N": "199.99"},
                                                            ":s": {"N": "10"}},
                                 ReturnValues="ALL_NEW")
    assert created["Attributes"] == {**k, "price": {"N": "199.99"}, "stock": {"N": "10"}}
    updated_new = client.update_item(TableName=table_name, Key=k,
                                     UpdateExpression="ADD stock :d SET price = :p",
                                     ExpressionAttributeValues={":d": {"N": "-3"},
                                                                ":p": {"N": "179.99"}},
                                     ReturnValues="UPDATED_NEW")
    assert updated_new["Attributes"] == {"stock": {"N": "7"}, "price": {"N": "179.99"}}
    updated_old = client.update_item(TableName=table_name, Key=k,
                                     UpdateExpression="REMOVE price SET sold = :one",
                                     ExpressionAttributeValues={":one": {"N": "1"}},
                                     ReturnValues="UPDATED_OLD")
    assert updated_old["Attributes"] == {"price": {"N": "179.99"}}
    all_old = client.update_item(TableName=table_name, Key=k, UpdateExpression="SET stock = :z",
                                 ExpressionAttributeValues={":z": {"N": "0"}},
                                 ReturnValues="ALL_OLD")
    assert all_old["Attributes"] == {**k, "stock": {"N": "7"}, "sold": {"N": "1"}}
    none = client.update_item(TableName=table_name, Key=k, UpdateExpression="SET stock = :z",
                              ExpressionAttributeValues={":z": {"N": "1"}})
    assert "Attributes" not in none

    # A condition on the current value (optimistic locking).
    with pytest.raises(client.exceptions.ConditionalCheckFailedException):
        client.update_item(TableName=table_name, Key=k, UpdateExpression="SET stock = :n",
                           ConditionExpression="stock = :expected",
                           ExpressionAttributeValues={":n": {"N": "5"},
                                                      ":expected": {"N": "99"}})
    assert client.get_item(TableName=table_name, Key=k)["Item"]["stock"] == {"N": "1"}


def test_expression_errors_are_validation_exceptions(client, table_name):
    cases = [
        (dict(UpdateExpression="SET a = :missing"),
         "Invalid UpdateExpression: An expression attribute value used in expression is not "
         "defined; attribute value: :missing"),
        (dict(UpdateExpression="SET a = :v", ExpressionAttributeValues={":v": {"S": "x"},
                                                                         ":unused": {"S": "y"}}),
         "Value provided in ExpressionAttributeValues unused in expressions: keys: {:unused}"),
        (dict(UpdateExpression="SET PK = :v", ExpressionAttributeValues={":v": {"S": "x"}}),
         "One or more parameter values were invalid: Cannot update attribute PK. This attribute "
         "is part of the key"),
    ]
    for kwargs, message in cases:
        with pytest.raises(ClientError) as error:
            client.update_item(TableName=table_name, Key=key("a", "b"), **kwargs)
        assert error.value.response["Error"]["Code"] == "ValidationException"
        assert error.value.response["Error"]["Message"] == message
    with pytest.raises(ClientError) as error:
        client.get_item(TableName=table_name, Key={"PK": {"S": "a"}})
    assert error.value.response["Error"]["Code"] == "ValidationException"
    assert error.value.response["Error"]["Message"] == \
        "The provided key element does not match the schema"


@not_through_cache("a hit reads no capacity: ConsumedCapacity is 0 units")
def test_consumed_capacity(client, table_name):
    put = client.put_item(TableName=table_name, Item={**key("a", "b"), "x": {"S": "y"}},
                          ReturnConsumedCapacity="TOTAL")
    assert put["ConsumedCapacity"] == {"TableName": table_name, "CapacityUnits": 1.0}
    eventual = client.get_item(TableName=table_name, Key=key("a", "b"),
                               ReturnConsumedCapacity="TOTAL")
    assert eventual["ConsumedCapacity"] == {"TableName": table_name, "CapacityUnits": 0.5}
    strong = client.get_item(TableName=table_name, Key=key("a", "b"), ConsistentRead=True,
                             ReturnConsumedCapacity="INDEXES")
    assert strong["ConsumedCapacity"]["CapacityUnits"] == 1.0
    assert strong["ConsumedCapacity"]["Table"] == {"CapacityUnits": 1.0}
    # A 2.5 KB item costs 3 write units.
    big = client.put_item(TableName=table_name, Item={**key("a", "big"), "p": {"S": "x" * 2500}},
                          ReturnConsumedCapacity="TOTAL")
    assert big["ConsumedCapacity"]["CapacityUnits"] == 3.0
    assert "ConsumedCapacity" not in client.get_item(TableName=table_name, Key=key("a", "b"))


def test_resource_types_round_trip(table):
    item = {"PK": "USER#12345", "SK": "USER#12345", "name": "John Doe",
            "price": Decimal("199.99"), "quantity": 2,
            "exact": Decimal("0.12345678901234567890123456789012345678"),
            "tags": {"gift", "express"}, "scores": {Decimal(1), Decimal("2.5")},
            "raw": Binary(b"\x00\xff"), "active": True, "nothing": None,
            "address": {"city": "Amsterdam", "lines": ["a", "b"]}}
    table.put_item(Item=item)
    got = table.get_item(Key={"PK": "USER#12345", "SK": "USER#12345"})["Item"]
    assert got == {**item, "quantity": Decimal(2)}
    assert str(got["exact"]) == "0.12345678901234567890123456789012345678"


def test_resource_conditions_and_update(table):
    k = {"PK": "ORDER#ORD001", "SK": "ORDER#ORD001"}
    table.put_item(Item={**k, "status": "pending", "total": Decimal("199.99")})
    response = table.update_item(
        Key=k, UpdateExpression="SET #s = :shipped",
        ConditionExpression=Attr("status").eq("pending") & Attr("total").gt(100),
        ExpressionAttributeNames={"#s": "status"},
        ExpressionAttributeValues={":shipped": "shipped"}, ReturnValues="UPDATED_NEW")
    assert response["Attributes"] == {"status": "shipped"}
    with pytest.raises(table.meta.client.exceptions.ConditionalCheckFailedException) as error:
        table.delete_item(Key=k, ConditionExpression=Attr("status").eq("pending"),
                          ReturnValuesOnConditionCheckFailure="ALL_OLD")
    assert error.value.response["Error"]["Message"] == CONDITION_FAILED
    # The resource layer leaves the error's Item in the wire shape, as botocore parses it.
    assert error.value.response["Item"]["status"] == {"S": "shipped"}
    assert table.get_item(Key=k)["Item"]["status"] == "shipped"
