/**
 * `npm run bench`: how much `tool arazzo run` adds on top of the HTTP round trips it must make,
 * and how fast the CLI starts. Starts the bench API in a child process, generates the scenario
 * workflows into a temp dir, runs each through the real CLI and the same request sequence through
 * raw got (also a child process), several times, interleaved, and reports medians against the
 * targets of issue 6. Writes bench/results.json. Always exits 0 unless the harness itself breaks:
 * it is a report, not a test. Method: docs/performance.md.
 *
 *   node bench/run.js [--runs N] [--only name,name] [--quick] [--tool <dir>] [--out <file>]
 *
 * --tool runs another checkout's bin/tool.js (built) against the same harness, for before/after
 * comparisons; --out writes the results elsewhere than bench/results.json.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machineInfo } from './machine-info.js';
import { timeNode } from './measure.js';
import { checkLoopRecords, checkRun, summarise } from './analyse.js';
import { printReport } from './print-report.js';
import { writeWorkflows } from './workflows.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RAW_GOT = join(ROOT, 'bench', 'raw-got.js');
const API_SERVER = join(ROOT, 'bench', 'api-server.js');

/** Every scenario; `linear-1` gives the fixed cost of a run, `loop-250` the record-growth check. */
const SCENARIOS = [
  { name: 'linear-1', kind: 'linear', size: 1 },
  { name: 'linear-100', kind: 'linear', size: 100 },
  { name: 'linear-1000', kind: 'linear', size: 1000 },
  { name: 'loop-250', kind: 'loop', size: 250 },
  { name: 'loop-500', kind: 'loop', size: 500 },
  { name: 'retry-100', kind: 'retry', size: 100 },
];

function parseArgs(argv) {
  const args = { runs: 5, only: undefined, coldRuns: 2, tool: join(ROOT, 'bin', 'tool.js'), out: join(ROOT, 'bench', 'results.json') };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--runs') args.runs = Number(argv[++i]);
    else if (arg === '--only') args.only = argv[++i].split(',');
    else if (arg === '--quick') args.runs = 2;
    else if (arg === '--tool') args.tool = join(resolve(argv[++i]), 'bin', 'tool.js');
    else if (arg === '--out') args.out = resolve(argv[++i]);
    else throw new Error(`unknown argument ${arg} (use --runs N, --only a,b, --quick, --tool <dir>, --out <file>)`);
  }
  if (!Number.isInteger(args.runs) || args.runs < 1) throw new Error('--runs needs a positive integer');
  return args;
}

/** Starts bench/api-server.js; resolves once it prints its URL. Closing its stdin stops it. */
function startApi() {
  const child = spawn(process.execPath, [API_SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let text = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the bench API exited early (${code})`)));
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const match = /listening (\S+)/.exec(text);
      if (match) resolve({ url: match[1], stop: () => child.stdin.end() });
    });
  });
}

/** Which program bin/tool.js loads: the bundle when it is at least as new as tsc's output (the rule in bin/tool.js). */
function entryOf(tool) {
  const root = dirname(dirname(tool));
  const bundle = statSync(join(root, 'dist', 'bundle', 'tool.js'), { throwIfNoEntry: false });
  const modules = statSync(join(root, 'dist', 'src', 'bin.js'), { throwIfNoEntry: false });
  return bundle && (!modules || bundle.mtimeMs >= modules.mtimeMs) ? 'bundle' : 'modules';
}

function cliArgs(tool, scenario, runId) {
  const args = [tool, 'arazzo', 'run', scenario.file, '--quiet'];
  if (scenario.kind !== 'linear') args.push('--input', `run=${runId}`);
  // Transport retries would absorb the 503s; the scenario measures Arazzo retry actions.
  if (scenario.kind === 'retry') args.push('--tool-retry', '0');
  return args;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const scenarios = SCENARIOS.filter((s) => !args.only || args.only.includes(s.name) || s.name === 'linear-1');
  const before = machineInfo();
  const entry = entryOf(args.tool);
  const api = await startApi();
  const dir = mkdtempSync(join(tmpdir(), 'tool-bench-'));
  try {
    const planned = writeWorkflows(dir, api.url, scenarios);
    const small = planned.find((s) => s.name === 'linear-1').file;
    const big = planned.find((s) => s.name === 'linear-1000')?.file;
    const coldCommands = [
      { name: 'node -e 0', args: ['-e', '0'] },
      { name: 'tool --version', args: [args.tool, '--version'] },
      { name: 'tool arazzo validate', args: [args.tool, 'arazzo', 'validate', small] },
    ];
    // How much of linear-1000's per-step cost is the document alone (read, YAML parse, source
    // positions, validation), measured through the real CLI as `validate` of both sizes.
    const breakdownCommands = big
      ? [
          { name: 'validate linear-1', args: [args.tool, 'arazzo', 'validate', small] },
          { name: 'validate linear-1000', args: [args.tool, 'arazzo', 'validate', big] },
        ]
      : [];
    const samples = { cold: {}, breakdown: {}, cli: {}, raw: {}, records: {} };
    for (const c of coldCommands) samples.cold[c.name] = [];
    for (const c of breakdownCommands) samples.breakdown[c.name] = [];
    for (const s of planned) [samples.cli[s.name], samples.raw[s.name]] = [[], []];
    const timeCommand = async (command, into) => {
      const result = await timeNode(command.args, { cwd: dir });
      if (result.code !== 0) throw new Error(`${command.name} exited ${result.code}: ${result.stderr}`);
      into[command.name].push({ wallMs: result.wallMs, rssKiB: result.rssKiB });
    };

    // One untimed pass warms the file cache and the server's JIT.
    for (const s of planned) {
      await timeNode(cliArgs(args.tool, s, `warm-${s.name}`), { cwd: dir });
      await timeNode([RAW_GOT, s.kind, String(s.size), api.url, `warm-raw-${s.name}`], { cwd: dir });
    }
    for (let run = 1; run <= args.runs; run++) {
      process.stderr.write(`run ${run}/${args.runs}\n`);
      for (let i = 0; i < args.coldRuns; i++) {
        for (const c of coldCommands) await timeCommand(c, samples.cold);
      }
      for (const c of breakdownCommands) await timeCommand(c, samples.breakdown);
      for (const s of planned) {
        const cli = await timeNode(cliArgs(args.tool, s, `r${run}-${s.name}`), { cwd: dir });
        const record = checkRun(s, cli);
        samples.cli[s.name].push({ wallMs: cli.wallMs, rssKiB: cli.rssKiB, records: record.steps.length, bytes: Buffer.byteLength(cli.stdout) });
        samples.records[s.name] = record;
        const raw = await timeNode([RAW_GOT, s.kind, String(s.size), api.url, `r${run}-raw-${s.name}`], { cwd: dir });
        if (raw.code !== 0) throw new Error(`raw got ${s.name} exited ${raw.code}: ${raw.stderr}`);
        samples.raw[s.name].push({ ...JSON.parse(raw.stdout), processWallMs: raw.wallMs, rssKiB: raw.rssKiB });
      }
    }
    const after = machineInfo();
    const summary = summarise(planned, samples);
    const loopCheck = checkLoopRecords(samples);
    const results = { date: new Date().toISOString(), runs: args.runs, tool: args.tool, entry: entry === entryOf(args.tool) ? entry : 'mixed', machine: before, loadAfter: after.loadavg, ...summary, loopCheck };
    printReport(results, process.stdout);
    writeFileSync(args.out, `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`\nwrote ${args.out}\n`);
  } finally {
    api.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`bench: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});
