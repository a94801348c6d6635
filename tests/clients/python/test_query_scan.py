"""Query and Scan through boto3, with its paginators and parallel scan segments."""
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

import pytest
from boto3.dynamodb.conditions import Attr, Key
from botocore.exceptions import ClientError


@pytest.fixture
def loaded(table):
    # 3 partitions x 20 items; ORDER# sort keys in two-digit order, plus a profile item each.
    with table.batch_writer() as batch:
        for user in ("u1", "u2", "u3"):
            batch.put_item(Item={"PK": f"USER#{user}", "SK": f"USER#{user}", "Type": "User"})
            for n in range(20):
                batch.put_item(Item={"PK": f"USER#{user}", "SK": f"ORDER#{n:02d}",
                                     "Type": "Order", "n": n, "even": n % 2 == 0})
    return table


def test_query_paginator_forward_and_backward(client, loaded):
    paginator = client.get_paginator("query")
    pages = list(paginator.paginate(
        TableName=loaded.name, KeyConditionExpression="PK = :pk AND begins_with(SK, :o)",
        ExpressionAttributeValues={":pk": {"S": "USER#u2"}, ":o": {"S": "ORDER#"}},
        PaginationConfig={"PageSize": 6}))
    sks = [i["SK"]["S"] for p in pages for i in p["Items"]]
    assert sks == [f"ORDER#{n:02d}" for n in range(20)]
    assert [p["Count"] for p in pages] == [6, 6, 6, 2]
    assert all(p["ScannedCount"] == p["Count"] for p in pages)
    assert pages[0]["LastEvaluatedKey"] == {"PK": {"S": "USER#u2"}, "SK": {"S": "ORDER#05"}}
    assert "LastEvaluatedKey" not in pages[-1]

    backward = list(paginator.paginate(
        TableName=loaded.name, KeyConditionExpression="PK = :pk AND SK BETWEEN :a AND :b",
        ExpressionAttributeValues={":pk": {"S": "USER#u2"}, ":a": {"S": "ORDER#05"},
                                   ":b": {"S": "ORDER#14"}},
        ScanIndexForward=False, PaginationConfig={"PageSize": 4}))
    assert [i["SK"]["S"] for p in backward for i in p["Items"]] == \
        [f"ORDER#{n:02d}" for n in range(14, 4, -1)]

    # build_full_result merges the pages; MaxItems stops early and gives a NextToken.
    full = paginator.paginate(
        TableName=loaded.name, KeyConditionExpression="PK = :pk",
        ExpressionAttributeValues={":pk": {"S": "USER#u1"}},
        PaginationConfig={"PageSize": 7, "MaxItems": 10}).build_full_result()
    assert len(full["Items"]) == 10 and "NextToken" in full


def test_query_filter_applies_after_limit(client, loaded):
    pages = list(client.get_paginator("query").paginate(
        TableName=loaded.name, KeyConditionExpression="PK = :pk AND begins_with(SK, :o)",
        FilterExpression="#e = :t", ExpressionAttributeNames={"#e": "even"},
        ExpressionAttributeValues={":pk": {"S": "USER#u3"}, ":o": {"S": "ORDER#"},
                                   ":t": {"BOOL": True}},
        PaginationConfig={"PageSize": 5}))
    # Limit counts items read, not items returned: pages of 5 read, 2 or 3 kept. A page that
    # stops on Limit may return LastEvaluatedKey even when nothing is left (DynamoDB does not
    # promise otherwise); the paginator then fetches one last empty page.
    assert len(pages) in (4, 5)
    if len(pages) == 5:
        assert pages[4]["ScannedCount"] == 0 and pages[4]["Items"] == []
    assert [p["ScannedCount"] for p in pages[:4]] == [5, 5, 5, 5]
    assert [p["Count"] for p in pages[:4]] == [3, 2, 3, 2]
    assert [i["n"]["N"] for p in pages for i in p["Items"]] == [str(n) for n in range(0, 20, 2)]


def test_query_select_count_and_projection(client, loaded):
    counted = client.query(TableName=loaded.name, KeyConditionExpression="PK = :pk",
                           ExpressionAttributeValues={":pk": {"S": "USER#u1"}}, Select="COUNT")
    assert counted["Count"] == 21 and "Items" not in counted
    projected = client.query(TableName=loaded.name, KeyConditionExpression="PK = :pk AND SK > :s",
                             ExpressionAttributeValues={":pk": {"S": "USER#u1"},
                                                        ":s": {"S": "ORDER#18"}},
                             ProjectionExpression="SK, n")
    assert projected["Items"] == [{"SK": {"S": "ORDER#19"}, "n": {"N": "19"}},
                                  {"SK": {"S": "USER#u1"}}]


