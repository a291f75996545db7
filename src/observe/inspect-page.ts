/**
 * The two pages the `--inspect` server serves. The live view reads the run's facts from `/live`
 * and the Stately bridge its inspection events from `/events` (both server-sent events). The
 * live view is self-contained and works offline; the Stately bridge embeds the hosted Stately
 * inspector, which the browser loads from the internet.
 */
import { createHash } from 'node:crypto';

/** The hosted Stately inspector; only the bridge page, opened by the user, loads it. */
export const STATELY_INSPECTOR_URL = 'https://stately.ai/inspect';

/** The only origin the bridge page talks to, in both directions. */
export const STATELY_ORIGIN = new URL(STATELY_INSPECTOR_URL).origin;

/** Styles of the live view; the page's CSP allows exactly this text (LIVE_VIEW_CSP). */
export const LIVE_VIEW_STYLE = `
  body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #222; }
  h1 { font-size: 1.3rem; margin: 0 0 .4rem; }
  h2 { font-size: 1rem; margin: 1.2rem 0 .3rem; }
  .muted { color: #777; }
  #outcome.passed, tr.passed td.status { color: #2e7d32; }
  #outcome.failed, tr.failed td.status, tr.failed td.reason, #failure { color: #c62828; }
  #countdown { color: #e65100; font-weight: bold; }
  main { display: flex; flex-wrap: wrap; gap: 1.5rem; align-items: flex-start; }
  #chart { padding: .5rem 1rem; border: 1px solid #eee; border-radius: .4rem; }
  #chart svg { max-width: 100%; height: auto; }
  #failure, td.reason { white-space: pre-wrap; }
  #chart g.node.passed > path, #chart g.node.passed > polygon, #chart g.node.passed > ellipse { fill: #e8f5e9; stroke: #2e7d32; stroke-width: 2; }
  #chart g.node.failed > path, #chart g.node.failed > polygon, #chart g.node.failed > ellipse { fill: #fdecea; stroke: #c62828; stroke-width: 2; }
  #chart g.node.running > path, #chart g.node.running > polygon, #chart g.node.running > ellipse { fill: #e3f2fd; stroke: #1565c0; stroke-width: 3; }
  #chart g.edge.taken > path { stroke: #1565c0; stroke-width: 2.5; }
  #chart g.edge.taken > polygon { stroke: #1565c0; fill: #1565c0; }
  #chart g.edge.taken.fail > path { stroke: #c62828; }
  #chart g.edge.taken.fail > polygon { stroke: #c62828; fill: #c62828; }
  #chart g.edge.last > path { stroke-width: 4; }
  #chart text.badge { font: 9px ui-monospace, monospace; fill: #333; }
  #chart text.countdown { font: bold 9px ui-monospace, monospace; fill: #e65100; }
  #chart text.taken-label { font: bold 9px system-ui, sans-serif; fill: #1565c0; }
  #chart g.edge.fail text.taken-label { fill: #c62828; }
  table { border-collapse: collapse; }
  #log-table { width: 100%; }
  td, th { text-align: left; vertical-align: top; padding: .15rem .6rem; border-bottom: 1px solid #eee; font-family: ui-monospace, monospace; font-size: 12px; }
  td.reason { max-width: 32rem; }
`;

/**
 * The live view's script: it reads the server's facts (live-feed.ts) from the `live` stream and
 * colours the chart, fills the steps table and appends one log row per fact (a fact already shown
 * is skipped by its number). Run data is shown with textContent only.
 */
