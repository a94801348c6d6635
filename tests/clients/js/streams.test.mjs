// DynamoDB Streams through the AWS SDK for JavaScript v3 (@aws-sdk/client-dynamodb-streams, the
// dynamodbstreams service that `partstore serve` answers on the same endpoint): a table with
// StreamSpecification NEW_AND_OLD_IMAGES and Time to Live runs a mixed workload (puts, a no-op
// re-put and update, updates, deletes, a delete of a missing item, BatchWriteItem,
// TransactWriteItems, a TTL deletion on a manual clock), then every record is read back as a
// consumer does: ListStreams -> DescribeStream (paged, parents before children) ->
// GetShardIterator(TRIM_HORIZON) -> GetRecords; and the streams client's errors.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import {
  BatchWriteItemCommand, CreateTableCommand, DeleteItemCommand, DescribeTableCommand,
  GetItemCommand, PutItemCommand, TransactWriteItemsCommand, UpdateItemCommand,
  UpdateTableCommand, UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand, DynamoDBStreamsClient, DynamoDBStreamsServiceException,
  GetRecordsCommand, GetShardIteratorCommand, ListStreamsCommand,
} from '@aws-sdk/client-dynamodb-streams';

import {
  advance, makeClients, pkSkTable, rejection, startServer, uniqueName,
} from './server.mjs';

const TABLE = uniqueName('streams');
const OTHER = uniqueName('streams-other');
const VIEW = 'NEW_AND_OLD_IMAGES';
const TTL_PRINCIPAL = { PrincipalId: 'dynamodb.amazonaws.com', Type: 'Service' };

let server;
let client;
let streams;


before(async () => {
  server = await startServer(['--clock', 'manual']);
  ({ client } = makeClients(server.endpoint));
  streams = new DynamoDBStreamsClient({
    endpoint: server.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDPARTSTORETEST', secretAccessKey: 'partstore-test-secret' },
    maxAttempts: 1,
  });
});

after(async () => {
  streams?.destroy();
  client?.destroy();
  await server?.stop();
});

// An item in the wire shape: its key (PK, SK) and string/number attributes.
function item(pk, sk, attributes = {}) {
  const out = { PK: { S: pk }, SK: { S: sk } };
  for (const [name, value] of Object.entries(attributes)) {
    out[name] = typeof value === 'number' ? { N: String(value) } : value;
  }
  return out;
}
const keyOf = (pk, sk) => ({ PK: { S: pk }, SK: { S: sk } });
const keyText = (keys) => `${keys.PK.S}|${keys.SK.S}`;

// Every record of a stream, shard by shard: DescribeStream's pages (LastEvaluatedShardId), each
// shard after its parent, each read from TRIM_HORIZON until a page is empty or the shard closes.
async function readStream(streamArn) {
  const shards = [];
  let exclusiveStartShardId;
  let description;
  do {
    ({ StreamDescription: description } = await streams.send(new DescribeStreamCommand({
      StreamArn: streamArn, Limit: 1, ExclusiveStartShardId: exclusiveStartShardId,
    })));
    assert.ok(description.Shards.length <= 1, 'DescribeStream ignored its Limit');
    shards.push(...description.Shards);
    exclusiveStartShardId = description.LastEvaluatedShardId;
  } while (exclusiveStartShardId !== undefined);
  assert.ok(shards.length >= 1);
  assert.equal(new Set(shards.map((s) => s.ShardId)).size, shards.length, 'a shard listed twice');

  // Parents before children (a parent that is no longer listed has been trimmed: read as a root).
  const known = new Set(shards.map((s) => s.ShardId));
  const done = new Set();
  const order = [];
  while (order.length < shards.length) {
    const ready = shards.filter((s) => !done.has(s.ShardId) &&
      (s.ParentShardId === undefined || !known.has(s.ParentShardId) || done.has(s.ParentShardId)));
    assert.ok(ready.length > 0, 'shards whose parents never come');
    for (const s of ready) {
      done.add(s.ShardId);
      order.push(s);
    }
  }

  const byShard = new Map();
  for (const shard of order) {
    const records = [];
    let { ShardIterator: iterator } = await streams.send(new GetShardIteratorCommand({
      StreamArn: streamArn, ShardId: shard.ShardId, ShardIteratorType: 'TRIM_HORIZON',
    }));
    for (let pages = 0; iterator !== undefined; ++pages) {
      assert.ok(pages < 1000, `shard ${shard.ShardId} never ends`);
      // A small Limit, so that a shard takes several pages.
      const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 2 }));
      assert.ok(page.Records.length <= 2);
      records.push(...page.Records);
      if (page.Records.length === 0) break;
      iterator = page.NextShardIterator;
    }
    byShard.set(shard.ShardId, records);
  }
  return byShard;
}

