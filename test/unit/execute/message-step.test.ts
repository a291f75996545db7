/**
 * Message steps (Arazzo 1.1) without a broker: a receive launched again before its join (a goto
 * back) takes the message itself, not the abandoned first wait; a send is not held up by a
 * receive channel on an unreachable broker; a step's timeout covers connecting. And the WebSocket
 * transport closes at once while a socket is still opening (Ctrl-C during a handshake).
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BufferedSubscription } from '../../../src/async/buffered-subscription.js';
import { connectTransport } from '../../../src/async/connect-transport.js';
import { DEFAULT_LIMITS } from '../../../src/async/transport.js';
import { createMessageStepRunner } from '../../../src/execute/message-step.js';
import type { AsyncSession } from '../../../src/execute/async-session.js';
import { ToolError } from '../../../src/errors/tool-error.js';

const reporter = new Proxy({}, { get: () => () => undefined }) as never;

function fakeSession(subscription: BufferedSubscription): AsyncSession {
  const controller = new AbortController();
  return {
    signal: controller.signal,
    transport: async () => ({ subscribe: async () => subscription, publish: async () => undefined, close: async () => undefined }),
    subscription: async () => subscription,
    close: async () => controller.abort(),
  };
}

describe('message steps', () => {
  it('a receive launched again (goto back before it) gets the message, not the abandoned first launch', async () => {
    const subscription = new BufferedSubscription('orders/confirmed', DEFAULT_LIMITS, () => undefined);
    const session = fakeSession(subscription);
    const program = { stepId: 'confirm', index: 1, successCriteria: [], outputs: [], async: { action: 'receive', source: 'orders', channel: 'orders/confirmed', url: 'mqtt://127.0.0.1:1883', headers: [], timeoutMs: 300 } } as never;
    const runner = createMessageStepRunner({ session: () => session, reporter, dryRun: false, programs: [program] });
    const input = (phase?: string) => ({ stepIndex: 1, stepId: 'confirm', inputs: {}, steps: {}, via: [], workflows: {}, stack: [], ...(phase ? { phase } : {}) }) as never;
    const ctx = { inputs: {}, steps: {} } as never;
    await runner(program, input('launch'), ctx, 'confirm', new AbortController().signal); // first visit
    await runner(program, input('launch'), ctx, 'confirm', new AbortController().signal); // a goto back: launched again
    subscription.deliver({ channel: 'orders/confirmed', payload: { ok: true }, headers: {}, receivedAt: Date.now() }, 10);
    const joined = await runner(program, input(), ctx, 'confirm', new AbortController().signal);
    expect(joined.ok).toBe(true);
  });

  it('sends although a receive channel of the workflow is on a broker that cannot be reached, and counts connecting against the timeout', async () => {
    const controller = new AbortController();
    const published: string[] = [];
    const never = new Promise<never>(() => undefined);
    const session: AsyncSession = {
      signal: controller.signal,
      // `blackhole` never answers; `down` refuses; `up` takes every message.
      transport: async (url) => (url.includes('blackhole') ? never : { subscribe: async () => never, publish: async (channel: string) => void published.push(channel), close: async () => undefined }),
      subscription: (url) => (url.includes('down') ? Promise.reject(new ToolError('ASYNC_CONNECT_FAILED', 'cannot connect to down:1883: connection refused')) : never),
      close: async () => controller.abort(),
    };
    const send = { stepId: 'place', index: 0, successCriteria: [], outputs: [], async: { action: 'send', source: 'orders', channel: 'orders/place', url: 'mqtt://up:1883', headers: [], timeoutMs: 300 } } as never;
    const receive = { stepId: 'confirm', index: 1, successCriteria: [], outputs: [], async: { action: 'receive', source: 'other', channel: 'x', url: 'mqtt://down:1883', headers: [], timeoutMs: 300 } } as never;
    const slow = { stepId: 'slow', index: 2, successCriteria: [], outputs: [], async: { action: 'send', source: 'orders', channel: 'y', url: 'mqtt://blackhole:1883', headers: [], timeoutMs: 150 } } as never;
    const runner = createMessageStepRunner({ session: () => session, reporter, dryRun: false, programs: [send, receive, slow] });
    const input = (stepIndex: number) => ({ stepIndex, stepId: 's', inputs: {}, steps: {}, via: [], workflows: {}, stack: [] }) as never;
    const sent = await runner(send, input(0), { inputs: {}, steps: {} } as never, 'place', new AbortController().signal);
    expect(sent.ok).toBe(true);
    expect(published).toEqual(['orders/place']);
    const started = Date.now();
    const late = await runner(slow, input(2), { inputs: {}, steps: {} } as never, 'slow', new AbortController().signal);
    expect(late).toMatchObject({ ok: false, reason: 'no connection to mqtt://blackhole:1883 for channel "y" within the step\'s timeout of 150 ms' });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('the WebSocket transport', () => {
  let server: Server;
  let port: number;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    // Accepts TCP and never answers the HTTP upgrade.
    server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    sockets.forEach((socket) => socket.destroy());
    await new Promise((resolve) => server.close(resolve));
  });

  it('close() returns promptly after an abort while a socket is still opening (Ctrl-C during a WS handshake)', async () => {
    const controller = new AbortController();
    const transport = await connectTransport(`ws://127.0.0.1:${port}`, { signal: controller.signal, timeoutMs: 10_000 });
    const pending = transport.subscribe('orders/confirmed').catch((error: Error) => error);
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort();
    await pending;
    const started = Date.now();
    await transport.close();
    expect(Date.now() - started).toBeLessThan(2000);
  }, 20_000);
});
