/**
 * The pure parts of `arazzo test`'s load figures: HDR-histogram series (percentiles, merging as
 * shards do), --threshold parsing and verdicts, the load flags and shards, the streamed JSON
 * summary and the progress bar's text.
 */
import { describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { Series, SuiteLatency, addStatsData, statsData, statsFigures } from '../../../src/suite/latency.js';
import { checkThresholds, parseThresholds } from '../../../src/suite/thresholds.js';
import { parseDuration, parseRate, readLoadFlags } from '../../../src/cli/suite/load-flags.js';
import { startSummary } from '../../../src/suite/summary-output.js';
import { barText, fitted } from '../../../src/suite/progress-bar.js';
import { styleFor } from '../../../src/output/style.js';

const plain = styleFor(false);

describe('latency series', () => {
  it('gives percentiles within the histogram precision (3 significant digits), and the count, errors and rate', () => {
    const series = new Series();
    for (let ms = 1; ms <= 1000; ms++) series.record(ms, ms % 10 !== 0);
    series.record(undefined, false);
    const figures = series.figures(10);
    expect(figures).toMatchObject({ count: 1001, errors: 101, perSecond: 100.1 });
    expect(figures.errorRate).toBeCloseTo(101 / 1001, 4);
    expect(figures.p50).toBeGreaterThanOrEqual(499.5);
    expect(figures.p50).toBeLessThanOrEqual(500.5);
    expect(figures.p95).toBeCloseTo(950, -1);
    expect(figures.p99).toBeCloseTo(990, -1);
    expect(figures.max).toBeCloseTo(1000, -1);
    expect(figures.p99).toBeLessThanOrEqual(figures.max);
    expect(figures.mean).toBeCloseTo(500.5, -1);
  });

  it('has no percentiles before a duration is recorded', () => {
    const series = new Series();
    series.record(undefined, false);
    expect(series.figures(1)).toMatchObject({ count: 1, errors: 1, p50: 0, max: 0 });
    expect(series.data().histogram).toBe('');
  });

  it('merges serialised shards into exactly the figures of one series that saw every value', () => {
    const whole = new SuiteLatency();
    const shards = [new SuiteLatency(), new SuiteLatency(), new SuiteLatency()];
    for (let i = 0; i < 3000; i++) {
      const ms = 1 + ((i * 7919) % 2000) / 3;
      for (const latency of [whole, shards[i % 3]!]) {
        latency.recordRun('a.arazzo.yaml', 'w', ms, i % 50 !== 0);
        latency.recordStep('a.arazzo.yaml', 'w', 's', ms / 2, true);
      }
    }
    const merged = new SuiteLatency();
    for (const shard of shards) addStatsData(merged, JSON.parse(JSON.stringify(statsData(shard))));
    expect(statsFigures(merged, 10)).toEqual(statsFigures(whole, 10));
  });
});

describe('--threshold', () => {
  it("reads k6's forms: percentiles in ms or s, error rates in % or as a fraction, a workflow or a step as scope", () => {
    expect(parseThresholds(['p95<300ms', 'errors<1%', 'errors<=0.05', 'wf:p99<1.5s', 'wf.step:max<=200', 'rps>=20', 'count>0'])).toEqual([
      { text: 'p95<300ms', metric: 'p95', op: '<', value: 300 },
      { text: 'errors<1%', metric: 'errors', op: '<', value: 0.01 },
      { text: 'errors<=0.05', metric: 'errors', op: '<=', value: 0.05 },
      { text: 'wf:p99<1.5s', workflowId: 'wf', metric: 'p99', op: '<', value: 1500 },
      { text: 'wf.step:max<=200', workflowId: 'wf', stepId: 'step', metric: 'max', op: '<=', value: 200 },
      { text: 'rps>=20', metric: 'rps', op: '>=', value: 20 },
      { text: 'count>0', metric: 'count', op: '>', value: 0 },
    ]);
  });

  it.each([
    ['p95', /is not/],
    ['p95<300%', /give a duration/],
    ['errors<300ms', /as a duration/],
    ['errors<150%', /over 100%/],
    ['rps<3ms', /plain number/],
    ['p42<1', /is not/],
  ])('refuses %s', (text, message) => {
    expect(() => parseThresholds([text])).toThrow(message);
  });

  it('checks the suite, a workflow of every document and a step, and says why one fails', () => {
    const latency = new SuiteLatency();
    for (const file of ['a.arazzo.yaml', 'b.arazzo.yaml']) for (let i = 1; i <= 10; i++) latency.recordRun(file, 'wf', i * 10, i !== 10);
    latency.recordStep('a.arazzo.yaml', 'wf', 'get', 5, true);
    const verdicts = checkThresholds(parseThresholds(['p50<60ms', 'errors<5%', 'wf:count>=20', 'wf.get:p99<1ms', 'other:p50<1', 'wf.none:p50<1']), latency, 1);
    expect(verdicts.map((v) => [v.ok, v.message])).toEqual([
      [true, undefined],
      [false, 'errors was 10%'],
      [true, undefined],
      [false, 'p99 was 5 ms (step "get" of workflow "wf")'],
      [false, 'workflow "other" did not run'],
      [false, 'step "none" of workflow "wf" did not run'],
    ]);
  });
});

describe('--threshold scopes with dots', () => {
  it('reads a.b as step b of workflow a, or as workflow a.b when only that one ran', () => {
    const latency = new SuiteLatency();
    latency.recordRun('a.arazzo.yaml', 'smoke.api', 10, true);
    latency.recordRun('a.arazzo.yaml', 'flow', 10, true);
    latency.recordStep('a.arazzo.yaml', 'flow', 'get', 5, true);
    expect(checkThresholds(parseThresholds(['smoke.api:count>=1', 'flow.get:count>=1', 'flow.none:count>=1']), latency, 1).map((v) => v.ok)).toEqual([true, true, false]);
  });
});

describe('load flags', () => {
  it('reads durations, rates and the default concurrency of an open model', () => {
    expect(parseDuration('--duration', '1.5m')).toBe(90_000);
    expect(parseDuration('--duration', '250ms')).toBe(250);
    expect(parseDuration('--duration', '30')).toBe(30_000);
    expect(parseRate('600/m')).toBe(10);
    expect(readLoadFlags({ rate: '20/s' }, {})).toMatchObject({ concurrency: 100, ratePerSecond: 20, load: true });
    expect(readLoadFlags({}, {})).toMatchObject({ concurrency: 1, load: false, shard: undefined });
  });

  it('takes a shard from the flag before the Indexed Job variables, and checks both', () => {
    expect(readLoadFlags({ shard: '2/4' }, { JOB_COMPLETION_INDEX: '0', TOOL_SHARD_TOTAL: '9' }).shard).toEqual({ index: 2, total: 4 });
    expect(readLoadFlags({}, { JOB_COMPLETION_INDEX: '3', TOOL_SHARD_TOTAL: '4' }).shard).toEqual({ index: 4, total: 4 });
    expect(() => readLoadFlags({}, { JOB_COMPLETION_INDEX: '4', TOOL_SHARD_TOTAL: '4' })).toThrow(/the shard must be from 1 to the number of shards/);
    expect(() => readLoadFlags({ shard: '0/3' }, {})).toThrow(/--shard 0\/3/);
    expect(() => readLoadFlags({ shard: 'half' }, {})).toThrow(/--shard must be i\/n/);
  });
});

describe('the streamed JSON summary', () => {
  const collect = () => {
    let text = '';
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    return { stream, text: () => text };
  };

  it('is one JSON object with no runs, and with several', () => {
    for (const count of [0, 1, 3]) {
      const out = collect();
      const summary = startSummary(out.stream);
      for (let i = 0; i < count; i++) summary.run({ workflowId: `w${i}`, status: 'passed' });
      summary.end({ passed: count, stats: { runs: { count } } });
      expect(JSON.parse(out.text())).toEqual({ runs: Array.from({ length: count }, (_, i) => ({ workflowId: `w${i}`, status: 'passed' })), passed: count, stats: { runs: { count } } });
    }
  });
});

describe('the progress bar', () => {
  it('fits a narrow terminal: without its graphic, then cut', () => {
    const full = barText({ done: 5, failed: 0 }, 1000, { total: 10 }, plain);
    const short = barText({ done: 5, failed: 0 }, 1000, {}, plain);
    expect(fitted(full, short, 120)).toBe(full);
    expect(fitted(full, short, 40)).toBe(short);
    expect(fitted(full, short, 10)).toBe(short.slice(0, 9));
    expect(fitted(full, short, undefined)).toBe(full);
  });

  it('fills against a count of runs or a duration, and shows the rate and the time', () => {
    expect(barText({ done: 50, failed: 2 }, 10_000, { total: 100 }, plain)).toBe(`[${'█'.repeat(12)}${'░'.repeat(12)}] 50/100 runs · 2 failed · 5/s · 0:10`);
    expect(barText({ done: 30, failed: 0 }, 15_000, { durationMs: 60_000 }, plain)).toBe(`[${'█'.repeat(6)}${'░'.repeat(18)}] 30 runs · 0 failed · 2/s · 0:15 of 1:00`);
    expect(barText({ done: 7, failed: 0 }, 3_725_000, {}, plain)).toBe('7 runs · 0 failed · 0/s · 1:02:05');
  });
});
