"""On-demand backups through boto3 (partstore/backups.h): create, describe, list, restore into a
new table (with its GSI, and with overrides), delete, and the errors the SDK raises; with
--data-dir a backup outlives the server.
"""
import botocore.exceptions
import pytest

from conftest import make_client, serve


def make_table(client, name):
    client.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"},
                              {"AttributeName": "g", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[{"IndexName": "ByG",
                                 "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"}}])
    for i in range(8):
        client.put_item(TableName=name, Item={"PK": {"S": f"k{i}"}, "g": {"S": "all"},
                                              "n": {"N": str(i)}})


def error_code(call):
    with pytest.raises(botocore.exceptions.ClientError) as error:
        call()
    return error.value.response["Error"]["Code"]


def test_backup_restore_and_delete(tmp_path):
    with serve("--data-dir", str(tmp_path / "data")) as endpoint:
        client = make_client(endpoint)
        make_table(client, "Shop")
        details = client.create_backup(TableName="Shop", BackupName="before-sale")["BackupDetails"]
        assert details["BackupStatus"] == "AVAILABLE"
        assert details["BackupType"] == "USER"
        arn = details["BackupArn"]
        client.delete_item(TableName="Shop", Key={"PK": {"S": "k0"}})

        described = client.describe_backup(BackupArn=arn)["BackupDescription"]
        assert described["SourceTableDetails"]["TableName"] == "Shop"
        assert described["SourceTableDetails"]["ItemCount"] == 8
        assert [i["IndexName"] for i in
                described["SourceTableFeatureDetails"]["GlobalSecondaryIndexes"]] == ["ByG"]
        summaries = client.list_backups(TableName="Shop")["BackupSummaries"]
        assert [s["BackupArn"] for s in summaries] == [arn]

        restored = client.restore_table_from_backup(TargetTableName="ShopCopy", BackupArn=arn)
        assert restored["TableDescription"]["TableName"] == "ShopCopy"
        assert client.scan(TableName="ShopCopy", Select="COUNT")["Count"] == 8
        assert client.query(TableName="ShopCopy", IndexName="ByG",
                            KeyConditionExpression="g = :g",
                            ExpressionAttributeValues={":g": {"S": "all"}},
                            Select="COUNT")["Count"] == 8
        overridden = client.restore_table_from_backup(
            TargetTableName="ShopNoIndex", BackupArn=arn, GlobalSecondaryIndexOverride=[],
            BillingModeOverride="PROVISIONED",
            ProvisionedThroughputOverride={"ReadCapacityUnits": 5, "WriteCapacityUnits": 6})
        table = overridden["TableDescription"]
        assert "GlobalSecondaryIndexes" not in table or table["GlobalSecondaryIndexes"] == []
        assert table["ProvisionedThroughput"]["ReadCapacityUnits"] == 5

        assert error_code(lambda: client.restore_table_from_backup(
            TargetTableName="ShopCopy", BackupArn=arn)) == "TableAlreadyExistsException"
        assert error_code(lambda: client.create_backup(
            TableName="Nope", BackupName="x123")) == "TableNotFoundException"
        assert error_code(lambda: client.describe_backup(
            BackupArn=arn[:-1] + ("1" if arn[-1] == "0" else "0"))) == "BackupNotFoundException"

    # The backup is still there after a restart.
    with serve("--data-dir", str(tmp_path / "data")) as endpoint:
        client = make_client(endpoint)
        assert client.describe_backup(BackupArn=arn)["BackupDescription"]["BackupDetails"][
            "BackupName"] == "before-sale"
        deleted = client.delete_backup(BackupArn=arn)["BackupDescription"]
        assert deleted["BackupDetails"]["BackupStatus"] == "DELETED"
        assert client.list_backups()["BackupSummaries"] == []


def test_point_in_time_restore_serves_the_present_only(endpoint):
    client = make_client(endpoint)
    make_table(client, "Clock")
    assert error_code(lambda: client.restore_table_to_point_in_time(
        SourceTableName="Clock", TargetTableName="ClockNow",
        UseLatestRestorableTime=True)) == "PointInTimeRecoveryUnavailableException"
    client.update_continuous_backups(
        TableName="Clock", PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    restored = client.restore_table_to_point_in_time(
        SourceTableName="Clock", TargetTableName="ClockNow", UseLatestRestorableTime=True)
    assert restored["TableDescription"]["TableName"] == "ClockNow"
    assert client.scan(TableName="ClockNow", Select="COUNT")["Count"] == 8
    import datetime
    with pytest.raises(botocore.exceptions.ClientError) as error:
        client.restore_table_to_point_in_time(
            SourceTableName="Clock", TargetTableName="ClockPast",
            RestoreDateTime=datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc))
    assert error.value.response["Error"]["Code"] == "InvalidRestoreTimeException"
    assert "no history" in error.value.response["Error"]["Message"]
