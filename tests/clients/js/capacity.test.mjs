// AWS SDK for JavaScript v3 against `partstore serve --clock manual`: a throttled request raises
// the SDK's modeled throttling exception (with its ThrottlingReasons), the SDK's own retries show
// in Partstore.GetMetrics, and Partstore.AdvanceClock refills the buckets.
//
// Each test starts its own server: the clock stands at 0 until the test moves it, so every count
// is exact. The Partstore_20261120.<Op> extensions are plain JSON POSTs (README.md, "Capacity
// simulation"); they need no signature.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  CreateTableCommand,
  PutItemCommand,
  ProvisionedThroughputExceededException,
  ThrottlingException,
} from '@aws-sdk/client-dynamodb';

import { makeClients, rejection, startServer } from './server.mjs';

const PROVISIONED_MESSAGE = 'The level of configured provisioned throughput for the table was '
  + 'exceeded. Consider increasing your provisioning level with the UpdateTable API.';
const SMALL_ITEM = { pk: { S: 'hot' } };

// A fresh manual-clock server and a client of it making at most `maxAttempts` attempts a request.
async function manualServer(t, maxAttempts = 1) {
  const server = await startServer(['--clock', 'manual']);
  t.after(() => server.stop());
  const { client } = makeClients(server.endpoint, undefined, { maxAttempts });
  t.after(() => client.destroy());
  return { endpoint: server.endpoint, client };
}

async function partstore(endpoint, operation, body) {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'X-Amz-Target': `Partstore_20261120.${operation}`,
      'Content-Type': 'application/x-amz-json-1.0',
    },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200, `${operation}: ${await response.clone().text()}`);
  return response.json();
}

// One GetMetrics counter of the table (everything here happens in its first minute).
async function metric(endpoint, table, name) {
  const { Datapoints } = await partstore(endpoint, 'GetMetrics', { TableName: table, Period: 60 });
  assert.deepEqual(Datapoints.map((point) => point.Timestamp), [0]);
  return Datapoints[0][name];
}

// A table with hash key pk (S): provisioned (1 RCU, `wcu` WCU), or on-demand without wcu.
function createTable(client, name, wcu) {
  return client.send(new CreateTableCommand({
    TableName: name,
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    ...(wcu === undefined ? { BillingMode: 'PAY_PER_REQUEST' }
      : { ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: wcu } }),
  }));
}


const put = (table, item = SMALL_ITEM) => new PutItemCommand({ TableName: table, Item: item });

test('a throttled PutItem raises ProvisionedThroughputExceededException', async (t) => {
  const { endpoint, client } = await manualServer(t);
  await createTable(client, 'hot', 1);
  await client.send(put('hot'));  // the partition's one second of 1 WCU
  const error = await rejection(client.send(put('hot')));
  assert.ok(error instanceof ProvisionedThroughputExceededException, `${error.name}: ${error.message}`);
  assert.equal(error.name, 'ProvisionedThroughputExceededException');
  assert.equal(error.message, PROVISIONED_MESSAGE);
  assert.equal(error.$metadata.httpStatusCode, 400);
  assert.equal(error.$metadata.attempts, 1);
  assert.deepEqual(error.ThrottlingReasons, [{
    reason: 'TableWriteProvisionedThroughputExceeded',
    resource: 'arn:aws:dynamodb:us-east-1:000000000000:table/hot',
  }]);
  assert.equal(await metric(endpoint, 'hot', 'ThrottledWriteRequests'), 1);

  // The clock does not move by itself: only AdvanceClock refills the bucket.
  assert.deepEqual(await partstore(endpoint, 'AdvanceClock', { Seconds: 1 }), { Now: 1 });
  const response = await client.send(put('hot'));
  assert.equal(response.$metadata.attempts, 1);
  assert.equal(await metric(endpoint, 'hot', 'WriteRequests'), 2);
});

test("the SDK's retries are visible in the metrics", async (t) => {
  const { endpoint, client } = await manualServer(t, 3);
  await createTable(client, 'hot', 1);
  await client.send(put('hot'));
  const error = await rejection(client.send(put('hot')));
  assert.ok(error instanceof ProvisionedThroughputExceededException, `${error.name}: ${error.message}`);
  assert.equal(error.$metadata.attempts, 3);
  assert.ok(error.$metadata.totalRetryDelay > 0, 'the SDK backs off between attempts');
  // Every attempt reached the server and was throttled there.
  assert.equal(await metric(endpoint, 'hot', 'ThrottledWriteRequests'), error.$metadata.attempts);
  assert.deepEqual(await metric(endpoint, 'hot', 'ThrottleEventsByReason'),
                   { TableWriteProvisionedThroughputExceeded: 3 });

  await partstore(endpoint, 'AdvanceClock', { Seconds: 1 });
  const response = await client.send(put('hot'));
  assert.equal(response.$metadata.attempts, 1);
  assert.equal(await metric(endpoint, 'hot', 'ThrottledWriteRequests'), 3);
  assert.equal(await metric(endpoint, 'hot', 'WriteRequests'), 2);
});

test('an on-demand table throttles with ThrottlingException', async (t) => {
  // A new on-demand table has 4 partitions of at most 1000 WCU a second each; three writes of
  // 390 WCU to one key need 1170 from one partition.
  const { endpoint, client } = await manualServer(t);
  await createTable(client, 'ondemand');
  const item = { pk: { S: 'hot' }, v: { S: 'x'.repeat(390 * 1024 - 'pkhotv'.length) } };
  for (let i = 0; i < 2; ++i) {
    const response = await client.send(new PutItemCommand({
      TableName: 'ondemand', Item: item, ReturnConsumedCapacity: 'TOTAL' }));
    assert.equal(response.ConsumedCapacity.CapacityUnits, 390);
  }
  const error = await rejection(client.send(put('ondemand', item)));
  assert.ok(error instanceof ThrottlingException, `${error.name}: ${error.message}`);
  assert.match(error.message, /^Throughput exceeds the current capacity of your table or index\./);
  assert.equal(error.$metadata.attempts, 1);
  assert.deepEqual(error.throttlingReasons, [{
    reason: 'TableWriteKeyRangeThroughputExceeded',
    resource: 'arn:aws:dynamodb:us-east-1:000000000000:table/ondemand',
  }]);
  assert.equal(await metric(endpoint, 'ondemand', 'ThrottledWriteRequests'), 1);
});
