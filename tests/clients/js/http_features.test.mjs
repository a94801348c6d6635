// AWS SDK for JavaScript v3 against `partstore serve` at the HTTP level, through the low-level
// DynamoDBClient and middlewares on its stack: response compression (Accept-Encoding gzip/deflate,
// bodies of 4 KB and more), request compression (a gzip'd body with Content-Encoding, a broken one
// an InternalServerError), SigV4 with `--auth sigv4 --access-keys`, DescribeEndpoints, and the
// headers of every answer (x-amz-crc32, x-amzn-RequestId, Date, Server) and GET /metrics.
// The boto3 equivalents: tests/clients/python/test_compression.py, test_auth.py, test_endpoint.py.
// (NodeHttpHandler does not decompress: the recording middleware decodes for the deserializer.)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync, inflateSync } from 'node:zlib';

import {
  BatchWriteItemCommand,
  CreateTableCommand,
  DescribeEndpointsCommand,
  GetItemCommand,
  ListTablesCommand,
  PutItemCommand,
  QueryCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';

import { makeClients, pkSkTable, startServer, uniqueName } from './server.mjs';

// CRC-32 (zlib's) by table: node's zlib.crc32 is newer than Debian 12's Node 18.
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

let server;
const TABLE = uniqueName('http');
const opened = [];

// A DynamoDBClient (makeClients': one attempt) whose answers are recorded as they came off the
// wire ({ status, headers, raw }), a compressed body then decoded for the SDK's deserializer.
// accept: the Accept-Encoding of its requests; gzip: its request bodies are gzip'd, then passed
// through gzip(compressed, plain) (to break them); sizes gets [plain, sent] per request.
function recorded(endpoint, { accept, gzip, clientConfig } = {}) {
  const { client } = makeClients(endpoint, undefined, clientConfig);
  opened.push(client);
  const answers = [];
  const sizes = [];
  if (accept) {
    client.middlewareStack.add((next) => (args) => {
      args.request.headers['accept-encoding'] = accept;
      return next(args);
    }, { step: 'build', name: 'acceptEncoding' });
  }
  if (gzip) {
    // Before signing (finalizeRequest): the signature covers the bytes sent, as SDKs' own
    // request compression does it.
    client.middlewareStack.add((next) => (args) => {
      const plain = Buffer.from(args.request.body);
      const body = gzip(gzipSync(plain), plain);
      args.request.body = body;
      args.request.headers['content-encoding'] = 'gzip';
      args.request.headers['content-length'] = String(body.length);
      sizes.push([plain.length, body.length]);
      return next(args);
    }, { step: 'build', name: 'gzipRequests' });
  }
  client.middlewareStack.addRelativeTo((next) => async (args) => {
    const result = await next(args);
    const { response } = result;
    const chunks = [];
    for await (const chunk of response.body) chunks.push(chunk);
    const raw = Buffer.concat(chunks);
    const coding = response.headers['content-encoding'];
    answers.push({ status: response.statusCode, headers: { ...response.headers }, raw });
    // (A copy: the SDK turns the Uint8Array it reads into its own class.)
    response.body = coding === 'gzip' ? gunzipSync(raw)
      : coding === 'deflate' ? inflateSync(raw) : Buffer.from(raw);
    return result;
  }, { relation: 'after', toMiddleware: 'deserializerMiddleware', name: 'recordAnswers' });
  return { client, answers, sizes };
}
const KEEP = (gz) => gz;

// A raw HTTP exchange (node:http: nothing decoded): { status, headers, raw }.
function exchange(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers }, (response) => {
      const chunks = [];
      response.on('data', (c) => chunks.push(c));
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers,
                                         raw: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

async function metrics() {
  const answer = await exchange(server.endpoint + '/metrics');
  assert.equal(answer.status, 200);
  assert.equal(answer.headers['content-type'], 'text/plain; version=0.0.4');
  const samples = new Map();
  for (const line of answer.raw.toString().split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

// What every answer carries, DynamoDB's way.
function assertStandardHeaders({ headers, raw }) {
  assert.equal(headers['x-amz-crc32'], String(crc32(raw)), 'x-amz-crc32 of the bytes as sent');
  assert.match(headers['x-amzn-requestid'], /^[A-Z0-9]{52}$/);
  assert.equal(headers.server, 'Server');
  assert.match(headers.date, /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
  assert.ok(Math.abs(Date.parse(headers.date) - Date.now()) < 5 * 60 * 1000, headers.date);
}

const key = (pk, sk = '1') => ({ PK: { S: pk }, SK: { S: sk } });

before(async () => {
  server = await startServer();
  const { client } = recorded(server.endpoint);
  await client.send(new CreateTableCommand(pkSkTable(TABLE)));
  await waitUntilTableExists({ client, minDelay: 1, maxDelay: 1, maxWaitTime: 20 }, { TableName: TABLE });
});

after(async () => {
  for (const client of opened) client.destroy();
  await server?.stop();
});

describe('response compression', () => {
  // 16 items of 512 hex digits: a Query answer of about 9 KB, not trivially compressible.
  const items = Array.from({ length: 16 }, (_, i) => ({
    ...key('big', String(i).padStart(2, '0')), data: { S: randomBytes(256).toString('hex') },
  }));
  const query = () => new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'PK = :pk',
                                         ExpressionAttributeValues: { ':pk': { S: 'big' } } });
  let plain;

  before(async () => {
    const { client, answers } = recorded(server.endpoint);
    for (let i = 0; i < items.length; i += 8) {
      await client.send(new BatchWriteItemCommand({ RequestItems: {
        [TABLE]: items.slice(i, i + 8).map((Item) => ({ PutRequest: { Item } })) } }));
    }
    const output = await client.send(query());
    assert.deepEqual(output.Items, items);
    plain = answers.at(-1);
    assert.equal(plain.headers['content-encoding'], undefined, 'no Accept-Encoding: as it is');
    assert.ok(plain.raw.length >= 4096, `${plain.raw.length} bytes`);
  });

  for (const [accept, coding, decode] of [['gzip', 'gzip', gunzipSync],
                                          ['deflate', 'deflate', inflateSync],
                                          ['br, deflate, gzip', 'deflate', inflateSync]]) {
    test(`Accept-Encoding: ${accept} -> ${coding}, decoded for the SDK`, async () => {
      const { client, answers } = recorded(server.endpoint, { accept });
      const output = await client.send(query());
      assert.deepEqual(output.Items, items);
      assert.equal(output.Count, items.length);
      const sent = answers.at(-1);
      assert.equal(sent.headers['content-encoding'], coding);
      assert.equal(Number(sent.headers['content-length']), sent.raw.length);
      assert.ok(sent.raw.length < plain.raw.length * 0.7, `${sent.raw.length} of ${plain.raw.length}`);
      assert.deepEqual(decode(sent.raw), plain.raw, 'the same body, compressed');
      assertStandardHeaders(sent);  // the CRC-32 of the compressed bytes

      // Below 4096 bytes: as it is, whatever the client accepts.
      const small = await client.send(new GetItemCommand({ TableName: TABLE, Key: key('big', '00') }));
      assert.deepEqual(small.Item, items[0]);
      const answer = answers.at(-1);
      assert.ok(answer.raw.length < 4096);
      assert.equal(answer.headers['content-encoding'], undefined);
      assert.equal(JSON.parse(answer.raw).Item.data.S, items[0].data.S);
    });
  }
});

describe('request compression', () => {
  test('a gzip\'d PutItem of 20 KB is decoded and stored', async () => {
    const { client, sizes } = recorded(server.endpoint, { gzip: KEEP });
    const long = 'x'.repeat(20000);
    await client.send(new PutItemCommand({ TableName: TABLE, Item: { ...key('gz'), long: { S: long } } }));
    assert.equal(sizes.length, 1);
    assert.ok(sizes[0][1] * 50 < sizes[0][0], `sent ${sizes[0][1]} of ${sizes[0][0]} bytes`);
    const got = await recorded(server.endpoint).client.send(
      new GetItemCommand({ TableName: TABLE, Key: key('gz'), ConsistentRead: true }));
    assert.deepEqual(got.Item, { ...key('gz'), long: { S: long } });
  });

  test('a gzip\'d BatchWriteItem of 25 items', async () => {
    const { client, sizes } = recorded(server.endpoint, { gzip: KEEP });
    const items = Array.from({ length: 25 }, (_, i) => ({
      ...key('gzbatch', String(i).padStart(2, '0')), data: { S: randomBytes(300).toString('base64') },
      n: { N: String(i * 1.5) }, tags: { SS: [`a${i}`, `b${i}`] },
    }));
    const written = await client.send(new BatchWriteItemCommand({ RequestItems: {
      [TABLE]: items.map((Item) => ({ PutRequest: { Item } })) } }));
    assert.deepEqual(written.UnprocessedItems, {});
    assert.ok(sizes[0][0] > 10000 && sizes[0][1] < sizes[0][0], String(sizes[0]));
    const read = await recorded(server.endpoint).client.send(new QueryCommand({
      TableName: TABLE, KeyConditionExpression: 'PK = :pk', ConsistentRead: true,
      ExpressionAttributeValues: { ':pk': { S: 'gzbatch' } } }));
    assert.deepEqual(read.Items, items);
  });

  for (const [what, gzip] of [['a gzip stream cut short', (gz) => gz.subarray(0, gz.length - 1)],
                              ['a plain body', (_, plain) => plain],
                              ['an empty body', () => Buffer.alloc(0)]]) {
    test(`${what} as Content-Encoding: gzip is InternalServerError (500), writes nothing`, async () => {
      const { client, answers } = recorded(server.endpoint, { gzip });
      await assert.rejects(
        client.send(new PutItemCommand({ TableName: TABLE, Item: { ...key('bad'), v: { S: what } } })),
        (e) => {
          assert.equal(e.name, 'InternalServerError');
          assert.equal(e.$metadata.httpStatusCode, 500);
          return true;
        });
      assertStandardHeaders(answers.at(-1));
      const got = await recorded(server.endpoint).client.send(
        new GetItemCommand({ TableName: TABLE, Key: key('bad'), ConsistentRead: true }));
      assert.equal(got.Item, undefined);
    });
  }
});

describe('SigV4 (--auth sigv4)', () => {
  let secured;
  let dir;
  const signing = (accessKeyId, secretAccessKey, options = {}) => recorded(secured.endpoint, {
    ...options, clientConfig: { credentials: { accessKeyId, secretAccessKey } } });
  const as = (...args) => signing(...args).client;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'partstore-auth-'));
    const keys = join(dir, 'keys');
    writeFileSync(keys, '# test keys\nAKIDPARTSTOREAUTH s3cr3t/Key+1\nsecond\tother-secret\n');
    secured = await startServer(['--auth', 'sigv4', '--access-keys', keys]);
  });
  after(async () => {
    await secured?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('known keys work, signed compressed bodies too', async () => {
    const listed = await as('AKIDPARTSTOREAUTH', 's3cr3t/Key+1').send(new ListTablesCommand({}));
    assert.deepEqual(listed.TableNames, []);
    const described = await as('second', 'other-secret').send(new DescribeEndpointsCommand({}));
    assert.equal(described.Endpoints.length, 1);
    // The signature covers the gzip'd bytes as sent.
    const gzipping = as('AKIDPARTSTOREAUTH', 's3cr3t/Key+1', { gzip: KEEP });
    await gzipping.send(new CreateTableCommand(pkSkTable('signed')));
    await waitUntilTableExists({ client: gzipping, minDelay: 1, maxDelay: 1, maxWaitTime: 20 },
                               { TableName: 'signed' });
    await gzipping.send(new PutItemCommand({ TableName: 'signed', Item: { ...key('a'), v: { S: 'z'.repeat(5000) } } }));
    const got = await as('second', 'other-secret').send(new GetItemCommand({ TableName: 'signed', Key: key('a') }));
    assert.equal(got.Item.v.S, 'z'.repeat(5000));
  });

  for (const [keyId, secret, error] of [['AKIDNOBODY', 's3cr3t/Key+1', 'UnrecognizedClientException'],
                                        ['AKIDPARTSTOREAUTH', 'wrong', 'InvalidSignatureException']]) {
    test(`${keyId}/${secret}: ${error}`, async () => {
      const { client, answers } = signing(keyId, secret);
      await assert.rejects(client.send(new ListTablesCommand({})), (e) => {
        assert.equal(e.name, error);
        assert.equal(e.$metadata.httpStatusCode, 400);
        return true;
      });
      assertStandardHeaders(answers.at(-1));
    });
  }

  test('unsigned: MissingAuthenticationTokenException; the health check needs no signature', async () => {
    const unsigned = await exchange(secured.endpoint + '/', { method: 'POST', body: '{}', headers: {
      'Content-Type': 'application/x-amz-json-1.0', 'X-Amz-Target': 'DynamoDB_20120810.ListTables' } });
    assert.equal(unsigned.status, 400);
    assert.match(JSON.parse(unsigned.raw).__type, /#MissingAuthenticationTokenException$/);
    const health = await fetch(secured.endpoint + '/');
    assert.equal(health.status, 200);
    assert.equal(await health.text(), 'healthy: ' + new URL(secured.endpoint).host);
  });
});

test('DescribeEndpoints names the host:port the client used', async () => {
  const { client } = recorded(server.endpoint);
  const { Endpoints } = await client.send(new DescribeEndpointsCommand({}));
  assert.equal(Endpoints.length, 1);
  assert.equal(Endpoints[0].Address, new URL(server.endpoint).host);
  assert.equal(Endpoints[0].CachePeriodInMinutes, 1440);
  // Another name addressed (Host header), that name answered (not the address listened on).
  const host = `localhost:${new URL(server.endpoint).port}`;
  const named = recorded(server.endpoint).client;
  named.middlewareStack.add((next) => (args) => {
    args.request.headers.host = host;
    return next(args);
  }, { step: 'build', name: 'hostHeader' });
  assert.equal((await named.send(new DescribeEndpointsCommand({}))).Endpoints[0].Address, host);
  const again = await recorded('http://' + Endpoints[0].Address).client.send(new ListTablesCommand({}));
  assert.ok(again.TableNames.includes(TABLE));
});

test('every answer: x-amz-crc32, x-amzn-RequestId, Date, Server', async () => {
  const { client, answers } = recorded(server.endpoint, { accept: 'gzip' });
  await client.send(new PutItemCommand({ TableName: TABLE, Item: { ...key('h'), v: { S: 'é€😀' } } }));
  await client.send(new GetItemCommand({ TableName: TABLE, Key: key('h') }));
  await client.send(new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'PK = :pk',
                                       ExpressionAttributeValues: { ':pk': { S: 'big' } } }));
  await assert.rejects(client.send(new GetItemCommand({ TableName: 'no-such-table', Key: key('h') })),
                       { name: 'ResourceNotFoundException' });
  assert.equal(answers.length, 4);
  assert.equal(answers[2].headers['content-encoding'], 'gzip');
  assert.equal(answers[3].status, 400);
  for (const answer of answers) assertStandardHeaders(answer);
  assert.equal(new Set(answers.map((a) => a.headers['x-amzn-requestid'])).size, 4, 'ids differ');
  for (const path of ['/', '/metrics']) assertStandardHeaders(await exchange(server.endpoint + path));
});

test('GET /metrics counts the requests made', async () => {
  const { client } = recorded(server.endpoint);
  const PUTS = 'partstore_requests_total{operation="PutItem"}';
  const MISSING = 'partstore_errors_total{operation="GetItem",error="ResourceNotFoundException"}';
  const start = await metrics();
  for (let i = 0; i < 5; i++) {
    await client.send(new PutItemCommand({ TableName: TABLE, Item: key('metrics', String(i)) }));
  }
  await assert.rejects(client.send(new GetItemCommand({ TableName: 'no-such-table', Key: key('m') })));
  const now = await metrics();
  assert.ok(start.get(PUTS) >= 1, 'earlier tests put items');
  assert.equal(now.get(PUTS) - start.get(PUTS), 5);
  assert.equal(now.get(MISSING) - (start.get(MISSING) ?? 0), 1);
  assert.equal(now.get('partstore_request_duration_seconds_count{operation="PutItem"}'), now.get(PUTS));
  assert.ok(now.get(`partstore_table_items{table="${TABLE}"}`) >= 5);
  assert.ok(now.get('partstore_connections') >= 1);
});