export const LIVE_VIEW_SCRIPT = `
'use strict';
const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
const MAX_ROWS = 1000;
const ACTOR_EVENTS = ['invoked', 'done', 'stopped'];
const steps = new Map();
let seen = 0, latest = null, timer = null, lastEdge = null;
function text(id, value) { $(id).textContent = String(value); }
function cell(tr, value, cls) {
  const td = document.createElement('td'); td.textContent = String(value);
  if (cls) td.className = cls;
  tr.appendChild(td); return td;
}
function nodeOf(key) { return document.getElementById('node-' + key); }
function topKey(state) { return state.split('.')[0]; }
function stepName(key) { const s = steps.get(key); return s ? s.stepId : key; }
function secs(ms) { return (ms / 1000).toFixed(1) + ' s'; }
// A nested workflow step has no HTTP status: it says which workflow it called.
function statusText(s) { return (s.dryRun ? 'dry run' : s.call !== undefined ? (s.call ? '→ workflow ' + s.call : 'call') : s.status === 0 ? 'no response' : String(s.status)) + (s.ok ? ' ✓' : ' ✗'); }
// A reason with the criteria and their operands under it, one per line (as stderr explains them).
function explained(reason, explain) { return [reason || ''].concat(explain || []).filter((line) => line !== '').join('\\n'); }
function stepRow(key, stepId) {
  let s = steps.get(key);
  if (s) return s;
  const tr = document.createElement('tr'); tr.dataset.step = key;
  s = { stepId, tr, name: cell(tr, stepId, 'name'), runs: cell(tr, 0, 'runs'), status: cell(tr, '–', 'status'), reason: cell(tr, '', 'reason') };
  $('steps').appendChild(tr); steps.set(key, s);
  return s;
}
// A note of the chart's own beside a node or under an edge's label; placed again when its length changes.
function note(parent, cls, value, place) {
  let t = parent.querySelector('text.' + cls);
  const fresh = !t;
  if (fresh) { t = document.createElementNS(SVG, 'text'); t.setAttribute('class', cls); parent.appendChild(t); }
  t.textContent = value;
  if (fresh || t.dataset.length !== String(value.length)) { t.dataset.length = String(value.length); place(t); fitChart(); }
  return t;
}
const SHAPES = ':scope > path, :scope > polygon, :scope > ellipse';
// A node's outline (without its notes), in the chart's coordinates: Graphviz draws every node in one untransformed group.
function outline(node) {
  let box = null;
  for (const shape of node.querySelectorAll(SHAPES)) {
    const b = shape.getBBox();
    box = box ? union(box, b) : { x: b.x, y: b.y, width: b.width, height: b.height };
  }
  return box || node.getBBox();
}
function union(a, b) {
  const x = Math.min(a.x, b.x), y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}
function meets(a, b) { return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height; }
// Beside a node: right of it, else left of it, else under it, wherever it covers no other node, another node's note, nor a label of an edge or a cluster.
function nodeNote(node, cls, value, line) {
  return note(node, cls, value, (t) => {
    const box = outline(node), middle = box.y + box.height / 2 + 3 + line * 11;
    const others = [];
    for (const other of document.querySelectorAll('#chart g.node')) {
      if (other === node) continue;
      others.push(outline(other));
      for (const n of other.querySelectorAll('text.badge, text.countdown')) others.push(n.getBBox());
    }
    for (const label of document.querySelectorAll('#chart g.edge text, #chart g.cluster text')) others.push(label.getBBox());
    const places = [
      ['start', box.x + box.width + 5, middle],
      ['end', box.x - 5, middle],
      ['middle', box.x + box.width / 2, box.y + box.height + 10 + line * 11],
    ];
    for (const [anchor, x, y] of places) {
      t.setAttribute('text-anchor', anchor); t.setAttribute('x', String(x)); t.setAttribute('y', String(y));
      const b = t.getBBox();
      if (!others.some((o) => meets(b, o))) return;
    }
    const [anchor, x, y] = places[0];
    t.setAttribute('text-anchor', anchor); t.setAttribute('x', String(x)); t.setAttribute('y', String(y));
  });
}
// Grows the chart's viewBox (and its size with it) to hold every note, so that none is cut off at an edge.
function fitChart() {
  const svg = document.querySelector('#chart svg'), graph = svg && svg.querySelector('g.graph');
  if (!graph || !svg.viewBox.baseVal || !(svg.viewBox.baseVal.width > 0)) return;
  const view = svg.viewBox.baseVal, m = graph.transform.baseVal.consolidate();
  const matrix = m ? m.matrix : svg.createSVGMatrix();
  if (!svg.dataset.width) { svg.dataset.width = svg.getAttribute('width') || ''; svg.dataset.height = svg.getAttribute('height') || ''; svg.dataset.view = [view.width, view.height].join(' '); }
  let x1 = view.x, y1 = view.y, x2 = view.x + view.width, y2 = view.y + view.height;
  for (const t of graph.querySelectorAll('text.badge, text.countdown, text.taken-label')) {
    const b = t.getBBox();
    for (const [px, py] of [[b.x, b.y], [b.x + b.width, b.y + b.height]]) {
      const x = matrix.a * px + matrix.c * py + matrix.e, y = matrix.b * px + matrix.d * py + matrix.f;
      x1 = Math.min(x1, x - 2); y1 = Math.min(y1, y - 2); x2 = Math.max(x2, x + 2); y2 = Math.max(y2, y + 2);
    }
  }
  if (x1 === view.x && y1 === view.y && x2 === view.x + view.width && y2 === view.y + view.height) return;
  svg.setAttribute('viewBox', [x1, y1, x2 - x1, y2 - y1].join(' '));
  // Graphviz sizes the chart in points for its first viewBox; the grown one keeps the scale.
  const [width0, height0] = svg.dataset.view.split(' ').map(Number);
  const size = (attr, from, to) => { const v = parseFloat(attr); if (v > 0) return String(v * to / from) + attr.replace(/^[0-9.]+/, ''); return null; };
  const w = size(svg.dataset.width, width0, x2 - x1), h = size(svg.dataset.height, height0, y2 - y1);
  if (w) svg.setAttribute('width', w);
  if (h) svg.setAttribute('height', h);
}
function edgeNote(edge, value) {
  return note(edge, 'taken-label', value, (t) => {
    const labels = edge.querySelectorAll('text:not(.taken-label)');
    if (labels.length > 0) {
      const last = labels[labels.length - 1];
      t.setAttribute('text-anchor', last.getAttribute('text-anchor') || 'middle');
      t.setAttribute('x', last.getAttribute('x')); t.setAttribute('y', String(Number(last.getAttribute('y')) + 11));
    } else {
      const path = edge.querySelector('path'), at = path.getPointAtLength(path.getTotalLength() / 2);
      t.setAttribute('x', String(at.x + 5)); t.setAttribute('y', String(at.y + 3));
    }
  });
}
function applyStep(s) {
  const row = stepRow(s.key, s.workflow ? s.workflow + ' / ' + s.stepId : s.stepId);
  row.runs.textContent = String(s.runs); row.status.textContent = statusText(s); row.reason.textContent = explained(s.reason, s.explain);
  row.tr.className = s.ok ? 'passed' : 'failed';
  const node = nodeOf(s.key);
  if (!node) return;
  node.classList.remove('passed', 'failed'); node.classList.add(s.ok ? 'passed' : 'failed');
  nodeNote(node, 'badge', '×' + s.runs + ' · ' + statusText(s), 0);
  const title = node.querySelector('title');
  if (title) title.textContent = s.stepId + ': ' + statusText(s) + (s.reason ? ' · ' + explained(s.reason, s.explain) : '');
}
function applyEdge(e, last) {
  const edge = e.id && document.getElementById(e.id);
  if (!edge) return;
  edge.classList.add('taken');
  if (e.id.endsWith('-fail')) edge.classList.add('fail');
  // The chart already says "next step" and "fail": beside those, only how often they were taken.
  const times = e.taken > 1 ? '×' + e.taken : '';
  if (e.action || times) edgeNote(edge, e.action ? e.label + (times ? ' ' + times : '') : times);
  if (last) { if (lastEdge) lastEdge.classList.remove('last'); edge.classList.add('last'); lastEdge = edge; }
}
function tick() {
  const f = latest, left = f && f.retryAt !== undefined && !f.end ? f.retryAt - Date.now() : -1;
  const node = f && nodeOf(topKey(f.to));
  if (left > 0) {
    $('countdown').hidden = false;
    text('countdown', 'retry of ' + stepName(topKey(f.to)) + ' in ' + secs(left));
    if (node) nodeNote(node, 'countdown', 'retry in ' + secs(left), 1);
    timer = timer || setInterval(tick, 100);
    return;
  }
  $('countdown').hidden = true;
  for (const t of document.querySelectorAll('#chart text.countdown')) t.remove();
  if (timer) { clearInterval(timer); timer = null; }
}
function finish(end) {
  document.body.dataset.run = 'finished';
  text('outcome', 'finished: ' + end.status); $('outcome').className = end.status === 'succeeded' ? 'passed' : 'failed';
  if (end.failure) text('failure', explained((end.failure.stepId ? 'step ' + end.failure.stepId + ': ' : '') + end.failure.message + ' (' + end.failure.code + ')', end.failure.explain));
  const node = nodeOf(end.status);
  if (node) node.classList.add(end.status === 'succeeded' ? 'passed' : 'failed');
}
// A called workflow's final state (v2), coloured as the run's own.
function reached(final) {
  const node = nodeOf(final.key);
  if (node) node.classList.add(final.status === 'succeeded' ? 'passed' : 'failed');
}
function log(f) {
  const tr = document.createElement('tr'); tr.dataset.n = String(f.n);
  cell(tr, f.at);
  const who = f.step ? f.step.stepId : stepName(topKey(f.from || f.to));
  // A called workflow's machine (v2): its actor path, and its step.
  cell(tr, f.actor ? f.actor + (ACTOR_EVENTS.includes(f.event) ? '' : ' · ' + who) : who);
  cell(tr, f.step ? statusText(f.step) + (f.step.reason ? ': ' + f.step.reason : '') : f.event, f.step && !f.step.ok ? 'failed' : '');
  cell(tr, f.edge ? f.edge.label : '');
  cell(tr, f.to + (f.retryDelayMs !== undefined ? ' (retry in ' + secs(f.retryDelayMs) + ')' : ''));
  const rows = $('log');
  rows.appendChild(tr);
  if (rows.children.length > MAX_ROWS) rows.firstElementChild.remove();
}
function applyFact(f) {
  if (f.n <= seen) return;
  seen = f.n; latest = f;
  if (f.step) applyStep(f.step);
  if (f.edge) applyEdge(f.edge, true);
  text('state', f.to); text('runs', f.runs); text('max', f.maxSteps); text('retries', f.retries);
  for (const n of document.querySelectorAll('#chart g.node.running')) n.classList.remove('running');
  const current = nodeOf(topKey(f.to));
  if (current && !f.end) current.classList.add('running');
  if (f.end) finish(f.end);
  if (f.final) reached({ key: topKey(f.to), status: f.final });
  log(f); tick();
}
for (const node of document.querySelectorAll('#chart g.node')) {
  const key = node.id.slice('node-'.length);
  if (/^s[0-9]+_/.test(key)) stepRow(key, Array.from(node.querySelectorAll('text'), (t) => t.textContent).join(' '));
}
// Relative: the pages and the streams live under the run's token.
const source = new EventSource('live');
source.addEventListener('run', (e) => { const info = JSON.parse(e.data); text('workflow', info.workflowId); text('connection', ''); });
source.addEventListener('summary', (e) => { const s = JSON.parse(e.data); s.steps.forEach(applyStep); s.edges.forEach((edge) => applyEdge(edge, false)); (s.finals || []).forEach(reached); });
source.addEventListener('fact', (e) => applyFact(JSON.parse(e.data)));
source.onerror = () => {
  text('connection', source.readyState === EventSource.CLOSED ? 'The live view of this run has ended.' : 'Not connected: tool stopped serving this run (it ends with the run unless held), or the connection dropped. Retrying…');
};
`;

