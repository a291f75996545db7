/** A machine snapshot's state value as one dotted path, as the trace and the live view name states. */

/** `{ s2_requestAdoption: 'backoff' }` -> `s2_requestAdoption.backoff`; a final state is its key. */
export function statePath(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) {
    const [key, child] = Object.entries(value)[0] ?? [];
    if (key !== undefined) return child === undefined ? key : `${key}.${statePath(child)}`;
  }
  return '';
}
