/**
 * `arazzo run --inspect`: live inspection served on loopback only, all under a random token in the
 * URL. A node:http server on 127.0.0.1 serves the offline live view (the steps chart, coloured from
 * the facts of live-feed.ts on the `/live` stream) and relays XState's inspection events (the
 * stream's `machine.inspected` pass-through: the Stately protocol is XState's own), formatted
 * by @statelyai/inspect in the Stately protocol with secrets stripped and run records sent as
 * deltas, on `/events` to the optional Stately bridge page. Nothing leaves the machine unless the
 * user opens the bridge page.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Writable } from 'node:stream';
import type { InspectionEvent } from 'xstate';
import { callsOrTransfers, readWorkflows, workflowSteps, type WorkflowSteps } from '../draw/read-workflows.js';
import type { RunFailure, WorkflowPlan } from '../../machines/types.js';
import { CommandUsageError } from '../errors/tool-error.js';
import { failureMessage } from './failure-message.js';
import { LIVE_VIEW_CSP, liveViewHtml, STATELY_BRIDGE_HTML, STATELY_INSPECTOR_URL } from './inspect-page.js';
import { SvgRefusedError } from '../output/render-svg.js';
import { renderLiveChart, renderLiveWorkflowsChart } from './live-chart.js';
import { createLiveFeed, type LiveFact, type LiveFeed, type LiveFeedEvent } from './live-feed.js';
import { createLiveSecrets } from './live-secrets.js';
import { ownEvents } from './decode-run.js';
import type { Reporter } from './reporter.js';
import type { RunEvents } from './run-events.js';

/** Events kept for viewers that connect late (a run is usually over before a browser opens); actor events are kept apart. */
const MAX_KEPT_EVENTS = 10_000;

/**
 * Actor events kept for late viewers, the latest ones, besides the first (the selected workflow's
 * machine): a workflow step called 1,000 times starts 1,000 machines (issue 23, item 12).
 */
const MAX_KEPT_ACTORS = 1000;

/** Live view facts (log rows) kept for late viewers; the latest state of every step and edge is always sent. */
const MAX_KEPT_FACTS = 1000;

/** Random bytes in the URL token: only someone who was shown the URL can read the run. */
const TOKEN_BYTES = 16;

export interface LiveInspector {
  /** `http://127.0.0.1:<port>/<token>/`, the live view; every page and the event stream are under the token. */
  url: string;
  /** Follows the run's events on `bus`: the live view's facts, the Stately relay, and the credentials each request carried (masked in the reasons shown). */
  subscribe(bus: RunEvents): void;
  /** Without a run's bus (a lone machine, tests): the observer to pass as `createActor(machine, { inspect })`, decoded by decode-run.ts. */
  inspect(event: InspectionEvent): void;
  /** Without a run's bus: a reporter that forwards everything to `inner`, so that reasons the live view shows mask the credentials each request carried. */
  reporter(inner: Reporter): Reporter;
  /**
   * Draws the steps chart of the workflow about to run, from its plan (in the background), and
   * starts following its machine; call it before the run. v2: `workflows`, the plan of every
   * workflow the run can reach by key, draws the workflows it calls and transfers to as `arazzo
   * graph` does, and the view follows their machines too.
   */
  showChart(plan: WorkflowPlan, workflows?: { entry: string; plans: ReadonlyMap<string, WorkflowPlan> }): void;
  /** Prints how to connect on `stderr`. */
  announce(stderr: Writable): void;
  /** Keeps serving until `signal` aborts (Ctrl-C), telling the user so on `stderr`. */
  holdUntil(signal: AbortSignal, stderr: Writable): Promise<void>;
  /** Tells the user on `stderr` that the live view ends with the run (nothing when `signal` aborted: Ctrl-C said so). */
  release(signal: AbortSignal, stderr: Writable): void;
  /** Stops the server and disconnects viewers; later calls do nothing. */
  close(): Promise<void>;
}

export interface InspectorOptions {
  /** 0 lets the system pick a free port. */
  port: number;
  workflowId: string;
  /** Values masked in the text the live view shows (secret inputs). */
  secrets?: readonly string[];
  /** Actor events kept for late viewers besides the first (tests pass a few). */
  maxKeptActors?: number;
}

