/** The only module that touches `process`: argv, env, streams, signals and the exit code. */
import { setFlagsFromString } from 'node:v8';
import { runCli } from './cli/run-cli.js';
import { wantsColor } from './cli/context.js';

// Memory: a 1000-step run peaked at 132 MiB of RSS; with these two, 92-97 MiB at the same speed
// (a 5000-step run: 265 -> 169 MiB, ~7% slower from the extra full GCs).
// - The young generation stays at its initial 1 MiB semi-spaces instead of doubling up to 16 MiB
//   (-25 MiB): a run allocates steadily but keeps little of it.
// - The old generation may grow 40% over what survived the last full GC before the next one,
//   instead of up to 4x on this machine's heap limit (-8 MiB): the document and the machine are
//   live for the whole run, and the limit scaled with them.
// V8 reads both each time it sizes a space, so setting them after start-up takes effect (unlike
// --max-semi-space-size, fixed when the heap is created). docs/performance.md has the numbers.
setFlagsFromString('--semi-space-growth-factor=1');
setFlagsFromString('--heap-growing-percent=40');

const controller = new AbortController();
let interrupted = false;
process.on('SIGINT', () => {
  // The first Ctrl-C asks the command to stop and report; a second one exits at once.
  if (interrupted) process.exit(130);
  interrupted = true;
  controller.abort();
});
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  // `tool ... | head` closes the pipe early; that is not an error worth a stack trace.
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const code = await runCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  colors: wantsColor(process.env, process.stderr.isTTY === true),
  stderrIsTTY: process.stderr.isTTY === true,
  stdoutIsTTY: process.stdout.isTTY === true,
  signal: controller.signal,
});
process.exitCode = code;
