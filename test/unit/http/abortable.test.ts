import { describe, expect, it } from '@jest/globals';
import { getEventListeners } from 'node:events';
import { pause, untilAborted, whenAborted } from '../../../src/http/abortable.js';

describe('whenAborted', () => {
  it('calls the handlers still waiting when the signal aborts, once each, in the order they started waiting', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    whenAborted(controller.signal, () => calls.push('first'));
    const stopSecond = whenAborted(controller.signal, () => calls.push('second'));
    whenAborted(controller.signal, () => calls.push('third'));
    stopSecond();
    controller.abort();
    controller.abort();
    expect(calls).toEqual(['first', 'third']);
  });

  it('adds one listener to a signal however many waits come and go', () => {
    const controller = new AbortController();
    for (let i = 0; i < 50; i++) whenAborted(controller.signal, () => undefined)();
    const stops = Array.from({ length: 10 }, () => whenAborted(controller.signal, () => undefined));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    stops.forEach((stop) => stop());
  });

  it('keeps signals apart', () => {
    const one = new AbortController();
    const two = new AbortController();
    const calls: string[] = [];
    whenAborted(one.signal, () => calls.push('one'));
    whenAborted(two.signal, () => calls.push('two'));
    two.abort();
    expect(calls).toEqual(['two']);
    one.abort();
    expect(calls).toEqual(['two', 'one']);
  });

  it('calls the same function once for each wait it was given to', () => {
    const controller = new AbortController();
    let calls = 0;
    const handler = () => calls++;
    whenAborted(controller.signal, handler);
    whenAborted(controller.signal, handler);
    controller.abort();
    expect(calls).toBe(2);
  });

  it('skips a wait that an earlier handler of the same abort stopped, as removeEventListener would', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    let stopSecond = (): void => undefined;
    whenAborted(controller.signal, () => {
      calls.push('first');
      stopSecond();
    });
    stopSecond = whenAborted(controller.signal, () => calls.push('second'));
    whenAborted(controller.signal, () => calls.push('third'));
    controller.abort();
    expect(calls).toEqual(['first', 'third']);
  });

  it('never calls a handler for a signal that had already aborted, as addEventListener would not', async () => {
    const controller = new AbortController();
    controller.abort();
    let called = false;
    whenAborted(controller.signal, () => (called = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(called).toBe(false);
  });
});

describe('pause and untilAborted', () => {
  it('pause resolves true when the time passes and false as soon as the signal aborts, leaving no handler behind', async () => {
    const controller = new AbortController();
    await expect(pause(1, controller.signal)).resolves.toBe(true);
    const waiting = pause(60_000, controller.signal);
    controller.abort();
    await expect(waiting).resolves.toBe(false);
    await expect(pause(60_000, controller.signal)).resolves.toBe(false);
  });

  it('untilAborted settles with the work, or rejects with aborted() when the signal aborts first', async () => {
    const controller = new AbortController();
    await expect(untilAborted(Promise.resolve(7), controller.signal, () => new Error('aborted'))).resolves.toBe(7);
    await expect(untilAborted(Promise.reject(new Error('no')), controller.signal, () => new Error('aborted'))).rejects.toThrow('no');
    const never = new Promise<number>(() => undefined);
    const waiting = untilAborted(never, controller.signal, () => new Error('aborted'));
    controller.abort();
    await expect(waiting).rejects.toThrow('aborted');
  });
});
