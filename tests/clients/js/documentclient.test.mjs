// AWS SDK for JavaScript v3 against `partstore serve`: the DocumentClient (lib-dynamodb) for
// items, queries, scans and batches; the low-level client for tables and errors.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import {
  ConditionalCheckFailedException,
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBServiceException,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTableCommand,
  paginateListTables,
  waitUntilTableExists,
  waitUntilTableNotExists,
} from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
  paginateQuery,
  paginateScan,
  NumberValue,
} from '@aws-sdk/lib-dynamodb';

import { makeClients, pkSkTable, startServer, uniqueName } from './server.mjs';

let server;
let client;
let doc;
const TABLE = uniqueName('docclient');
const WAIT = { minDelay: 1, maxDelay: 1, maxWaitTime: 20 };

before(async () => {
  server = await startServer();
  ({ client, doc } = makeClients(server.endpoint));
  await client.send(new CreateTableCommand(pkSkTable(TABLE)));
  await waitUntilTableExists({ client, ...WAIT }, { TableName: TABLE });
});

after(async () => {
  client?.destroy();
  await server?.stop();
});

async function collect(paginator) {
  const pages = [];
  for await (const page of paginator) pages.push(page);
  return pages;
}

describe('tables', () => {
  test('create, wait, describe, update, list, delete', async () => {
    const name = uniqueName('life');
    const created = await client.send(new CreateTableCommand({
      ...pkSkTable(name), BillingMode: 'PROVISIONED',
      ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
    }));
    assert.equal(created.TableDescription.TableName, name);
    assert.equal(created.TableDescription.ProvisionedThroughput.ReadCapacityUnits, 5);
    assert.ok(created.TableDescription.CreationDateTime instanceof Date);
    const waited = await waitUntilTableExists({ client, ...WAIT }, { TableName: name });
    assert.equal(waited.state, 'SUCCESS');

    const updated = await client.send(new UpdateTableCommand({
      TableName: name, ProvisionedThroughput: { ReadCapacityUnits: 7, WriteCapacityUnits: 3 },
    }));
    assert.equal(updated.TableDescription.ProvisionedThroughput.WriteCapacityUnits, 3);
    const described = await client.send(new DescribeTableCommand({ TableName: name }));
    assert.equal(described.Table.TableStatus, 'ACTIVE');
    assert.equal(described.Table.ProvisionedThroughput.ReadCapacityUnits, 7);
    assert.equal(described.Table.ProvisionedThroughput.NumberOfDecreasesToday, 1);

    const listed = [];
    for await (const page of paginateListTables({ client, pageSize: 1 }, {})) {
      assert.ok(page.TableNames.length <= 1);
      listed.push(...page.TableNames);
    }
    assert.ok(listed.includes(name) && listed.includes(TABLE));
    assert.deepEqual(listed, [...listed].sort());

    await assert.rejects(client.send(new CreateTableCommand(pkSkTable(name))), (e) => {
      assert.ok(e instanceof ResourceInUseException);
      assert.equal(e.message, `Table already exists: ${name}`);
      return true;
    });

    const deleted = await client.send(new DeleteTableCommand({ TableName: name }));
    assert.equal(deleted.TableDescription.TableStatus, 'DELETING');
    await waitUntilTableNotExists({ client, ...WAIT }, { TableName: name });
    await assert.rejects(client.send(new DescribeTableCommand({ TableName: name })), (e) => {
      assert.ok(e instanceof ResourceNotFoundException);
      assert.equal(e.name, 'ResourceNotFoundException');
      assert.equal(e.message, `Requested resource not found: Table: ${name} not found`);
      assert.equal(e.$metadata.httpStatusCode, 400);
      return true;
    });
  });
});

