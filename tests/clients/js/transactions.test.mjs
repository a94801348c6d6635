// AWS SDK for JavaScript v3 against `partstore serve`: TransactWriteItems and TransactGetItems
// through the DocumentClient (TransactWriteCommand, TransactGetCommand) and the low-level client
// (TransactWriteItemsCommand): TransactionCanceledException with its parsed CancellationReasons,
// a transfer that commits, transactional capacity, and ClientRequestToken idempotency.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import {
  CreateTableCommand,
  DynamoDBServiceException,
  IdempotentParameterMismatchException,
  TransactionCanceledException,
  TransactWriteItemsCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, TransactGetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';

import { makeClients, pkSkTable, startServer, uniqueName } from './server.mjs';

let server;
let client;
let doc;
const TABLE = uniqueName('transact');
const WAIT = { minDelay: 1, maxDelay: 1, maxWaitTime: 20 };
const CANCELLED = 'Transaction cancelled, please refer cancellation reasons for specific reasons ';

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

async function get(PK, SK) {
  return (await doc.send(new GetCommand({ TableName: TABLE, Key: { PK, SK } }))).Item;
}

describe('TransactWriteItems', () => {
  test('a failing condition rejects with TransactionCanceledException and its reasons', async () => {
    await doc.send(new PutCommand({ TableName: TABLE, Item: { PK: 'ACCOUNT#carol', SK: 'BALANCE', balance: 5 } }));
    await assert.rejects(
      doc.send(new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: TABLE, Item: { PK: 'ACCOUNT#dave', SK: 'BALANCE', balance: 0 } } },
          {
            ConditionCheck: {
              TableName: TABLE, Key: { PK: 'ACCOUNT#carol', SK: 'BALANCE' },
              ConditionExpression: 'balance >= :n', ExpressionAttributeValues: { ':n': 10 },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
          {
            Delete: {
              TableName: TABLE, Key: { PK: 'ACCOUNT#nobody', SK: 'BALANCE' },
              ConditionExpression: 'attribute_exists(PK)',
            },
          },
        ],
      })),
      (e) => {
        assert.ok(e instanceof TransactionCanceledException);
        assert.ok(e instanceof DynamoDBServiceException);
        assert.equal(e.name, 'TransactionCanceledException');
        assert.equal(e.message, `${CANCELLED}[None, ConditionalCheckFailed, ConditionalCheckFailed]`);
        assert.equal(e.$fault, 'client');
        assert.equal(e.$metadata.httpStatusCode, 400);
        assert.deepEqual(e.CancellationReasons.map((r) => r.Code),
                         ['None', 'ConditionalCheckFailed', 'ConditionalCheckFailed']);
        assert.equal(e.CancellationReasons[0].Message, undefined);
        assert.equal(e.CancellationReasons[1].Message, 'The conditional request failed');
        // The reason's Item is in the wire shape (the DocumentClient does not translate errors).
        assert.deepEqual(e.CancellationReasons[1].Item, {
          PK: { S: 'ACCOUNT#carol' }, SK: { S: 'BALANCE' }, balance: { N: '5' },
        });
        assert.equal(e.CancellationReasons[2].Item, undefined);
        return true;
      });
    assert.equal(await get('ACCOUNT#dave', 'BALANCE'), undefined);  // nothing applied
  });

  test('a transfer commits every write, and a read sees all of them together', async () => {
    await doc.send(new PutCommand({ TableName: TABLE, Item: { PK: 'ACCOUNT#alice', SK: 'BALANCE', balance: 100 } }));
    await doc.send(new PutCommand({ TableName: TABLE, Item: { PK: 'ACCOUNT#bob', SK: 'BALANCE', balance: 0 } }));
    const done = await doc.send(new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: TABLE, Key: { PK: 'ACCOUNT#alice', SK: 'BALANCE' },
            UpdateExpression: 'SET balance = balance - :a', ConditionExpression: 'balance >= :a',
            ExpressionAttributeValues: { ':a': 30 },
          },
        },
        {
          Update: {
            TableName: TABLE, Key: { PK: 'ACCOUNT#bob', SK: 'BALANCE' },
            UpdateExpression: 'SET balance = balance + :a', ExpressionAttributeValues: { ':a': 30 },
          },
        },
        {
          Put: {
            TableName: TABLE, Item: { PK: 'TRANSFER#t1', SK: 'TRANSFER', amount: 30, tags: new Set(['rent']) },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
      ],
      ReturnConsumedCapacity: 'TOTAL',
    }));
    // Three small transactional writes: 2 write units each.
    assert.deepEqual(done.ConsumedCapacity, [{ TableName: TABLE, CapacityUnits: 6 }]);

    const read = await doc.send(new TransactGetCommand({
      TransactItems: [
        { Get: { TableName: TABLE, Key: { PK: 'ACCOUNT#alice', SK: 'BALANCE' } } },
        { Get: { TableName: TABLE, Key: { PK: 'ACCOUNT#bob', SK: 'BALANCE' }, ProjectionExpression: 'balance' } },
        { Get: { TableName: TABLE, Key: { PK: 'TRANSFER#none', SK: 'TRANSFER' } } },
        { Get: { TableName: TABLE, Key: { PK: 'TRANSFER#t1', SK: 'TRANSFER' } } },
      ],
      ReturnConsumedCapacity: 'TOTAL',
    }));
    assert.deepEqual(read.Responses, [
      { Item: { PK: 'ACCOUNT#alice', SK: 'BALANCE', balance: 70 } },
      { Item: { balance: 30 } },
      {},  // no such item
      { Item: { PK: 'TRANSFER#t1', SK: 'TRANSFER', amount: 30, tags: new Set(['rent']) } },
    ]);
    // Transactional reads: 2 read units per item of up to 4 KB, the missing one included.
    assert.deepEqual(read.ConsumedCapacity, [{ TableName: TABLE, CapacityUnits: 8 }]);
  });

  test('the low-level client: capacity, and a ClientRequestToken replayed or reused', async () => {
    const token = `tok-${uniqueName()}`;
    const increment = () => new TransactWriteItemsCommand({
      ClientRequestToken: token,
      TransactItems: [{
        Update: {
          TableName: TABLE, Key: { PK: { S: 'COUNTER#c' }, SK: { S: 'COUNTER' } },
          UpdateExpression: 'ADD hits :one', ExpressionAttributeValues: { ':one': { N: '1' } },
        },
      }],
      ReturnConsumedCapacity: 'TOTAL',
    });
    const first = await client.send(increment());
    assert.deepEqual(first.ConsumedCapacity, [{ TableName: TABLE, CapacityUnits: 2 }]);
    await client.send(increment());  // a replay: answered, not applied again
    assert.equal((await get('COUNTER#c', 'COUNTER')).hits, 1);

    await assert.rejects(
      client.send(new TransactWriteItemsCommand({
        ClientRequestToken: token,
        TransactItems: [{ Put: { TableName: TABLE, Item: { PK: { S: 'COUNTER#d' }, SK: { S: 'COUNTER' } } } }],
      })),
      (e) => {
        assert.ok(e instanceof IdempotentParameterMismatchException);
        assert.equal(e.$metadata.httpStatusCode, 400);
        return true;
      });
    assert.equal(await get('COUNTER#d', 'COUNTER'), undefined);

    await assert.rejects(
      client.send(new TransactWriteItemsCommand({ TransactItems: [] })),
      (e) => {
        assert.equal(e.name, 'ValidationException');
        assert.equal(e.message, "1 validation error detected: Value '[]' at 'transactItems' failed to " +
                                'satisfy constraint: Member must have length greater than or equal to 1');
        return true;
      });
  });
});
