import { describe, expect, it } from '@jest/globals';
import { compileWorkflow } from '../../machines/compile-workflow.js';
import { shapeTransitions } from '../../machines/transition-shape.js';
import { action, judgeOf, step } from './harness.js';

const XSTATE_KEYS = ['target', 'guard', 'actions', 'reenter', 'description', 'meta', 'source', 'eventType', 'toJSON'];

/** Every transition object of a state config tree (`on`, `after`, `always`, `invoke.onDone`). */
function transitionsOf(states: Record<string, unknown>): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const add = (value: unknown) => {
    for (const t of Array.isArray(value) ? value : [value]) if (typeof t === 'object' && t !== null) found.push(t as Record<string, unknown>);
  };
  for (const state of Object.values(states) as Record<string, unknown>[]) {
    for (const group of [state.on, state.after] as (Record<string, unknown> | undefined)[]) for (const value of Object.values(group ?? {})) add(value);
    if (state.always !== undefined) add(state.always);
    const invoke = state.invoke as Record<string, unknown> | undefined;
    if (invoke?.onDone !== undefined) add(invoke.onDone);
    if (state.states) found.push(...transitionsOf(state.states as Record<string, unknown>));
  }
  return found;
}

describe('shapeTransitions', () => {
  it('gives every transition of a compiled chart the keys of XState\'s transition objects, its own first and in order', () => {
    const plan = {
      workflowId: 'wf',
      steps: [
        step('a', { onFailure: [action('retry', { criteriaId: 0, retryLimit: 2 }), action('goto', { criteriaId: 1, targetIndex: 1 })] }),
        step('b', { onSuccess: [action('end', { criteriaId: 0 })] }),
      ],
    };
    const machine = compileWorkflow(plan, judgeOf([(s) => s === 503, (s) => s === 404]));
    const transitions = transitionsOf(machine.config.states as Record<string, unknown>);
    expect(transitions.length).toBeGreaterThan(5);
    for (const t of transitions) {
      expect(Object.keys(t)).toEqual(expect.arrayContaining(XSTATE_KEYS));
      expect(Object.keys(t).slice(-3)).toEqual(['source', 'eventType', 'toJSON']);
    }
  });

  it('keeps the JSON of a transition as it was: its own keys, in their order, and no others', () => {
    const states: Record<string, Record<string, unknown>> = { s: { on: { go: { target: '#w.t', reenter: true, actions: 'x' } }, after: { d: [{ target: '#w.u' }] } } };
    const before = JSON.stringify(states);
    shapeTransitions(states as never);
    expect(JSON.stringify(states)).toBe(before);
    expect(Object.keys((states.s!.on as Record<string, object>).go!)).toEqual(['target', 'reenter', 'actions', 'guard', 'description', 'meta', 'source', 'eventType', 'toJSON']);
  });
});
