/**
 * `npm run bench`: how much `tool arazzo run` adds on top of the HTTP round trips it must make,
 * and how fast the CLI starts. Starts the bench API in a child process, generates the scenario
 * workflows into a temp dir, runs each through the real CLI and the same request sequence through
 * raw got (also a child process), several times, interleaved, and reports medians against the
 * targets of issue 13. Writes bench/results.json. Always exits 0 unless the harness itself breaks:
 * it is a report, not a test. Method: docs/performance.md.
 *
 *   node bench/run.js [--runs N] [--only name,name] [--quick] [--tool <dir>] [--before <dir>] [--out <file>]
 *
 * Then the rows of `arazzo test` (bench/suite.js: throughput at --concurrency 32, memory over
 * rows, latency against the server's log), unless --only leaves out `suite`; --quick makes them
 * ten times smaller.
 *
 * --tool runs another checkout's bin/tool.js (built) against the same harness; --before runs a
 * second build (e.g. the last commit, unpacked and built elsewhere) in the same rounds, each
 * command of one right after the other's, the two taking turns going first (use an even --runs),
 * and prints both side by side; --out writes the results elsewhere than bench/results.json.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { machineInfo } from './machine-info.js';
import { timeNode } from './measure.js';
import { checkLoopRecords, checkRun, summarise } from './analyse.js';
import { printReport } from './print-report.js';
import { writeWorkflows } from './workflows.js';
import { requestSteps } from './analyse.js';
import { startApi } from './start-api.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RAW_GOT = join(ROOT, 'bench', 'raw-got.js');

/** Every scenario; `linear-1` gives the fixed cost of a run, `loop-250` the record-growth check. */
const SCENARIOS = [
  { name: 'linear-1', kind: 'linear', size: 1 },
  { name: 'linear-100', kind: 'linear', size: 100 },
  { name: 'linear-1000', kind: 'linear', size: 1000 },
  // linear-1000 as the first run of a document: its text is new to the document cache each time
  // (a comment that names the run is appended), so it is parsed, as an edited document is.
  { name: 'linear-1000-new', kind: 'linear', size: 1000, newText: true },
  // Memory growth per step run: linear-5000's peak RSS over linear-1000's.
  { name: 'linear-5000', kind: 'linear', size: 5000 },
  { name: 'loop-250', kind: 'loop', size: 250 },
  { name: 'loop-500', kind: 'loop', size: 500 },
  { name: 'retry-100', kind: 'retry', size: 100 },
  // The v2 runner's nested calls: linear-1000's requests as 100 calls of a 10-step workflow.
  { name: 'nested-100x10', kind: 'nested', size: 1000 },
  // linear-1000 as an Arazzo 1.1 document (the 1.1 profile: the v2 engine plus 1.1's grammar and rules).
  { name: 'linear-1000-1.1', kind: 'linear', size: 1000, arazzo: '1.1.0' },
];

function parseArgs(argv) {
  const args = { runs: 5, only: undefined, coldRuns: 2, tool: join(ROOT, 'bin', 'tool.js'), out: join(ROOT, 'bench', 'results.json') };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--runs') args.runs = Number(argv[++i]);
    else if (arg === '--only') args.only = argv[++i].split(',');
    else if (arg === '--quick') {
      args.runs = 2;
      args.quick = true;
    }
    else if (arg === '--tool') args.tool = join(resolve(argv[++i]), 'bin', 'tool.js');
    else if (arg === '--before') args.before = join(resolve(argv[++i]), 'bin', 'tool.js');
    else if (arg === '--out') args.out = resolve(argv[++i]);
    else throw new Error(`unknown argument ${arg} (use --runs N, --only a,b, --quick, --tool <dir>, --before <dir>, --out <file>)`);
  }
  if (!Number.isInteger(args.runs) || args.runs < 1) throw new Error('--runs needs a positive integer');
  return args;
}

/** Which program bin/tool.js loads: the bundle when it is at least as new as tsc's output (the rule in bin/tool.js). */
function entryOf(tool) {
  const root = dirname(dirname(tool));
  const bundle = statSync(join(root, 'dist', 'bundle', 'tool.js'), { throwIfNoEntry: false });
  const modules = statSync(join(root, 'dist', 'src', 'bin.js'), { throwIfNoEntry: false });
  return bundle && (!modules || bundle.mtimeMs >= modules.mtimeMs) ? 'bundle' : 'modules';
}

