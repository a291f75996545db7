import { describe, expect, it } from '@jest/globals';
import { BufferedSubscription } from '../../../src/async/buffered-subscription.js';
import type { Message } from '../../../src/async/message.js';
import { DEFAULT_LIMITS } from '../../../src/async/transport.js';

function message(n: number): Message {
  return { channel: 'c', payload: { n }, headers: {}, receivedAt: n };
}

const any = (): boolean => true;
const numbered = (n: number) => (m: Message): boolean => (m.payload as { n: number }).n === n;

describe('BufferedSubscription', () => {
  it('keeps messages that arrive before anyone waits, and hands out the matching one first', async () => {
    const subscription = new BufferedSubscription('c', DEFAULT_LIMITS, () => {});
    for (const n of [1, 2, 3]) subscription.deliver(message(n), 10);
    await expect(subscription.next(numbered(2))).resolves.toMatchObject({ payload: { n: 2 } });
    await expect(subscription.next(any)).resolves.toMatchObject({ payload: { n: 1 } });
    await expect(subscription.next(any)).resolves.toMatchObject({ payload: { n: 3 } });
  });

  it('drops the oldest message past the count limit, and messages over the size limit, counting both', async () => {
    const subscription = new BufferedSubscription('c', { maxBuffered: 2, maxBufferedBytes: 1000, maxMessageBytes: 100 }, () => {});
    subscription.deliver(message(1), 10);
    subscription.deliver(message(2), 10);
    subscription.deliver(message(3), 10);
    subscription.deliver(message(4), 101);
    expect(subscription.dropped).toBe(2);
    await expect(subscription.next(any)).resolves.toMatchObject({ payload: { n: 2 } });
  });

  it('drops the oldest messages past the byte limit', async () => {
    const subscription = new BufferedSubscription('c', { maxBuffered: 100, maxBufferedBytes: 25, maxMessageBytes: 100 }, () => {});
    for (const n of [1, 2, 3]) subscription.deliver(message(n), 10);
    expect(subscription.dropped).toBe(1);
    await expect(subscription.next(any)).resolves.toMatchObject({ payload: { n: 2 } });
  });

  it('rejects with ASYNC_TIMEOUT naming the channel and the milliseconds', async () => {
    const subscription = new BufferedSubscription('place-order', DEFAULT_LIMITS, () => {});
    await expect(subscription.next(any, { timeoutMs: 20 })).rejects.toMatchObject({ code: 'ASYNC_TIMEOUT', message: 'no matching message on channel "place-order" within 20 ms' });
  });

  it('rejects with ASYNC_ABORTED when the signal aborts, or has aborted', async () => {
    const subscription = new BufferedSubscription('c', DEFAULT_LIMITS, () => {});
    const controller = new AbortController();
    const waiting = subscription.next(any, { signal: controller.signal, timeoutMs: 5000 });
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'ASYNC_ABORTED' });
    await expect(subscription.next(any, { signal: controller.signal })).rejects.toMatchObject({ code: 'ASYNC_ABORTED' });
  });

  it('rejects pending waits when closed, and calls its close hook once', async () => {
    let closed = 0;
    const subscription = new BufferedSubscription('c', DEFAULT_LIMITS, () => closed++);
    const waiting = subscription.next(any);
    subscription.close();
    subscription.close();
    await expect(waiting).rejects.toMatchObject({ code: 'ASYNC_CONNECTION_LOST' });
    expect(closed).toBe(1);
  });

  it('rejects only the wait whose match throws', async () => {
    const subscription = new BufferedSubscription('c', DEFAULT_LIMITS, () => {});
    const bad = subscription.next(() => {
      throw new Error('bad match');
    });
    const good = subscription.next(any);
    subscription.deliver(message(1), 10);
    await expect(bad).rejects.toThrow('bad match');
    await expect(good).resolves.toMatchObject({ payload: { n: 1 } });
  });
});
