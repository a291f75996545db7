/** The V8 flags tool sets at run time, and how to step out of them while code is compiled. */
import { setFlagsFromString } from 'node:v8';

// Memory: a 1000-step run peaked at 132 MiB of RSS; with these two, 92-97 MiB at the same speed
// (a 5000-step run: 265 -> 169 MiB, ~7% slower from the extra full GCs).
// - The young generation stays at its initial 1 MiB semi-spaces instead of doubling up to 16 MiB
//   (-25 MiB): a run allocates steadily but keeps little of it.
// - The old generation may grow 40% over what survived the last full GC before the next one,
//   instead of up to 4x on this machine's heap limit (-8 MiB): the document and the machine are
//   live for the whole run, and the limit scaled with them.
// V8 reads both each time it sizes a space, so setting them after start-up takes effect (unlike
// --max-semi-space-size, fixed when the heap is created). docs/performance.md has the numbers.
const MEMORY_FLAGS = ['--semi-space-growth-factor=1', '--heap-growing-percent=40'];

// V8's own defaults for the same flags (Node 20's V8 11.3 and later): with these set again, V8's
// hash of its flags is the start-up one. test/unit/bundle/v8-flags.test.ts checks that it is.
const DEFAULT_FLAGS = ['--semi-space-growth-factor=2', '--heap-growing-percent=0'];

/** Sets tool's memory flags (see above); idempotent. */
export function setMemoryFlags(): void {
  for (const flag of MEMORY_FLAGS) setFlagsFromString(flag);
}

/**
 * Runs `fn` with V8's flags at their start-up values, then sets tool's memory flags again. V8
 * accepts cached code only when its flags hash as they did when the cache was made, and every
 * flag set away from its default changes that hash: Node's built-in modules (http, tls, crypto,
 * zlib, ...) carry a code cache made with the defaults, and with the memory flags set they were
 * compiled from source, ~20 ms of every run (measured in the fifth pass of docs/performance.md, in git history). With `verify`,
 * V8 also checksums code caches it makes and reads (--verify-snapshot-checksum), so a damaged
 * cache file is rejected instead of crashing the process.
 */
export function withDefaultFlags<T>(fn: () => T, verify = false): T {
  for (const flag of DEFAULT_FLAGS) setFlagsFromString(flag);
  if (verify) setFlagsFromString('--verify-snapshot-checksum');
  try {
    return fn();
  } finally {
    if (verify) setFlagsFromString('--no-verify-snapshot-checksum');
    setMemoryFlags();
  }
}
