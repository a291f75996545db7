/**
 * Profiles one scenario through the real CLI with `node --cpu-prof` and prints where the time goes:
 * the top functions by self time and the self time per package/area. The bench API runs in its own
 * process, as in bench/run.js.
 *
 *   node bench/profile.js [scenario=linear-1000] [--top N] [--keep] [--bundle] [-- <more CLI args>]
 *   node bench/profile.js --version | --validate                      (start-up of those commands)
 *
 * Scenarios are named <kind>-<size> (linear-1000, loop-500, retry-100, see bench/workflows.js).
 * It profiles tsc's modules (dist/src/bin.js) so that time is attributed to packages; --bundle
 * profiles what users run (bin/tool.js, the bundle when it is fresh).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeWorkflows } from './workflows.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TOOL = join(ROOT, 'bin', 'tool.js');
const MODULES = join(ROOT, 'dist', 'src', 'bin.js');

/** Where a profiled function lives: a package, an area of dist/, or Node's internals. */
function areaOf(url) {
  if (!url) return '(native/vm)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const own = /\/dist\/(src\/[^/]+|machines)\//.exec(url);
  if (own) return own[1];
  if (url.startsWith('node:')) return 'node:internal';
  return url.replace(/^file:\/\//, '');
}

/** Self time (ms) per function and per area from a .cpuprofile. */
export function summariseProfile(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const keyOf = ({ callFrame }) => {
    const file = callFrame.url.replace(/^file:\/\//, '').replace(ROOT, '');
    return `${callFrame.functionName || '(anonymous)'} ${file}:${callFrame.lineNumber + 1}`;
  };
  const self = new Map();
  const intervals = profile.timeDeltas;
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (intervals[i] ?? 0) / 1000));
  const functions = new Map();
  const inclusive = new Map();
  const areas = new Map();
  let total = 0;
  for (const [id, ms] of self) {
    const { callFrame } = byId.get(id);
    const key = keyOf(byId.get(id));
    functions.set(key, (functions.get(key) ?? 0) + ms);
    // Inclusive time of our own functions (dist/): each sample counts once per function on its stack.
    const onStack = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (node.callFrame.url.startsWith(`file://${ROOT}dist/`)) onStack.add(keyOf(node));
    }
    for (const k of onStack) inclusive.set(k, (inclusive.get(k) ?? 0) + ms);
    const area = areaOf(callFrame.url) === '(native/vm)' ? callFrame.functionName || '(native/vm)' : areaOf(callFrame.url);
    areas.set(area, (areas.get(area) ?? 0) + ms);
    total += ms;
  }
  const sorted = (map) => [...map].sort((a, b) => b[1] - a[1]);
  return { totalMs: total, functions: sorted(functions), inclusive: sorted(inclusive), areas: sorted(areas) };
}

function startApi() {
  const child = spawn(process.execPath, [join(ROOT, 'bench', 'api-server.js')], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve) => {
    child.stdout.on('data', (chunk) => {
      const match = /listening (\S+)/.exec(String(chunk));
      if (match) resolve({ url: match[1], stop: () => child.stdin.end() });
    });
  });
}

async function main() {
  const all = process.argv.slice(2);
  const argv = all.includes('--') ? all.slice(0, all.indexOf('--')) : all;
  const extra = all.includes('--') ? all.slice(all.indexOf('--') + 1) : [];
  const top = argv.includes('--top') ? Number(argv[argv.indexOf('--top') + 1]) : 25;
  const name = argv.find((a) => /^[a-z]+-\d+$/.test(a)) ?? 'linear-1000';
  const [kind, size] = name.split('-');
  const api = await startApi();
  const dir = mkdtempSync(join(tmpdir(), 'tool-profile-'));
  try {
    const [scenario] = writeWorkflows(dir, api.url, [{ name, kind, size: Number(size) }]);
    const entry = argv.includes('--bundle') ? TOOL : MODULES;
    let args = [entry, 'arazzo', 'run', scenario.file, '--quiet', '--input', 'run=profile', '--tool-retry', '0'];
    args.push(...extra);
    if (argv.includes('--version')) args = [entry, '--version'];
    if (argv.includes('--validate')) args = [entry, 'arazzo', 'validate', scenario.file];
    const profDir = join(dir, 'prof');
    const started = performance.now();
    const run = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', profDir, '--cpu-prof-interval', '100', ...args], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
    const wallMs = performance.now() - started;
    if (run.status !== 0) throw new Error(`the CLI exited ${run.status}: ${run.stderr}`);
    const file = join(profDir, readdirSync(profDir)[0]);
    const summary = summariseProfile(JSON.parse(readFileSync(file, 'utf8')));
    const ms = (v) => v.toFixed(1).padStart(8);
    console.log(`${args.slice(1).join(' ')}: wall ${wallMs.toFixed(0)} ms (profiled), ${summary.totalMs.toFixed(0)} ms sampled`);
    console.log('\nself time by area:');
    for (const [area, t] of summary.areas.slice(0, 20)) console.log(`${ms(t)}  ${area}`);
    console.log(`\ntop ${top} functions by self time:`);
    for (const [fn, t] of summary.functions.slice(0, top)) console.log(`${ms(t)}  ${fn}`);
    console.log(`\ntop ${top} of our functions (dist/) by inclusive time:`);
    for (const [fn, t] of summary.inclusive.slice(0, top)) console.log(`${ms(t)}  ${fn}`);
    if (argv.includes('--keep')) console.log(`\nprofile kept: ${file}`);
  } finally {
    api.stop();
    if (!argv.includes('--keep')) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
