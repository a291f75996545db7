/** Turns raw samples into the reported numbers and checks them against the targets. */
import { median } from './measure.js';

const MIB = 1024;

/**
 * The targets of issue 13, all "at most". Each is a ratio measured side by side within one run
 * (or, for memory growth, KiB per step run), so a loaded machine moves both sides alike.
 */
export const TARGETS = {
  perStepRatio: 1.4,
  oneStepOverNodeRatio: 2.5,
  versionOverNodeRatio: 1.4,
  growthKiBPerStep: 8,
  peakRssRatio: 0.85,
  retryRatio: 1.5,
  loopRatio: 1.5,
  /** The v2 nested scenario's per-step time over linear-1000's (issue 14: within 20%). */
  nestedRatio: 1.2,
  /** Issue 25: the per-step ratio holds for Arazzo 1.1 documents of HTTP steps (linear-1000 as 1.1, over raw got). */
  perStepRatio11: 1.4,
  /**
   * Issue 27: `tool mcp serve` of linear-1's document, started and stopped (stdin closed), over
   * `tool --version` plus the time to read the document (`arazzo validate` of it − `tool --version`),
   * that is over `arazzo validate`'s wall time.
   */
  mcpStartRatio: 1.5,
};

/** Step records a scenario's successful run must have (a nested step's own steps counted, not the step itself). */
function expectedSteps(scenario) {
  return scenario.kind === 'retry' ? 2 * scenario.size : scenario.size;
}

/** The step records that sent a request: a nested step (v2) counts its called workflow's steps instead of itself. */
export function requestSteps(steps) {
  return steps.reduce((n, step) => n + (Array.isArray(step.steps) ? requestSteps(step.steps) : 1), 0);
}

/** Checks one CLI run (exit 0, a run record with the expected step count) and returns the parsed record. Throws otherwise. */
export function checkRun(scenario, cli) {
  const excerpt = () => cli.stderr.split('\n').slice(0, 5).join('\n');
  if (cli.code !== 0) throw new Error(`tool arazzo run ${scenario.name} exited ${cli.code}:\n${excerpt()}`);
  const record = JSON.parse(cli.stdout);
  if (!Array.isArray(record.steps) || requestSteps(record.steps) !== expectedSteps(scenario)) {
    throw new Error(`${scenario.name}: expected ${expectedSteps(scenario)} step records, got ${Array.isArray(record.steps) ? requestSteps(record.steps) : undefined}`);
  }
  return record;
}

const round = (value, digits = 1) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : null);

