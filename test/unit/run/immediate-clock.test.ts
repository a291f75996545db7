import { stat } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { immediateClock } from '../../../src/run/immediate-clock.js';

describe('immediateClock', () => {
  it('runs a zero delay in the same loop turn, before a 0 ms timer set earlier', async () => {
    // From an I/O callback Node always runs the check phase (setImmediate) before the next
    // timers phase, so this order is fixed; a clock that used a timer for 0 would come second.
    const clock = immediateClock();
    const order: string[] = [];
    await new Promise<void>((resolve) => {
      stat('.', () => {
        setTimeout(() => {
          order.push('timer');
          resolve();
        }, 0);
        clock.setTimeout(() => order.push('zero'), 0);
      });
    });
    expect(order).toEqual(['zero', 'timer']);
  });

  it('cancels both kinds of delay', async () => {
    const clock = immediateClock();
    const fired: number[] = [];
    clock.clearTimeout(clock.setTimeout(() => fired.push(0), 0));
    clock.clearTimeout(clock.setTimeout(() => fired.push(5), 5));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fired).toEqual([]);
  });

  it('keeps real delays real', async () => {
    const clock = immediateClock();
    const started = performance.now();
    await new Promise<void>((resolve) => clock.setTimeout(() => resolve(), 30));
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });
});