/** Starts the loopback inspection server. Throws CommandUsageError (exit 2) when the port is taken. */
export async function startInspector(options: InspectorOptions): Promise<LiveInspector> {
  const { createInspector } = await import('@statelyai/inspect');
  const run = JSON.stringify({ runId: randomUUID(), workflowId: options.workflowId });
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  const maxKeptActors = options.maxKeptActors ?? MAX_KEPT_ACTORS;
  // The first actor event (the selected workflow's machine), then the latest others.
  let firstActor: string | undefined;
  const actors: string[] = [];
  const kept: string[] = [];
  // Each machine's definition, sent once as `event: definition`: a workflow called 1,000 times would otherwise send (and keep) its whole config 1,000 times.
  const definitionRefs = new WeakMap<object, string>();
  const definitions: string[] = [];
  const rendering = new AbortController();
  const viewers = new Set<ServerResponse>();
  // By actor, not session id: each top-level actor of a v2 run (dependency, transfer) has its own system, whose session ids start again at x:0.
  const sentRecords = new WeakMap<object, number>();
  const secrets = createLiveSecrets(options.secrets ?? []);
  const facts: string[] = [];
  const liveViewers = new Set<ServerResponse>();
  let feed: LiveFeed | undefined;
  let livePage: Promise<string> = Promise.resolve(liveViewHtml(''));

  const server = createServer((req, res) => serve(req, res));
  const port = await listen(server, options.port);
  const origin = `http://127.0.0.1:${port}`;
  const base = `${origin}/${token}/`;
  const allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);

  function serve(req: IncomingMessage, res: ServerResponse): void {
    // A page on another site could reach a loopback port through DNS rebinding; its Host header gives it away.
    if (!allowedHosts.has(req.headers.host ?? '')) return void res.writeHead(403).end('forbidden\n');
    // Other local users and processes can reach the port too: without the token, there is nothing here.
    const path = pathUnderToken((req.url ?? '/').split('?')[0] as string, token);
    if (path === undefined) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    if (req.method !== 'GET') return void res.writeHead(405, { allow: 'GET' }).end();
    if (path === '') return void res.writeHead(308, { location: `/${token}/` }).end();
    if (path === '/') return void livePage.then((html) => page(res, html, LIVE_VIEW_CSP));
    if (path === '/stately') {
      return page(res, STATELY_BRIDGE_HTML, `default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; frame-src ${STATELY_INSPECTOR_URL}`);
    }
    if (path === '/live') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write(`retry: 1000\nevent: run\ndata: ${run}\n\n`);
      // The latest state of every step and edge first: the facts kept may not reach back to the start.
      if (feed) res.write(`event: summary\ndata: ${JSON.stringify(feed.summary())}\n\n`);
      for (const data of facts) res.write(`event: fact\ndata: ${data}\n\n`);
      liveViewers.add(res);
      req.on('close', () => liveViewers.delete(res));
      return;
    }
    if (path === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write(`retry: 1000\nevent: run\ndata: ${run}\n\n`);
      for (const data of definitions) res.write(`event: definition\ndata: ${data}\n\n`);
      if (firstActor !== undefined) res.write(`data: ${firstActor}\n\n`);
      for (const data of actors) res.write(`data: ${data}\n\n`);
      for (const data of kept) res.write(`data: ${data}\n\n`);
      viewers.add(res);
      req.on('close', () => viewers.delete(res));
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  }

  const inspector = createInspector({
    send(event) {
      const safe = sanitizeInspectionEvent(event, secrets.mask);
      if (event.type === '@xstate.actor') {
        // The definition slim() handed over is only a reference to the one sent as `event: definition`.
        delete safe.definition;
        const ref = definitionRefOf((event as { definition?: unknown }).definition);
        if (ref !== undefined) safe.definitionRef = ref;
      }
      const data = JSON.stringify(safe);
      if (event.type !== '@xstate.actor') keep(kept, data, MAX_KEPT_EVENTS);
      else if (firstActor === undefined) firstActor = data;
      else keep(actors, data, maxKeptActors);
      for (const viewer of viewers) viewer.write(`data: ${data}\n\n`);
    },
  });

  /**
   * The reference of a machine's definition, sent to viewers (and kept for late ones) the first
   * time a machine of that logic starts; later machines of the same workflow only name it.
   */
  function definitionRef(logic: { config?: unknown }): string {
    let ref = definitionRefs.get(logic);
    if (ref !== undefined) return ref;
    ref = `d${definitions.length + 1}`;
    definitionRefs.set(logic, ref);
    const data = JSON.stringify({ ref, definition: definitionText(logic.config) });
    definitions.push(data);
    for (const viewer of viewers) viewer.write(`event: definition\ndata: ${data}\n\n`);
    return ref;
  }

  /**
   * Strips an XState event to what viewers may see before @statelyai/inspect serialises it: its
   * conversion would otherwise copy the whole context (every record, every response) on every
   * event, a cost that grows with each step run. A snapshot carries only the records added since
   * the previous snapshot of its actor.
   */
  function slim(event: InspectionEvent): InspectionEvent | undefined {
    switch (event.type) {
      case '@xstate.actor': {
        // @statelyai/inspect would serialise the machine's whole config for every actor (and the
        // snapshot as it is when it converts the event): it gets a stand-in naming the definition.
        const actor = event.actorRef as unknown as { id: string; sessionId: string; _parent?: unknown; logic?: { config?: { id?: unknown } }; getSnapshot(): unknown };
        const config = actor.logic?.config;
        const definition = { id: typeof config?.id === 'string' ? config.id : actor.id, ...(actor.logic && config ? { [DEFINITION_REF]: definitionRef(actor.logic) } : {}) };
        const standIn = { id: actor.id, sessionId: actor.sessionId, _parent: actor._parent, logic: { config: definition }, getSnapshot: () => sanitizeSnapshot(actor.getSnapshot() as Json, undefined, secrets.mask) };
        return { ...event, actorRef: standIn } as unknown as InspectionEvent;
      }
      case '@xstate.event':
        return { ...event, event: { type: event.event.type } };
      case '@xstate.snapshot': {
        const records = recordsOf(event.snapshot);
        const from = Math.min(sentRecords.get(event.actorRef) ?? 0, records.length);
        sentRecords.set(event.actorRef, records.length);
        return { ...event, event: { type: event.event.type }, snapshot: sanitizeSnapshot(event.snapshot as unknown as Json, from, secrets.mask) as never };
      }
      default:
        return undefined;
    }
  }

  const publish = (fact: LiveFact) => {
    const data = JSON.stringify(fact);
    facts.push(data);
    if (facts.length > MAX_KEPT_FACTS) facts.shift();
    for (const viewer of liveViewers) viewer.write(`event: fact\ndata: ${data}\n\n`);
  };
  const subscribe = (bus: RunEvents) => {
    secrets.subscribe(bus);
    // The feed is made by showChart, before the run; facts go out in the order of the events.
    const toFeed = (event: LiveFeedEvent) => {
      const fact = feed?.take(event);
      if (fact) publish(fact);
    };
    bus.on('workflow.started', toFeed);
    bus.on('state.changed', toFeed);
    bus.on('workflow.finished', toFeed);
    bus.on('step.explained', toFeed);
    bus.on('machine.inspected', (event) => {
      const shown = slim(event.event as InspectionEvent);
      if (shown) inspector.inspect.next?.(shown);
    });
  };
  const own = ownEvents(subscribe);

  let closed: Promise<void> | undefined;
  return {
    url: base,
    subscribe,
    inspect: own.inspect,
    reporter: own.reporter,
    showChart(plan, workflows) {
      const drawn = workflowSteps(plan);
      const each = workflows && callsOrTransfers(drawn) ? new Map([...workflows.plans].map(([key, p]) => [key, workflowSteps(p)])) : undefined;
      const calls = workflows && each ? readWorkflows(workflows.entry, each) : undefined;
      const nested = workflows && each ? nestedSteps(workflows.entry, each) : undefined;
      feed = createLiveFeed(drawn.chart, { mask: secrets.mask, workflowId: options.workflowId, ...(calls ? { charts: calls.charts } : {}), ...(nested ? { calls: nested } : {}) });
      // The page waits for the chart; the run does not. Without a chart, the page still follows the run.
      const render = { signal: rendering.signal };
      livePage = (calls ? renderLiveWorkflowsChart(calls, render) : renderLiveChart(drawn.chart, render)).then(liveViewHtml, (error: unknown) => liveViewHtml('', missingChartNote(error)));
    },
    announce(stderr) {
      stderr.write(
        `inspect: live view at ${base} (this machine only; nothing is sent elsewhere)\n` +
          `  The Stately inspector: open ${base}stately (your browser loads it from stately.ai)\n`,
      );
    },
    async holdUntil(signal, stderr) {
      if (signal.aborted) return;
      stderr.write(`inspect: the run is over; the live view stays at ${base} until you press Ctrl-C\n`);
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    },
    release(signal, stderr) {
      if (signal.aborted) return;
      stderr.write('inspect: the run is over; the live view ends with it (no terminal to press Ctrl-C in; --inspect-hold keeps it up)\n');
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        // A chart still being laid out is not waited for.
        rendering.abort();
        for (const viewer of [...viewers, ...liveViewers]) viewer.end();
        server.closeAllConnections();
        server.close(() => resolve());
      });
      return closed;
    },
  };
}