/** Medians per cold-start command and per scenario, the derived overheads, and the target verdicts. */
export function summarise(planned, samples) {
  const coldMedian = (name) => median((samples.cold[name] ?? []).map((s) => s.wallMs));
  const nodeMs = coldMedian('node -e 0');
  const cold = Object.keys(samples.cold).map((name) => ({
    command: name,
    medianMs: round(coldMedian(name)),
    overNodeMs: round(coldMedian(name) - nodeMs),
    peakRssMiB: round(median(samples.cold[name].map((s) => s.rssKiB)) / MIB),
  }));
  const oneStepMs = median(samples.cli['linear-1'].map((s) => s.wallMs));
  const scenarios = planned.filter((s) => samples.cli[s.name]?.length > 0).map((s) => {
    const cli = samples.cli[s.name];
    const raw = samples.raw[s.name];
    const steps = cli[0].records;
    const requests = raw[0].requests;
    const cliWallMs = median(cli.map((c) => c.wallMs));
    const rawMs = median(raw.map((r) => r.totalMs));
    // Marginal cost of one more step/request: the first one (connection, got's first use) excluded on both sides.
    const cliPerStepMs = steps > 1 ? (cliWallMs - oneStepMs) / (steps - 1) : null;
    const rawPerRequestMs = requests > 1 ? median(raw.map((r) => (r.totalMs - r.firstMs) / (r.requests - 1))) : null;
    return {
      name: s.name,
      steps,
      requests,
      cliWallMs: round(cliWallMs),
      stepsPerSec: round(steps / (cliWallMs / 1000), 0),
      rawMs: round(rawMs),
      rawRequestsPerSec: round(requests / (rawMs / 1000), 0),
      cliPerStepMs: round(cliPerStepMs, 3),
      rawPerRequestMs: round(rawPerRequestMs, 3),
      overheadPerStepMs: cliPerStepMs === null ? null : round(cliPerStepMs - rawPerRequestMs, 3),
      recordBytes: median(cli.map((c) => c.bytes)),
      peakRssMiB: round(median(cli.map((c) => c.rssKiB)) / MIB),
      maxPeakRssMiB: round(Math.max(...cli.map((c) => c.rssKiB)) / MIB),
      rawPeakRssMiB: round(median(raw.map((r) => r.rssKiB)) / MIB),
      cliWallSamplesMs: cli.map((c) => round(c.wallMs)),
      rawSamplesMs: raw.map((r) => round(r.totalMs)),
    };
  });
  const find = (name) => scenarios.find((s) => s.name === name);
  const coldMs = (name) => coldMedian(name);
  const linear1000 = find('linear-1000');
  const linear5000 = find('linear-5000');
  const growthKiB = linear1000 && linear5000 ? median(samples.cli['linear-5000'].map((c) => c.rssKiB)) - median(samples.cli['linear-1000'].map((c) => c.rssKiB)) : null;
  const growth = growthKiB === null ? null : growthKiB / (linear5000.steps - linear1000.steps);
  const rows = {
    perStep: [linear1000?.cliPerStepMs, linear1000?.rawPerRequestMs, 'ms/step', 'ms/request'],
    oneStep: [oneStepMs, nodeMs, 'ms', 'ms'],
    version: [coldMs('tool --version'), nodeMs, 'ms', 'ms'],
    peakRss: [linear1000?.peakRssMiB, linear1000?.rawPeakRssMiB, 'MiB', 'MiB'],
    retry: [find('retry-100')?.cliPerStepMs, find('retry-100')?.rawPerRequestMs, 'ms/step run', 'ms/request'],
    loop: [find('loop-500')?.cliPerStepMs, find('loop-500')?.rawPerRequestMs, 'ms/step run', 'ms/request'],
    nested: [find('nested-100x10')?.cliPerStepMs, linear1000?.cliPerStepMs, 'ms/step (nested)', 'ms/step (flat)'],
    perStep11: [find('linear-1000-1.1')?.cliPerStepMs, find('linear-1000-1.1')?.rawPerRequestMs, 'ms/step (1.1)', 'ms/request'],
    mcpStart: [coldMs('tool mcp serve'), coldMs('tool arazzo validate'), 'ms', 'ms (version + reading the document)'],
  };
  const ratio = ([a, b]) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? round(a / b, 2) : null);
  const shown = ([a, b, ua, ub]) => (Number.isFinite(a) && Number.isFinite(b) ? `${round(a, 3)} ${ua} / ${round(b, 3)} ${ub}` : '-');
  const targets = [
    target('per-step time (linear-1000) / raw got per request', ratio(rows.perStep), TARGETS.perStepRatio, '', shown(rows.perStep)),
    target('1-step run wall / node -e 0', ratio(rows.oneStep), TARGETS.oneStepOverNodeRatio, '', shown(rows.oneStep)),
    target('`tool --version` / node -e 0', ratio(rows.version), TARGETS.versionOverNodeRatio, '', shown(rows.version)),
    target(
      'memory growth per step run, linear-1000 -> linear-5000',
      growth === null ? null : round(growth, 1),
      TARGETS.growthKiBPerStep,
      'KiB',
      growth === null ? '-' : `peak RSS +${round(growthKiB / 1024, 1)} MiB over ${linear5000.steps - linear1000.steps} steps`,
    ),
    target('peak RSS (linear-1000) / raw got peak RSS', ratio(rows.peakRss), TARGETS.peakRssRatio, '', shown(rows.peakRss)),
    target('retry-100 per step run / raw got per request', ratio(rows.retry), TARGETS.retryRatio, '', shown(rows.retry)),
    target('loop-500 per step run / raw got per request', ratio(rows.loop), TARGETS.loopRatio, '', shown(rows.loop)),
    target('nested-100x10 (v2) per step / linear-1000 per step', ratio(rows.nested), TARGETS.nestedRatio, '', shown(rows.nested)),
    target('per-step time (linear-1000 as Arazzo 1.1) / raw got per request', ratio(rows.perStep11), TARGETS.perStepRatio11, '', shown(rows.perStep11)),
    target('`tool mcp serve` start / (`tool --version` + reading the document)', ratio(rows.mcpStart), TARGETS.mcpStartRatio, '', shown(rows.mcpStart)),
  ];

  return { nodeMs: round(nodeMs), runFixedCostMs: round(oneStepMs - nodeMs), cold, scenarios, breakdown: breakdown(samples, linear1000), targets };
}

