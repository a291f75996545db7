/**
 * Arazzo 1.1 asynchronous steps against a real MQTT broker (Mosquitto when installed, else aedes)
 * and a real HTTP server: an order is sent on one channel, the correlated reply received on
 * another while an independent HTTP step runs (the receive is in flight), and an HTTP step that
 * depends on the reply waits for it (the join).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connectTransport } from '../../src/async/connect-transport.js';
import type { Transport } from '../../src/async/transport.js';
import { STACK_FRAME } from '../e2e/helpers/record.js';
import { brokerKind, startBroker, type Broker } from '../integration/async/helpers/mqtt-broker.js';
import { startWsServer, type WsTestServer } from '../integration/async/helpers/ws-server.js';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();
const KIND = brokerKind();
let broker: Broker;
let service: Transport;

interface TraceLine {
  kind: string;
  stepId?: string;
  message?: string;
  method?: string;
  t?: number;
  [key: string]: unknown;
}

beforeAll(async () => {
  broker = await startBroker();
  // The order service: answers each order on orders/confirmed, first with another request's reply, then with its own.
  service = await connectTransport(broker.url, { mqttVersion: broker.protocolVersion, timeoutMs: 5000 });
  const orders = await service.subscribe('orders/place');
  void (async () => {
    for (;;) {
      const order = await orders.next(() => true).catch(() => undefined);
      if (order === undefined) return;
      const { requestId, petId } = order.payload as { requestId: string; petId: number };
      if (petId === 0) continue; // no answer: the receive times out
      await service.publish('orders/confirmed', { requestId: 'someone-else', orderId: 1, status: 'confirmed' }, { contentType: 'application/json' });
      await new Promise((resolve) => setTimeout(resolve, 400));
      await service.publish('orders/confirmed', { requestId, orderId: petId * 6, status: petId === 13 ? 'rejected' : 'confirmed' }, { contentType: 'application/json' });
    }
  })();
});

afterAll(async () => {
  await service?.close();
  await broker?.stop();
});

const vars = (timeout = 5000) => ({ BROKER_HOST: broker.url.replace('mqtt://', ''), PROTOCOL: 'mqtt', MQTT_VERSION: broker.protocolVersion === 5 ? '5.0.0' : '3.1.1', TIMEOUT: String(timeout) });
const ROUTES = { 'GET /a': { delayMs: 100, body: {} }, 'GET /echo/{n}': {} };

describe(`Arazzo 1.1 asynchronous steps (${KIND} broker)`, () => {
  beforeAll(() => {
    h.ws.fixture('orders.asyncapi.yaml', vars());
  });

  it('sends the order, runs the independent HTTP step while the reply is in flight, and joins before the step that needs it', async () => {
    const trace = join(h.ws.dir, 'orders.trace.ndjson');
    const report = join(h.ws.dir, 'orders.report.json');
    const junit = join(h.ws.dir, 'orders.junit.xml');
    const har = join(h.ws.dir, 'orders.har');
    const result = await h.run('arazzo-1-1-orders.arazzo.yaml', ['--input', 'requestId=r-1', '--input', 'petId=7', '--trace', trace, '--report', report, '--junit', junit, '--har', har], ROUTES, { vars: vars() });
    expect(result.stderr).not.toMatch(STACK_FRAME);
    expect(result.code).toBe(0);
    const record = JSON.parse(result.stdout) as { outputs: Record<string, unknown>; steps: Array<{ stepId: string; outputs: Record<string, unknown> }> };
    // The record lists steps as they finished: the reply after the HTTP step that ran while it was awaited.
    expect(record.steps.map((step) => step.stepId)).toEqual(['place', 'other', 'confirm', 'status']);
    expect(record.outputs).toEqual({ orderId: 42 });
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/a', '/echo/42']);
    // The trace shows the overlap: the receive launched before `other` ran, and received after it was answered.
    const lines = readFileSync(trace, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as TraceLine);
    const at = (find: (line: TraceLine) => boolean) => lines.findIndex(find);
    const launched = at((line) => line.stepId === 'confirm' && line.message === 'launch');
    const otherDone = at((line) => line.stepId === 'other' && line.method === 'GET');
    const received = at((line) => line.stepId === 'confirm' && line.message === 'receive');
    expect(launched).toBeGreaterThanOrEqual(0);
    expect(launched).toBeLessThan(otherDone);
    expect(otherDone).toBeLessThan(received);
    expect(result.stderr).toContain('confirm receive in flight on orders/confirmed');
    // The reports count the message steps as the passes they are.
    const runs = (JSON.parse(readFileSync(report, 'utf8')) as { steps: Array<{ stepId: string; ok: boolean; message?: { action: string; channel: string } }> }).steps;
    expect(runs.map((run) => [run.stepId, run.ok, run.message?.action])).toEqual([
      ['place', true, 'send'],
      ['other', true, undefined],
      ['confirm', true, 'receive'],
      ['status', true, undefined],
    ]);
    expect(readFileSync(junit, 'utf8')).toMatch(/failures="0"/);
    // A replay sends nothing, and the HAR holds no messages: it refuses the workflow before anything runs.
    const replay = await h.tool(['arazzo', 'replay', join(h.ws.dir, 'arazzo-1-1-orders.arazzo.yaml'), '--from', har, '--input', 'requestId=r-1', '--input', 'petId=7']);
    expect(replay.code).toBe(2);
    expect(replay.stderr).toContain('has asynchronous steps (AsyncAPI send or receive), which a HAR file does not record; nothing was sent');
  });

  it("fails the step on a reply whose payload says so (its success criteria), with the criterion named", async () => {
    const result = await h.run('arazzo-1-1-orders.arazzo.yaml', ['--input', 'requestId=r-2', '--input', 'petId=13'], ROUTES, { vars: vars() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("success criterion `$message.payload#/status == 'confirmed'` does not hold for the message");
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/a']);
  });

  it('fails the step when no correlated reply arrives within its timeout', async () => {
    const result = await h.run('arazzo-1-1-orders.arazzo.yaml', ['--input', 'requestId=r-3', '--input', 'petId=0'], ROUTES, { vars: vars(600) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no matching message on channel "orders/confirmed" within 600 ms with correlation id "r-3"');
    expect(result.elapsedMs).toBeLessThan(5000);
  });

  it('validates the document, and graphs the receive in flight and its join', async () => {
    const file = h.ws.fixture('arazzo-1-1-orders.arazzo.yaml', vars());
    const validate = await h.tool(['arazzo', 'validate', file]);
    expect(validate.stdout).not.toContain('error');
    expect(validate.code).toBe(0);
    const graph = await h.tool(['arazzo', 'graph', file, '--level', 'machine']);
    expect(graph.code).toBe(0);
    expect(graph.stdout).toContain('s1_confirm_launch');
    // The steps level draws the launch, the steps that run while the reply is in flight, and the join.
    const steps = await h.tool(['arazzo', 'graph', file]);
    expect(steps.stdout).toContain('s1_confirm_launch("confirm (launch)")');
    expect(steps.stdout).toContain('s1_confirm_launch -->|"in flight"| s2_other');
    expect(steps.stdout).toContain('s2_other -->|"next step"| s1_confirm');
    expect(steps.stdout).toContain('s1_confirm("confirm (join)")');
  });
});

// MQTT 5 user properties (the text's header correlation) need Mosquitto; aedes speaks MQTT 3.1.1 only.
const describeWithMqtt5 = KIND === 'mosquitto' ? describe : describe.skip;

describeWithMqtt5('the Arazzo 1.1 text\'s async order placement, over a broker with a password bound through the registry', () => {
  const credentials = { username: 'orders', password: 'br0ker-Secret-9' };
  let locked: Broker;
  let shop: Transport;

  beforeAll(async () => {
    locked = await startBroker({ credentials });
    shop = await connectTransport(locked.url, { ...credentials, timeoutMs: 5000 });
    const orders = await shop.subscribe('place-order');
    void (async () => {
      for (;;) {
        const order = await orders.next(() => true).catch(() => undefined);
        if (order === undefined) return;
        const id = order.headers.orderRequestId ?? '';
        await shop.publish('confirm-order', { orderId: 999 }, { contentType: 'application/json', headers: { orderRequestId: 'not-yours' } });
        await shop.publish('confirm-order', { orderId: (order.payload as { petId: number }).petId + 1000 }, { contentType: 'application/json', headers: { orderRequestId: id } });
      }
    })();
    h.ws.fixture('orders-headers.asyncapi.yaml');
  });

  afterAll(async () => {
    await shop?.close();
    await locked?.stop();
  });

  it('fails the step when the bound broker refuses a client without its password, naming the broker (exit 1)', async () => {
    expect((await h.tool(['api', 'add', 'open-broker', locked.url])).code).toBe(0);
    const result = await h.run('arazzo-1-1-orders-headers.arazzo.yaml', ['--input', 'orderCorrelationId=c-0', '--input', 'petId=1', '--tool-bind', 'asyncOrderApiDescription=open-broker'], {}, {});
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`cannot connect to ${locked.url.replace('mqtt://', '')}`);
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it('sends the header, receives the correlated reply, and reads $message.payload.orderId as #/orderId with a warning', async () => {
    const { runInWorkspace } = await import('./run-in-workspace.js');
    expect((await h.tool(['api', 'add', 'orders-broker', locked.url])).code).toBe(0);
    const login = await runInWorkspace(['auth', 'login', 'orders-broker', '--type', 'basic', '--username', credentials.username, '--password-stdin'], { cwd: h.ws.dir, input: `${credentials.password}\n` });
    expect(login.code).toBe(0);
    const result = await h.run('arazzo-1-1-orders-headers.arazzo.yaml', ['--input', 'orderCorrelationId=c-1', '--input', 'petId=7', '--tool-bind', 'asyncOrderApiDescription=orders-broker', '--verbose'], {}, {});
    expect(result.stderr).not.toMatch(STACK_FRAME);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).outputs).toEqual({ orderId: 1007 });
    expect(result.stderr).toContain('MESSAGE_PAYLOAD_PATH');
    expect(`${result.stdout}${result.stderr}`).not.toContain(credentials.password);
  });
});

describe('Arazzo 1.1 asynchronous steps over WebSocket', () => {
  let server: WsTestServer;
  let answering: NodeJS.Timeout;

  beforeAll(async () => {
    server = await startWsServer();
    // The order service: each order frame on /orders/place is confirmed on /orders/confirmed.
    let seen = 0;
    answering = setInterval(() => {
      for (const frame of server.received.slice(seen)) {
        if (frame.path !== '/orders/place') continue;
        const { requestId, petId } = JSON.parse(frame.text) as { requestId: string; petId: number };
        server.send('/orders/confirmed', JSON.stringify({ requestId, orderId: petId * 6, status: 'confirmed' }));
      }
      seen = server.received.length;
    }, 20);
  });

  afterAll(async () => {
    clearInterval(answering);
    await server?.stop();
  });

  it('sends and receives the correlated reply on a WebSocket server named by the AsyncAPI description', async () => {
    const wsVars = { BROKER_HOST: `127.0.0.1:${server.port}`, PROTOCOL: 'ws', MQTT_VERSION: '5.0.0', TIMEOUT: '5000' };
    h.ws.fixture('orders.asyncapi.yaml', wsVars);
    const result = await h.run('arazzo-1-1-orders.arazzo.yaml', ['--input', 'requestId=w-1', '--input', 'petId=5'], ROUTES, { vars: wsVars });
    expect(result.stderr).not.toMatch(STACK_FRAME);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).outputs).toEqual({ orderId: 30 });
    expect(server.received.map((frame) => frame.path)).toContain('/orders/place');
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/a', '/echo/30']);
  });
});