/** The path after `/<token>` ('' for `/<token>` itself), or undefined when the path does not start with the token. */
/** The nested workflow steps of the drawn workflows, by node id as the chart draws them (`child/s0_call`), and the workflow each calls. */
function nestedSteps(entry: string, workflows: ReadonlyMap<string, WorkflowSteps>): Map<string, string> {
  const nested = new Map<string, string>();
  for (const [key, steps] of workflows) {
    const prefix = key === entry ? '' : `${key}/`;
    for (const [node, callee] of steps.calls) nested.set(`${prefix}${node}`, callee);
  }
  return nested;
}

function pathUnderToken(path: string, token: string): string | undefined {
  const end = path.indexOf('/', 1);
  const given = Buffer.from(end === -1 ? path.slice(1) : path.slice(1, end));
  const wanted = Buffer.from(token);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return undefined;
  return end === -1 ? '' : path.slice(end);
}

function page(res: ServerResponse, html: string, csp: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp, 'cache-control': 'no-store' });
  res.end(html);
}

function listen(server: ReturnType<typeof createServer>, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const why = error.code === 'EADDRINUSE' ? `port ${port} is in use` : `${error.code ?? error.message}`;
      reject(new CommandUsageError(`--inspect cannot listen on 127.0.0.1:${port}: ${why}`, 'Pick another port with --inspect-port, or 0 for any free one.'));
    });
    // Loopback only: the live view shows the run to whoever can connect.
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

