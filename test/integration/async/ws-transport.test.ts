import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connectTransport } from '../../../src/async/connect-transport.js';
import { correlatesWith } from '../../../src/async/correlation-value.js';
import type { Transport } from '../../../src/async/transport.js';
import { freePort } from './helpers/mqtt-broker.js';
import { startWsServer, type WsTestServer } from './helpers/ws-server.js';

const any = (): boolean => true;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('WebSocket transport', () => {
  let server: WsTestServer;
  const open: Transport[] = [];
  const connect = async (options: Parameters<typeof connectTransport>[1] = {}): Promise<Transport> => {
    const transport = await connectTransport(`${server.url}/base`, { timeoutMs: 3000, ...options });
    open.push(transport);
    return transport;
  };

  beforeAll(async () => {
    server = await startWsServer({ echo: true });
  });
  afterAll(async () => {
    await Promise.all(open.map((t) => t.close()));
    await server.stop();
  });

  it('opens one connection per channel, at the server URL plus the address, and round-trips a JSON payload', async () => {
    const transport = await connect();
    const subscription = await transport.subscribe('place-order');
    await transport.publish('place-order', { petId: 7 });
    await expect(subscription.next(any, { timeoutMs: 2000 })).resolves.toMatchObject({ channel: 'place-order', payload: { petId: 7 }, headers: {} });
    expect(server.received.at(-1)).toMatchObject({ path: '/base/place-order', text: '{"petId":7}' });
  });

  it('sends headers in a {headers, payload} envelope and reads one back as headers', async () => {
    const transport = await connect();
    const subscription = await transport.subscribe('confirm-order');
    await transport.publish('confirm-order', { orderId: 1 }, { headers: { orderRequestId: 'r-1' } });
    await expect(subscription.next(any, { timeoutMs: 2000 })).resolves.toMatchObject({ payload: { orderId: 1 }, headers: { orderRequestId: 'r-1' } });
  });

  it('keeps frames that arrive before anyone waits, and picks the correlated one', async () => {
    const transport = await connect();
    const subscription = await transport.subscribe('events');
    for (const id of ['a', 'b', 'c']) server.send('/base/events', JSON.stringify({ headers: { id }, payload: { id } }));
    await sleep(100);
    await expect(subscription.next(correlatesWith('$message.header#/id', 'b'), { timeoutMs: 500 })).resolves.toMatchObject({ payload: { id: 'b' } });
    await expect(subscription.next(any, { timeoutMs: 500 })).resolves.toMatchObject({ payload: { id: 'a' } });
    await expect(subscription.next(any, { timeoutMs: 500 })).resolves.toMatchObject({ payload: { id: 'c' } });
  });

  it('reads a frame that is not JSON as text', async () => {
    const transport = await connect();
    const subscription = await transport.subscribe('text');
    server.send('/base/text', 'hello there');
    await expect(subscription.next(any, { timeoutMs: 2000 })).resolves.toMatchObject({ payload: 'hello there' });
  });

  it('times out with ASYNC_TIMEOUT, and aborts with ASYNC_ABORTED', async () => {
    const subscription = await (await connect()).subscribe('quiet');
    const started = Date.now();
    await expect(subscription.next(any, { timeoutMs: 250 })).rejects.toMatchObject({ code: 'ASYNC_TIMEOUT', message: 'no matching message on channel "quiet" within 250 ms' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(subscription.next(any, { signal: controller.signal })).rejects.toMatchObject({ code: 'ASYNC_ABORTED' });
  });

  it('refuses a frame over the size limit by closing that channel\'s connection, and waits then fail with ASYNC_CONNECTION_LOST', async () => {
    const transport = await connect({ limits: { maxMessageBytes: 1024 } });
    const subscription = await transport.subscribe('big');
    const waiting = subscription.next(any, { timeoutMs: 2000 });
    server.send('/base/big', 'x'.repeat(4096));
    await expect(waiting).rejects.toMatchObject({ code: 'ASYNC_CONNECTION_LOST', message: expect.stringContaining('over 1024 bytes') });
  });

  it('fails with ASYNC_CONNECT_FAILED naming host:port when nothing listens', async () => {
    const port = await freePort();
    const transport = await connectTransport(`ws://127.0.0.1:${port}`, { timeoutMs: 2000 });
    await expect(transport.subscribe('x')).rejects.toMatchObject({ code: 'ASYNC_CONNECT_FAILED', message: `cannot connect to 127.0.0.1:${port}: connection refused` });
    await transport.close();
  });
});

describe('WebSocket transport with credentials', () => {
  let server: WsTestServer;
  beforeAll(async () => {
    server = await startWsServer({ echo: true, requireAuthorization: `Basic ${Buffer.from('buyer:s3cret-pw').toString('base64')}` });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('sends HTTP Basic credentials on the upgrade', async () => {
    const transport = await connectTransport(server.url, { username: 'buyer', password: 's3cret-pw', timeoutMs: 2000 });
    const subscription = await transport.subscribe('auth');
    await transport.publish('auth', 'ok');
    await expect(subscription.next(any, { timeoutMs: 2000 })).resolves.toMatchObject({ payload: 'ok' });
    await transport.close();
  });

  it('fails with ASYNC_CONNECT_FAILED on HTTP 401, without printing the password', async () => {
    const transport = await connectTransport(server.url, { username: 'buyer', password: 'wrong-pw-789', timeoutMs: 2000 });
    const error = await transport.subscribe('auth').then(() => undefined, (e: unknown) => e as Error & { hint?: string });
    expect(error).toMatchObject({ code: 'ASYNC_CONNECT_FAILED', message: `cannot connect to 127.0.0.1:${server.port}: the server answered HTTP 401 instead of opening a WebSocket` });
    expect(`${error?.message} ${error?.hint}`).not.toContain('wrong-pw-789');
    await transport.close();
  });
});
