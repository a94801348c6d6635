"""Tags and table settings through boto3: TagResource / UntagResource / ListTagsOfResource
(with pagination), CreateTable's Tags, DeletionProtectionEnabled enforced, TableClass,
SSESpecification, OnDemandThroughput and WarmThroughput stored and reported, each accepted alone
by UpdateTable; DescribeLimits; the named UnknownOperationException."""
import json
import urllib.error
import urllib.request

import pytest
from botocore.exceptions import ClientError

from conftest import create_table, unique_name


def call(endpoint, operation, body):
    """A raw DynamoDB call: Debian 12's botocore predates DeletionProtectionEnabled,
    OnDemandThroughput and WarmThroughput (it refuses them client-side and drops them from
    responses). Returns (HTTP status, body)."""
    request = urllib.request.Request(endpoint, data=json.dumps(body).encode(), headers={
        "X-Amz-Target": f"DynamoDB_20120810.{operation}",
        "Content-Type": "application/x-amz-json-1.0"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_tags_on_create_and_through_the_tag_operations(client):
    name = unique_name("tags")
    arn = create_table(client, name, Tags=[{"Key": "team", "Value": "cart"}])[
        "TableDescription"]["TableArn"]
    assert client.list_tags_of_resource(ResourceArn=arn)["Tags"] == [
        {"Key": "team", "Value": "cart"}]
    client.tag_resource(ResourceArn=arn,
                        Tags=[{"Key": f"k{i:02}", "Value": str(i)} for i in range(49)])
    # DynamoDB does not page the tags: all 50 in one answer, no NextToken (aws/aws-sdk#583).
    first = client.list_tags_of_resource(ResourceArn=arn)
    assert len(first["Tags"]) == 50 and "NextToken" not in first
    assert [t["Key"] for t in first["Tags"]][-2:] == ["k48", "team"]
    pages = client.get_paginator("list_tags_of_resource").paginate(ResourceArn=arn)
    assert [len(page["Tags"]) for page in pages] == [50]
    client.untag_resource(ResourceArn=arn, TagKeys=[f"k{i:02}" for i in range(49)])
    assert client.list_tags_of_resource(ResourceArn=arn)["Tags"] == [
        {"Key": "team", "Value": "cart"}]
    with pytest.raises(ClientError) as error:
        client.tag_resource(ResourceArn=arn, Tags=[{"Key": "aws:x", "Value": "v"}])
    assert error.value.response["Error"]["Message"] == (
        "Tag Key cannot be prefixed with aws:, Key: aws:x")
    client.delete_table(TableName=name)


def test_tags_of_a_missing_table_another_account_and_another_region(client):
    name = unique_name("tagged")
    arn = create_table(client, name)["TableDescription"]["TableArn"]
    region, account = arn.split(":")[3:5]

    def error_of(operation, **kwargs):
        with pytest.raises(ClientError) as error:
            getattr(client, operation)(**kwargs)
        return error.value.response["Error"]["Code"], error.value.response["Error"]["Message"]

    # This account, no such table: ResourceNotFoundException, "ResourcArn" as DynamoDB spells it.
    gone = arn.replace(name, name + "-gone")
    for operation, kwargs in [("list_tags_of_resource", {}),
                              ("tag_resource", {"Tags": [{"Key": "k", "Value": "v"}]}),
                              ("untag_resource", {"TagKeys": ["k"]})]:
        assert error_of(operation, ResourceArn=gone, **kwargs) == (
            "ResourceNotFoundException", f"Requested resource not found: ResourcArn: {gone} not found")
    # Another account's table, whether or not it exists: AccessDeniedException.
    foreign = arn.replace(f":{account}:", ":123456789012:")
    assert error_of("list_tags_of_resource", ResourceArn=foreign) == (
        "AccessDeniedException",
        f"User: arn:aws:iam::{account}:root is not authorized to perform: "
        f"dynamodb:ListTagsOfResource on resource: {foreign}")
    assert error_of("tag_resource", ResourceArn=foreign, Tags=[{"Key": "k", "Value": "v"}])[0] == (
        "AccessDeniedException")
    # Another region's ARN: a ValidationException.
    elsewhere = arn.replace(f":{region}:", ":eu-west-3:" if region != "eu-west-3" else ":us-west-2:")
    assert error_of("list_tags_of_resource", ResourceArn=elsewhere) == (
        "ValidationException", f"Invalid TableArn: Invalid ResourceArn provided as input {elsewhere}")
    # The table's own ARN still works, and input is checked before the table is looked for.
    assert client.list_tags_of_resource(ResourceArn=arn)["Tags"] == []
    assert error_of("tag_resource", ResourceArn=gone, Tags=[]) == (
        "ValidationException", "Atleast one Tag needs to be provided as Input.")
    client.delete_table(TableName=name)


def test_deletion_protection_is_enforced(endpoint):
    name = unique_name("kept")
    status, _ = call(endpoint, "CreateTable", {
        "TableName": name, "BillingMode": "PAY_PER_REQUEST", "DeletionProtectionEnabled": True,
        "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"}]})
    assert status == 200
    _, described = call(endpoint, "DescribeTable", {"TableName": name})
    assert described["Table"]["DeletionProtectionEnabled"] is True
    status, error = call(endpoint, "DeleteTable", {"TableName": name})
    assert status == 400
    assert error["__type"].endswith("ValidationException")
    assert error["message"] == (
        "Resource cannot be deleted as it is currently protected against deletion. "
        "Disable deletion protection first.")
    assert call(endpoint, "UpdateTable",
                {"TableName": name, "DeletionProtectionEnabled": False})[0] == 200
    assert call(endpoint, "DeleteTable", {"TableName": name})[0] == 200


