// Checks the emulator itself, through real HTTPS with node:https and the emulator's own CA, so the
// extension's tests can trust what it serves.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:https';
import { Emulator, SERVICE_STREAMS } from '../../emulator';

interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
  /** any: the assertions read many different shapes; typing each would only restate the contract. */
  json: () => any; // eslint-disable-line @typescript-eslint/no-explicit-any -- the tests read whatever shape each endpoint sends
}

describe('emulator', function () {
  let emulator: Emulator;
  let agent: Agent;
  let token: string;

  function call(url: string, init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Response> {
    return new Promise((resolve, reject) => {
      const req = request(url, { method: init.method ?? 'GET', headers: init.headers, agent }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (part: Buffer) => parts.push(part));
        res.on('error', reject); // fires when the server resets mid-body
        res.on('end', () => {
          const body = Buffer.concat(parts);
          const text = body.toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text, json: () => JSON.parse(text) });
        });
      });
      req.on('error', reject);
      req.end(init.body);
    });
  }

  function exchange(headers: Record<string, string>, body = 'scope=GIGACHAT_API_PERS'): Promise<Response> {
    const base = { Authorization: `Basic ${emulator.authorizationKey}`, RqUID: randomUUID(), 'Content-Type': 'application/x-www-form-urlencoded' };
    return call(emulator.authUrl, { method: 'POST', headers: { ...base, ...headers }, body });
  }

  function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const all = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...headers };
    return call(emulator.baseUrl + path, { method: 'POST', headers: all, body: JSON.stringify(body) });
  }

  /** The data payloads of an SSE body (the test reads the whole body, so no chunk handling here). */
  function dataLines(text: string): string[] {
    return text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim());
  }

  const ask = (content: string, extra: object = {}) => ({ model: 'GigaChat', messages: [{ role: 'user', content }], ...extra });

  before(async function () {
    emulator = await Emulator.start({ streamChunkBytes: [1, 7], streamDelayMs: 0, seed: 42 });
    agent = new Agent({ ca: emulator.caPem, keepAlive: true });
    token = (await exchange({})).json().access_token;
  });

  after(async function () {
    agent.destroy();
    await emulator.stop();
  });

  beforeEach(function () {
    emulator.clearFaults();
    emulator.resetCounts();
  });

  it('exchanges the key for a token and rejects bad keys, RqUIDs and scopes with the service codes', async function () {
    const ok = await exchange({});
    assert.equal(ok.status, 200);
    assert.match(String(ok.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    const { access_token, expires_at } = ok.json();
    assert.equal(typeof access_token, 'string');
    assert.ok(Math.abs(expires_at - (Date.now() + 30 * 60_000)) < 5_000, 'expires_at is in ms, 30 minutes ahead');

    const wrongKey = Buffer.from('someone:else').toString('base64');
    assert.deepEqual((await exchange({ Authorization: `Basic ${wrongKey}` })).json(), { code: 6, message: "credentials doesn't match db data" });
    const malformed = await exchange({ Authorization: 'Bearer nonsense' });
    assert.deepEqual([malformed.status, malformed.json().code], [401, 4]);
    const badRqUid = await exchange({ RqUID: 'not-a-uuid' });
    assert.deepEqual([badRqUid.status, badRqUid.json().code], [400, 5]);
    assert.deepEqual((await exchange({}, 'scope=')).json(), { code: 5, message: 'scope is empty' });
    assert.equal((await exchange({}, 'scope=GIGACHAT_API_OTHER')).json().code, 7);
    assert.equal(emulator.count('oauth'), 6);
  });

  it('answers a chat completion in the contract shape and refuses a misplaced system message', async function () {
    const res = await post('/chat/completions', ask('Write a function that adds numbers'), { 'X-Request-ID': 'mine' });
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-request-id'], 'mine');
    const body = res.json();
    assert.equal(body.object, 'chat.completion');
    assert.equal(body.choices[0].finish_reason, 'stop');
    assert.equal(body.choices[0].message.role, 'assistant');
    assert.match(body.choices[0].message.content, /```typescript/);
    assert.equal(body.usage.total_tokens, body.usage.prompt_tokens + body.usage.completion_tokens);

    const misplaced = {
      model: 'GigaChat',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'system', content: 'be nice' },
      ],
    };
    const rejected = await post('/chat/completions', misplaced);
    assert.deepEqual([rejected.status, rejected.json().message], [422, 'Invalid params: system message must be the first message']);
  });

  it('streams deltas that join to the non-stream content, then finish, usage and [DONE]', async function () {
    const request = ask('Привет! Как дела? Покажи код');
    const whole = (await post('/chat/completions', request)).json().choices[0].message.content;
    const streamed = await post('/chat/completions', { ...request, stream: true }, { Accept: 'text/event-stream' });
    assert.equal(streamed.headers['content-type'], 'text/event-stream');
    const lines = dataLines(streamed.text);
    assert.equal(lines.at(-1), '[DONE]');
    const chunks = lines.slice(0, -1).map((line) => JSON.parse(line));
    assert.equal(chunks[0].choices[0].delta.role, 'assistant');
    assert.equal(chunks.map((chunk) => chunk.choices[0].delta.content).join(''), whole);
    const finish = chunks.at(-1);
    assert.deepEqual([finish.choices[0].finish_reason, finish.choices[0].delta.content], ['stop', '']);
    assert.ok(finish.usage.completion_tokens > 0);
    assert.ok(emulator.requests.at(-1)?.stream);
  });

  it('serves the picture of a text2image answer only to the same X-Client-ID', async function () {
    const res = await post('/chat/completions', ask('Нарисуй кота', { function_call: 'auto' }), { 'X-Client-ID': 'me' });
    const id = /<img src="([0-9a-f-]{36})" fuse="true"\/>/.exec(res.json().choices[0].message.content)?.[1];
    assert.ok(id);
    const get = (clientId: string) =>
      call(`${emulator.baseUrl}/files/${id}/content`, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/jpg', 'X-Client-ID': clientId } });
    const picture = await get('me');
    assert.deepEqual([picture.body[0], picture.body[1], picture.body.at(-2), picture.body.at(-1)], [0xff, 0xd8, 0xff, 0xd9]);
    assert.deepEqual((await get('other')).json(), { status: 403, message: `Access to file '${id}' is denied` });
  });

  it('takes uploads as the service documents: 413 over the size limit, 422 for another type or purpose, 400 for a broken form', async function () {
    const form = (type: string, content: Buffer, purpose = 'general', boundary = 'b0undary') =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\n${purpose}\r\n`),
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x"\r\nContent-Type: ${type}\r\n\r\n`),
        content,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
    const upload = (body: Buffer, contentType = 'multipart/form-data; boundary=b0undary') =>
      call(`${emulator.baseUrl}/files`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': contentType }, body });
    const ok = await upload(form('image/png', Buffer.from('\r\n--b0undar not the end')));
    assert.equal(ok.status, 200);
    assert.deepEqual(
      { ...ok.json(), id: undefined, created_at: undefined },
      { id: undefined, object: 'file', bytes: 23, created_at: undefined, filename: 'x', purpose: 'general' },
    );
    assert.equal((await upload(form('image/png', Buffer.alloc(15 * 1024 * 1024 + 1)))).status, 413);
    assert.equal((await upload(form('text/plain', Buffer.alloc(15 * 1024 * 1024 + 1)))).status, 200);
    assert.equal((await upload(form('image/gif', Buffer.from('GIF89a')))).json().message, "Invalid params: unsupported file type 'image/gif'");
    assert.equal((await upload(form('image/png', Buffer.from('x'), 'fine-tune'))).status, 422);
    assert.equal((await upload(form('image/png', Buffer.from('x')).subarray(0, 150))).status, 400);
    assert.equal((await upload(form('image/png', Buffer.from('x')), 'application/octet-stream')).status, 400);
  });

  it('streams a function call whole in one delta, with its functions_state_id, then the finish chunk', async function () {
    const parameters = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
    const res = await post(
      '/chat/completions',
      ask('[call read_file {"path":"a.ts"}]', { stream: true, functions: [{ name: 'read_file', description: 'Read', parameters }] }),
    );
    const events = dataLines(res.text);
    assert.equal(events.at(-1), '[DONE]');
    const chunks = events.slice(0, -1).map((data) => JSON.parse(data));
    assert.equal(chunks.length, 2);
    assert.deepEqual(chunks[0].choices[0].delta.function_call, { name: 'read_file', arguments: { path: 'a.ts' } });
    assert.equal(chunks[0].choices[0].delta.role, 'assistant');
    assert.ok(chunks[0].choices[0].delta.functions_state_id);
    assert.equal(chunks[1].choices[0].finish_reason, 'function_call');
    const refused = await post(
      '/chat/completions',
      ask('hi', { functions: [{ name: 'read_file', parameters: { ...parameters, additionalProperties: false } }] }),
    );
    assert.deepEqual(refused.json(), { status: 422, message: 'Invalid params: functions[0].parameters.additionalProperties is not supported' });
  });

  it('embeds texts that share words closer together and returns items shuffled with their index', async function () {
    const input = ['retry failed uploads', 'where do we retry uploads', 'css colour theme'];
    const body = (await post('/embeddings', { model: 'Embeddings', input })).json();
    assert.deepEqual(body.data.map((item: { index: number }) => item.index).sort(), [0, 1, 2]);
    assert.notDeepEqual(
      body.data.map((item: { index: number }) => item.index),
      [0, 1, 2],
    );
    const vectors: number[][] = [];
    for (const item of body.data) vectors[item.index] = item.embedding;
    const cosine = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i], 0);
    assert.equal(vectors[0].length, 1024);
    assert.ok(cosine(vectors[0], vectors[1]) > cosine(vectors[0], vectors[2]) + 0.2);
  });

  it('applies an injected 429 with Retry-After once, then answers normally', async function () {
    emulator.inject({ kind: 'status', status: 429, retryAfterSeconds: 3 }, { endpoint: 'chat' });
    const limited = await post('/chat/completions', ask('hi'));
    assert.deepEqual([limited.status, limited.headers['retry-after'], limited.json()], [429, '3', { status: 429, message: 'Too many requests' }]);
    assert.equal((await post('/chat/completions', ask('hi'))).status, 200);
    assert.equal(emulator.count('chat'), 2);
  });

  it('resets a stream midway and sees the stream close', async function () {
    emulator.inject({ kind: 'resetMidStream', afterEvents: 2 });
    await assert.rejects(post('/chat/completions', ask('tell me a story', { stream: true })));
    await emulator.waitForClosedStreams();
    assert.equal(emulator.openStreams, 0);
  });

  it('reports expired tokens and limits concurrency', async function () {
    emulator.expireAllTokens();
    assert.deepEqual((await post('/chat/completions', ask('hi'))).json(), { status: 401, message: 'Token has expired' });
    token = (await exchange({})).json().access_token;

    emulator.setOptions({ maxConcurrent: 1, latencyMs: 50 });
    try {
      const statuses = (
        await Promise.all([post('/tokens/count', { model: 'GigaChat', input: ['a'] }), post('/tokens/count', { model: 'GigaChat', input: ['b'] })])
      ).map((r) => r.status);
      assert.deepEqual(statuses.sort(), [200, 429]);
    } finally {
      emulator.setOptions({ maxConcurrent: Infinity, latencyMs: 0 });
    }
    assert.equal(emulator.count('tokensCount'), 2);
    assert.equal(emulator.requests.length, 4);
  });

  it("refuses a request beyond its account's streams with the service's 429: an individual's one, a business's ten", async function () {
    emulator.setOptions({ streamsPerScope: SERVICE_STREAMS, latencyMs: 50 });
    const business = (await exchange({}, 'scope=GIGACHAT_API_B2B')).json().access_token as string;
    const count = (bearer: string, text: string) => post('/tokens/count', { model: 'GigaChat', input: [text] }, { Authorization: `Bearer ${bearer}` });
    try {
      const refusedBefore = emulator.refusedForStreams;
      const personal = await Promise.all([count(token, 'a'), count(token, 'b')]);
      assert.deepEqual(personal.map((r) => r.status).sort(), [200, 429]);
      assert.deepEqual(personal.find((r) => r.status === 429)!.json(), { status: 429, message: 'Too many requests' });
      const ten = await Promise.all(Array.from({ length: 10 }, (_, i) => count(business, String(i))));
      assert.deepEqual(new Set(ten.map((r) => r.status)), new Set([200]));
      assert.equal(emulator.refusedForStreams - refusedBefore, 1);
    } finally {
      emulator.setOptions({ streamsPerScope: {}, latencyMs: 0 });
    }
  });
});
