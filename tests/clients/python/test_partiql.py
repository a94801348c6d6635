"""PartiQL through boto3: ExecuteStatement (SELECT as Query or Scan with paging, INSERT with its
DuplicateItemException, UPDATE with RETURNING and its existence rule, DELETE), BatchExecuteStatement
with per-statement errors, and ExecuteTransaction (all or nothing, DuplicateItem reasons, reads).
The table's quoted name carries a '-', as generated names do."""
import pytest


def insert(client, table_name, pk, sk, **extra):
    item = {"PK": pk, "SK": sk, **extra}
    fields = ", ".join(f"'{name}': ?" for name in item)
    params = [{"S": v} if isinstance(v, str) else {"N": str(v)} for v in item.values()]
    client.execute_statement(Statement=f'INSERT INTO "{table_name}" VALUE {{{fields}}}',
                             Parameters=params)


def test_insert_then_select_query_and_scan(client, table_name):
    for sk, n in (("A", 1), ("B", 2), ("C", 3)):
        insert(client, table_name, "P#1", sk, n=n)
    insert(client, table_name, "P#2", "A", n=9)
    items = client.execute_statement(
        Statement=f'SELECT * FROM "{table_name}" WHERE PK = ? AND SK >= ?',
        Parameters=[{"S": "P#1"}, {"S": "B"}])["Items"]
    assert [i["SK"]["S"] for i in items] == ["B", "C"]
    items = client.execute_statement(
        Statement=f"SELECT SK FROM \"{table_name}\" WHERE PK = 'P#1' ORDER BY SK DESC")["Items"]
    assert items == [{"SK": {"S": "C"}}, {"SK": {"S": "B"}}, {"SK": {"S": "A"}}]
    items = client.execute_statement(
        Statement=f'SELECT * FROM "{table_name}" WHERE n > 2')["Items"]
    assert sorted(i["n"]["N"] for i in items) == ["3", "9"]


def test_paging_with_limit_and_next_token(client, table_name):
    for sk in "ABCDE":
        insert(client, table_name, "P", sk)
    seen, token, pages = [], None, 0
    while True:
        kwargs = {"NextToken": token} if token else {}
        page = client.execute_statement(
            Statement=f"SELECT * FROM \"{table_name}\" WHERE PK = 'P'", Limit=2, **kwargs)
        seen += [i["SK"]["S"] for i in page["Items"]]
        pages += 1
        token = page.get("NextToken")
        if not token:
            break
        assert "LastEvaluatedKey" in page
    assert seen == list("ABCDE")
    assert pages == 3


def test_insert_duplicate_is_duplicate_item_exception(client, table_name):
    insert(client, table_name, "P", "S")
    with pytest.raises(client.exceptions.DuplicateItemException) as error:
        insert(client, table_name, "P", "S")
    assert error.value.response["Error"]["Message"] == "Duplicate primary key exists in table"


def test_update_returning_and_existence(client, table_name):
    insert(client, table_name, "P", "S", n=1)
    response = client.execute_statement(
        Statement=f"UPDATE \"{table_name}\" SET n = n + 1 SET tags = <<'a', 'b'>> "
                  f"WHERE PK = 'P' AND SK = 'S' RETURNING ALL NEW *")
    assert response["Items"] == [{"PK": {"S": "P"}, "SK": {"S": "S"}, "n": {"N": "2"},
                                  "tags": {"SS": ["a", "b"]}}]
    with pytest.raises(client.exceptions.ConditionalCheckFailedException):
        client.execute_statement(
            Statement=f"UPDATE \"{table_name}\" SET n = 1 WHERE PK = 'nobody' AND SK = 'S'")
    with pytest.raises(client.exceptions.ClientError) as error:
        client.execute_statement(Statement=f"UPDATE \"{table_name}\" SET n = 1 WHERE PK = 'P'")
    assert error.value.response["Error"]["Code"] == "ValidationException"
    assert error.value.response["Error"]["Message"] == (
        "Where clause does not contain a mandatory equality on all key attributes")


def test_delete_and_syntax_error(client, table_name):
    insert(client, table_name, "P", "S")
    response = client.execute_statement(
        Statement=f"DELETE FROM \"{table_name}\" WHERE PK = 'P' AND SK = 'S' RETURNING ALL OLD *")
    assert response["Items"] == [{"PK": {"S": "P"}, "SK": {"S": "S"}}]
    assert "Item" not in client.get_item(TableName=table_name,
                                         Key={"PK": {"S": "P"}, "SK": {"S": "S"}})
    with pytest.raises(client.exceptions.ClientError) as error:
        client.execute_statement(Statement="SELEKT * FROM x")
    assert error.value.response["Error"]["Message"] == (
        "Statement wasn't well formed, can't be processed: Expected data manipulation")
    with pytest.raises(client.exceptions.ResourceNotFoundException):
        client.execute_statement(Statement="SELECT * FROM \"no-such-table\" WHERE PK = 'x'")


