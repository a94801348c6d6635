// AWS SDK for JavaScript v3 against `partstore serve`: tags (TagResource, UntagResource,
// ListTagsOfResource page by page), the table settings (DeletionProtectionEnabled enforced,
// TableClass, SSESpecification, OnDemandThroughput, WarmThroughput), PartiQL (ExecuteStatement,
// BatchExecuteStatement, ExecuteTransaction, through the document client too), DescribeLimits,
// ListContributorInsights and the named UnknownOperationException. The boto3 equivalents:
// tests/clients/python/test_table_settings.py, test_partiql.py.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import {
  BatchExecuteStatementCommand,
  CreateTableCommand,
  DeleteTableCommand,
  DescribeLimitsCommand,
  DescribeTableCommand,
  ExecuteStatementCommand,
  ExecuteTransactionCommand,
  ListContributorInsightsCommand,
  ListTagsOfResourceCommand,
  TagResourceCommand,
  UntagResourceCommand,
  UpdateTableCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { ExecuteStatementCommand as DocExecuteStatementCommand } from '@aws-sdk/lib-dynamodb';

import { makeClients, pkSkTable, rejection, startServer, uniqueName } from './server.mjs';

let server;
let client;
let doc;
const TABLE = uniqueName('settings');
let arn;

before(async () => {
  server = await startServer();
  ({ client, doc } = makeClients(server.endpoint));
  const created = await client.send(new CreateTableCommand({
    ...pkSkTable(TABLE), Tags: [{ Key: 'team', Value: 'cart' }],
  }));
  arn = created.TableDescription.TableArn;
  await waitUntilTableExists({ client, minDelay: 1, maxDelay: 1, maxWaitTime: 10 }, { TableName: TABLE });
});

after(async () => {
  client?.destroy();
  await server?.stop();
});

describe('tags', () => {
  test('tag, list all in one answer, untag', async () => {
    // DynamoDB answers a table's tags (up to 50) in one page, without a NextToken (aws/aws-sdk#583).
    const more = Array.from({ length: 12 }, (_, i) => ({ Key: `k${String(i).padStart(2, '0')}`, Value: `${i}` }));
    await client.send(new TagResourceCommand({ ResourceArn: arn, Tags: more }));
    const all = await client.send(new ListTagsOfResourceCommand({ ResourceArn: arn }));
    assert.equal(all.Tags.length, 13);
    assert.equal(all.NextToken, undefined);
    await client.send(new UntagResourceCommand({ ResourceArn: arn, TagKeys: more.map((t) => t.Key) }));
    const left = await client.send(new ListTagsOfResourceCommand({ ResourceArn: arn }));
    assert.deepEqual(left.Tags, [{ Key: 'team', Value: 'cart' }]);
    const error = await rejection(client.send(new TagResourceCommand({
      ResourceArn: arn, Tags: [{ Key: 'aws:x', Value: 'v' }] })));
    assert.equal(error.name, 'ValidationException');
    assert.equal(error.message, 'Tag Key cannot be prefixed with aws:, Key: aws:x');
  });
});

describe('table settings', () => {
  test('deletion protection refuses DeleteTable until turned off', async () => {
    const name = uniqueName('kept');
    await client.send(new CreateTableCommand({ ...pkSkTable(name), DeletionProtectionEnabled: true }));
    const described = await client.send(new DescribeTableCommand({ TableName: name }));
    assert.equal(described.Table.DeletionProtectionEnabled, true);
    const error = await rejection(client.send(new DeleteTableCommand({ TableName: name })));
    assert.equal(error.name, 'ValidationException');
    assert.equal(error.message, 'Resource cannot be deleted as it is currently protected against '
                 + 'deletion. Disable deletion protection first.');
    await client.send(new UpdateTableCommand({ TableName: name, DeletionProtectionEnabled: false }));
    await client.send(new DeleteTableCommand({ TableName: name }));
  });

  test('each setting alone, reported by DescribeTable', async () => {
    for (const change of [{ TableClass: 'STANDARD_INFREQUENT_ACCESS' },
                          { SSESpecification: { Enabled: true } },
                          { OnDemandThroughput: { MaxWriteRequestUnits: 300 } },
                          { WarmThroughput: { ReadUnitsPerSecond: 13000 } }]) {
      await client.send(new UpdateTableCommand({ TableName: TABLE, ...change }));
    }
    const { Table } = await client.send(new DescribeTableCommand({ TableName: TABLE }));
    assert.equal(Table.TableClassSummary.TableClass, 'STANDARD_INFREQUENT_ACCESS');
    assert.equal(Table.SSEDescription.SSEType, 'KMS');
    assert.deepEqual(Table.OnDemandThroughput, { MaxReadRequestUnits: -1, MaxWriteRequestUnits: 300 });
    assert.equal(Table.WarmThroughput.ReadUnitsPerSecond, 13000);
    const error = await rejection(client.send(new UpdateTableCommand({
      TableName: TABLE, TableClass: 'STANDARD', DeletionProtectionEnabled: true })));
    assert.match(error.message, /TableClass modification must be the only operation in the request/);
  });

  test('a GSI\'s own OnDemandThroughput and WarmThroughput, on create and on an Update action', async () => {
    const name = uniqueName('gsi-settings');
    const table = pkSkTable(name);
    table.AttributeDefinitions.push({ AttributeName: 'g', AttributeType: 'S' });
    table.GlobalSecondaryIndexes = [{
      IndexName: 'ByG', KeySchema: [{ AttributeName: 'g', KeyType: 'HASH' }],
      Projection: { ProjectionType: 'KEYS_ONLY' },
      OnDemandThroughput: { MaxReadRequestUnits: 70 },
    }];
    await client.send(new CreateTableCommand(table));
    await client.send(new UpdateTableCommand({
      TableName: name,
      GlobalSecondaryIndexUpdates: [{ Update: { IndexName: 'ByG', WarmThroughput: { WriteUnitsPerSecond: 4500 } } }],
    }));
    const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
    const [index] = Table.GlobalSecondaryIndexes;
    assert.deepEqual(index.OnDemandThroughput, { MaxReadRequestUnits: 70, MaxWriteRequestUnits: -1 });
    assert.deepEqual(index.WarmThroughput, { WriteUnitsPerSecond: 4500, Status: 'ACTIVE' });
    const error = await rejection(client.send(new UpdateTableCommand({
      TableName: name,
      GlobalSecondaryIndexUpdates: [{ Update: { IndexName: 'ByG', WarmThroughput: { WriteUnitsPerSecond: 4000 } } }],
    })));
    assert.match(error.message, /decreasing WarmThroughput is not supported/);
    await client.send(new DeleteTableCommand({ TableName: name }));
  });

  test('DescribeLimits and ListContributorInsights', async () => {
    const limits = await client.send(new DescribeLimitsCommand({}));
    assert.equal(limits.TableMaxWriteCapacityUnits, 40000);
    const insights = await client.send(new ListContributorInsightsCommand({ TableName: TABLE }));
    assert.deepEqual(insights.ContributorInsightsSummaries,
                     [{ TableName: TABLE, ContributorInsightsStatus: 'DISABLED' }]);
  });
});