describe('items through the DocumentClient', () => {
  test('put, get, update, delete with native JS values', async () => {
    const Key = { PK: 'USER#1', SK: 'PROFILE' };
    const item = {
      ...Key, name: 'Ann', age: 42, price: 199.99, active: true, nothing: null,
      tags: new Set(['a', 'b']), scores: new Set([1, 2.5]),
      avatar: new Uint8Array([0, 1, 255]), address: { city: 'Amsterdam', lines: ['x', 'y'] },
      skipped: undefined,
    };
    const put = await doc.send(new PutCommand({ TableName: TABLE, Item: item, ReturnValues: 'ALL_OLD' }));
    assert.equal(put.Attributes, undefined);
    const got = await doc.send(new GetCommand({ TableName: TABLE, Key, ConsistentRead: true }));
    const { skipped, ...stored } = item;
    assert.deepEqual(got.Item, stored);

    const updated = await doc.send(new UpdateCommand({
      TableName: TABLE, Key,
      UpdateExpression: 'SET age = age + :one, #c.zip = :zip ADD tags :t REMOVE nothing',
      ExpressionAttributeNames: { '#c': 'address' },
      ExpressionAttributeValues: { ':one': 1, ':zip': '1011', ':t': new Set(['c']) },
      ReturnValues: 'UPDATED_NEW',
    }));
    assert.deepEqual(updated.Attributes, {
      age: 43, address: { zip: '1011' }, tags: new Set(['a', 'b', 'c']),
    });
    const old = await doc.send(new UpdateCommand({
      TableName: TABLE, Key, UpdateExpression: 'SET age = :a',
      ExpressionAttributeValues: { ':a': 50 }, ReturnValues: 'UPDATED_OLD',
    }));
    assert.deepEqual(old.Attributes, { age: 43 });

    const missing = await doc.send(new GetCommand({ TableName: TABLE, Key: { PK: 'USER#1', SK: 'NONE' } }));
    assert.equal(missing.Item, undefined);
    const deleted = await doc.send(new DeleteCommand({ TableName: TABLE, Key, ReturnValues: 'ALL_OLD' }));
    assert.equal(deleted.Attributes.age, 50);
    assert.equal((await doc.send(new GetCommand({ TableName: TABLE, Key }))).Item, undefined);
  });

  test('exact numbers with wrapNumbers / NumberValue', async () => {
    const Key = { PK: 'NUM', SK: 'NUM' };
    await doc.send(new PutCommand({
      TableName: TABLE,
      Item: { ...Key, exact: NumberValue.from('0.12345678901234567890123456789012345678'),
              big: NumberValue.from('1E+125') },
    }));
    // Without wrapNumbers an integer beyond 2^53 becomes a BigInt (and a decimal a lossy JS
    // number); with it, DynamoDB's canonical text comes through.
    const plain = await doc.send(new GetCommand({ TableName: TABLE, Key }));
    assert.equal(plain.Item.big, 10n ** 125n);
    const wrapping = makeClients(server.endpoint, { unmarshallOptions: { wrapNumbers: true } });
    const exact = await wrapping.doc.send(new GetCommand({ TableName: TABLE, Key }));
    wrapping.client.destroy();
    assert.equal(exact.Item.exact.toString(), '0.12345678901234567890123456789012345678');
    assert.equal(exact.Item.big.toString(), '1' + '0'.repeat(125));
  });

  test('conditional failure: ConditionalCheckFailedException, with the old item on request', async () => {
    const Key = { PK: 'ORDER#ORD001', SK: 'ORDER#ORD001' };
    await doc.send(new PutCommand({ TableName: TABLE, Item: { ...Key, status: 'shipped', total: 199.99 } }));
    await assert.rejects(
      doc.send(new PutCommand({ TableName: TABLE, Item: Key, ConditionExpression: 'attribute_not_exists(PK)' })),
      (e) => {
        assert.ok(e instanceof ConditionalCheckFailedException);
        assert.ok(e instanceof DynamoDBServiceException);
        assert.equal(e.name, 'ConditionalCheckFailedException');
        assert.equal(e.message, 'The conditional request failed');
        assert.equal(e.$fault, 'client');
        assert.equal(e.$metadata.httpStatusCode, 400);
        assert.equal(e.Item, undefined);
        return true;
      });
    await assert.rejects(
      doc.send(new UpdateCommand({
        TableName: TABLE, Key, UpdateExpression: 'SET #s = :c', ConditionExpression: '#s = :p',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':c': 'cancelled', ':p': 'pending' },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      })),
      (e) => {
        assert.ok(e instanceof ConditionalCheckFailedException);
        // The error's Item is in the wire shape (the DocumentClient does not translate errors).
        assert.deepEqual(e.Item, {
          PK: { S: 'ORDER#ORD001' }, SK: { S: 'ORDER#ORD001' }, status: { S: 'shipped' },
          total: { N: '199.99' },
        });
        return true;
      });
    await assert.rejects(
      doc.send(new DeleteCommand({
        TableName: TABLE, Key: { PK: 'ORDER#NONE', SK: 'X' }, ConditionExpression: 'attribute_exists(PK)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      })),
      (e) => e instanceof ConditionalCheckFailedException && e.Item === undefined);
  });

  test('validation errors: DynamoDBServiceException named ValidationException', async () => {
    await assert.rejects(
      doc.send(new GetCommand({ TableName: TABLE, Key: { PK: 'a' } })),
      (e) => {
        assert.ok(e instanceof DynamoDBServiceException);
        assert.equal(e.name, 'ValidationException');
        assert.equal(e.message, 'The provided key element does not match the schema');
        assert.equal(e.$metadata.httpStatusCode, 400);
        return true;
      });
    await assert.rejects(
      doc.send(new UpdateCommand({
        TableName: TABLE, Key: { PK: 'a', SK: 'b' }, UpdateExpression: 'SET a = :v',
        ExpressionAttributeValues: { ':v': 1, ':unused': 2 },
      })),
      { name: 'ValidationException',
        message: 'Value provided in ExpressionAttributeValues unused in expressions: keys: {:unused}' });
    await assert.rejects(
      doc.send(new GetCommand({ TableName: uniqueName('missing'), Key: { PK: 'a', SK: 'b' } })),
      (e) => e instanceof ResourceNotFoundException && e.message === 'Requested resource not found');
  });
});

describe('queries, scans and batches through the DocumentClient', () => {
  const USERS = ['u1', 'u2', 'u3'];

  before(async () => {
    const requests = [];
    for (const user of USERS) {
      for (let n = 0; n < 20; n++) {
        requests.push({ PutRequest: { Item: {
          PK: `LOAD#${user}`, SK: `ORDER#${String(n).padStart(2, '0')}`, n, even: n % 2 === 0,
        } } });
      }
    }
    for (let i = 0; i < requests.length; i += 25) {
      const response = await doc.send(new BatchWriteCommand({
        RequestItems: { [TABLE]: requests.slice(i, i + 25) },
      }));
      assert.deepEqual(response.UnprocessedItems, {});
    }
  });

  test('paginateQuery: pages in sort-key order, both directions', async () => {
    const pages = await collect(paginateQuery({ client: doc, pageSize: 6 }, {
      TableName: TABLE, KeyConditionExpression: 'PK = :pk AND begins_with(SK, :o)',
      ExpressionAttributeValues: { ':pk': 'LOAD#u2', ':o': 'ORDER#' },
    }));
    assert.deepEqual(pages.map((p) => p.Count), [6, 6, 6, 2]);
    assert.deepEqual(pages.flatMap((p) => p.Items.map((i) => i.n)), [...Array(20).keys()]);
    assert.deepEqual(pages[0].LastEvaluatedKey, { PK: 'LOAD#u2', SK: 'ORDER#05' });
    assert.equal(pages.at(-1).LastEvaluatedKey, undefined);

    const backward = await collect(paginateQuery({ client: doc, pageSize: 4 }, {
      TableName: TABLE, KeyConditionExpression: 'PK = :pk AND SK BETWEEN :a AND :b',
      ExpressionAttributeValues: { ':pk': 'LOAD#u1', ':a': 'ORDER#05', ':b': 'ORDER#14', ':t': true },
      ScanIndexForward: false, FilterExpression: 'even = :t',
    }));
    assert.deepEqual(backward.flatMap((p) => p.Items.map((i) => i.n)), [14, 12, 10, 8, 6]);
    // Limit counts the items read before the filter.
    assert.ok(backward.every((p) => p.ScannedCount <= 4));
    assert.equal(backward.reduce((s, p) => s + p.ScannedCount, 0), 10);
  });

  test('paginateScan: whole table, and parallel segments', async () => {
    const pages = await collect(paginateScan({ client: doc, pageSize: 7 }, {
      TableName: TABLE, FilterExpression: 'begins_with(PK, :l)', ExpressionAttributeValues: { ':l': 'LOAD#' },
    }));
    const items = pages.flatMap((p) => p.Items);
    assert.equal(items.length, 60);
    assert.equal(new Set(items.map((i) => `${i.PK}/${i.SK}`)).size, 60);
    assert.ok(pages.every((p) => p.ScannedCount <= 7));

    const TOTAL = 3;
    const segments = await Promise.all([...Array(TOTAL).keys()].map(async (Segment) => {
      const segmentPages = await collect(paginateScan({ client: doc, pageSize: 5 }, {
        TableName: TABLE, Segment, TotalSegments: TOTAL,
        FilterExpression: 'begins_with(PK, :l)', ExpressionAttributeValues: { ':l': 'LOAD#' },
      }));
      return segmentPages.flatMap((p) => p.Items.map((i) => `${i.PK}/${i.SK}`));
    }));
    const union = segments.flat();
    assert.equal(union.length, 60);
    assert.equal(new Set(union).size, 60);
    for (const user of USERS) {
      assert.equal(segments.filter((s) => s.some((k) => k.startsWith(`LOAD#${user}/`))).length, 1);
    }
  });

  test('BatchGet and BatchWrite deletes', async () => {
    const Keys = USERS.map((u) => ({ PK: `LOAD#${u}`, SK: 'ORDER#07' }));
    Keys.push({ PK: 'LOAD#nobody', SK: 'ORDER#07' });
    const got = await doc.send(new BatchGetCommand({
      RequestItems: { [TABLE]: { Keys, ProjectionExpression: 'PK, n' } },
      ReturnConsumedCapacity: 'TOTAL',
    }));
    assert.deepEqual(got.UnprocessedKeys, {});
    assert.deepEqual(got.Responses[TABLE].map((i) => i.PK).sort(), ['LOAD#u1', 'LOAD#u2', 'LOAD#u3']);
    assert.ok(got.Responses[TABLE].every((i) => i.n === 7 && Object.keys(i).length === 2));
    assert.equal(got.ConsumedCapacity[0].TableName, TABLE);

    const deleted = await doc.send(new BatchWriteCommand({
      RequestItems: { [TABLE]: Keys.slice(0, 3).map((Key) => ({ DeleteRequest: { Key } })) },
      ReturnConsumedCapacity: 'TOTAL',
    }));
    assert.deepEqual(deleted.UnprocessedItems, {});
    assert.deepEqual(deleted.ConsumedCapacity, [{ TableName: TABLE, CapacityUnits: 3 }]);
    const after = await doc.send(new BatchGetCommand({ RequestItems: { [TABLE]: { Keys } } }));
    assert.deepEqual(after.Responses[TABLE], []);

    await assert.rejects(doc.send(new BatchWriteCommand({
      RequestItems: { [TABLE]: [...Array(26).keys()].map((n) => ({ PutRequest: { Item: { PK: 'x', SK: `${n}` } } })) },
    })), (e) => e.name === 'ValidationException' &&
      e.message.includes('Member must have length less than or equal to 25'));
  });

  test('Query with Select COUNT and ConsumedCapacity', async () => {
    const counted = await doc.send(new QueryCommand({
      TableName: TABLE, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': 'LOAD#u3' },
      Select: 'COUNT', ReturnConsumedCapacity: 'TOTAL', ConsistentRead: true,
    }));
    assert.equal(counted.Count, 19); // ORDER#07 was deleted above
    assert.equal(counted.Items, undefined);
    assert.deepEqual(counted.ConsumedCapacity, { TableName: TABLE, CapacityUnits: 1 });
    const scanned = await doc.send(new ScanCommand({ TableName: TABLE, Limit: 1 }));
    assert.equal(scanned.Items.length, 1);
    assert.ok(scanned.LastEvaluatedKey);
  });
});

describe('local secondary index', () => {
  test('an LSI orders a collection by another sort key, paged by paginateQuery', async () => {
    const name = uniqueName('lsi');
    await client.send(new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'PK', AttributeType: 'S' },
        { AttributeName: 'SK', AttributeType: 'S' },
        { AttributeName: 'placed', AttributeType: 'N' },
      ],
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
      LocalSecondaryIndexes: [{
        IndexName: 'ByPlaced',
        KeySchema: [
          { AttributeName: 'PK', KeyType: 'HASH' },
          { AttributeName: 'placed', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      }],
    }));
    try {
      await doc.send(new BatchWriteCommand({
        RequestItems: {
          [name]: Array.from({ length: 7 }, (_, n) => ({
            PutRequest: { Item: { PK: 'USER#1', SK: `ORDER#${n}`, placed: 50 - n } },
          })),
        },
      }));
      const pages = await collect(paginateQuery({ client: doc, pageSize: 3 }, {
        TableName: name,
        IndexName: 'ByPlaced',
        KeyConditionExpression: 'PK = :pk AND placed >= :p',
        ExpressionAttributeValues: { ':pk': 'USER#1', ':p': 46 },
        ScanIndexForward: false,
        ConsistentRead: true,
      }));
      assert.deepEqual(pages.flatMap((p) => p.Items.map((i) => i.placed)), [50, 49, 48, 47, 46]);
      assert.deepEqual(Object.keys(pages[0].LastEvaluatedKey).sort(), ['PK', 'SK', 'placed']);
      const described = await client.send(new DescribeTableCommand({ TableName: name }));
      assert.equal(described.Table.LocalSecondaryIndexes[0].ItemCount, 7);
    } finally {
      await client.send(new DeleteTableCommand({ TableName: name }));
    }
  });
});