describe('DynamoDB Streams', () => {
  let streamArn;
  let streamLabel;
  const now = Math.floor(Date.now() / 1000);  // the manual clock starts at the wall clock
  const expiresAt = now + 60;

  test('a stream with Time to Live: the workload, and ListStreams / DescribeTable', async () => {
    const created = await client.send(new CreateTableCommand({
      ...pkSkTable(TABLE), StreamSpecification: { StreamEnabled: true, StreamViewType: VIEW },
    }));
    assert.deepEqual(created.TableDescription.StreamSpecification,
                     { StreamEnabled: true, StreamViewType: VIEW });
    assert.ok(created.TableDescription.LatestStreamArn);
    await client.send(new CreateTableCommand({
      ...pkSkTable(OTHER), StreamSpecification: { StreamEnabled: true, StreamViewType: 'KEYS_ONLY' },
    }));
    await client.send(new UpdateTimeToLiveCommand({
      TableName: TABLE, TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    }));

    const put = (Item) => client.send(new PutItemCommand({ TableName: TABLE, Item }));
    const update = (pk, sk, UpdateExpression, ExpressionAttributeValues) => client.send(
      new UpdateItemCommand({
        TableName: TABLE, Key: keyOf(pk, sk), UpdateExpression, ExpressionAttributeValues,
      }));
    const del = (pk, sk) => client.send(new DeleteItemCommand({ TableName: TABLE, Key: keyOf(pk, sk) }));

    await put(item('USER#a', 'PROFILE', { v: 1, tags: { SS: ['x', 'y'] } }));     // INSERT
    await put(item('USER#a', 'PROFILE', { v: 1, tags: { SS: ['y', 'x'] } }));     // identical: none
    await put(item('USER#b', 'PROFILE', { v: 1 }));                               // INSERT
    await update('USER#a', 'PROFILE', 'SET v = :v', { ':v': { N: '2' } });        // MODIFY
    await update('USER#a', 'PROFILE', 'SET v = :v', { ':v': { N: '2' } });        // sets what is there: none
    await update('USER#c', 'PROFILE', 'SET m = :m', { ':m': { M: { k: { S: 'v' } } } });  // INSERT
    await put(item('USER#b', 'PROFILE', { v: 3, note: { S: 'replaced' } }));       // MODIFY
    await del('USER#b', 'PROFILE');                                               // REMOVE
    await del('USER#ghost', 'PROFILE');                                           // missing: none
    await client.send(new BatchWriteItemCommand({ RequestItems: { [TABLE]: [
      { PutRequest: { Item: item('USER#d', 'PROFILE', { v: 4 }) } },              // INSERT
      { PutRequest: { Item: item('USER#e', 'PROFILE', { v: 5 }) } },              // INSERT
      { DeleteRequest: { Key: keyOf('USER#c', 'PROFILE') } },                     // REMOVE
    ] } }));
    await client.send(new TransactWriteItemsCommand({ TransactItems: [
      { Put: { TableName: TABLE, Item: item('USER#f', 'PROFILE', { v: 6 }) } },   // INSERT
      { Delete: { TableName: TABLE, Key: keyOf('USER#d', 'PROFILE') } },          // REMOVE
    ] }));
    await put(item('SESSION#t', 'S', { expiresAt }));                            // INSERT
    await put(item('SESSION#keep', 'S', { expiresAt: now + 86400 }));           // INSERT
    await put(item('USER#a', 'PROFILE', { v: 2, tags: { SS: ['x', 'y'] } }));     // identical: none
    // The OTHER table's writes go to its own stream only.
    await client.send(new PutItemCommand({ TableName: OTHER, Item: item('USER#a', 'PROFILE') }));

    await advance(server.endpoint, 120);                                         // TTL: REMOVE t
    const gone = await client.send(new GetItemCommand({
      TableName: TABLE, Key: keyOf('SESSION#t', 'S'), ConsistentRead: true,
    }));
    assert.equal(gone.Item, undefined);
    const kept = await client.send(new GetItemCommand({
      TableName: TABLE, Key: keyOf('SESSION#keep', 'S'), ConsistentRead: true,
    }));
    assert.ok(kept.Item);

    const listed = await streams.send(new ListStreamsCommand({ TableName: TABLE }));
    assert.equal(listed.Streams.length, 1);
    assert.equal(listed.LastEvaluatedStreamArn, undefined);
    const [summary] = listed.Streams;
    assert.equal(summary.TableName, TABLE);
    ({ StreamArn: streamArn, StreamLabel: streamLabel } = summary);
    assert.ok(streamArn.includes(`table/${TABLE}/stream/`), streamArn);
    assert.ok(streamArn.endsWith(`/stream/${streamLabel}`), streamArn);
    const all = await streams.send(new ListStreamsCommand({}));
    assert.deepEqual(all.Streams.map((s) => s.TableName).sort(), [TABLE, OTHER].sort());

    const table = (await client.send(new DescribeTableCommand({ TableName: TABLE }))).Table;
    assert.deepEqual(table.StreamSpecification, { StreamEnabled: true, StreamViewType: VIEW });
    assert.equal(table.LatestStreamArn, streamArn);
    assert.equal(table.LatestStreamLabel, streamLabel);
    assert.equal(created.TableDescription.LatestStreamArn, streamArn);

    const { StreamDescription: description } = await streams.send(
      new DescribeStreamCommand({ StreamArn: streamArn }));
    assert.equal(description.StreamArn, streamArn);
    assert.equal(description.StreamLabel, streamLabel);
    assert.equal(description.StreamStatus, 'ENABLED');
    assert.equal(description.StreamViewType, VIEW);
    assert.equal(description.TableName, TABLE);
    assert.ok(description.CreationRequestDateTime instanceof Date);
    assert.deepEqual(description.KeySchema, pkSkTable(TABLE).KeySchema);
    assert.equal(description.LastEvaluatedShardId, undefined);
    for (const shard of description.Shards) {
      assert.match(shard.SequenceNumberRange.StartingSequenceNumber, /^\d+$/);
    }
  });

  test('every record, read shard by shard, in write order per key', async () => {
    assert.ok(streamArn, 'the workload test ran first');
    const byShard = await readStream(streamArn);

    const perKey = new Map();
    const shardOfKey = new Map();
    let ttlRecord;
    for (const [shardId, records] of byShard) {
      let previous = -1n;
      for (const record of records) {
        assert.equal(record.eventSource, 'aws:dynamodb');
        assert.equal(record.eventVersion, '1.1');
        assert.equal(record.awsRegion, 'us-east-1');
        assert.ok(record.eventID);
        assert.ok(['INSERT', 'MODIFY', 'REMOVE'].includes(record.eventName), record.eventName);
        const r = record.dynamodb;
        assert.equal(r.StreamViewType, VIEW);
        assert.ok(r.ApproximateCreationDateTime instanceof Date);
        assert.ok(r.SizeBytes > 0);
        assert.match(r.SequenceNumber, /^\d+$/);
        const sequence = BigInt(r.SequenceNumber);
        assert.ok(sequence > previous, `sequence numbers out of order in ${shardId}`);
        previous = sequence;
        assert.deepEqual(Object.keys(r.Keys).sort(), ['PK', 'SK']);
        // NEW_AND_OLD_IMAGES: an INSERT has no OldImage, a REMOVE no NewImage, a MODIFY both.
        assert.equal(r.OldImage !== undefined, record.eventName !== 'INSERT', record.eventName);
        assert.equal(r.NewImage !== undefined, record.eventName !== 'REMOVE', record.eventName);
        for (const image of [r.OldImage, r.NewImage]) {
          if (image) assert.deepEqual({ PK: image.PK, SK: image.SK }, r.Keys);
        }

        const key = keyText(r.Keys);
        if (shardOfKey.has(key)) assert.equal(shardOfKey.get(key), shardId, `${key} in two shards`);
        shardOfKey.set(key, shardId);
        if (!perKey.has(key)) perKey.set(key, []);
        perKey.get(key).push(record);
        if (record.userIdentity !== undefined) {
          assert.equal(ttlRecord, undefined, 'more than one record with a userIdentity');
          ttlRecord = record;
        }
      }
    }

    const events = Object.fromEntries([...perKey].map(([key, rs]) => [key, rs.map((r) => r.eventName)]));
    assert.deepEqual(events, {
      'USER#a|PROFILE': ['INSERT', 'MODIFY'],
      'USER#b|PROFILE': ['INSERT', 'MODIFY', 'REMOVE'],
      'USER#c|PROFILE': ['INSERT', 'REMOVE'],
      'USER#d|PROFILE': ['INSERT', 'REMOVE'],
      'USER#e|PROFILE': ['INSERT'],
      'USER#f|PROFILE': ['INSERT'],
      'SESSION#t|S': ['INSERT', 'REMOVE'],
      'SESSION#keep|S': ['INSERT'],
    });

    const images = (key) => perKey.get(key).map((r) => [r.dynamodb.OldImage, r.dynamodb.NewImage]);
    const tags = (set) => ({ SS: set });
    const sortSets = (image) => image && image.tags
      ? { ...image, tags: tags([...image.tags.SS].sort()) } : image;
    assert.deepEqual(images('USER#a|PROFILE').map(([o, n]) => [sortSets(o), sortSets(n)]), [
      [undefined, item('USER#a', 'PROFILE', { v: 1, tags: tags(['x', 'y']) })],
      [item('USER#a', 'PROFILE', { v: 1, tags: tags(['x', 'y']) }),
       item('USER#a', 'PROFILE', { v: 2, tags: tags(['x', 'y']) })],
    ]);
    assert.deepEqual(images('USER#b|PROFILE'), [
      [undefined, item('USER#b', 'PROFILE', { v: 1 })],
      [item('USER#b', 'PROFILE', { v: 1 }), item('USER#b', 'PROFILE', { v: 3, note: { S: 'replaced' } })],
      [item('USER#b', 'PROFILE', { v: 3, note: { S: 'replaced' } }), undefined],
    ]);
    assert.deepEqual(images('USER#c|PROFILE'), [
      [undefined, item('USER#c', 'PROFILE', { m: { M: { k: { S: 'v' } } } })],
      [item('USER#c', 'PROFILE', { m: { M: { k: { S: 'v' } } } }), undefined],
    ]);
    assert.deepEqual(images('USER#d|PROFILE'), [
      [undefined, item('USER#d', 'PROFILE', { v: 4 })],
      [item('USER#d', 'PROFILE', { v: 4 }), undefined],
    ]);
    assert.deepEqual(images('USER#f|PROFILE'), [[undefined, item('USER#f', 'PROFILE', { v: 6 })]]);
    assert.deepEqual(images('SESSION#t|S'), [
      [undefined, item('SESSION#t', 'S', { expiresAt })],
      [item('SESSION#t', 'S', { expiresAt }), undefined],
    ]);

    // Only the TTL deletion names a service as its maker.
    assert.ok(ttlRecord, 'no record with a userIdentity');
    assert.equal(ttlRecord, perKey.get('SESSION#t|S')[1]);
    assert.deepEqual(ttlRecord.userIdentity, TTL_PRINCIPAL);
    assert.equal(ttlRecord.eventName, 'REMOVE');
    // Made on the database clock, after the item expired.
    assert.ok(ttlRecord.dynamodb.ApproximateCreationDateTime.getTime() >= expiresAt * 1000,
              ttlRecord.dynamodb.ApproximateCreationDateTime.toISOString());
  });

  test('errors: AT_SEQUENCE_NUMBER without a SequenceNumber, and a garbage iterator', async () => {
    assert.ok(streamArn, 'the workload test ran first');
    const { StreamDescription: { Shards: [shard] } } = await streams.send(
      new DescribeStreamCommand({ StreamArn: streamArn }));
    const noSequence = await rejection(streams.send(new GetShardIteratorCommand({
      StreamArn: streamArn, ShardId: shard.ShardId, ShardIteratorType: 'AT_SEQUENCE_NUMBER',
    })));
    assert.ok(noSequence instanceof DynamoDBStreamsServiceException, String(noSequence));
    assert.equal(noSequence.name, 'ValidationException');
    assert.equal(noSequence.$fault, 'client');
    assert.equal(noSequence.$metadata.httpStatusCode, 400);

    const garbage = await rejection(streams.send(new GetRecordsCommand({ ShardIterator: 'not-an-iterator' })));
    assert.ok(garbage instanceof DynamoDBStreamsServiceException, String(garbage));
    assert.equal(garbage.name, 'ValidationException');
    assert.equal(garbage.$fault, 'client');
    assert.equal(garbage.$metadata.httpStatusCode, 400);
  });
});