/** The scenario with a copy of its file that no run has read before: the text plus a comment naming `runId`. */
function withNewText(scenario, runId) {
  const file = scenario.file.replace(/\.arazzo\.yaml$/, `.${runId}.arazzo.yaml`);
  writeFileSync(file, `${readFileSync(scenario.file, 'utf8')}# ${runId}\n`);
  return { ...scenario, file };
}

function cliArgs(tool, scenario, runId) {
  const args = [tool, 'arazzo', 'run', scenario.file, '--quiet'];
  if (scenario.kind !== 'linear' && scenario.kind !== 'nested') args.push('--input', `run=${runId}`);
  if (scenario.kind === 'nested') args.push('--tool-runner', 'v2', '--workflow', `nested${scenario.size}`);
  // Transport retries would absorb the 503s; the scenario measures Arazzo retry actions.
  if (scenario.kind === 'retry') args.push('--tool-retry', '0');
  return args;
}

/** The commands timed for one build of the CLI (`tool`): cold starts, the validate probes, the scenarios. */
function commandsFor(tool, planned) {
  const small = planned.find((s) => s.name === 'linear-1').file;
  const big = planned.find((s) => s.name === 'linear-1000')?.file;
  return {
    tool,
    entry: entryOf(tool),
    cold: [
      { name: 'tool --version', args: [tool, '--version'] },
      { name: 'tool arazzo validate', args: [tool, 'arazzo', 'validate', small] },
      // Issue 27: the MCP server reads the document (and its description), loads the SDK, serves
      // on stdio and exits when stdin ends (the bench gives it none): its start-up, end to end.
      // Optional: a --before build from before the command has no sample of it.
      { name: 'tool mcp serve', args: [tool, 'mcp', 'serve', small], optional: true },
    ],
    // How much of linear-1000's per-step cost is the document alone (read, YAML parse, source
    // positions, validation), measured through the real CLI as `validate` of both sizes.
    breakdown: big
      ? [
          { name: 'validate linear-1', args: [tool, 'arazzo', 'validate', small] },
          { name: 'validate linear-1000', args: [tool, 'arazzo', 'validate', big] },
        ]
      : [],
  };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const scenarios = SCENARIOS.filter((s) => !args.only || args.only.includes(s.name) || s.name === 'linear-1');
  const before = machineInfo();
  const api = await startApi();
  const dir = mkdtempSync(join(tmpdir(), 'tool-bench-'));
  try {
    const planned = writeWorkflows(dir, api.url, scenarios);
    const node = { name: 'node -e 0', args: ['-e', '0'] };
    const builds = [commandsFor(args.tool, planned), ...(args.before ? [commandsFor(args.before, planned)] : [])];
    // tool's caches (V8's code cache, the parsed documents) live in the bench's temp dir, one per
    // build: the untimed pass fills them, the user's own cache is neither read nor written, and two
    // builds whose parsed-document entries differ in format do not replace each other's entries
    // (with one folder, each run of one build found the other's entry and parsed again).
    const cliEnvs = builds.map((_, b) => ({ XDG_CACHE_HOME: join(dir, `cache-${b}`) }));
    const newSamples = (build) => {
      const samples = { cold: { [node.name]: [] }, breakdown: {}, cli: {}, raw: {}, records: {} };
      for (const c of build.cold) samples.cold[c.name] = [];
      for (const c of build.breakdown) samples.breakdown[c.name] = [];
      for (const s of planned) [samples.cli[s.name], samples.raw[s.name]] = [[], []];
      return samples;
    };
    const perBuild = builds.map(newSamples);
    const timeCommand = async (command, into, b) => {
      const result = await timeNode(command.args, { cwd: dir, env: cliEnvs[b] });
      if (result.code !== 0 && command.optional) return undefined;
      if (result.code !== 0) throw new Error(`${command.name} exited ${result.code}: ${result.stderr}`);
      const sample = { wallMs: result.wallMs, rssKiB: result.rssKiB };
      into[command.name].push(sample);
      return sample;
    };

    // One untimed pass warms the file cache, tool's caches and the server's JIT.
    for (const [b, build] of builds.entries()) for (const command of [...build.cold, ...build.breakdown]) await timeNode(command.args, { cwd: dir, env: cliEnvs[b] });
    for (const s of planned) {
      for (const [b, build] of builds.entries()) if (b === 0 || s.kind !== 'nested') await timeNode(cliArgs(build.tool, s, `warm-${s.name}`), { cwd: dir, env: cliEnvs[b] });
      await timeNode([RAW_GOT, s.kind, String(s.size), api.url, `warm-raw-${s.name}`], { cwd: dir });
    }
    for (let run = 1; run <= args.runs; run++) {
      process.stderr.write(`run ${run}/${args.runs}\n`);
      // The builds take turns going first, so that neither always runs right after the other's
      // longest command: in a fixed order, the second build's linear-1 (run right after the first
      // build's `validate linear-1000`) came out 14-23 ms slower in every round.
      const inTurn = run % 2 === 1 ? [...builds.entries()] : [...builds.entries()].reverse();
      for (let i = 0; i < args.coldRuns; i++) {
        // node -e 0 is timed once per round and shared, so every build's ratio has the same denominator.
        const nodeSample = await timeNode(node.args, { cwd: dir });
        for (const samples of perBuild) samples.cold[node.name].push({ wallMs: nodeSample.wallMs, rssKiB: nodeSample.rssKiB });
        for (const c of builds[0].cold.keys()) for (const [b, build] of inTurn) await timeCommand(build.cold[c], perBuild[b].cold, b);
      }
      for (const c of builds[0].breakdown.keys()) for (const [b, build] of inTurn) await timeCommand(build.breakdown[c], perBuild[b].breakdown, b);
      for (const s of planned) {
        for (const [b, build] of inTurn) {
          // A build from before the v2 runner cannot run the nested scenario: its row stays empty.
          if (b > 0 && s.kind === 'nested') continue;
          const runId = `r${run}-b${b}-${s.name}`;
          const cli = await timeNode(cliArgs(build.tool, s.newText ? withNewText(s, runId) : s, runId), { cwd: dir, env: cliEnvs[b] });
          const record = checkRun(s, cli);
          perBuild[b].cli[s.name].push({ wallMs: cli.wallMs, rssKiB: cli.rssKiB, records: requestSteps(record.steps), bytes: Buffer.byteLength(cli.stdout) });
          perBuild[b].records[s.name] = record;
          if (b === 0) {
            const raw = await timeNode([RAW_GOT, s.kind, String(s.size), api.url, `r${run}-raw-${s.name}`], { cwd: dir });
            if (raw.code !== 0) throw new Error(`raw got ${s.name} exited ${raw.code}: ${raw.stderr}`);
            const sample = { ...JSON.parse(raw.stdout), processWallMs: raw.wallMs, rssKiB: raw.rssKiB };
            for (const samples of perBuild) samples.raw[s.name].push(sample);
          }
        }
      }
    }
    const after = machineInfo();
    const resultsOf = (build, samples) => {
      const summary = summarise(planned, samples);
      return { tool: build.tool, entry: build.entry === entryOf(build.tool) ? build.entry : 'mixed', ...summary, loopCheck: checkLoopRecords(samples) };
    };
    const results = { date: new Date().toISOString(), runs: args.runs, machine: before, loadAfter: after.loadavg, ...resultsOf(builds[0], perBuild[0]) };
    if (builds[1]) results.before = resultsOf(builds[1], perBuild[1]);
    printReport(results, process.stdout);
    writeFileSync(args.out, `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`\nwrote ${args.out}\n`);
  } finally {
    api.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** bench/suite.js, as its own process, with this bench's build and size. */
function runSuiteRows(args) {
  const suiteArgs = [join(ROOT, 'bench', 'suite.js'), '--tool', dirname(dirname(args.tool)), ...(args.quick ? ['--quick'] : [])];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, suiteArgs, { stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`bench/suite.js exited ${code}`))));
  });
}

main()
  .then(() => (process.exitCode ? undefined : parseArgs(process.argv.slice(2))))
  .then((args) => (args && (!args.only || args.only.includes('suite')) ? runSuiteRows(args) : undefined))
  .catch((error) => {
    process.stderr.write(`bench: ${error.stack ?? error}\n`);
    process.exitCode = 1;
  });