/**
 * The offline live view, with the steps chart (the SVG Graphviz drew from the document, its text
 * escaped) inline: the running step, passed and failed steps, runs, statuses and reasons, the
 * edges taken and the action on each, the retry countdown, and a log with one row per transition.
 * Without a chart (`chartSvg` empty), the page says `missing` in its place.
 */
export function liveViewHtml(chartSvg: string, missing = 'The chart could not be drawn; the steps and the log still follow the run.'): string {
  const chart = chartSvg === '' ? `<p class="muted" id="no-chart">${escapeHtml(missing)}</p>` : chartSvg;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>tool · live run</title>
<style>${LIVE_VIEW_STYLE}</style>
</head>
<body data-run="running">
<h1>tool · <span id="workflow">waiting for a run…</span></h1>
<p>State <b id="state">–</b> · step runs <b id="runs">0</b> / <span id="max">–</span> · retries <b id="retries">0</b> · <b id="outcome">running</b> <span id="countdown" hidden></span></p>
<p id="failure"></p>
<p id="connection" class="muted"></p>
<main>
<div id="chart">${chart}</div>
<table><thead><tr><th>step</th><th>runs</th><th>last status</th><th>reason</th></tr></thead><tbody id="steps"></tbody></table>
</main>
<h2>Log</h2>
<table id="log-table"><thead><tr><th>ms</th><th>step</th><th>result</th><th>edge taken</th><th>state</th></tr></thead><tbody id="log"></tbody></table>
<p class="muted">Served by <code>tool arazzo run --inspect</code> on this machine only. <a href="stately">Open in the Stately inspector</a> (loads stately.ai; needs the internet).</p>
<script>${LIVE_VIEW_SCRIPT}</script>
</body>
</html>
`;
}

/** The live view's Content-Security-Policy: its own script and style (by hash), the chart inline, and the event stream; nothing else. */
export const LIVE_VIEW_CSP = `default-src 'none'; script-src '${sha256(LIVE_VIEW_SCRIPT)}'; style-src '${sha256(LIVE_VIEW_STYLE)}'; connect-src 'self'; base-uri 'none'; form-action 'none'`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text).digest('base64')}`;
}

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
// A machine's definition comes once (event: definition); each actor event names it by its ref.
const definitions = new Map();
function post(ev) { frame.contentWindow.postMessage(ev, STATELY); }
function withDefinition(ev) {
  if (ev.type !== '@xstate.actor' || !ev.definitionRef) return ev;
  const { definitionRef, ...rest } = ev;
  return { ...rest, definition: definitions.get(definitionRef) };
}
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
const events = new EventSource('events');
events.addEventListener('definition', (e) => {
  const d = JSON.parse(e.data);
  definitions.set(d.ref, d.definition);
});
events.onmessage = (e) => {
  const ev = withDefinition(withAllRecords(JSON.parse(e.data)));
  if (connected) post(ev);
  else waiting.push(ev);
};
</script>
</body>
</html>
`;