type Json = Record<string, unknown>;

/**
 * What a viewer may see of an inspection event: state values, statuses, event types and the
 * run counters. Inputs, step data (requests, responses, outputs), actor inputs and outputs and
 * error objects are dropped: they can hold credentials. `mask` hides secrets in the failure message.
 */
export function sanitizeInspectionEvent(event: object, mask?: (text: string) => string): Json {
  const e = event as Json;
  const safe: Json = {};
  for (const key of ['type', 'sessionId', 'rootId', 'parentId', 'sourceId', 'createdAt', 'id', '_version', 'name', 'definition']) {
    if (e[key] !== undefined) safe[key] = e[key];
  }
  if (isObject(e.event)) safe.event = { type: e.event.type };
  // An actor event is converted late, with the actor's snapshot as it is by then: its records
  // would repeat what the snapshot events carry.
  if (isObject(e.snapshot)) safe.snapshot = sanitizeSnapshot(e.snapshot, e.type === '@xstate.actor' ? undefined : 0, mask);
  return safe;
}

/**
 * A snapshot's state value, status and counters, and its run records from index `from` on (none
 * when `from` is undefined), with `recordsFrom` saying where they go, each reduced to stepId,
 * status, dryRun and failedVia. Applied to its own result, it returns the same.
 */
function sanitizeSnapshot(snapshot: Json, from: number | undefined, mask: (text: string) => string = (text) => text): Json {
  const safe: Json = { status: snapshot.status };
  if (snapshot.value !== undefined) safe.value = snapshot.value;
  if (isObject(snapshot.context)) {
    const c = snapshot.context;
    const records = from === undefined ? undefined : recordsOf(snapshot).slice(from);
    safe.context = {
      workflowId: c.workflowId,
      runs: c.runs,
      maxSteps: c.maxSteps,
      retries: c.retries,
      current: c.current,
      retryDelayMs: c.retryDelayMs,
      ...(records === undefined
        ? {}
        : {
            recordsFrom: typeof c.recordsFrom === 'number' ? c.recordsFrom : from,
            records: records.map((r) => ({ stepId: r.stepId, status: r.status, dryRun: r.dryRun, ...(r.failedVia ? { failedVia: r.failedVia } : {}) })),
          }),
      ...(isObject(c.failure)
        ? { failure: { code: c.failure.code, stepId: c.failure.stepId, message: typeof c.failure.message === 'string' ? c.failure.message : mask(failureMessage(c.failure as unknown as RunFailure)) } }
        : {}),
    };
  }
  return safe;
}

/** The key under which slim()'s stand-in config carries its definition's reference. */
const DEFINITION_REF = 'toolDefinitionRef';

/** The reference in the definition @statelyai/inspect serialised from slim()'s stand-in config. */
function definitionRefOf(definition: unknown): string | undefined {
  if (typeof definition !== 'string' || !definition.includes(DEFINITION_REF)) return undefined;
  const ref = (JSON.parse(definition) as Json)[DEFINITION_REF];
  return typeof ref === 'string' ? ref : undefined;
}

/** A machine config as the Stately inspector reads it: JSON, with each function as `{ type: <its name> }`. */
function definitionText(config: unknown): string {
  return JSON.stringify(config ?? {}, (_key, value: unknown) => (typeof value === 'function' ? { type: value.name } : value));
}

/** Appends `data` to `list`, dropping the oldest entry past `max`. */
function keep(list: string[], data: string, max: number): void {
  list.push(data);
  if (list.length > max) list.shift();
}

/** What the live view says instead of a chart it cannot draw. */
function missingChartNote(error: unknown): string {
  if (error instanceof SvgRefusedError) return `The chart is not drawn: ${error.message} (tool arazzo graph --format dot or mermaid prints it). The steps and the log still follow the run.`;
  return 'The chart could not be drawn; the steps and the log still follow the run.';
}

function recordsOf(snapshot: unknown): Json[] {
  const context = isObject(snapshot) ? snapshot.context : undefined;
  return isObject(context) && Array.isArray(context.records) ? (context.records as Json[]) : [];
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
