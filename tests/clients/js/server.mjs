// Starts `partstore serve --port 0` for one test file, and the SDK clients that talk to it.
//
//   PARTSTORE_BIN=/path/to/partstore node --test tests/clients/js/
//
// (tests/clients/run_js.sh does exactly this; the ctest clients.js runs that script.)
// startServer(extraArgs) passes more options to `serve` (capacity.test.mjs: ['--clock', 'manual']).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { randomUUID } from 'node:crypto';

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

const START_LINE = /^partstore serve: listening on (http:\/\/[^:/\s]+:(\d+))$/;
const MANUAL_CLOCK_LINE = 'partstore serve: capacity simulation on (manual clock)';
const START_TIMEOUT_MS = 20000;
const STOP_TIMEOUT_MS = 10000;

export async function startServer(extraArgs = []) {
  const binary = process.env.PARTSTORE_BIN;
  if (!binary) throw new Error('PARTSTORE_BIN must name the partstore executable');
  const child = spawn(binary, ['serve', '--port', '0', ...extraArgs],
                      { stdio: ['ignore', 'pipe', 'inherit'] });
  // With a manual clock the server announces the capacity simulation on a second line.
  const manual = extraArgs.includes('manual');
  // Whatever happens to this process, the server does not outlive it.
  const killOnExit = () => child.kill('SIGKILL');
  process.on('exit', killOnExit);

  const endpoint = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    const timer = setTimeout(() => reject(new Error(
      `partstore serve printed no start-up line within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    child.once('error', (e) => { clearTimeout(timer); reject(e); });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`partstore serve exited before listening (${code ?? signal})`));
    });
    let endpoint = null;
    lines.on('line', (line) => {
      if (endpoint === null) {
        const match = START_LINE.exec(line);
        if (!match || match[2] === '0') return finish(new Error(`unexpected start-up line: ${line}`));
        endpoint = match[1];
        if (!manual) finish(null, endpoint);
      } else if (line !== MANUAL_CLOCK_LINE) {
        finish(new Error(`unexpected second line: ${line}`));
      } else {
        finish(null, endpoint);
      }
    });
    function finish(error, value) {
      clearTimeout(timer);
      lines.removeAllListeners('line');
      if (error) reject(error);
      else resolve(value);
    }
  });
  child.removeAllListeners('exit');

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    child.kill('SIGTERM');
    let timer;
    const timeout = new Promise((resolve) => { timer = setTimeout(() => resolve(null), STOP_TIMEOUT_MS); });
    const result = await Promise.race([exited, timeout]);
    clearTimeout(timer);
    process.off('exit', killOnExit);
    if (result === null) {
      child.kill('SIGKILL');
      throw new Error(`partstore serve did not stop within ${STOP_TIMEOUT_MS} ms of SIGTERM`);
    }
    if (!(result.code === 0 || result.signal === 'SIGTERM')) {
      throw new Error(`partstore serve stopped with ${result.code ?? result.signal}`);
    }
  };
  return { endpoint, stop };
}

// (Each DocumentClient gets its own DynamoDBClient: DynamoDBDocumentClient.from(client, options)
// stores its options in the shared client's config, so the last .from() would win for all.)
// clientConfig overrides the DynamoDBClient's (capacity.test.mjs: { maxAttempts: 3 }).
export function makeClients(endpoint, translateConfig = { marshallOptions: { removeUndefinedValues: true } },
                            clientConfig = {}) {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDPARTSTORETEST', secretAccessKey: 'partstore-test-secret' },
    // One attempt: a retried request would hide what the server answered the first time.
    maxAttempts: 1,
    ...clientConfig,
  });
  const doc = DynamoDBDocumentClient.from(client, translateConfig);
  return { client, doc };
}

export function uniqueName(prefix = 't') {
  return `${prefix}-${randomUUID().slice(0, 12)}`;
}

// A PK/SK (string, string) on-demand table.
export function pkSkTable(name) {
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST',
    KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }, { AttributeName: 'SK', KeyType: 'RANGE' }],
    AttributeDefinitions: [
      { AttributeName: 'PK', AttributeType: 'S' },
      { AttributeName: 'SK', AttributeType: 'S' },
    ],
  };
}

// A check of DynamoDB's behaviour that partstore does not meet yet: the body must fail (the
// failure is reported as a diagnostic with the reason); if it passes, the divergence is gone and
// the test fails so that the expectation is removed (strict, like pytest's xfail(strict=True)).
export function expectedFailure(reason, body) {
  return async (t) => {
    let error = null;
    try {
      await body(t);
    } catch (e) {
      error = e;
    }
    if (error === null) {
      throw new Error(`expected to fail (${reason}) but passed: remove expectedFailure`);
    }
    // Only an answer of the server (a service exception) or a failed assertion on one is the
    // expected failure; anything else (no connection, a bug in the test) fails the test.
    const answered = error.$metadata?.httpStatusCode !== undefined || error.code === 'ERR_ASSERTION';
    if (!answered) throw error;
    t.diagnostic(`expected failure: ${reason}; got ${error.name}: ${error.message}`);
  };
}

// The error a request that must fail failed with (the test fails if it succeeded).
export async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the request to fail');
}

// Partstore.AdvanceClock on a `--clock manual` server: the manual clock moves only with it (the
// TTL sweep runs before it answers).
export async function advance(endpoint, seconds) {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'X-Amz-Target': 'Partstore_20261120.AdvanceClock',
      'Content-Type': 'application/x-amz-json-1.0',
    },
    body: JSON.stringify({ Seconds: seconds }),
  });
  assert.equal(response.status, 200, await response.clone().text());
}