def test_settings_are_stored_reported_and_updated_alone(client, endpoint, table_name):
    client.update_table(TableName=table_name, TableClass="STANDARD_INFREQUENT_ACCESS")
    client.update_table(TableName=table_name, SSESpecification={"Enabled": True})
    assert call(endpoint, "UpdateTable", {"TableName": table_name,
                "OnDemandThroughput": {"MaxReadRequestUnits": 200}})[0] == 200
    assert call(endpoint, "UpdateTable", {"TableName": table_name,
                "WarmThroughput": {"WriteUnitsPerSecond": 5000}})[0] == 200
    _, described = call(endpoint, "DescribeTable", {"TableName": table_name})
    table = described["Table"]
    assert table["TableClassSummary"]["TableClass"] == "STANDARD_INFREQUENT_ACCESS"
    assert table["SSEDescription"]["Status"] == "ENABLED"
    assert table["SSEDescription"]["SSEType"] == "KMS"
    assert table["OnDemandThroughput"] == {"MaxReadRequestUnits": 200, "MaxWriteRequestUnits": -1}
    assert table["WarmThroughput"] == {"WriteUnitsPerSecond": 5000, "Status": "ACTIVE"}
    assert table["DeletionProtectionEnabled"] is False
    # boto3 reads what its model knows.
    assert client.describe_table(TableName=table_name)["Table"]["TableClassSummary"][
        "TableClass"] == "STANDARD_INFREQUENT_ACCESS"
    with pytest.raises(ClientError) as error:
        client.update_table(TableName=table_name, TableClass="GLACIER")
    assert error.value.response["Error"]["Message"] == (
        "Invalid table-class parameter provided. Please try again with a valid table-class value: "
        "[STANDARD, STANDARD_INFREQUENT_ACCESS].")
    status, body = call(endpoint, "UpdateTable", {"TableName": table_name,
                        "TableClass": "STANDARD", "DeletionProtectionEnabled": True})
    assert status == 400
    assert "TableClass modification must be the only operation" in body["message"]


def test_describe_limits(client):
    limits = client.describe_limits()
    assert limits["TableMaxReadCapacityUnits"] == 40000
    assert limits["AccountMaxWriteCapacityUnits"] == 80000


def test_unknown_operations_are_named(endpoint):
    request = urllib.request.Request(endpoint, data=b"{}", headers={
        "X-Amz-Target": "DynamoDB_20120810.DescribeGlobalTable",
        "Content-Type": "application/x-amz-json-1.0"})
    with pytest.raises(urllib.error.HTTPError) as error:
        urllib.request.urlopen(request, timeout=10)
    body = json.loads(error.value.read())
    assert body["__type"].endswith("UnknownOperationException")
    assert "DescribeGlobalTable" in body["message"]


def test_tag_and_untag_answer_200_with_no_body(client, endpoint):
    # DynamoDB answers TagResource and UntagResource with HTTP 200 and an empty body (issue 50,
    # item 5; dynalite's recorded behaviour), which boto3 reads as an empty result.
    name = unique_name("tagbody")
    arn = create_table(client, name)["TableDescription"]["TableArn"]
    for operation, body in (("TagResource", {"ResourceArn": arn,
                                             "Tags": [{"Key": "k", "Value": "v"}]}),
                            ("UntagResource", {"ResourceArn": arn, "TagKeys": ["k"]})):
        request = urllib.request.Request(endpoint, data=json.dumps(body).encode(), headers={
            "X-Amz-Target": f"DynamoDB_20120810.{operation}",
            "Content-Type": "application/x-amz-json-1.0"})
        with urllib.request.urlopen(request, timeout=10) as response:
            assert (operation, response.status, response.read()) == (operation, 200, b"")
    assert client.tag_resource(ResourceArn=arn, Tags=[{"Key": "a", "Value": "b"}])[
        "ResponseMetadata"]["HTTPStatusCode"] == 200
    client.delete_table(TableName=name)
