"""TransactWriteItems and TransactGetItems through boto3: TransactionCanceledException with its
CancellationReasons (parsed by botocore from the error body), a transfer between two accounts,
transactional reads, and ClientRequestToken idempotency."""
import uuid

import pytest

CANCELLED = "Transaction cancelled, please refer cancellation reasons for specific reasons [{}]"


def key(pk, sk):
    return {"PK": {"S": pk}, "SK": {"S": sk}}


def get(client, table_name, pk, sk):
    return client.get_item(TableName=table_name, Key=key(pk, sk)).get("Item")


def test_failing_condition_cancels_with_reasons_in_action_order(client, table_name):
    carol = {**key("ACCOUNT#carol", "BALANCE"), "balance": {"N": "5"}}
    client.put_item(TableName=table_name, Item=carol)
    with pytest.raises(client.exceptions.TransactionCanceledException) as error:
        client.transact_write_items(TransactItems=[
            {"Put": {"TableName": table_name, "Item": key("ACCOUNT#dave", "BALANCE")}},
            {"ConditionCheck": {"TableName": table_name, "Key": key("ACCOUNT#carol", "BALANCE"),
                                "ConditionExpression": "balance >= :n",
                                "ExpressionAttributeValues": {":n": {"N": "10"}},
                                "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}},
            {"Update": {"TableName": table_name, "Key": key("ACCOUNT#erin", "BALANCE"),
                        "UpdateExpression": "SET balance = :z",
                        "ExpressionAttributeValues": {":z": {"N": "0"}}}},
            {"Delete": {"TableName": table_name, "Key": key("ACCOUNT#nobody", "BALANCE"),
                        "ConditionExpression": "attribute_exists(PK)"}}])
    response = error.value.response
    assert response["Error"]["Code"] == "TransactionCanceledException"
    assert response["Error"]["Message"] == CANCELLED.format(
        "None, ConditionalCheckFailed, None, ConditionalCheckFailed")
    assert response["ResponseMetadata"]["HTTPStatusCode"] == 400
    reasons = response["CancellationReasons"]
    assert [r["Code"] for r in reasons] == ["None", "ConditionalCheckFailed", "None",
                                            "ConditionalCheckFailed"]
    # ALL_OLD: the item whose condition failed, parsed as an AttributeMap.
    assert reasons[1]["Item"] == carol
    assert reasons[1]["Message"] == "The conditional request failed"
    assert "Item" not in reasons[3]  # no ALL_OLD (and no item)
    assert reasons[3]["Message"] == "The conditional request failed"
    assert reasons[0] == {"Code": "None"}
    # Nothing was applied.
    assert get(client, table_name, "ACCOUNT#dave", "BALANCE") is None
    assert get(client, table_name, "ACCOUNT#erin", "BALANCE") is None


def test_transfer_commits_every_write(client, table_name):
    client.put_item(TableName=table_name,
                    Item={**key("ACCOUNT#alice", "BALANCE"), "balance": {"N": "100"}})
    client.put_item(TableName=table_name,
                    Item={**key("ACCOUNT#bob", "BALANCE"), "balance": {"N": "0"}})

    def transfer(amount, transfer_id):
        return client.transact_write_items(TransactItems=[
            {"Update": {"TableName": table_name, "Key": key("ACCOUNT#alice", "BALANCE"),
                        "UpdateExpression": "SET balance = balance - :a",
                        "ConditionExpression": "balance >= :a",
                        "ExpressionAttributeValues": {":a": {"N": str(amount)}}}},
            {"Update": {"TableName": table_name, "Key": key("ACCOUNT#bob", "BALANCE"),
                        "UpdateExpression": "SET balance = balance + :a",
                        "ExpressionAttributeValues": {":a": {"N": str(amount)}}}},
            {"Put": {"TableName": table_name,
                     "Item": {**key("TRANSFER#" + transfer_id, "TRANSFER"),
                              "amount": {"N": str(amount)}},
                     "ConditionExpression": "attribute_not_exists(PK)"}}],
            ReturnConsumedCapacity="TOTAL")

    done = transfer(30, "t1")
    # Three small transactional writes: 2 write units each.
    assert done["ConsumedCapacity"] == [{"TableName": table_name, "CapacityUnits": 6.0}]
    assert get(client, table_name, "ACCOUNT#alice", "BALANCE")["balance"] == {"N": "70"}
    assert get(client, table_name, "ACCOUNT#bob", "BALANCE")["balance"] == {"N": "30"}
    assert get(client, table_name, "TRANSFER#t1", "TRANSFER")["amount"] == {"N": "30"}

    # Too much: the first condition fails, nothing moves.
    with pytest.raises(client.exceptions.TransactionCanceledException) as error:
        transfer(500, "t2")
    assert [r["Code"] for r in error.value.response["CancellationReasons"]] == [
        "ConditionalCheckFailed", "None", "None"]
    assert get(client, table_name, "ACCOUNT#alice", "BALANCE")["balance"] == {"N": "70"}
    assert get(client, table_name, "ACCOUNT#bob", "BALANCE")["balance"] == {"N": "30"}
    assert get(client, table_name, "TRANSFER#t2", "TRANSFER") is None


def test_transact_get_items(client, table_name):
    client.put_item(TableName=table_name,
                    Item={**key("USER#ann", "PROFILE"), "name": {"S": "Ann"}, "age": {"N": "30"}})
    client.put_item(TableName=table_name, Item=key("USER#ann", "FOLLOWS#USER#bob"))
    got = client.transact_get_items(TransactItems=[
        {"Get": {"TableName": table_name, "Key": key("USER#ann", "PROFILE"),
                 "ProjectionExpression": "#n", "ExpressionAttributeNames": {"#n": "name"}}},
        {"Get": {"TableName": table_name, "Key": key("USER#ann", "FOLLOWS#USER#cat")}},
        {"Get": {"TableName": table_name, "Key": key("USER#ann", "FOLLOWS#USER#bob")}}],
        ReturnConsumedCapacity="TOTAL")
    # One entry per Get, in order; a missing item is an entry without Item.
    assert got["Responses"] == [{"Item": {"name": {"S": "Ann"}}}, {},
                                {"Item": key("USER#ann", "FOLLOWS#USER#bob")}]
    # Transactional reads: 2 read units per item of up to 4 KB, a missing one included.
    assert got["ConsumedCapacity"] == [{"TableName": table_name, "CapacityUnits": 6.0}]

    with pytest.raises(client.exceptions.ClientError) as error:
        client.transact_get_items(TransactItems=[
            {"Get": {"TableName": table_name, "Key": key("USER#ann", "PROFILE")}},
            {"Get": {"TableName": table_name, "Key": {"PK": {"S": "USER#ann"}}}}])
    assert error.value.response["Error"]["Code"] == "TransactionCanceledException"
    assert [r["Code"] for r in error.value.response["CancellationReasons"]] == [
        "None", "ValidationError"]


def test_client_request_token_replay_applies_once(client, table_name):
    token = str(uuid.uuid4())

    def increment():
        return client.transact_write_items(ClientRequestToken=token, TransactItems=[
            {"Update": {"TableName": table_name, "Key": key("COUNTER#c", "COUNTER"),
                        "UpdateExpression": "ADD hits :one",
                        "ExpressionAttributeValues": {":one": {"N": "1"}}}}])

    increment()
    increment()  # the same request again within 10 minutes: answered, not applied twice
    assert get(client, table_name, "COUNTER#c", "COUNTER")["hits"] == {"N": "1"}
    # botocore fills in a fresh token by itself (the member is an idempotency token), so two calls
    # without one are two transactions.
    for _ in range(2):
        client.transact_write_items(TransactItems=[
            {"Update": {"TableName": table_name, "Key": key("COUNTER#c", "COUNTER"),
                        "UpdateExpression": "ADD hits :one",
                        "ExpressionAttributeValues": {":one": {"N": "1"}}}}])
    assert get(client, table_name, "COUNTER#c", "COUNTER")["hits"] == {"N": "3"}


def test_reused_token_with_other_parameters_is_a_mismatch(client, table_name):
    token = str(uuid.uuid4())
    client.transact_write_items(ClientRequestToken=token, TransactItems=[
        {"Put": {"TableName": table_name, "Item": key("ORDER#1", "ORDER")}}])
    with pytest.raises(client.exceptions.IdempotentParameterMismatchException) as error:
        client.transact_write_items(ClientRequestToken=token, TransactItems=[
            {"Put": {"TableName": table_name, "Item": key("ORDER#2", "ORDER")}}])
    assert error.value.response["Error"]["Message"] == (
        "The request uses the same client token as a previous, but non-identical request. "
        "Please use a different client token.")
    assert get(client, table_name, "ORDER#2", "ORDER") is None


def test_validation_errors(client, table_name):
    with pytest.raises(client.exceptions.ClientError) as error:
        client.transact_write_items(TransactItems=[
            {"Put": {"TableName": table_name, "Item": key("A", "1")}},
            {"Delete": {"TableName": table_name, "Key": key("A", "1")}}])
    assert error.value.response["Error"]["Code"] == "ValidationException"
    assert error.value.response["Error"]["Message"] == (
        "Transaction request cannot include multiple operations on one item")
    assert get(client, table_name, "A", "1") is None
