"""Exports and imports through boto3 against `partstore serve --s3-dir DIR` (tools/transfer/):
continuous backups first, as DynamoDB requires; ExportTableToPointInTime writes DynamoDB's
layout (manifests with their documented fields, gzipped {"Item": ...} lines) into DIR/<bucket>;
ImportTable loads those data files, and CSV, into a new table; the errors a client sees.
"""
import gzip
import json
import os
import time

import botocore.exceptions
import pytest

from conftest import make_client, serve


def wait(describe, key, status_key):
    for _ in range(200):
        description = describe()[key]
        if description[status_key] != "IN_PROGRESS":
            return description
        time.sleep(0.05)
    pytest.fail("the job did not finish in 10 s")


def test_export_then_import_through_the_sdk(tmp_path):
    s3 = tmp_path / "s3"
    (s3 / "bucket").mkdir(parents=True)
    with serve("--s3-dir", str(s3)) as endpoint:
        client = make_client(endpoint)
        client.create_table(
            TableName="Source", BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"},
                                  {"AttributeName": "SK", "AttributeType": "N"}],
            KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"},
                       {"AttributeName": "SK", "KeyType": "RANGE"}])
        items = [{"PK": {"S": f"p{i % 3}"}, "SK": {"N": str(i)}, "b": {"B": b"\x00\xff"},
                  "m": {"M": {"l": {"L": [{"BOOL": True}, {"NULL": True}]}}},
                  "ss": {"SS": ["a", "b"]}} for i in range(25)]
        for item in items:
            client.put_item(TableName="Source", Item=item)
        arn = client.describe_table(TableName="Source")["Table"]["TableArn"]

        with pytest.raises(botocore.exceptions.ClientError) as refused:
            client.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket")
        assert refused.value.response["Error"]["Code"] == "PointInTimeRecoveryUnavailableException"

        backups = client.describe_continuous_backups(TableName="Source")
        assert backups["ContinuousBackupsDescription"]["ContinuousBackupsStatus"] == "ENABLED"
        assert (backups["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]
                ["PointInTimeRecoveryStatus"]) == "DISABLED"
        enabled = client.update_continuous_backups(
            TableName="Source",
            PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
        pitr = enabled["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]
        assert pitr["PointInTimeRecoveryStatus"] == "ENABLED"
        assert pitr["EarliestRestorableDateTime"] == pitr["LatestRestorableDateTime"]

        started = client.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket",
                                                       S3Prefix="nightly")
        export_arn = started["ExportDescription"]["ExportArn"]
        assert export_arn.startswith(arn + "/export/")
        done = wait(lambda: client.describe_export(ExportArn=export_arn),
                    "ExportDescription", "ExportStatus")
        assert done["ExportStatus"] == "COMPLETED", done
        assert done["ItemCount"] == 25
        assert done["ExportFormat"] == "DYNAMODB_JSON"
        listed = client.list_exports(TableArn=arn)["ExportSummaries"]
        assert [e["ExportArn"] for e in listed] == [export_arn]

        # The files, as tools that read real exports expect them.
        export_id = export_arn.rsplit("/", 1)[1]
        root = s3 / "bucket" / "nightly" / "AWSDynamoDB" / export_id
        summary = json.loads((root / "manifest-summary.json").read_text())
        assert summary["version"] == "2020-06-30"
        assert summary["exportArn"] == export_arn
        assert summary["itemCount"] == 25
        assert summary["manifestFilesS3Key"] == f"nightly/AWSDynamoDB/{export_id}/manifest-files.json"
        assert done["ExportManifest"] == f"nightly/AWSDynamoDB/{export_id}/manifest-summary.json"
        exported = []
        for line in (root / "manifest-files.json").read_text().splitlines():
            entry = json.loads(line)
            with gzip.open(s3 / "bucket" / entry["dataFileS3Key"], "rt") as data:
                rows = [json.loads(row) for row in data]
            assert len(rows) == entry["itemCount"]
            exported += [row["Item"] for row in rows]
        assert len(exported) == 25
        assert {"S": "p1"} in [row["PK"] for row in exported]

        imported = client.import_table(
            S3BucketSource={"S3Bucket": "bucket",
                            "S3KeyPrefix": f"nightly/AWSDynamoDB/{export_id}/data/"},
            InputFormat="DYNAMODB_JSON", InputCompressionType="GZIP",
            TableCreationParameters={
                "TableName": "Copy", "BillingMode": "PAY_PER_REQUEST",
                "AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"},
                                         {"AttributeName": "SK", "AttributeType": "N"}],
                "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"},
                              {"AttributeName": "SK", "KeyType": "RANGE"}]})
        import_arn = imported["ImportTableDescription"]["ImportArn"]
        finished = wait(lambda: client.describe_import(ImportArn=import_arn),
                        "ImportTableDescription", "ImportStatus")
        assert finished["ImportStatus"] == "COMPLETED", finished
        assert finished["ImportedItemCount"] == 25
        assert finished["ErrorCount"] == 0
        summaries = client.list_imports()["ImportSummaryList"]
        assert [s["ImportArn"] for s in summaries] == [import_arn]
        copied = client.scan(TableName="Copy")["Items"]
        key = lambda item: (item["PK"]["S"], int(item["SK"]["N"]))  # noqa: E731
        assert sorted(copied, key=key) == sorted(items, key=key)