describe('PartiQL', () => {
  test('ExecuteStatement: INSERT, SELECT with a parameter, UPDATE RETURNING, DELETE', async () => {
    await client.send(new ExecuteStatementCommand({
      Statement: `INSERT INTO "${TABLE}" VALUE {'PK': 'u#1', 'SK': 'profile', 'n': 1}` }));
    const duplicate = await rejection(client.send(new ExecuteStatementCommand({
      Statement: `INSERT INTO "${TABLE}" VALUE {'PK': 'u#1', 'SK': 'profile'}` })));
    assert.equal(duplicate.name, 'DuplicateItemException');
    const selected = await doc.send(new DocExecuteStatementCommand({
      Statement: `SELECT * FROM "${TABLE}" WHERE PK = ?`, Parameters: ['u#1'] }));
    assert.deepEqual(selected.Items, [{ PK: 'u#1', SK: 'profile', n: 1 }]);
    const updated = await client.send(new ExecuteStatementCommand({
      Statement: `UPDATE "${TABLE}" SET n = n + 1 WHERE PK = 'u#1' AND SK = 'profile' RETURNING ALL NEW *` }));
    assert.deepEqual(updated.Items[0].n, { N: '2' });
    await client.send(new ExecuteStatementCommand({
      Statement: `DELETE FROM "${TABLE}" WHERE PK = 'u#1' AND SK = 'profile'` }));
  });

  test('BatchExecuteStatement and ExecuteTransaction', async () => {
    const batch = await client.send(new BatchExecuteStatementCommand({ Statements: [
      { Statement: `INSERT INTO "${TABLE}" VALUE {'PK': 'b#1', 'SK': 's'}` },
      { Statement: `INSERT INTO "${TABLE}" VALUE {'PK': 'b#2', 'SK': 's'}` },
    ] }));
    assert.equal(batch.Responses.length, 2);
    assert.ok(batch.Responses.every((r) => r.Error === undefined));
    await client.send(new ExecuteTransactionCommand({ TransactStatements: [
      { Statement: `UPDATE "${TABLE}" SET v = 1 WHERE PK = 'b#1' AND SK = 's'` },
      { Statement: `DELETE FROM "${TABLE}" WHERE PK = 'b#2' AND SK = 's'` },
    ] }));
    const reads = await client.send(new ExecuteTransactionCommand({ TransactStatements: [
      { Statement: `SELECT v FROM "${TABLE}" WHERE PK = 'b#1' AND SK = 's'` },
      { Statement: `SELECT * FROM "${TABLE}" WHERE PK = 'b#2' AND SK = 's'` },
    ] }));
    assert.deepEqual(reads.Responses[0].Item, { v: { N: '1' } });
    assert.equal(reads.Responses[1].Item, undefined);
  });

  test('an operation partstore does not serve is named', async () => {
    const { DescribeGlobalTableCommand } = await import('@aws-sdk/client-dynamodb');
    const error = await rejection(client.send(new DescribeGlobalTableCommand({ GlobalTableName: TABLE })));
    assert.equal(error.name, 'UnknownOperationException');
    assert.match(error.message, /DescribeGlobalTable/);
  });
});