/**
 * linear-1000's per-step overhead split in two: the document (what `validate` does: read, YAML
 * parse, source positions, validation) and everything else (compiling the steps and the machine,
 * walking it, rendering requests, the pipeline above got, criteria, outputs, garbage collection).
 */
function breakdown(samples, linear1000) {
  const at = (name) => median((samples.breakdown[name] ?? []).map((s) => s.wallMs));
  const documentMs = (at('validate linear-1000') - at('validate linear-1')) / 999;
  if (!Number.isFinite(documentMs) || !linear1000 || linear1000.overheadPerStepMs === null) return null;
  return {
    documentMsPerStep: round(documentMs, 3),
    restMsPerStep: round(linear1000.overheadPerStepMs - documentMs, 3),
    validate1000Ms: round(at('validate linear-1000')),
    validate1000PeakRssMiB: round(median(samples.breakdown['validate linear-1000'].map((s) => s.rssKiB)) / MIB),
  };
}

function target(name, value, limit, unit, raw = '-') {
  if (value === undefined || value === null) return { name, value: null, limit, unit, raw, verdict: 'SKIPPED' };
  return { name, value, limit, unit, raw, verdict: value <= limit ? 'PASS' : 'FAIL' };
}

function isFlatRecord(step) {
  return (
    typeof step === 'object' &&
    step !== null &&
    !Array.isArray(step) &&
    Object.entries(step).every(([key, value]) =>
      key === 'outputs' ? typeof value === 'object' && value !== null && Object.values(value).every((v) => typeof v !== 'object' || v === null) : typeof value !== 'object',
    )
  );
}

/**
 * The 500-iteration loop's record is one flat list (500 entries, none nested), and record size
 * grows linearly: loop-500's stdout is about twice loop-250's.
 */
export function checkLoopRecords(samples) {
  const record500 = samples.records['loop-500'];
  const record250 = samples.records['loop-250'];
  if (!record500 || !record250) return { verdict: 'SKIPPED' };
  const flat = record500.steps.length === 500 && record500.steps.every(isFlatRecord) && record500.steps.every((s) => s.stepId === 'tick');
  const bytes250 = median(samples.cli['loop-250'].map((c) => c.bytes));
  const bytes500 = median(samples.cli['loop-500'].map((c) => c.bytes));
  const ratio = bytes500 / bytes250;
  const linear = ratio >= 1.9 && ratio <= 2.1;
  return {
    entries: record500.steps.length,
    flat,
    bytes250,
    bytes500,
    ratio: round(ratio, 3),
    bytesPerEntry: round((bytes500 - bytes250) / 250),
    verdict: flat && linear ? 'PASS' : 'FAIL',
  };
}