def test_batch_execute_statement(client, table_name):
    insert(client, table_name, "P", "S1")
    response = client.batch_execute_statement(Statements=[
        {"Statement": f'INSERT INTO "{table_name}" VALUE {{\'PK\': \'P\', \'SK\': \'S2\'}}'},
        {"Statement": f'INSERT INTO "{table_name}" VALUE {{\'PK\': \'P\', \'SK\': \'S1\'}}'},
        {"Statement": f"UPDATE \"{table_name}\" SET x = 1 WHERE PK = ? AND SK = ?",
         "Parameters": [{"S": "P"}, {"S": "none"}]},
    ])["Responses"]
    assert "Error" not in response[0]
    assert response[1]["Error"]["Code"] == "DuplicateItem"
    assert response[2]["Error"]["Code"] == "ConditionalCheckFailed"
    reads = client.batch_execute_statement(Statements=[
        {"Statement": f"SELECT * FROM \"{table_name}\" WHERE PK = 'P' AND SK = 'S2'"},
        {"Statement": f"SELECT * FROM \"{table_name}\" WHERE PK = 'P' AND SK = 'S9'"},
    ])["Responses"]
    assert reads[0]["Item"] == {"PK": {"S": "P"}, "SK": {"S": "S2"}}
    assert reads[0]["TableName"] == table_name
    assert "Item" not in reads[1]


def test_execute_transaction(client, table_name):
    insert(client, table_name, "P", "S1", n=1)
    insert(client, table_name, "P", "S0", n=7)
    with pytest.raises(client.exceptions.TransactionCanceledException) as error:
        client.execute_transaction(TransactStatements=[
            {"Statement": f"UPDATE \"{table_name}\" SET n = 5 WHERE PK = 'P' AND SK = 'S0'"},
            {"Statement": f"INSERT INTO \"{table_name}\" VALUE {{'PK': 'P', 'SK': 'S1'}}"},
        ])
    reasons = error.value.response["CancellationReasons"]
    assert [r["Code"] for r in reasons] == ["None", "DuplicateItem"]
    assert client.get_item(TableName=table_name,
                           Key={"PK": {"S": "P"}, "SK": {"S": "S0"}})["Item"]["n"] == {"N": "7"}
    client.execute_transaction(TransactStatements=[
        {"Statement": f"UPDATE \"{table_name}\" SET n = 5 WHERE PK = 'P' AND SK = 'S1'"},
        {"Statement": f"INSERT INTO \"{table_name}\" VALUE {{'PK': 'P', 'SK': 'S2'}}"},
        {"Statement": f"EXISTS(SELECT * FROM \"{table_name}\" WHERE PK = 'P' AND SK = 'S0' "
                      f"AND n = 7)"},
    ], ClientRequestToken="partiql-token-1")
    responses = client.execute_transaction(TransactStatements=[
        {"Statement": f"SELECT n FROM \"{table_name}\" WHERE PK = 'P' AND SK = 'S1'"},
        {"Statement": f"SELECT * FROM \"{table_name}\" WHERE PK = 'P' AND SK = 'S3'"},
    ])["Responses"]
    assert responses == [{"Item": {"n": {"N": "5"}}}, {}]


def test_select_of_nested_paths_keys_each_value_by_its_last_element(client, table_name):
    # DynamoDB answers `SELECT m.nested` as {"nested": ...} (a conformance suite that passes against
    # DynamoDB, nubo-db/dynamodb-conformance, "SELECT with nested map path"); a ProjectionExpression
    # would keep the nesting.
    client.put_item(TableName=table_name, Item={
        "PK": {"S": "x"}, "SK": {"S": "1"}, "top": {"S": "t"},
        "m": {"M": {"nested": {"S": "deep"}, "inner": {"M": {"leaf": {"N": "7"}}}}},
        "l": {"L": [{"S": "a"}, {"S": "b"}, {"S": "c"}]}})
    where = "WHERE PK = 'x' AND SK = '1'"
    items = client.execute_statement(
        Statement=f'SELECT m.nested FROM "{table_name}" {where}')["Items"]
    assert items == [{"nested": {"S": "deep"}}]
    items = client.execute_statement(
        Statement=f'SELECT top, m.inner.leaf, m.absent, l[2] FROM "{table_name}" {where}')["Items"]
    assert items == [{"top": {"S": "t"}, "leaf": {"N": "7"}, "l[2]": {"S": "c"}}]
    # As a Scan, in a batch and in a transaction alike.
    items = client.execute_statement(
        Statement=f"SELECT m.nested FROM \"{table_name}\" WHERE top = 't'")["Items"]
    assert items == [{"nested": {"S": "deep"}}]
    batch = client.batch_execute_statement(Statements=[
        {"Statement": f'SELECT m.nested FROM "{table_name}" {where}'}])["Responses"]
    assert batch[0]["Item"] == {"nested": {"S": "deep"}}
    read = client.execute_transaction(TransactStatements=[
        {"Statement": f'SELECT m.inner.leaf FROM "{table_name}" {where}'}])["Responses"]
    assert read[0]["Item"] == {"leaf": {"N": "7"}}
    # Top-level attributes alone come back as they are.
    items = client.execute_statement(
        Statement=f'SELECT top, m FROM "{table_name}" {where}')["Items"]
    assert items == [{"top": {"S": "t"}, "m": {"M": {
        "nested": {"S": "deep"}, "inner": {"M": {"leaf": {"N": "7"}}}}}}]
