// A page on another origin that uses the AWS SDK for JavaScript v3 against `partstore serve`
// (bundled for the browser by esbuild; tests/clients/js/browser/browser_check.py). It creates a
// table, writes and reads an item, provokes an error, and writes what happened into the page as
// JSON (#result), which the check reads from the DOM Chromium dumps.
import {
  CreateTableCommand, DynamoDBClient, GetItemCommand, PutItemCommand, DescribeTableCommand,
} from '@aws-sdk/client-dynamodb';

const out = document.getElementById('result');
const params = new URLSearchParams(location.search);
const endpoint = params.get('endpoint');
// A table of its own per load (the check loads the page again if Chromium dumped it too early).
const table = `FromTheBrowser${params.get('attempt') ?? ''}`;
const client = new DynamoDBClient({
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'AKIDBROWSER', secretAccessKey: 'browser-secret' },
  maxAttempts: 1,
});

async function run() {
  const result = { origin: location.origin, endpoint };
  await client.send(new CreateTableCommand({
    TableName: table, BillingMode: 'PAY_PER_REQUEST',
    KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }],
    AttributeDefinitions: [{ AttributeName: 'PK', AttributeType: 'S' }],
  }));
  await client.send(new PutItemCommand({
    TableName: table, Item: { PK: { S: 'page' }, n: { N: '42' } },
  }));
  const got = await client.send(new GetItemCommand({
    TableName: table, Key: { PK: { S: 'page' } },
  }));
  result.item = got.Item;
  result.requestId = got.$metadata.requestId ?? null;  // from x-amzn-RequestId: exposed to the page
  try {
    await client.send(new DescribeTableCommand({ TableName: 'Missing' }));
    result.error = null;
  } catch (error) {
    result.error = { name: error.name, status: error.$metadata?.httpStatusCode ?? null };
  }
  return result;
}

run().then(
  (result) => { out.textContent = JSON.stringify(result); out.dataset.done = 'ok'; },
  (error) => { out.textContent = JSON.stringify({ failed: String(error) }); out.dataset.done = 'failed'; });