def test_csv_import_and_the_errors_a_client_sees(tmp_path):
    s3 = tmp_path / "s3"
    (s3 / "bucket" / "csv").mkdir(parents=True)
    (s3 / "bucket" / "csv" / "users.csv").write_text("id,name,age\nu1,Ann,31\nu2,\"Bo, Jr\",\n,x,1\n")
    with serve("--s3-dir", str(s3)) as endpoint:
        client = make_client(endpoint)
        imported = client.import_table(
            S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": "csv/"},
            InputFormat="CSV",
            TableCreationParameters={
                "TableName": "Users", "BillingMode": "PAY_PER_REQUEST",
                "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
                "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}]})
        import_arn = imported["ImportTableDescription"]["ImportArn"]
        done = wait(lambda: client.describe_import(ImportArn=import_arn),
                    "ImportTableDescription", "ImportStatus")
        assert (done["ImportStatus"], done["ImportedItemCount"], done["ErrorCount"]) == \
            ("COMPLETED", 2, 1)
        assert client.get_item(TableName="Users", Key={"id": {"S": "u2"}})["Item"] == \
            {"id": {"S": "u2"}, "name": {"S": "Bo, Jr"}}
        assert client.get_item(TableName="Users", Key={"id": {"S": "u1"}})["Item"]["age"] == \
            {"S": "31"}

        for call, code in [
            (lambda: client.describe_export(ExportArn="arn:aws:dynamodb:us-east-1:0:table/T/export/x"),
             "ExportNotFoundException"),
            (lambda: client.describe_import(ImportArn="arn:aws:dynamodb:us-east-1:0:table/T/import/x"),
             "ImportNotFoundException"),
            (lambda: client.describe_continuous_backups(TableName="Nope"),
             "TableNotFoundException"),
            (lambda: client.import_table(
                S3BucketSource={"S3Bucket": "bucket"}, InputFormat="ION",
                TableCreationParameters={
                    "TableName": "Ion",
                    "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
                    "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}]}),
             "ValidationException"),
        ]:
            with pytest.raises(botocore.exceptions.ClientError) as error:
                call()
            assert error.value.response["Error"]["Code"] == code


def test_without_s3_dir_exports_are_refused_with_the_flag_named(endpoint):
    client = make_client(endpoint)
    with pytest.raises(botocore.exceptions.ClientError) as error:
        client.list_exports()
    assert error.value.response["Error"]["Code"] == "ValidationException"
    assert "--s3-dir" in error.value.response["Error"]["Message"]


def run_cli(*args):
    import subprocess
    return subprocess.run([os.environ["PARTSTORE_BIN"], *args], capture_output=True, text=True,
                          timeout=60)


def test_cli_export_and_import_between_data_directories(tmp_path):
    source, target, out = tmp_path / "source", tmp_path / "target", tmp_path / "out"
    with serve("--data-dir", str(source)) as endpoint:
        client = make_client(endpoint)
        client.create_table(
            TableName="Orders", BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}])
        for i in range(12):
            client.put_item(TableName="Orders", Item={"PK": {"S": f"o{i}"}, "n": {"N": str(i)}})
    exported = run_cli("export", "--data-dir", str(source), "--table", "Orders", "--to", str(out))
    assert exported.returncode == 0, exported.stderr
    assert "12 items of Orders" in exported.stdout
    [export_dir] = list((out / "AWSDynamoDB").iterdir())

    imported = run_cli("import", str(export_dir), "--data-dir", str(target), "--table", "Copy",
                       "--key", "PK:S")
    assert imported.returncode == 0, imported.stderr
    assert "12 items into Copy (0 records skipped" in imported.stdout
    # A CSV file too, into the same data directory.
    (tmp_path / "people.csv").write_text("id;name\np1;Ann\np2;Bo\n")
    csv = run_cli("import", str(tmp_path / "people.csv"), "--data-dir", str(target),
                  "--table", "People", "--key", "id:S", "--delimiter", ";")
    assert csv.returncode == 0, csv.stderr
    with serve("--data-dir", str(target)) as endpoint:
        client = make_client(endpoint)
        assert sorted(client.list_tables()["TableNames"]) == ["Copy", "People"]
        assert client.get_item(TableName="Copy", Key={"PK": {"S": "o7"}})["Item"] == \
            {"PK": {"S": "o7"}, "n": {"N": "7"}}
        assert client.scan(TableName="People", Select="COUNT")["Count"] == 2

    for args, message in [
        (["import", str(export_dir), "--data-dir", str(target), "--table", "Copy", "--key", "PK:S"],
         "Table already exists"),
        (["import", str(export_dir), "--data-dir", str(target), "--table", "X", "--key", "PK:Q"],
         "expected NAME:S, NAME:N or NAME:B"),
        (["import", str(tmp_path / "missing"), "--data-dir", str(target), "--table", "X",
          "--key", "PK:S"], "no such file or directory"),
        (["export", "--data-dir", str(target), "--table", "Nope", "--to", str(out)],
         "not found"),
    ]:
        result = run_cli(*args)
        assert result.returncode != 0, args
        assert message in result.stderr, (args, result.stderr)


def test_serve_refuses_an_s3_dir_that_is_not_a_directory(tmp_path):
    result = run_cli("serve", "--port", "0", "--s3-dir", str(tmp_path / "missing"))
    assert result.returncode == 2
    assert "not a directory" in result.stderr
