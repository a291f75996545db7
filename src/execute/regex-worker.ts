/**
 * The run's RegexTester (src/expressions/regex-tester.ts): a document's regex tested against a
 * context value on a worker thread, with a time limit. A pattern such as `(a+)+b` backtracks for
 * minutes on a short text; on the main thread it would block the event loop, so neither Ctrl-C nor
 * --tool-timeout could stop the run. The thread starts at the first test (a run whose criteria
 * test no regex starts none), is stopped when the limit passes and started again for the next
 * test, and is stopped for good by `stop()` when the run ends.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { REGEX_TIME_LIMIT_MS, type RegexTester, type RegexVerdict } from '../expressions/regex-tester.js';

/** How long the worker may take to start (a loaded CI machine is slow to start a thread). */
const START_LIMIT_MS = 10_000;

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

/** A regex tester with a worker thread of its own; `stop()` ends the thread (a later test starts a new one). */
export interface RegexWorker extends RegexTester {
  stop(): void;
  /** Whether a thread is running now (for tests). */
  readonly running: boolean;
}

export function createRegexWorker(): RegexWorker {
  let running: Running | undefined;
  const stop = (current: Running) => {
    if (running === current) running = undefined;
    current.port.close();
    void current.worker.terminate();
  };
  return {
    /** Synchronous: the caller's thread waits, the worker's thread does the matching. */
    test(pattern: string, text: string, limitMs = REGEX_TIME_LIMIT_MS): RegexVerdict {
      const current = (running ??= start());
      Atomics.store(current.done, 0, 0);
      current.port.postMessage({ pattern, text });
      if (Atomics.wait(current.done, 0, 0, limitMs) === 'timed-out') {
        stop(current);
        return { holds: false, stopped: true, reason: `the pattern ran for more than ${limitMs / 1000} s on ${text.length} characters and was stopped (a pattern that backtracks without end, such as (a+)+b, never finishes)` };
      }
      const answer = receiveMessageOnPort(current.port)?.message as { holds?: boolean; error?: string } | undefined;
      if (answer?.error !== undefined) return { holds: false, reason: answer.error };
      return { holds: answer?.holds === true };
    },
    stop() {
      if (running) stop(running);
    },
    get running() {
      return running !== undefined;
    },
  };
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
  return { worker, port: port1, done };
}