def test_query_resource_with_key_conditions(loaded):
    response = loaded.query(KeyConditionExpression=Key("PK").eq("USER#u1") &
                            Key("SK").begins_with("ORDER#1"),
                            FilterExpression=Attr("n").gte(15), ScanIndexForward=False)
    assert [i["n"] for i in response["Items"]] == [Decimal(n) for n in range(19, 14, -1)]
    assert response["ScannedCount"] == 10


def test_query_errors(client, loaded):
    with pytest.raises(ClientError) as error:
        client.query(TableName=loaded.name, KeyConditionExpression="SK = :s",
                     ExpressionAttributeValues={":s": {"S": "x"}})
    assert error.value.response["Error"]["Code"] == "ValidationException"
    assert error.value.response["Error"]["Message"] == \
        "Query condition missed key schema element: PK"
    with pytest.raises(ClientError) as error:
        client.query(TableName=loaded.name, KeyConditionExpression="PK = :p",
                     ExpressionAttributeValues={":p": {"N": "1"}})
    assert error.value.response["Error"]["Message"] == \
        "One or more parameter values were invalid: Condition parameter type does not match " \
        "schema type"


def test_scan_paginator_and_filter(client, loaded):
    pages = list(client.get_paginator("scan").paginate(
        TableName=loaded.name, PaginationConfig={"PageSize": 8}))
    items = [i for p in pages for i in p["Items"]]
    assert len(items) == 63
    assert len({(i["PK"]["S"], i["SK"]["S"]) for i in items}) == 63
    assert all(len(p["Items"]) <= 8 for p in pages)
    # Each partition's items come out together and in sort-key order.
    for user in ("u1", "u2", "u3"):
        sks = [i["SK"]["S"] for i in items if i["PK"]["S"] == f"USER#{user}"]
        assert sks == sorted(sks)

    users = loaded.scan(FilterExpression=Attr("Type").eq("User"))
    assert sorted(i["PK"] for i in users["Items"]) == ["USER#u1", "USER#u2", "USER#u3"]
    assert users["ScannedCount"] == 63 and users["Count"] == 3


def test_parallel_scan_segments(client, loaded):
    total_segments = 4

    def scan_segment(segment):
        paginator = client.get_paginator("scan")
        return [(i["PK"]["S"], i["SK"]["S"])
                for page in paginator.paginate(TableName=loaded.name, Segment=segment,
                                               TotalSegments=total_segments,
                                               PaginationConfig={"PageSize": 5})
                for i in page["Items"]]

    with ThreadPoolExecutor(total_segments) as pool:
        segments = list(pool.map(scan_segment, range(total_segments)))
    union = [k for s in segments for k in s]
    assert len(union) == 63 and len(set(union)) == 63  # every item, in exactly one segment
    # A partition key's items all fall in one segment.
    for user in ("u1", "u2", "u3"):
        holding = [n for n, s in enumerate(segments) if any(pk == f"USER#{user}" for pk, _ in s)]
        assert len(holding) == 1

    with pytest.raises(ClientError) as error:
        client.scan(TableName=loaded.name, Segment=4, TotalSegments=4)
    assert error.value.response["Error"]["Code"] == "ValidationException"
    assert error.value.response["Error"]["Message"] == (
        "The Segment parameter is zero-based and must be less than parameter TotalSegments: "
        "Segment: 4 is not less than TotalSegments: 4")
    with pytest.raises(ClientError) as error:
        client.scan(TableName=loaded.name, Segment=1)
    assert error.value.response["Error"]["Message"] == (
        "The TotalSegments parameter is required but was not present in the request when "
        "Segment parameter is present")


def test_scan_consumed_capacity_fresh_table(client, table_name):
    # A fresh on-demand table has 4 partitions; an empty scan reads one 4 KB unit from each
    # (eventually consistent: half).
    eventual = client.scan(TableName=table_name, ReturnConsumedCapacity="TOTAL")
    assert eventual["ConsumedCapacity"] == {"TableName": table_name, "CapacityUnits": 2.0}
    strong = client.scan(TableName=table_name, ConsistentRead=True,
                         ReturnConsumedCapacity="TOTAL")
    assert strong["ConsumedCapacity"]["CapacityUnits"] == 4.0
    assert eventual["Count"] == 0 and eventual["Items"] == []
