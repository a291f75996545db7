/**
 * The two pages the `--inspect` server serves. Both read the run's inspection events from
 * `/events` (server-sent events). The live view is self-contained and works offline; the Stately
 * bridge embeds the hosted Stately inspector, which the browser loads from the internet.
 */

/** The hosted Stately inspector; only the bridge page, opened by the user, loads it. */
export const STATELY_INSPECTOR_URL = 'https://stately.ai/inspect';

/** The only origin the bridge page talks to, in both directions. */
export const STATELY_ORIGIN = new URL(STATELY_INSPECTOR_URL).origin;

/** The offline live view: the step states with the active one highlighted, counters, and the event log. Data is shown with textContent only. */
export const LIVE_VIEW_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>tool · live run</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #222; }
  #states span { display: inline-block; margin: 0 .3rem .3rem 0; padding: .15rem .5rem; border: 1px solid #aaa; border-radius: .6rem; }
  #states span.active { background: #1565c0; color: #fff; border-color: #1565c0; }
  #states span.done { background: #e8f5e9; }
  table { border-collapse: collapse; margin-top: 1rem; width: 100%; }
  td, th { text-align: left; padding: .15rem .6rem; border-bottom: 1px solid #eee; font-family: ui-monospace, monospace; font-size: 12px; }
  .muted { color: #777; }
</style>
</head>
<body>
<h1>tool · <span id="workflow">waiting for a run…</span></h1>
<p>State: <b id="state">–</b> · status <b id="status">–</b> · step runs <b id="runs">0</b> / <span id="max">–</span> · retries <b id="retries">0</b></p>
<div id="states"></div>
<p class="muted">Served by <code>tool arazzo run --inspect</code> on this machine only. <a href="stately">Open in the Stately inspector</a> (loads stately.ai; needs the internet).</p>
<table><thead><tr><th>ms</th><th>kind</th><th>event</th><th>state</th></tr></thead><tbody id="log"></tbody></table>
<script>
const $ = (id) => document.getElementById(id);
let run = null, origin = null, rootId = null;
const chips = new Map();
function text(id, value) { $(id).textContent = String(value); }
function flat(value) {
  if (typeof value === 'string') return value;
  const [k, v] = Object.entries(value || {})[0] || [];
  return k === undefined ? '' : v === undefined ? k : k + '.' + flat(v);
}
function row(ev, kind, detail, state) {
  origin = origin ?? Number(ev.createdAt);
  const tr = document.createElement('tr');
  for (const cell of [Number(ev.createdAt) - origin, kind, detail, state]) {
    const td = document.createElement('td'); td.textContent = String(cell); tr.appendChild(td);
  }
  $('log').appendChild(tr);
}
function reset(info) {
  run = info.runId; origin = null; rootId = null; chips.clear();
  $('log').replaceChildren(); $('states').replaceChildren();
  text('workflow', info.workflowId);
}
// Relative: the pages and the stream live under the run's token.
const source = new EventSource('events');
source.addEventListener('run', (e) => { const info = JSON.parse(e.data); if (info.runId !== run) reset(info); });
source.onmessage = (e) => {
  const ev = JSON.parse(e.data);
  if (ev.type === '@xstate.actor' && ev.parentId === undefined && rootId === null) {
    rootId = ev.sessionId;
    const def = JSON.parse(ev.definition || '{}');
    // The definition's keys arrive sorted by name; show steps by index (s2 before s10), then the finals.
    const order = (key) => (/^s(\\d+)_/.exec(key) ? Number(/^s(\\d+)_/.exec(key)[1]) : Infinity);
    const keys = Object.keys(def.states || {}).sort((a, b) => order(a) - order(b) || (a === 'succeeded' ? -1 : b === 'succeeded' ? 1 : 0));
    for (const key of keys) {
      const chip = document.createElement('span'); chip.textContent = key; chips.set(key, chip); $('states').appendChild(chip);
    }
    return;
  }
  if (ev.sessionId !== rootId) return;
  if (ev.type === '@xstate.event') return row(ev, 'event', ev.event.type, '');
  if (ev.type !== '@xstate.snapshot') return;
  const snap = ev.snapshot || {}, ctx = snap.context || {}, state = flat(snap.value);
  text('state', state); text('status', snap.status); text('runs', ctx.runs ?? 0); text('max', ctx.maxSteps ?? '–'); text('retries', ctx.retries ?? 0);
  const top = state.split('.')[0];
  for (const [key, chip] of chips) chip.className = key === top ? 'active' : chip.className === 'active' ? 'done' : chip.className;
  row(ev, 'state', ev.event.type, state);
};
</script>
</body>
</html>
`;

/** A page that embeds the hosted Stately inspector and relays the run's events to it (what @statelyai/inspect's own server page does, from our loopback server). */
export const STATELY_BRIDGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>tool · Stately inspector</title>
<style>html, body { height: 100%; margin: 0; } iframe { width: 100%; height: 100%; border: 0; }</style>
</head>
<body>
<iframe id="inspector" src="${STATELY_INSPECTOR_URL}"></iframe>
<script>
const frame = document.getElementById('inspector');
const STATELY = '${STATELY_ORIGIN}';
const waiting = [];
// Events carry only the run records added since the last snapshot; the inspector is shown them all.
const records = new Map();
let connected = false;
function post(ev) { frame.contentWindow.postMessage(ev, STATELY); }
function withAllRecords(ev) {
  const ctx = ev.snapshot && ev.snapshot.context;
  if (!ctx || !Array.isArray(ctx.records)) return ev;
  const all = records.get(ev.sessionId) || [];
  all.length = Math.min(all.length, ctx.recordsFrom || 0);
  all.push(...ctx.records);
  records.set(ev.sessionId, all);
  const { recordsFrom, ...rest } = ctx;
  return { ...ev, snapshot: { ...ev.snapshot, context: { ...rest, records: all.slice() } } };
}
window.addEventListener('message', (e) => {
  // Only the embedded Stately inspector may say it is ready; any other window or origin is ignored.
  if (e.origin !== STATELY || e.source !== frame.contentWindow) return;
  if (e.data && e.data.type === '@statelyai.connected' && !connected) {
    connected = true;
    for (const ev of waiting.splice(0)) post(ev);
  }
});
new EventSource('events').onmessage = (e) => {
  const ev = withAllRecords(JSON.parse(e.data));
  if (connected) post(ev);
  else waiting.push(ev);
};
</script>
</body>
</html>
`;
