import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Socket } from 'node:net';
import { connectTransport } from '../../../src/async/connect-transport.js';
import { correlatesWith } from '../../../src/async/correlation-value.js';
import type { Transport } from '../../../src/async/transport.js';
import { brokerKind, freePort, startBroker, type Broker } from './helpers/mqtt-broker.js';

// The broker is Mosquitto when installed, else aedes (MQTT 3.1.1 only); the describe names which.
const KIND = brokerKind();
const itWithMqtt5 = KIND === 'mosquitto' ? it : it.skip;
const any = (): boolean => true;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `work` and returns what it rejected with (fails the test if it resolves). */
async function rejection(work: Promise<unknown>): Promise<Error & { code?: string; hint?: string }> {
  try {
    await work;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected a rejection');
}

describe(`MQTT transport (${KIND} broker)`, () => {
  let broker: Broker;
  const open: Transport[] = [];
  const connect = async (options: Parameters<typeof connectTransport>[1] = {}): Promise<Transport> => {
    const transport = await connectTransport(broker.url, { mqttVersion: broker.protocolVersion, timeoutMs: 3000, ...options });
    open.push(transport);
    return transport;
  };

  beforeAll(async () => {
    broker = await startBroker();
  });
  afterAll(async () => {
    await Promise.all(open.map((t) => t.close()));
    await broker?.stop();
  });

  it('sends a JSON payload and receives it parsed', async () => {
    const [sub, pub] = [await connect(), await connect()];
    const subscription = await sub.subscribe('place-order');
    await pub.publish('place-order', { petId: 7 });
    const message = await subscription.next(any, { timeoutMs: 2000 });
    expect(message).toMatchObject({ channel: 'place-order', payload: { petId: 7 } });
    subscription.close();
  });

  itWithMqtt5('carries headers as MQTT 5 user properties and the content type as its property', async () => {
    const [sub, pub] = [await connect(), await connect()];
    const subscription = await sub.subscribe('confirm-order');
    await pub.publish('confirm-order', { orderId: 1 }, { contentType: 'application/json', headers: { orderRequestId: 'r-1', 'x-trace': 'a b' } });
    const message = await subscription.next(any, { timeoutMs: 2000 });
    expect(message).toMatchObject({ payload: { orderId: 1 }, headers: { orderRequestId: 'r-1', 'x-trace': 'a b' }, contentType: 'application/json' });
  });

  it('keeps a message published before anyone waits for it', async () => {
    const [sub, pub] = [await connect(), await connect()];
    const subscription = await sub.subscribe('early');
    await pub.publish('early', 'first');
    await sleep(150);
    await expect(subscription.next(any, { timeoutMs: 500 })).resolves.toMatchObject({ payload: 'first', headers: {} });
  });

  it('picks the correlated message among several and keeps the others for later waits', async () => {
    const [sub, pub] = [await connect(), await connect()];
    const subscription = await sub.subscribe('orders/+/status');
    // MQTT 3.1.1 has no headers: correlate by a payload field there.
    const location = broker.protocolVersion === 5 ? '$message.header#/orderRequestId' : '$message.payload#/requestId';
    for (const id of ['r-1', 'r-2', 'r-3']) {
      await pub.publish(`orders/${id}/status`, { requestId: id }, broker.protocolVersion === 5 ? { headers: { orderRequestId: id } } : {});
    }
    await expect(subscription.next(correlatesWith(location, 'r-2'), { timeoutMs: 2000 })).resolves.toMatchObject({ channel: 'orders/r-2/status' });
    await expect(subscription.next(any, { timeoutMs: 2000 })).resolves.toMatchObject({ payload: { requestId: 'r-1' } });
    await expect(subscription.next(any, { timeoutMs: 2000 })).resolves.toMatchObject({ payload: { requestId: 'r-3' } });
  });

  it('times out with ASYNC_TIMEOUT after about the given milliseconds', async () => {
    const subscription = await (await connect()).subscribe('quiet');
    const started = Date.now();
    const error = await rejection(subscription.next(any, { timeoutMs: 300 }));
    const elapsed = Date.now() - started;
    expect(error).toMatchObject({ code: 'ASYNC_TIMEOUT', message: 'no matching message on channel "quiet" within 300 ms' });
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(2000);
  });

  it('stops waiting with ASYNC_ABORTED when the signal aborts', async () => {
    const subscription = await (await connect()).subscribe('quiet');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(subscription.next(any, { timeoutMs: 5000, signal: controller.signal })).rejects.toMatchObject({ code: 'ASYNC_ABORTED' });
  });

  it('drops a message over the size limit and still delivers the next one', async () => {
    const sub = await connect({ limits: { maxMessageBytes: 1024 } });
    const pub = await connect();
    const subscription = await sub.subscribe('big');
    // Over the limit and its 64 KiB slack for topic and properties, which Mosquitto applies too.
    await pub.publish('big', 'x'.repeat(200 * 1024));
    await pub.publish('big', 'small');
    await expect(subscription.next(any, { timeoutMs: 2000 })).resolves.toMatchObject({ payload: 'small' });
    // Mosquitto never sends it (MQTT 5 maximum packet size); aedes does, and the transport drops it.
    expect(subscription.dropped).toBe(KIND === 'mosquitto' ? 0 : 1);
  });

  it('refuses to send headers over MQTT 3.1.1, which has no place for them', async () => {
    const transport = await connect({ mqttVersion: 4 });
    await expect(transport.publish('x', 1, { headers: { a: 'b' } })).rejects.toMatchObject({ code: 'ASYNC_PUBLISH_FAILED', message: expect.stringContaining('MQTT 3.1.1') });
  });

  it('fails with ASYNC_CONNECT_FAILED naming host:port when nothing listens', async () => {
    const port = await freePort();
    const error = await rejection(connectTransport(`mqtt://127.0.0.1:${port}`, { timeoutMs: 2000 }));
    expect(error).toMatchObject({ code: 'ASYNC_CONNECT_FAILED', message: `cannot connect to 127.0.0.1:${port}: connection refused` });
    expect(error.stack ?? '').not.toContain('mqtt/build');
  });

  it('fails with ASYNC_CONNECT_FAILED when the server accepts but never answers', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => {
      sockets.push(socket);
      socket.resume(); // read, so the client's close is seen
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      await expect(connectTransport(`mqtt://127.0.0.1:${port}`, { timeoutMs: 300 })).rejects.toMatchObject({ code: 'ASYNC_CONNECT_FAILED', message: `cannot connect to 127.0.0.1:${port}: no answer within 300 ms` });
    } finally {
      // The transport hung up itself: the server sees the close without closing anything.
      await Promise.all(sockets.map((socket) => (socket.closed ? undefined : new Promise((resolve) => socket.once('close', resolve)))));
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('refuses a scheme it does not speak with ASYNC_PROTOCOL_UNSUPPORTED', async () => {
    await expect(connectTransport('kafka://127.0.0.1:9092')).rejects.toMatchObject({ code: 'ASYNC_PROTOCOL_UNSUPPORTED', protocol: 'kafka' });
  });
});

describe(`MQTT transport with a password (${KIND} broker)`, () => {
  let broker: Broker;
  beforeAll(async () => {
    broker = await startBroker({ credentials: { username: 'buyer', password: 's3cret-pw' } });
  });
  afterAll(async () => {
    await broker?.stop();
  });

  it('connects with the right user name and password', async () => {
    const transport = await connectTransport(broker.url, { username: 'buyer', password: 's3cret-pw', mqttVersion: broker.protocolVersion, timeoutMs: 3000 });
    const subscription = await transport.subscribe('auth');
    await transport.publish('auth', 'ok');
    await expect(subscription.next(any, { timeoutMs: 2000 })).resolves.toMatchObject({ payload: 'ok' });
    await transport.close();
  });

  it('fails with ASYNC_CONNECT_FAILED for a wrong password, without printing it', async () => {
    const error = await rejection(connectTransport(broker.url, { username: 'buyer', password: 'wrong-pw-123', mqttVersion: broker.protocolVersion, timeoutMs: 3000 }));
    expect(error).toMatchObject({ code: 'ASYNC_CONNECT_FAILED' });
    expect(error.message).toContain(`127.0.0.1:${broker.port}`);
    expect(error.message).toMatch(/user name or password|refused|closed/);
    expect(`${error.message} ${error.hint ?? ''}`).not.toContain('wrong-pw-123');
  });

  it('takes credentials from the URL too, and still never prints them', async () => {
    const url = broker.url.replace('mqtt://', 'mqtt://buyer:wrong-pw-456@');
    const error = await rejection(connectTransport(url, { mqttVersion: broker.protocolVersion, timeoutMs: 3000 }));
    expect(error.message).not.toContain('wrong-pw-456');
  });
});

describe('MQTT 5 against an MQTT 3.1.1-only broker (aedes)', () => {
  let broker: Broker;
  beforeAll(async () => {
    broker = await startBroker({ kind: 'aedes' });
  });
  afterAll(async () => {
    await broker?.stop();
  });

  it('fails with ASYNC_CONNECT_FAILED and says to set protocolVersion 3.1.1', async () => {
    const error = await rejection(connectTransport(broker.url, { timeoutMs: 2000 }));
    expect(error).toMatchObject({ code: 'ASYNC_CONNECT_FAILED' });
    expect(error.hint).toContain('protocolVersion to 3.1.1');
  });

  it('works over MQTT 3.1.1', async () => {
    const transport = await connectTransport(broker.url, { mqttVersion: 4, timeoutMs: 2000 });
    const subscription = await transport.subscribe('v4');
    await transport.publish('v4', { ok: true });
    await expect(subscription.next(any, { timeoutMs: 2000 })).resolves.toMatchObject({ payload: { ok: true } });
    await transport.close();
  });
});

describe(`MQTT transport when the broker goes away (${KIND} broker)`, () => {
  it('fails pending waits with ASYNC_CONNECTION_LOST and later sends with ASYNC_PUBLISH_FAILED', async () => {
    const broker = await startBroker();
    const transport = await connectTransport(broker.url, { mqttVersion: broker.protocolVersion, timeoutMs: 3000 });
    try {
      const subscription = await transport.subscribe('gone');
      const lost = expect(subscription.next(any, { timeoutMs: 5000 })).rejects.toMatchObject({ code: 'ASYNC_CONNECTION_LOST', message: `connection to 127.0.0.1:${broker.port} lost: the broker closed the connection` });
      await broker.stop();
      await lost;
      await expect(transport.publish('gone', 1)).rejects.toMatchObject({ code: 'ASYNC_PUBLISH_FAILED', message: 'cannot send on channel "gone": not connected to the broker' });
    } finally {
      await transport.close();
    }
  });
});
