/**
 * Runs a document's regex against a context value on a worker thread, with a time limit. A
 * pattern such as `(a+)+b` backtracks for minutes on a short text; on the main thread it would
 * block the event loop, so neither Ctrl-C nor --tool-timeout could stop the run. The worker is
 * stopped when the limit passes and started again for the next criterion.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';

/** How long one regex test may run before it is stopped and the criterion does not hold. */
export const REGEX_TIME_LIMIT_MS = 1000;

/** How long the worker may take to start (a loaded CI machine is slow to start a thread). */
const START_LIMIT_MS = 10_000;

export type RegexVerdict = { holds: boolean; reason?: undefined } | { holds: false; reason: string };

// CommonJS, evaluated as the worker's main script: no file to find next to the bundle.
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const done = new Int32Array(workerData.done);
const compiled = new Map();
workerData.port.on('message', ({ pattern, text }) => {
  let answer;
  try {
    let regex = compiled.get(pattern);
    if (regex === undefined) {
      regex = new RegExp(pattern, 'u');
      compiled.set(pattern, regex);
    }
    answer = { holds: regex.test(text) };
  } catch (error) {
    answer = { error: String((error && error.message) || error) };
  }
  workerData.port.postMessage(answer);
  Atomics.store(done, 0, 1);
  Atomics.notify(done, 0);
});
Atomics.store(done, 0, 1);
Atomics.notify(done, 0);
`;

interface Running {
  worker: Worker;
  port: MessagePort;
  done: Int32Array;
}

let running: Running | undefined;

/**
 * Whether `pattern` (an ECMAScript regex source, `u` flag) matches `text`, waiting at most
 * `limitMs`. Synchronous: the caller's thread waits, the worker's thread does the matching.
 */
export function testRegex(pattern: string, text: string, limitMs = REGEX_TIME_LIMIT_MS): RegexVerdict {
  const current = running ?? start();
  Atomics.store(current.done, 0, 0);
  current.port.postMessage({ pattern, text });
  if (Atomics.wait(current.done, 0, 0, limitMs) === 'timed-out') {
    stop(current);
    return { holds: false, reason: `the pattern ran for more than ${limitMs / 1000} s on ${text.length} characters and was stopped (a pattern that backtracks without end, such as (a+)+b, never finishes)` };
  }
  const answer = receiveMessageOnPort(current.port)?.message as { holds?: boolean; error?: string } | undefined;
  if (answer?.error !== undefined) return { holds: false, reason: answer.error };
  return { holds: answer?.holds === true };
}

function start(): Running {
  const { port1, port2 } = new MessageChannel();
  const done = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { port: port2, done: done.buffer }, transferList: [port2] });
  // Neither keeps a finished run alive.
  worker.unref();
  port1.unref();
  if (Atomics.wait(done, 0, 0, START_LIMIT_MS) === 'timed-out') {
    void worker.terminate();
    throw new Error(`the regex worker did not start within ${START_LIMIT_MS / 1000} s`);
  }
  running = { worker, port: port1, done };
  return running;
}

function stop(current: Running): void {
  if (running === current) running = undefined;
  current.port.close();
  void current.worker.terminate();
}