describe('DescribeStream ShardFilter (CHILD_SHARDS)', () => {
  // Issue 48, item 9. DynamoDB's API reference (ShardFilter, July 2025): with Type CHILD_SHARDS and a
  // parent's ShardId, DescribeStream lists only the shards whose ParentShardId is that id.
  test('lists a split shard\'s children, pages them, and refuses a malformed filter', async () => {
    const name = uniqueName('split');
    const created = await client.send(new CreateTableCommand({
      ...pkSkTable(name), BillingMode: 'PROVISIONED',
      ProvisionedThroughput: { ReadCapacityUnits: 100, WriteCapacityUnits: 500 },  // one partition
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'KEYS_ONLY' },
    }));
    const arn = created.TableDescription.LatestStreamArn;
    for (let i = 0; i < 5; ++i) {
      await client.send(new PutItemCommand({ TableName: name, Item: item(`k${i}`, 'S') }));
    }
    await advance(server.endpoint, 1);
    await client.send(new UpdateTableCommand({  // two partitions: the shard closes, two children open
      TableName: name, ProvisionedThroughput: { ReadCapacityUnits: 100, WriteCapacityUnits: 1500 },
    }));
    const describe = (extra) => streams.send(new DescribeStreamCommand({ StreamArn: arn, ...extra }));
    const all = (await describe({})).StreamDescription.Shards;
    assert.equal(all.length, 3);
    const parent = all.find((s) => s.ParentShardId === undefined);
    const children = all.filter((s) => s.ParentShardId === parent.ShardId).map((s) => s.ShardId);
    assert.equal(children.length, 2);

    const filter = (shardId) => ({ ShardFilter: { Type: 'CHILD_SHARDS', ShardId: shardId } });
    const listed = (await describe(filter(parent.ShardId))).StreamDescription;
    assert.deepEqual(listed.Shards.map((s) => s.ShardId), children);
    assert.ok(listed.Shards.every((s) => s.ParentShardId === parent.ShardId));
    assert.equal(listed.LastEvaluatedShardId, undefined);
    // Paged within the children.
    const first = (await describe({ ...filter(parent.ShardId), Limit: 1 })).StreamDescription;
    assert.deepEqual(first.Shards.map((s) => s.ShardId), [children[0]]);
    assert.equal(first.LastEvaluatedShardId, children[0]);
    const second = (await describe({
      ...filter(parent.ShardId), Limit: 1, ExclusiveStartShardId: first.LastEvaluatedShardId,
    })).StreamDescription;
    assert.deepEqual(second.Shards.map((s) => s.ShardId), [children[1]]);
    assert.equal(second.LastEvaluatedShardId, undefined);
    // A shard without children, and an id no shard has: no shards, no error.
    assert.deepEqual((await describe(filter(children[0]))).StreamDescription.Shards, []);
    const unknown = `shardId-00000000000000000000-${'f'.repeat(8)}`;
    assert.deepEqual((await describe(filter(unknown))).StreamDescription.Shards, []);

    const refused = async (extra) => {
      const error = await rejection(describe(extra));
      assert.ok(error instanceof DynamoDBStreamsServiceException, String(error));
      assert.equal(error.name, 'ValidationException');
      return error.message;
    };
    assert.equal(await refused({ ShardFilter: { Type: 'PARENT_SHARDS', ShardId: parent.ShardId } }),
      "1 validation error detected: Value 'PARENT_SHARDS' at 'shardFilter.type' failed to satisfy " +
      'constraint: Member must satisfy enum value set: [CHILD_SHARDS]');
    assert.equal(await refused({ ShardFilter: { Type: 'CHILD_SHARDS' } }),
      "1 validation error detected: Value null at 'shardFilter.shardId' failed to satisfy " +
      'constraint: Member must not be null');
    assert.equal(await refused({ ShardFilter: { ShardId: parent.ShardId } }),
      "1 validation error detected: Value null at 'shardFilter.type' failed to satisfy " +
      'constraint: Member must not be null');
    assert.equal(await refused(filter('short')),
      "1 validation error detected: Value 'short' at 'shardFilter.shardId' failed to satisfy " +
      'constraint: Member must have length greater than or equal to 28');
  });
});
