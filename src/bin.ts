/** The only module that touches `process`: argv, env, streams, signals and the exit code. */
import { runCli } from './cli/run-cli.js';
import { wantsColor } from './cli/context.js';

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
