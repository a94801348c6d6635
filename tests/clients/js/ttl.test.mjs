// Time to Live through the AWS SDK for JavaScript v3 (as tests/clients/python/test_ttl.py through
// boto3): UpdateTimeToLive / DescribeTimeToLive and their errors, and expiry on a manual-clock
// server, where epoch time starts at the wall clock and moves only with Partstore.AdvanceClock.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  CreateTableCommand, DescribeTimeToLiveCommand, PutItemCommand, ScanCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';

import { advance, makeClients, rejection, startServer } from './server.mjs';



test('Time to Live: settings, errors, and items expiring with the manual clock', async (t) => {
  const server = await startServer(['--clock', 'manual']);
  t.after(() => server.stop());
  const { client } = makeClients(server.endpoint);
  t.after(() => client.destroy());
  await client.send(new CreateTableCommand({
    TableName: 'Sessions',
    BillingMode: 'PAY_PER_REQUEST',
    KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
  }));
  const describe = async () => (await client.send(
    new DescribeTimeToLiveCommand({ TableName: 'Sessions' }))).TimeToLiveDescription;
  assert.deepEqual(await describe(), { TimeToLiveStatus: 'DISABLED' });

  const spec = { AttributeName: 'expiresAt', Enabled: true };
  const updated = await client.send(
    new UpdateTimeToLiveCommand({ TableName: 'Sessions', TimeToLiveSpecification: spec }));
  assert.deepEqual(updated.TimeToLiveSpecification, spec);
  assert.deepEqual(await describe(), { TimeToLiveStatus: 'ENABLED', AttributeName: 'expiresAt' });

  const again = await rejection(client.send(
    new UpdateTimeToLiveCommand({ TableName: 'Sessions', TimeToLiveSpecification: spec })));
  assert.equal(again.name, 'ValidationException');
  assert.equal(again.message, 'TimeToLive is already enabled');
  const missing = await rejection(client.send(new DescribeTimeToLiveCommand({ TableName: 'Nope' })));
  assert.equal(missing.name, 'ResourceNotFoundException');

  const now = Math.floor(Date.now() / 1000);
  const put = (id, expiresAt) => client.send(new PutItemCommand({
    TableName: 'Sessions', Item: { id: { S: id }, expiresAt },
  }));
  await put('soon', { N: String(now + 60) });
  await put('tomorrow', { N: String(now + 86400) });
  await put('millis', { N: String(Date.now()) });  // milliseconds: far in the future, never expires
  const ids = async () => (await client.send(new ScanCommand({ TableName: 'Sessions' })))
    .Items.map((item) => item.id.S).sort();
  assert.deepEqual(await ids(), ['millis', 'soon', 'tomorrow']);
  await advance(server.endpoint, 120);
  assert.deepEqual(await ids(), ['millis', 'tomorrow']);
  await advance(server.endpoint, 2 * 86400);
  assert.deepEqual(await ids(), ['millis']);
});
