/**
 * Renders a Graphviz dot text to SVG with Graphviz compiled to WebAssembly (@viz-js/viz): no
 * `dot` binary needed. Graphviz runs on a worker thread with a time limit, and a chart with too
 * many nodes is refused before it starts: laying out a large chart (a workflow of a few hundred
 * steps, each with a `fail` edge to the bottom rank) takes minutes and cannot be interrupted, so
 * on the main thread it would stall `arazzo graph` and, under `--inspect`, the run itself (a
 * request in flight would time out while the event loop waited).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Charts with more nodes than this are not laid out: Graphviz would take minutes (issue 23, item 12). */
export const MAX_SVG_NODES = 300;

/** How long Graphviz may lay out one chart; then its thread is stopped. */
export const SVG_TIME_LIMIT_MS = 20_000;

/** Thrown when a chart is not rendered: too many nodes (`TOO_MANY_NODES`), or Graphviz ran past the time limit (`TIME_LIMIT`). */
export class SvgRefusedError extends Error {
  constructor(
    readonly code: 'TOO_MANY_NODES' | 'TIME_LIMIT',
    /** The chart's nodes. */
    readonly nodes: number,
    /** The limit passed: a node count or milliseconds. */
    readonly limit: number,
  ) {
    super(code === 'TOO_MANY_NODES' ? `the chart has ${nodes} nodes, too many to render as SVG (at most ${limit})` : `Graphviz did not lay out the chart (${nodes} nodes) within ${limit / 1000} s`);
    this.name = 'SvgRefusedError';
  }
}

export interface RenderOptions {
  maxNodes?: number;
  timeLimitMs?: number;
  /** Stops the layout (its thread ends, the promise rejects with the signal's reason): a live view that closes before its chart is drawn. */
  signal?: AbortSignal;
}

// CommonJS, evaluated as the worker's main script (no file to find next to the bundle); it loads
// the package's own CommonJS build by the path resolved here.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
require(workerData.viz).instance().then((viz) => {
  try {
    parentPort.postMessage({ svg: viz.renderString(workerData.dot, { format: 'svg', engine: 'dot' }) });
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.message) || error) });
  }
}, (error) => parentPort.postMessage({ error: String((error && error.message) || error) }));
`;

/**
 * The SVG Graphviz draws from `dot`, laid out on a worker thread. Throws SvgRefusedError for a
 * chart over `maxNodes` nodes (before any work) or one not laid out within `timeLimitMs`, and an
 * Error when Graphviz rejects the text; rejects with `signal`'s reason when it aborts.
 */
export async function renderSvg(dot: string, options: RenderOptions = {}): Promise<string> {
  const maxNodes = options.maxNodes ?? MAX_SVG_NODES;
  const timeLimitMs = options.timeLimitMs ?? SVG_TIME_LIMIT_MS;
  options.signal?.throwIfAborted();
  const nodes = dotNodeCount(dot);
  if (nodes > maxNodes) throw new SvgRefusedError('TOO_MANY_NODES', nodes, maxNodes);
  const viz = createRequire(import.meta.url).resolve('@viz-js/viz');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { viz, dot } });
  try {
    return await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new SvgRefusedError('TIME_LIMIT', nodes, timeLimitMs)), timeLimitMs);
      const stop = () => reject(options.signal?.reason);
      options.signal?.addEventListener('abort', stop, { once: true });
      const settle = (done: () => void) => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', stop);
        done();
      };
      worker.once('message', (answer: { svg?: string; error?: string }) => settle(() => (answer.svg !== undefined ? resolve(answer.svg) : reject(new Error(answer.error ?? 'Graphviz failed')))));
      worker.once('error', (error) => settle(() => reject(error)));
      worker.once('exit', (code) => settle(() => reject(new Error(`the Graphviz thread stopped (exit code ${code})`))));
    });
  } finally {
    // Stops a layout still running (the time limit passed); a finished one has nothing left to stop.
    void worker.terminate();
  }
}

/** The node statements of a dot text (`"id" [...]` or `id [...]` on a line of its own); edges (`a -> b`) and attribute lines are not counted. */
export function dotNodeCount(dot: string): number {
  let count = 0;
  for (const line of dot.split('\n')) {
    if (/^\s*(?:"(?:[^"\\]|\\.)*"|[A-Za-z_][\w.]*)\s*\[/.test(line) && !/^\s*(?:node|edge|graph)\s*\[/.test(line)) count++;
  }
  return count;
}
