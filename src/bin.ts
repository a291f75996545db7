/** The only module that touches `process`: argv, env, streams, signals and the exit code. */
import { wantsColor } from './cli/context.js';
import { EXIT } from './cli/exit-codes.js';
import { GuardedStream } from './cli/guarded-stream.js';
import { runCli, wantsDebug } from './cli/run-cli.js';
import { setMemoryFlags } from './v8-flags.js';

// Memory flags for long runs (v8-flags.ts). The bundle's loader sets them before this module is
// compiled (src/bundle/start-bundle.ts); setting them again is a no-op.
setMemoryFlags();

// Node prints its own warnings ("(node:PID) Warning: ...") on stderr; they are not for users of
// tool, whose stderr is its own. --debug (or TOOL_DEBUG=1) shows them.
const debug = wantsDebug(process.argv.slice(2), process.env);
process.removeAllListeners('warning');

// A failed write on stderr (a closed pipe, a terminal gone) drops the progress lines, never the
// run. A failed write on stdout stops the output: the command still finishes; a closed pipe keeps
// its exit code, any other failure (a full disk) turns a success into EXIT.OUTPUT_FAILED, since
// the result (a run record, the command's data) was lost.
const stderr = new GuardedStream(process.stderr);
let stdoutLost = false;
const stdout = new GuardedStream(process.stdout, (error) => {
  // `tool ... | head` closes the pipe early: what was wanted was read, nothing to say.
  if (error.code === 'EPIPE') return;
  stdoutLost = true;
  // The write may fail after the command returned: its code is already set.
  if (process.exitCode === EXIT.OK) process.exitCode = EXIT.OUTPUT_FAILED;
  stderr.write(`error: cannot write to stdout (${error.code ?? error.message}); the output is incomplete\n`);
});
process.on('warning', (warning) => {
  if (debug) stderr.write(`(node:${process.pid}) ${warning.stack ?? `${warning.name}: ${warning.message}`}\n`);
});

// SIGTERM (kill, a CI runner's timeout) and SIGHUP (the terminal closed) stop a command as Ctrl-C
// does; the exit code is 128 + the signal's number.
const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
type StopSignal = keyof typeof SIGNAL_EXIT_CODES;
const controller = new AbortController();
let stoppedBy: StopSignal | undefined;
for (const name of Object.keys(SIGNAL_EXIT_CODES) as StopSignal[]) {
  process.on(name, () => {
    // The first signal asks the command to stop and report; a second one exits at once.
    if (stoppedBy !== undefined) process.exit(SIGNAL_EXIT_CODES[name]);
    stoppedBy = name;
    controller.abort();
  });
}

// No top-level await: the bundle runs this module as a CommonJS script (scripts/bundle.js).
void runCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout,
  stderr,
  env: process.env,
  cwd: process.cwd(),
  colors: wantsColor(process.env, process.stderr.isTTY === true),
  stderrIsTTY: process.stderr.isTTY === true,
  stdoutIsTTY: process.stdout.isTTY === true,
  stdinIsTTY: process.stdin.isTTY === true,
  signal: controller.signal,
  debug,
}).then((code) => {
  // Commands report an interruption as EXIT.INTERRUPTED (130); the code names the signal that caused it.
  const exit = code === EXIT.INTERRUPTED && stoppedBy !== undefined ? SIGNAL_EXIT_CODES[stoppedBy] : code;
  process.exitCode = exit === EXIT.OK && stdoutLost ? EXIT.OUTPUT_FAILED : exit;
});
